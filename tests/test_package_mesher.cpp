// The package's chunk mesher: hand-derived vertices of a flat floor (crossings, the mean,
// the normal, the halo, the vertex order), byte 128 as air, the quad split on a tie and the
// winding, paint attributes in their three cases, the hole cut (inside, shared cut vertices,
// renumbering by first use, the early out) and the clip box; editor and player arithmetic.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>

#include "lib/mesh/package_mesher.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
namespace pk = voxkit::package;

namespace {

// Samples at y <= floor are `below`, above it `above`.
ByteGrid floor_grid(Dims c, uint32_t floor, uint8_t below, uint8_t above) {
  ByteGrid g(c, above);
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y <= floor; ++y)
      for (uint64_t x = 0; x < g.cells.sx(); ++x) g.at(x, y, z) = below;
  return g;
}

std::array<float, 3> cross(const std::array<float, 3>& a, const std::array<float, 3>& b, const std::array<float, 3>& c) {
  const float ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2], vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  return {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
}

}  // namespace

TEST_CASE("package mesher: a flat floor, vertex by vertex", "[package-mesher]") {
  // Bytes 64 (solid) up to y = 1, 192 (air) above: each y edge crosses at t = -64 / -128 = 0.5.
  const ByteGrid g = floor_grid({4, 4, 4}, 1, 64, 192);
  pk::Options o;
  o.chunk_cells = 4;
  o.voxel_size = 0.5f;
  const pk::ChunkMesh m = pk::build_chunk(g, {0, 0, 0}, o);
  // Cells x, z = 0..3 (the -1 halo is off the grid), y = 1: 16 vertices, z then x order.
  REQUIRE(m.positions.size() == 16);
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t x = 0; x < 4; ++x) {
      const auto& p = m.positions[x + 4 * z];
      CHECK(p == std::array<float, 3>{(float(x) + 0.5f) * 0.5f, 0.75f, (float(z) + 0.5f) * 0.5f});
      CHECK(m.normals[x + 4 * z] == std::array<float, 3>{0, 1, 0});
    }
  // Quads on the +y edges of the cells with x, z >= 1: 9 quads, 18 triangles.
  REQUIRE(m.indices.size() == 54);
  // A tie between the diagonals takes the main one: (c00, c10, c11), (c00, c11, c01) for
  // cell (1, 1, 1): c00 = (0, z0), c10 = (0, z1), c11 = (1, z1), c01 = (1, z0).
  CHECK(std::vector<uint32_t>(m.indices.begin(), m.indices.begin() + 6) == std::vector<uint32_t>{0, 4, 5, 0, 5, 1});
  // Winding: the cross product of every triangle points into the air (+y).
  for (size_t t = 0; t < m.indices.size(); t += 3) {
    const auto c = cross(m.positions[m.indices[t]], m.positions[m.indices[t + 1]], m.positions[m.indices[t + 2]]);
    CHECK(c[1] > 0);
  }
  CHECK(m.index16());
  // No paint grid: colours and uv0 are zero.
  for (const auto& u : m.uv0) CHECK(u == std::array<float, 2>{0, 0});
}

TEST_CASE("package mesher: byte 128 is air, the -1 halo, chunk frames", "[package-mesher]") {
  // Sample y = 0 solid (0), y >= 1 exactly 128: the crossing is at t = -128 / -128 = 1, at y = 1.
  ByteGrid g = floor_grid({8, 4, 8}, 0, 0, 128);
  pk::Options o;
  o.chunk_cells = 4;
  o.voxel_size = 0.25f;
  const pk::ChunkMesh m = pk::build_chunk(g, {1, 0, 1}, o);
  // Chunk (1, 0, 1): cells x, z = -1..3 local (the halo at -1 exists inside the grid): 25.
  REQUIRE(m.positions.size() == 25);
  CHECK(m.positions[0] == std::array<float, 3>{-0.5f * 0.25f, 0.25f, -0.5f * 0.25f});
  for (const auto& p : m.positions) CHECK(p[1] == 0.25f);
  // Owned cells 0..3 with their -1 neighbours: 16 quads.
  CHECK(m.indices.size() == 16 * 6);
}

TEST_CASE("package mesher: the three paint cases", "[package-mesher]") {
  const ByteGrid g = floor_grid({4, 4, 4}, 1, 64, 192);
  ByteGrid paint(g.cells, 0);
  pk::Options o;
  o.chunk_cells = 4;
  o.paint = &paint;
  {
    const auto m = pk::build_chunk(g, {0, 0, 0}, o);  // a paint grid, nothing painted: uv0.y = 1
    for (const auto& u : m.uv0) CHECK(u == std::array<float, 2>{0, 1});
  }
  // Layer 2 (paint value 3) at sample (1, 1, 1), dug soil (5) at (2, 2, 2).
  paint.at(1, 1, 1) = 3;
  paint.at(2, 2, 2) = 5;
  const auto m = pk::build_chunk(g, {0, 0, 0}, o);
  // Slot 0 holds layer 2: uv0.y = 1 + 2.
  for (const auto& u : m.uv0) CHECK(u[1] == 3.0f);
  // The vertex of cell (1, 1, 1) sits at the cell's centre in x and z, half way up: every
  // corner weighs 1/8, so slot 0 gets 1/8 from corner (1, 1, 1).
  CHECK(m.colors[1 + 4 * 1] == std::array<float, 4>{0.125f, 0, 0, 0});
  // Its corner (2, 2, 2) is dug soil: 1/8 in uv0.x; so is a corner of cell (2, 1, 2).
  CHECK(m.uv0[1 + 4 * 1][0] == 0.125f);
  CHECK(m.uv0[2 + 4 * 2][0] == 0.125f);
  // Cell (3, 1, 3) touches neither.
  CHECK(m.uv0[3 + 4 * 3][0] == 0.0f);
  CHECK(m.colors[3 + 4 * 3] == std::array<float, 4>{0, 0, 0, 0});
}

