// Tests of `voxkit mesh` over zone files and Unity dig-zone assets: run through the binary,
// loaded back through Assimp, compared with the library's own mesh of the zone.
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>

#include "formats/mesh/mesh_input.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;

namespace {

Zone painted_zone() {
  Zone z;
  z.meta.cells = {40, 20, 36};
  z.meta.voxel_size = 0.5;
  z.meta.origin = {100.0, -4.0, 50.0};
  z.meta.chunk_cells = 16;
  z.meta.hole = {104.0, 54.0, 110.0, 60.0};
  z.meta.layer_names = {"Grass", "Rock", "Sand"};
  z.grid = test::terrain_grid(z.meta.cells, 11);
  z.baked = z.grid;
  z.paint = ByteGrid(z.meta.cells, 0);
  for (size_t i = 0; i < z.paint.data.size(); ++i) z.paint.data[i] = uint8_t(1 + (i / 7) % 3);
  // A dig in the current grid only.
  for (uint32_t x = 10; x < 20; ++x)
    for (uint32_t y = 0; y <= z.meta.cells.ny; ++y)
      for (uint32_t zz = 10; zz < 20; ++zz) z.grid.at(x, y, zz) = 255, z.paint.at(x, y, zz) = 5;
  return z;
}

// The exit code of `voxkit -q ARGS` (std::system returns the wait status).
int run_voxkit(const std::string& args) {
  const int status = std::system((std::string(VOXKIT_BINARY) + " -q " + args).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<uint8_t> slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

struct Loaded {
  uint64_t vertices = 0, triangles = 0;
  bool colors = true, uv0 = true;
  std::array<double, 3> min{1e300, 1e300, 1e300}, max{-1e300, -1e300, -1e300};
};

Loaded load(const std::string& path) {
  Assimp::Importer imp;
  const aiScene* s = imp.ReadFile(path, 0);
  INFO(imp.GetErrorString());
  REQUIRE(s);
  Loaded l;
  for (unsigned m = 0; m < s->mNumMeshes; ++m) {
    const aiMesh* mesh = s->mMeshes[m];
    l.vertices += mesh->mNumVertices;
    l.triangles += mesh->mNumFaces;
    l.colors = l.colors && mesh->HasVertexColors(0);
    l.uv0 = l.uv0 && mesh->HasTextureCoords(0);
    for (unsigned v = 0; v < mesh->mNumVertices; ++v)
      for (int a = 0; a < 3; ++a) {
        l.min[a] = std::min(l.min[a], double(mesh->mVertices[v][a]));
        l.max[a] = std::max(l.max[a], double(mesh->mVertices[v][a]));
      }
  }
  return l;
}

// The library's mesh of a grid with the zone's chunk cells and paint, its bounds in world
// metres converted to right-handed (x negated).
Loaded library_mesh(const Zone& z, const ByteGrid& g, bool paint) {
  MeshOptions o;
  o.chunk_cells = z.meta.chunk_cells;
  if (paint) o.paint = PaintInput{&z.paint, uint32_t(z.meta.layer_names.size())};
  Loaded l;
  for (const auto& c : mesh_chunks(g, o)) {
    // The export drops vertices no triangle uses (vertex order optimisation).
    std::vector<bool> used(c.mesh.vertex_count(), false);
    for (uint32_t i : c.mesh.indices) used[i] = true;
    l.vertices += uint64_t(std::count(used.begin(), used.end(), true));
    l.triangles += c.mesh.triangle_count();
    for (size_t v = 0; v < c.mesh.vertex_count(); ++v) {
      if (!used[v]) continue;
      const auto& p = c.mesh.positions[v];
      auto w = z.meta.world(p[0], p[1], p[2]);
      w[0] = -w[0];
      for (int a = 0; a < 3; ++a) l.min[a] = std::min(l.min[a], w[a]), l.max[a] = std::max(l.max[a], w[a]);
    }
  }
  return l;
}

void same_bounds(const Loaded& a, const Loaded& b) {
  for (int i = 0; i < 3; ++i) {
    CHECK(a.min[i] == Approx(b.min[i]).margin(1e-3));
    CHECK(a.max[i] == Approx(b.max[i]).margin(1e-3));
  }
}

}  // namespace

TEST_CASE("mesh of a zone file matches the library's mesh of its current grid, painted, in world metres") {
  test::TempDir t;
  Zone z = painted_zone();
  write_zone_file(t.file("z.vxz"), z);
  REQUIRE(run_voxkit("mesh --iso " + t.file("z.vxz") + " -o " + t.file("z.glb")) == 0);
  Loaded got = load(t.file("z.glb"));
  Loaded want = library_mesh(z, z.grid, true);
  REQUIRE(want.triangles > 0);
  CHECK(got.vertices == want.vertices);
  CHECK(got.triangles == want.triangles);
  CHECK(got.colors);
  CHECK(got.uv0);
  same_bounds(got, want);
}

TEST_CASE("mesh --grid baked meshes a zone's baked grid") {
  test::TempDir t;
  Zone z = painted_zone();
  write_zone_file(t.file("z.vxz"), z);
  REQUIRE(run_voxkit("mesh --iso " + t.file("z.vxz") + " --grid baked -o " + t.file("b.glb")) == 0);
  Loaded got = load(t.file("b.glb"));
  Loaded want = library_mesh(z, z.baked, false);
  CHECK(got.vertices == want.vertices);
  CHECK(got.triangles == want.triangles);
  same_bounds(got, want);
}

TEST_CASE("mesh --clip-hole on a zone cuts to the zone's own hole") {
  test::TempDir t;
  Zone z = painted_zone();
  write_zone_file(t.file("z.vxz"), z);
  REQUIRE(run_voxkit("mesh --iso " + t.file("z.vxz") + " --clip-hole=0 -o " + t.file("h.glb")) == 0);
  Loaded got = load(t.file("h.glb"));
  REQUIRE(got.triangles > 0);
  // x is negated in the file.
  CHECK(-got.max[0] >= z.meta.hole.min_x - 1e-3);
  CHECK(-got.min[0] <= z.meta.hole.max_x + 1e-3);
  CHECK(got.min[2] >= z.meta.hole.min_z - 1e-3);
  CHECK(got.max[2] <= z.meta.hole.max_z + 1e-3);
  CHECK(got.triangles < library_mesh(z, z.grid, true).triangles);
}

TEST_CASE("a zone meshes with the package's mesher and lightmap UVs by default, --iso and --merge with voxkit's") {
  test::TempDir t;
  write_zone_file(t.file("z.vxz"), painted_zone());
  auto report = [&](const std::string& args) {
    REQUIRE(run_voxkit("mesh " + t.file("z.vxz") + " -o " + t.file("m.glb") + " -f --json " + args + " > " +
                       t.file("m.json")) == 0);
    std::ifstream js(t.file("m.json"));
    return nlohmann::json::parse(js);
  };
  auto j = report("");
  CHECK(j["mesher"] == "package");
  REQUIRE(j["lightmap"].is_object());
  CHECK(j["lightmap"]["size"] == 1024);
  CHECK(j["lightmap"]["meshes"] == j["meshes"]);
  CHECK(j["lightmap"]["area_distortion"]["max"].get<double>() >= 0);
  Assimp::Importer imp;
  const aiScene* s = imp.ReadFile(t.file("m.glb"), 0);
  REQUIRE(s);
  for (unsigned m = 0; m < s->mNumMeshes; ++m) {
    REQUIRE(s->mMeshes[m]->HasTextureCoords(1));
    for (unsigned v = 0; v < s->mMeshes[m]->mNumVertices; ++v) {
      const aiVector3D uv = s->mMeshes[m]->mTextureCoords[1][v];
      CHECK((uv.x >= 0 && uv.x <= 1 && uv.y >= 0 && uv.y <= 1));
    }
  }
  j = report("--lightmap-size 256");
  CHECK(j["lightmap"]["size"] == 256);
  j = report("--no-lightmap-uv");
  CHECK(j["mesher"] == "package");
  CHECK(j["lightmap"].is_null());
  j = report("--iso");
  CHECK(j["mesher"] == "surface-nets");
  CHECK(j["lightmap"].is_null());
  j = report("--iso --lightmap-size 512");
  CHECK(j["lightmap"]["size"] == 512);
  j = report("--merge");
  CHECK(j["mesher"] == "surface-nets");
  CHECK(j["meshes"] == 1);
  CHECK(run_voxkit("mesh " + t.file("z.vxz") + " -o " + t.file("m.obj") + " --lightmap-size 256 2>/dev/null") == 2);
  CHECK(run_voxkit("mesh " + t.file("z.vxz") + " -o " + t.file("m.obj") + " -f 2>/dev/null") == 0);
}

TEST_CASE("mesh of a zone is byte-identical for one and two threads") {
  test::TempDir t;
  write_zone_file(t.file("z.vxz"), painted_zone());
  REQUIRE(run_voxkit("-j 1 mesh " + t.file("z.vxz") + " -o " + t.file("j1.glb")) == 0);
  REQUIRE(run_voxkit("-j 2 mesh " + t.file("z.vxz") + " -o " + t.file("j2.glb")) == 0);
  CHECK(slurp(t.file("j1.glb")) == slurp(t.file("j2.glb")));
}

TEST_CASE("mesh input detection: zone by magic, Unity asset by its YAML, forced kinds checked") {
  test::TempDir t;
  write_zone_file(t.file("z.bin"), painted_zone());
  MeshInputOptions o;
  MeshSource s = read_mesh_input(t.file("z.bin"), o);
  CHECK(s.kind == "zone file (current grid)");
  CHECK(s.layer_count == 3);
  CHECK(s.chunk_cells == 16);
  REQUIRE(s.hole);
  CHECK(s.hole->min_x == 104.0);
  o.kind = InputKind::Unity;
  CHECK_THROWS_AS(read_mesh_input(t.file("z.bin"), o), Error);
  MeshInputOptions u;
  MeshSource a = read_mesh_input(std::string(VOXKIT_SOURCE_DIR) + "/test_data/unity/quarry.asset", u);
  CHECK(a.kind == "unity dig-zone asset (current grid)");
  MeshInputOptions bad;
  bad.grid = ZoneGrid::Baked;
  bad.cells = Dims{40, 20, 36};
  CHECK_THROWS_AS(read_mesh_input(t.file("z.bin"), bad), Error);
}

TEST_CASE("a baked demo terrain meshes, and its counts round trip through Assimp") {
  test::TempDir t;
  const std::string dem = std::string(VOXKIT_SOURCE_DIR) + "/test_data/dem/jacksboro_crop.tif";
  REQUIRE(run_voxkit("bake " + dem + " -o " + t.file("d.vxz") +
                     " --center 7500,0,7500 --size 96,40,96 --voxel-size 2") == 0);
  REQUIRE(run_voxkit("mesh --iso " + t.file("d.vxz") + " -o " + t.file("d.glb") + " --json > " + t.file("d.json")) == 0);
  std::ifstream js(t.file("d.json"));
  auto j = nlohmann::json::parse(js);
  Loaded got = load(t.file("d.glb"));
  REQUIRE(got.triangles > 0);
  CHECK(got.vertices == j["vertices"].get<uint64_t>());
  CHECK(got.triangles == j["triangles"].get<uint64_t>());
  Zone z = read_zone_file(t.file("d.vxz"));
  Loaded want = library_mesh(z, z.grid, !z.paint.data.empty());
  CHECK(got.vertices == want.vertices);
  CHECK(got.triangles == want.triangles);
  same_bounds(got, want);
}
