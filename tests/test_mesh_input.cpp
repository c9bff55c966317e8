// Mesh inputs and the mesh pipeline: raw grids in each convention, region grids and closed
// lists, ice modules with closed caves, and real chunk meshes through clip, merge and export.
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>

#include "formats/mesh/mesh_input.hpp"
#include "formats/mesh/mesh_job.hpp"
#include "formats/zone/region_grid.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh_clip.hpp"
#include "lib/mesh/mesh_ops.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;

namespace {

void write(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), long(b.size()));
}

// An ice block with a closed spherical pocket (and air above y = 14).
ByteGrid ice_with_pocket(Dims cells) {
  ByteGrid g(cells, 255);
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y < g.cells.sy(); ++y)
      for (uint64_t x = 0; x < g.cells.sx(); ++x) {
        double d = std::hypot(double(x) - 8, double(y) - 6, double(z) - 8);
        if (d < 3.5 || y > 14) g.at(x, y, z) = 0;
      }
  return g;
}

}  // namespace

TEST_CASE("mesh input reads raw grids in the sdf, ice and sm conventions", "[mesh-input]") {
  test::TempDir dir;
  Dims cells{3, 2, 4};
  auto bytes = test::random_bytes(cells.samples(), 5);
  write(dir.file("g.raw"), bytes);
  MeshInputOptions o;
  o.cells = cells;
  auto sdf = read_mesh_input(dir.file("g.raw"), o);
  CHECK(sdf.sdf.data == bytes);
  CHECK(sdf.voxel_size == 1.0);
  o.convention = Convention::Ice;
  auto ice = read_mesh_input(dir.file("g.raw"), o);
  for (size_t i = 0; i < bytes.size(); ++i) CHECK(ice.sdf.data[i] == ice_to_sdf(bytes[i]));
  o.convention = Convention::Sm;
  o.voxel_size = 0.25;
  o.origin = std::array<double, 3>{1, 2, 3};
  auto sm = read_mesh_input(dir.file("g.raw"), o);
  for (size_t i = 0; i < bytes.size(); ++i) CHECK(sm.sdf.data[i] == sm_density_to_sdf(bytes[i] & 63));
  CHECK(sm.voxel_size == 0.25);
  CHECK(sm.origin[2] == 3);
}

