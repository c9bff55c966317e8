// Committed .save fixtures: the generator still writes them byte for byte, and they read as
// a save should. VOXKIT_UPDATE_FIXTURES=1 rewrites them after a deliberate generator change.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "formats/stationeers/world_xml.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

std::string fixture(const std::string& name) {
  return std::string(VOXKIT_SOURCE_DIR) + "/test_data/stationeers/" + name;
}

// A maxDepth 12 terrain.dat holding one unmodified leaf and no veins.
const Bytes kLoneLeaf = {12, 0, 0, 0, 0x01, 0x00, 0x00, 0, 0, 0, 0};

void check_or_update(const std::string& name, const Bytes& made) {
  if (const char* u = std::getenv("VOXKIT_UPDATE_FIXTURES"); u && std::string(u) == "1") {
    io::write_file(fixture(name), made, {.force = true});
  }
  CHECK(io::read_all(fixture(name)) == made);
}

}  // namespace

TEST_CASE("the committed small.save is what the generator writes", "[save][fixtures]") {
  save_synth::SaveOptions o;
  o.seed = 2026;
  check_or_update("small.save", save_synth::synth_save(kLoneLeaf, save_synth::synth_rooms(2026, 3, 12), o));
  auto s = io::read_all(fixture("small.save"));
  CHECK(save::read_member(s, "terrain.dat", 100) == kLoneLeaf);
  auto world = save::read_member(s, "world.xml", 1 << 20);
  std::string_view doc(reinterpret_cast<const char*>(world.data()), world.size());
  CHECK(world_xml::read_rooms(doc).size() >= 3);
  CHECK(world_xml::read_checksums(doc).size() == 64);
}

TEST_CASE("the committed server.save has no PNGs and no mod members", "[save][fixtures]") {
  save_synth::SaveOptions o;
  o.seed = 7;
  o.pngs = false;
  o.mod_members = false;
  o.max_depth = 11;
  const Bytes terrain = {11, 0, 0, 0, 0x03, 0xff, 0x02, 0, 0, 0, 0};
  check_or_update("server.save", save_synth::synth_save(terrain, save_synth::synth_rooms(7, 1, 11), o));
  auto m = save::list_members(fixture("server.save"));
  REQUIRE(m.size() == 3);
  CHECK(m[2].name == "terrain.dat");
}