TEST_CASE("package mesher: the hole cut", "[package-mesher]") {
  const ByteGrid g = test::terrain_grid({16, 12, 16}, 3);
  pk::Options o;
  o.chunk_cells = 16;
  o.voxel_size = 0.5f;
  const pk::ChunkMesh full = pk::build_chunk(g, {0, 0, 0}, o);
  REQUIRE(!full.empty());
  {  // A box around everything: nothing changes, not even the order.
    pk::ChunkMesh m = full;
    pk::clip_xz(m, -10, -10, 20, 20, true);
    CHECK(m.positions == full.positions);
    CHECK(m.indices == full.indices);
  }
  {  // A box away from the mesh: nothing is left.
    pk::ChunkMesh m = full;
    pk::clip_xz(m, 100, 100, 101, 101, true);
    CHECK(m.empty());
    CHECK(m.positions.empty());
  }
  for (pk::FloatMode mode : {pk::FloatMode::Editor, pk::FloatMode::Player}) {
    // A box over part of it: every vertex inside, cut vertices shared, first-use order.
    pk::ChunkMesh m = full;
    pk::clip_xz(m, 1.3f, 0.9f, 5.1f, 6.2f, true, mode);
    REQUIRE(!m.empty());
    for (const auto& p : m.positions) {
      CHECK(p[0] >= 1.3f - 1e-4f);
      CHECK(p[0] <= 5.1f + 1e-4f);
      CHECK(p[2] >= 0.9f - 1e-4f);
      CHECK(p[2] <= 6.2f + 1e-4f);
    }
    std::set<std::array<float, 3>> unique(m.positions.begin(), m.positions.end());
    CHECK(unique.size() == m.positions.size());
    uint32_t next = 0;
    for (uint32_t i : m.indices) {
      CHECK(i <= next);
      if (i == next) ++next;
    }
    CHECK(next == m.positions.size());
    for (const auto& n : m.normals) CHECK(std::fabs(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0f) < 1e-5f);
  }
  // The box of ClipToHole: the hole grown by the margin, less the chunk origin.
  // Chunk (1, 0, 2) of 4 cells at 0.5 m from (8, -3, 16) starts at (10, -3, 20).
  const auto box = pk::hole_clip_box({10.0f, 20.0f, 14.0f, 26.0f}, 0.1f, {8.0f, -3.0f, 16.0f}, {1, 0, 2}, 4, 0.5f);
  const double m = double(0.1f);
  CHECK(box == std::array<float, 4>{float(10.0 - m - 10.0), float(20.0 - m - 20.0), float(14.0 + m - 10.0),
                                    float(26.0 + m - 20.0)});
  const auto player = pk::hole_clip_box({10.0f, 20.0f, 14.0f, 26.0f}, 0.1f, {8.0f, -3.0f, 16.0f}, {1, 0, 2}, 4, 0.5f,
                                        pk::FloatMode::Player);
  CHECK(player == std::array<float, 4>{(10.0f - 0.1f) - 10.0f, (20.0f - 0.1f) - 20.0f, (14.0f + 0.1f) - 10.0f,
                                       (26.0f + 0.1f) - 20.0f});
  CHECK(player != box);  // 10 - 0.1 rounds to float before the subtraction in the player
}

TEST_CASE("package mesher: editor and player arithmetic differ by ulps at most", "[package-mesher]") {
  const ByteGrid g = test::terrain_grid({32, 16, 32}, 8);
  pk::Options o;
  o.chunk_cells = 16;
  o.voxel_size = 0.3f;
  for (uint32_t cz = 0; cz < 2; ++cz)
    for (uint32_t cx = 0; cx < 2; ++cx) {
      o.mode = pk::FloatMode::Editor;
      const auto e = pk::build_chunk(g, {cx, 0, cz}, o);
      o.mode = pk::FloatMode::Player;
      const auto p = pk::build_chunk(g, {cx, 0, cz}, o);
      REQUIRE(e.positions.size() == p.positions.size());
      CHECK(e.indices.size() == p.indices.size());
      for (size_t i = 0; i < e.positions.size(); ++i)
        for (int a = 0; a < 3; ++a)
          CHECK(std::fabs(e.positions[i][size_t(a)] - p.positions[i][size_t(a)]) <= 4e-7f * (1 + std::fabs(e.positions[i][size_t(a)])));
      CHECK(e.normals == p.normals);
    }
}
