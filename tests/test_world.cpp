// Worlds in tiles: a tile zone baked from a window of the heightfield equals the same region
// of a whole bake bit for bit, its own chunks mesh exactly as the whole world's, the terrain
// checks name the tile, and manifests refuse what they do not know.
#include <tbb/global_control.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "formats/world/manifest.hpp"
#include "formats/world/plan.hpp"
#include "lib/bake/bake.hpp"
#include "lib/bake/world_grid.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/package_zone.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;

namespace {

// A rough random terrain: smooth hills plus noise, spacing and origin that are not multiples
// of the voxel size, so positions round differently in every frame.
Heightfield terrain(uint32_t w, uint32_t d, uint32_t seed) {
  Heightfield hf;
  hf.width = w;
  hf.depth = d;
  hf.dx = 0.7;
  hf.dz = 0.9;
  hf.origin_x = -3.1;
  hf.origin_z = 1.37;
  hf.heights.resize(size_t(w) * d);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> noise(-0.6f, 0.6f);
  for (uint32_t j = 0; j < d; ++j)
    for (uint32_t i = 0; i < w; ++i)
      hf.heights[i + size_t(w) * j] = float(8 + 4 * std::sin(i * 0.21) * std::cos(j * 0.17) + noise(rng));
  return hf;
}

// The samples of `hf` a tile's bake would read (as the windowed readers cut them).
Heightfield window_of(const Heightfield& hf, const std::array<double, 4>& r) {
  auto range = [](double a, double b, uint32_t n, uint32_t& lo, uint32_t& hi) {
    lo = uint32_t(std::clamp(std::floor(a) - 1, 0.0, double(n - 1)));
    hi = uint32_t(std::clamp(std::ceil(b) + 1, 0.0, double(n - 1)));
  };
  uint32_t i0, i1, j0, j1;
  range(hf.u_of(r[0]), hf.u_of(r[2]), hf.width, i0, i1);
  range(hf.v_of(r[1]), hf.v_of(r[3]), hf.depth, j0, j1);
  Heightfield w = hf;
  w.width = i1 - i0 + 1;
  w.depth = j1 - j0 + 1;
  w.first_i = i0;
  w.first_j = j0;
  w.source_width = hf.width;
  w.source_depth = hf.depth;
  w.heights.clear();
  for (uint32_t j = j0; j <= j1; ++j)
    for (uint32_t i = i0; i <= i1; ++i) w.heights.push_back(hf.at(i, j));
  return w;
}

WorldSpec spec_for(double voxel) {
  WorldSpec s;
  s.min = {0.5, -2.0, 3.3};
  s.max = {0.5 + 90 * voxel, 20.0, 3.3 + 70 * voxel};
  s.voxel_size = voxel;
  s.chunk_cells = 8;
  s.tile_chunks = 3;  // 24-cell tiles: the last column and row are partial
  return s;
}

}  // namespace

TEST_CASE("tile bakes equal the whole bake, samples and heights") {
  for (double voxel : {0.5, 0.37}) {
    const Heightfield hf = terrain(160, 130, 7);
    const WorldSpec s = spec_for(voxel);
    const WorldGrid w = plan_world(s);
    ZoneBoxSpec box;
    box.kind = ZoneBoxSpec::Kind::Box;
    box.min = s.min;
    box.max = s.max;
    box.voxel_size = voxel;
    box.chunk_cells = s.chunk_cells;
    const Zone whole = bake_zone(hf, box);
    REQUIRE(whole.meta.cells.nx == w.cells.nx);
    REQUIRE(whole.meta.cells.ny == w.cells.ny);
    REQUIRE(whole.meta.origin == w.origin);
    const Dims& g = whole.meta.cells;
    for (uint32_t j = 0; j < w.tiles_z(); ++j)
      for (uint32_t i = 0; i < w.tiles_x(); ++i) {
        const TileBox t = tile_box(w, i, j);
        const Zone tile = bake_tile(w, t, window_of(hf, tile_read_rect(w, t)));
        const Dims& c = tile.meta.cells;
        uint64_t diff = 0, hdiff = 0;
        for (uint32_t z = 0; z <= c.nz; ++z)
          for (uint32_t x = 0; x <= c.nx; ++x) {
            const uint32_t gx = x + t.zone_min[0], gz = z + t.zone_min[1];
            for (uint32_t y = 0; y <= c.ny; ++y)
              diff += tile.grid.data[c.index(x, y, z)] != whole.grid.data[g.index(gx, y, gz)];
            const float a = tile.height.values[x + size_t(c.sx()) * z];
            const float b = whole.height.values[gx + size_t(g.sx()) * gz];
            hdiff += std::memcmp(&a, &b, 4) != 0;
          }
        INFO("voxel " << voxel << " tile " << i << "," << j);
        CHECK(diff == 0);
        CHECK(hdiff == 0);
        CHECK(tile.baked.data == tile.grid.data);
      }
  }
}