TEST_CASE("mesh input rejects sizes that do not match and options that do not apply", "[mesh-input]") {
  test::TempDir dir;
  write(dir.file("g.raw"), std::vector<uint8_t>(10, 1));
  MeshInputOptions o;
  auto e = test::thrown_error([&] { read_mesh_input(dir.file("g.raw"), o); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("give the cells NX,NY,NZ"));
  CHECK(e->has_hint("cells"));
  o.cells = Dims{2, 2, 2};
  e = test::thrown_error([&] { read_mesh_input(dir.file("g.raw"), o); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("g.raw: raw grid size does not match the cells (expected 27 bytes, found 10 bytes)"));
  CHECK(e->has_hint("cells"));
  o.cells = Dims{1, 1, 0};
  CHECK_THROWS_AS(read_mesh_input(dir.file("g.raw"), o), Error);
  o.cells = Dims{1, 1, 1};
  o.closed = {3};
  CHECK_THROWS_WITH(read_mesh_input(dir.file("g.raw"), o), Catch::Contains("ice modules"));
  o.convention = Convention::Ice;
  write(dir.file("g8.raw"), std::vector<uint8_t>(8, 1));
  e = test::thrown_error([&] { read_mesh_input(dir.file("g8.raw"), o); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("closed regions need the region grid"));
  CHECK(e->has_hint("regions"));
}

TEST_CASE("region grids are uint16 little-endian per point and round trip", "[mesh-input]") {
  Dims cells{1, 1, 1};
  std::vector<uint8_t> b = {1, 0, 2, 0, 0, 1, 0, 0, 0xff, 0xff, 0, 0, 3, 0, 0, 0};
  RegionGrid g = decode_region_grid(b, cells);
  CHECK(g.ids == std::vector<uint16_t>{1, 2, 256, 0, 65535, 0, 3, 0});
  CHECK(encode_region_grid(g) == b);
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + long(n));
    CHECK_THROWS_WITH(decode_region_grid(cut, cells), Catch::Contains("expected 16 bytes"));
  }
  b.push_back(0);
  CHECK_THROWS_AS(decode_region_grid(b, cells), Error);
}

TEST_CASE("closed-region lists parse ids, comments and reject bad tokens with their offset", "[mesh-input]") {
  CHECK(parse_region_list("3,5,7") == std::vector<uint16_t>{3, 5, 7});
  CHECK(parse_region_list("7\n3 # the big one\n5,3\r\n") == std::vector<uint16_t>{3, 5, 7});
  CHECK(parse_region_list("").empty());
  CHECK(format_region_list(std::vector<uint16_t>{2, 9}) == "2\n9\n");
  CHECK_THROWS_WITH(parse_region_list("2, x7"), Catch::Contains("offset 3: bad region id"));
  CHECK_THROWS_WITH(parse_region_list("0"), Catch::Contains("1..65535"));
  CHECK_THROWS_WITH(parse_region_list("65536"), Catch::Contains("'65536'"));
  CHECK_THROWS_AS(parse_region_list("4-5"), Error);
  CHECK_THROWS_AS(parse_region_list("99999999999999999999"), Error);
}

TEST_CASE("an ice module meshes its closed pocket only while it is open", "[mesh-input]") {
  test::TempDir dir;
  Dims cells{16, 16, 16};
  ByteGrid ice = ice_with_pocket(cells);
  write(dir.file("m.bin"), ice.data);
  CaveLabels labels = label_caves(ice);
  auto closed = labels.closed_ids();
  REQUIRE(closed.size() == 1);
  write(dir.file("r.bin"), encode_region_grid(labels.regions));

  MeshInputOptions o;
  o.cells = cells;
  o.convention = Convention::Ice;
  o.regions_path = dir.file("r.bin");
  MeshJob job;
  auto open = run_mesh_job(read_mesh_input(dir.file("m.bin"), o), job);
  o.closed = closed;
  auto shut = run_mesh_job(read_mesh_input(dir.file("m.bin"), o), job);
  CHECK(shut.lods[0].triangles > 0);
  CHECK(shut.lods[0].triangles < open.lods[0].triangles);
}

TEST_CASE("merged chunk meshes weld into the whole-grid mesh's vertex count", "[mesh-input]") {
  ByteGrid g = test::terrain_grid({48, 20, 40}, 3);
  MeshOptions mo;
  mo.chunk_cells = 16;
  auto chunks = mesh_chunks(g, mo);
  REQUIRE(chunks.size() > 4);
  std::vector<const Mesh*> parts;
  size_t sum_v = 0, sum_t = 0;
  for (const auto& c : chunks) {
    parts.push_back(&c.mesh);
    sum_v += c.mesh.vertex_count();
    sum_t += c.mesh.triangle_count();
  }
  Mesh merged = merge_meshes(parts);
  Mesh whole = mesh_whole(g, mo);
  CHECK(merged.triangle_count() == sum_t);
  CHECK(merged.vertex_count() < sum_v);
  CHECK(merged.vertex_count() == whole.vertex_count());
  CHECK(merged.triangle_count() == whole.triangle_count());
  // Welded: no edge is used by more than two triangles, and inner edges by exactly two.
  std::map<std::pair<uint32_t, uint32_t>, int> use;
  for (size_t i = 0; i < merged.indices.size(); i += 3)
    for (int k = 0; k < 3; ++k) {
      uint32_t a = merged.indices[i + k], b = merged.indices[i + (k + 1) % 3];
      use[{std::min(a, b), std::max(a, b)}]++;
    }
  size_t open_edges = 0;
  for (const auto& [e, n] : use) {
    CHECK(n <= 2);
    open_edges += n == 1;
  }
  // Only the grid's outer boundary stays open: a terrain sheet's rim.
  CHECK(open_edges < use.size() / 10);
}

TEST_CASE("clipping chunk meshes keeps the borders they share welded", "[mesh-input]") {
  ByteGrid g = test::terrain_grid({48, 20, 40}, 4);
  MeshOptions mo;
  auto chunks = mesh_chunks(g, mo);
  ClipRect r{5.3, 7.1, 37.9, 30.45};
  std::vector<Mesh> clipped;
  for (const auto& c : chunks) clipped.push_back(clip_mesh(c.mesh, r));
  std::vector<const Mesh*> parts;
  for (const auto& m : clipped) parts.push_back(&m);
  Mesh merged = merge_meshes(parts);
  Mesh whole = clip_mesh(mesh_whole(g, mo), r);
  CHECK(merged.vertex_count() == whole.vertex_count());
  CHECK(merged.triangle_count() == whole.triangle_count());
}

TEST_CASE("a synthetic zone's chunk meshes load back through Assimp with the same counts", "[mesh-input]") {
  MeshSource src;
  src.kind = "synthetic zone";
  src.sdf = test::terrain_grid({40, 24, 36}, 9);
  src.voxel_size = 0.5;
  src.origin = {-10, 2, 7};
  src.hole = HoleRect{-6, 9, 4, 20};
  for (MeshFormat f : {MeshFormat::Glb, MeshFormat::Gltf, MeshFormat::Obj, MeshFormat::Fbx}) {
    for (bool clip : {false, true}) {
      MeshJob job;
      job.format = f;
      if (clip) job.clip_overlap = 0.1;
      auto r = run_mesh_job(src, job);
      Assimp::Importer imp;
      unsigned flags = f == MeshFormat::Obj || f == MeshFormat::Fbx ? unsigned(aiProcess_JoinIdenticalVertices) : 0u;
      std::string hint(mesh_format_name(f));
      const aiScene* s = imp.ReadFileFromMemory(r.bytes.data(), r.bytes.size(), flags, hint.c_str());
      INFO("format " << hint << (clip ? " clipped" : ""));
      REQUIRE(s);
      uint64_t v = 0, t = 0;
      for (unsigned i = 0; i < s->mNumMeshes; ++i) {
        v += s->mMeshes[i]->mNumVertices;
        t += s->mMeshes[i]->mNumFaces;
      }
      CHECK(s->mNumMeshes == r.meshes);
      CHECK(t == r.lods[0].triangles);
      CHECK(v == r.lods[0].vertices);
      if (clip) CHECK(r.chunks_exported < r.chunks_meshed);
    }
  }
}

TEST_CASE("LOD nodes carry fewer triangles and the job counts them", "[mesh-input]") {
  MeshSource src;
  src.sdf = test::terrain_grid({32, 16, 32}, 2);
  MeshJob job;
  job.lods = {0.5, 0.25};
  auto r = run_mesh_job(src, job);
  REQUIRE(r.lods.size() == 3);
  CHECK(r.lods[1].triangles < r.lods[0].triangles);
  CHECK(r.lods[2].triangles <= r.lods[1].triangles);
  Assimp::Importer imp;
  const aiScene* s = imp.ReadFileFromMemory(r.bytes.data(), r.bytes.size(), 0, "glb");
  REQUIRE(s);
  CHECK(s->mNumMeshes == 3 * r.meshes);
}

TEST_CASE("a Scrap Mechanic chunk in any form becomes a 16^3-cell SDF grid", "[mesh-input]") {
  test::TempDir dir;
  sm::Chunk c{};
  // A floor: density 63 (inside) below y = 6, 0 above; one marked voxel to pin the layout.
  for (size_t x = 0; x < 17; ++x)
    for (size_t y = 0; y < 17; ++y)
      for (size_t z = 0; z < 17; ++z) c[sm::voxel_index(x, y, z)] = sm_pack(1, y < 6 ? 63 : 0);
  c[sm::voxel_index(3, 10, 12)] = sm_pack(2, 40);
  MeshInputOptions o;
  o.convention = Convention::Sm;
  for (sm::Form f : {sm::Form::B64, sm::Form::Lua, sm::Form::Bin}) {
    write(dir.file("c"), sm::encode(c, f));
    MeshSource src = read_mesh_input(dir.file("c"), o);
    CHECK(src.sdf.cells == Dims{16, 16, 16});
    CHECK(src.sdf.at(3, 10, 12) == sm_density_to_sdf(40));
    CHECK(src.sdf.at(12, 10, 3) == sm_density_to_sdf(0));
    CHECK(src.sdf.at(0, 0, 0) == sm_density_to_sdf(63));
    CHECK(src.kind.find(sm::form_name(f)) != std::string::npos);
    auto r = run_mesh_job(src, MeshJob{});
    CHECK(r.lods[0].triangles >= 2 * 15 * 15);  // the floor: a quad per inner crossing edge
  }
  write(dir.file("bad"), std::vector<uint8_t>{'{', '1', ','});
  CHECK_THROWS_WITH(read_mesh_input(dir.file("bad"), o), Catch::Contains("bad"));
}
