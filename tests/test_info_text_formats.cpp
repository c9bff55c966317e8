// `info` identification of the text formats: each file is claimed by its own describer only
// (the registry's order and the rule that a loose format claims a file only when it reads
// whole), and mesh describers refuse damage with the offset.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "formats/core/identify.hpp"
#include "formats/mesh/mesh_info.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;

namespace {

std::string format_of(const std::string& text, const std::string& name) {
  const std::vector<uint8_t> b(text.begin(), text.end());
  const auto d = identify::identify(b, name);
  return d ? d->format : "(none)";
}

}  // namespace

TEST_CASE("info: each text format is claimed by its own describer", "[identify]") {
  struct Case {
    std::string text, name, format;
  };
  const std::vector<Case> cases = {
      {"0x0018020001400200\nreset\n0x000C028001900140\n", "e.txt", "edit-log"},
      {"[\"0x0018020001400200\"]", "e.json", "edit-log"},
      {"x,y,z,radius,amount\n1,2,3,1.5,0.5\n", "h.csv", "melt-hits"},
      {"[{\"x\":1,\"y\":2,\"z\":3,\"radius\":1,\"amount\":1}]", "h.json", "melt-hits"},
      {"16,2,16\nclear\n80,2,16,40\n", "p.csv", "camera-path"},
      {"x,y,z\n1,2,3\n", "p.csv", "camera-path"},  // also a tree list: the camera path comes first
      {"x,y,z,prototype\n1,2,3,0\n", "t.csv", "foliage-list"},
      {"x,z,rotation\n1,2,30\n", "d.csv", "foliage-list"},
      {"[{\"position\":[1,2,3],\"normal\":[0,1,0]}]", "s.json", "foliage-list"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "m.txt", "obj"},
      {"solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
       "endsolid a\n",
       "m.txt", "stl"},
      {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
       "end_header\n1 2 3\n",
       "m.dat", "ply"},
      {"{\"asset\":{\"version\":\"2.0\"}}", "m.json", "gltf"},
      {"[world]\nname = \"w\"\n", "w.toml", "(none)"},  // not a whole manifest, and not an error: see below
      {"# only a comment\n", "c.txt", "(none)"},
      {"1,2\n", "c.csv", "(none)"},
      {"[]", "e.json", "(none)"},
  };
  for (const auto& c : cases) {
    INFO(c.name << ": " << c.text);
    if (c.name == "w.toml") {
      // A .toml file with a [world] table that does not read is a damaged manifest.
      const std::vector<uint8_t> b(c.text.begin(), c.text.end());
      CHECK_THROWS_AS(identify::identify(b, c.name), Error);
      continue;
    }
    CHECK(format_of(c.text, c.name) == c.format);
  }
}

TEST_CASE("info: damaged meshes are data errors with their offset", "[identify]") {
  const std::string glb_head = std::string("glTF") + std::string("\x02\x00\x00\x00", 4) + std::string("\x40\x00\x00\x00", 4);
  std::vector<uint8_t> glb(glb_head.begin(), glb_head.end());
  glb.resize(24, 0);
  try {
    (void)mesh_info::describe_glb(glb, "x.glb");
    FAIL("a GLB whose length is not its size was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Data);
    CHECK(e.offset() == 8u);
  }
  const std::string stl(84, 'a');  // 84 bytes whose count is not 0
  const std::vector<uint8_t> sb(stl.begin(), stl.end());
  CHECK_THROWS_AS(mesh_info::describe_stl(sb, "x.stl"), Error);
  CHECK_FALSE(mesh_info::describe_stl(sb, "x.bin"));
  const std::string obj = "v 0 0 0\nf 1 1 x\n";
  const std::vector<uint8_t> ob(obj.begin(), obj.end());
  CHECK_THROWS_AS(mesh_info::describe_obj(ob, "x.obj"), Error);
  CHECK_FALSE(mesh_info::describe_obj(ob, "x.txt"));
}