TEST_CASE("tile chunks mesh as the whole world's chunks") {
  const Heightfield hf = terrain(160, 130, 11);
  const WorldSpec s = spec_for(0.5);
  const WorldGrid w = plan_world(s);
  ZoneBoxSpec box;
  box.kind = ZoneBoxSpec::Kind::Box;
  box.min = s.min;
  box.max = s.max;
  box.voxel_size = 0.5;
  box.chunk_cells = s.chunk_cells;
  const Zone whole = bake_zone(hf, box);
  package::ZoneMeshOptions zo;
  zo.chunk.chunk_cells = s.chunk_cells;
  zo.chunk.voxel_size = 0.5f;
  const auto all = package::build_zone(whole.grid, zo);
  size_t compared = 0;
  for (uint32_t j = 0; j < w.tiles_z(); ++j)
    for (uint32_t i = 0; i < w.tiles_x(); ++i) {
      const TileBox t = tile_box(w, i, j);
      const Zone tile = bake_tile(w, t, window_of(hf, tile_read_rect(w, t)));
      const auto first = t.own_chunk_first(w), count = t.own_chunk_count(w);
      const uint32_t cc = s.chunk_cells, cy = (w.cells.ny + cc - 1) / cc;
      std::vector<std::array<uint32_t, 3>> own;
      for (uint32_t z = 0; z < count[1]; ++z)
        for (uint32_t y = 0; y < cy; ++y)
          for (uint32_t x = 0; x < count[0]; ++x) own.push_back({first[0] + x, y, first[1] + z});
      const auto meshes = package::build_zone(tile.grid, zo, &own);
      const auto n = chunk_counts(whole.grid.cells, cc);
      for (const auto& m : meshes) {
        const uint32_t wx = m.chunk[0] + t.zone_min[0] / cc, wz = m.chunk[2] + t.zone_min[1] / cc;
        const auto& ref = all[wx + size_t(n[0]) * (m.chunk[1] + size_t(n[1]) * wz)];
        REQUIRE(ref.chunk == std::array<uint32_t, 3>{wx, m.chunk[1], wz});
        INFO("tile " << i << "," << j << " chunk " << wx << "," << m.chunk[1] << "," << wz);
        CHECK(m.mesh.positions == ref.mesh.positions);
        CHECK(m.mesh.normals == ref.mesh.normals);
        CHECK(m.mesh.indices == ref.mesh.indices);
        ++compared;
      }
    }
  CHECK(compared == all.size());
}

TEST_CASE("tile terrain checks name the tile and the box edge to move") {
  const Heightfield hf = terrain(160, 130, 3);
  WorldSpec s = spec_for(0.5);
  s.max[1] = 10.0;  // the hills reach 12.6 m
  const WorldGrid w = plan_world(s);
  const TileBox t = tile_box(w, 1, 1);
  try {
    bake_tile(w, t, window_of(hf, tile_read_rect(w, t)));
    FAIL("a box below the terrain was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Usage);
    CHECK_THAT(e.what(), Catch::Contains("tile 1,1") && Catch::Contains("raise it"));
  }
  CHECK_THROWS_WITH(tile_box(w, 99, 0), Catch::Contains("outside the world"));
  WorldSpec bad = s;
  bad.max[0] = bad.min[0];
  CHECK_THROWS_WITH(plan_world(bad), Catch::Contains("empty along x"));
}

TEST_CASE("world manifests refuse unknown keys and wrong types with their line") {
  const auto dir = std::filesystem::temp_directory_path() / "voxkit_world_manifest";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& text) {
    const auto p = (dir / "m.toml").string();
    std::ofstream(p) << text;
    return p;
  };
  const std::string ok =
      "[world]\nmin = [0, 0, 0]\nmax = [64, 32, 64]\nvoxel_size = 1.0\n[terrain]\nheight = \"h.tif\"\n";
  const auto m = world::read_world_manifest(write(ok));
  CHECK(m.spec.voxel_size == 1.0);
  CHECK(m.height == (dir / "h.tif").string());
  CHECK_THROWS_WITH(world::read_manifest(write(ok + "[mesh]\nfromat = \"glb\"\n")),
                    Catch::Contains("line 8") && Catch::Contains("unknown key mesh.fromat"));
  CHECK_THROWS_WITH(world::read_manifest(write("[world]\nmin = [0, 0]\n")), Catch::Contains("world.min"));
  CHECK_THROWS_WITH(world::read_manifest(write("[terrain]\nheight = \"h.tif\"\n")), Catch::Contains("no [world]"));
  CHECK_THROWS_WITH(world::read_manifest(write("[world\n")), Catch::Contains("not valid TOML"));
  CHECK_THROWS_WITH(world::read_manifest(write(ok + "[mesh]\nformat = \"dae\"\n")), Catch::Contains("unknown format"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("plan command lines quote what the shell would split") {
  CHECK(world::shell_line({"voxkit", "tile", "bake", "a b.toml", "--tile", "1,2"}) ==
        "voxkit tile bake 'a b.toml' --tile 1,2");
  CHECK(world::shell_line({"it's"}) == "'it'\\''s'");
}
