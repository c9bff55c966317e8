// Surface Nets: sphere accuracy, watertightness, normals, winding, chunk borders, threads.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh.hpp"
#include "tests/mesh_test_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

namespace {

const P3 kCentre{16.3f, 15.6f, 16.2f};
constexpr float kRadius = 9.0f;

MeshOptions sn(uint32_t cc = 16) {
  MeshOptions o;
  o.mesher = Mesher::SurfaceNets;
  o.chunk_cells = cc;
  return o;
}

float angle_deg(const P3& a, const P3& b) {
  float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return std::acos(std::clamp(d, -1.0f, 1.0f)) * 57.29578f;
}

}  // namespace

TEST_CASE("surface nets puts sphere vertices on the sphere", "[surface_nets]") {
  auto g = sphere_grid({32, 32, 32}, kCentre, kRadius);
  Mesh m = mesh_whole(g, sn());
  REQUIRE(m.vertex_count() > 500);
  for (const auto& p : m.positions) {
    float dx = p[0] - kCentre[0], dy = p[1] - kCentre[1], dz = p[2] - kCentre[2];
    CHECK(std::abs(std::sqrt(dx * dx + dy * dy + dz * dz) - kRadius) < 0.15f);
  }
}

TEST_CASE("surface nets makes a closed sphere with Euler characteristic 2", "[surface_nets]") {
  auto g = sphere_grid({32, 32, 32}, kCentre, kRadius);
  for (uint32_t cc : {5u, 16u, 32u}) {
    Mesh m = mesh_whole(g, sn(cc));
    EdgeReport r = check_edges(m);
    CHECK(r.closed);
    CHECK(r.oriented);
    CHECK(int64_t(m.vertex_count()) - int64_t(r.edges) + int64_t(m.triangle_count()) == 2);
  }
}

TEST_CASE("surface nets normals follow the analytic sphere normals", "[surface_nets]") {
  auto g = sphere_grid({32, 32, 32}, kCentre, kRadius);
  Mesh m = mesh_whole(g, sn(8));
  REQUIRE(m.normals.size() == m.positions.size());
  float worst = 0, sum = 0;
  for (size_t i = 0; i < m.positions.size(); ++i) {
    const auto& p = m.positions[i];
    P3 r{p[0] - kCentre[0], p[1] - kCentre[1], p[2] - kCentre[2]};
    float len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    for (auto& c : r) c /= len;
    const auto& n = m.normals[i];
    CHECK(std::abs(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1.0f) < 1e-5f);
    float a = angle_deg(n, r);
    worst = std::max(worst, a);
    sum += a;
  }
  CHECK(worst < 6.0f);
  CHECK(sum / float(m.positions.size()) < 2.0f);
}

TEST_CASE("surface nets winds triangles counter-clockwise seen from the air", "[surface_nets]") {
  auto g = sphere_grid({32, 32, 32}, kCentre, kRadius);
  Mesh m = mesh_whole(g, sn());
  for (size_t i = 0; i < m.indices.size(); i += 3) {
    const auto& a = m.positions[m.indices[i]];
    const auto& b = m.positions[m.indices[i + 1]];
    const auto& c = m.positions[m.indices[i + 2]];
    P3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    P3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    P3 out{a[0] - kCentre[0], a[1] - kCentre[1], a[2] - kCentre[2]};
    CHECK(n[0] * out[0] + n[1] * out[1] + n[2] * out[2] > 0);
  }
  // A hollow sphere (air inside solid) winds the other way round: still into the air.
  for (auto& b : g.data) b = uint8_t(255 - b);
  Mesh h = mesh_whole(g, sn());
  size_t inward = 0;
  for (size_t i = 0; i < h.indices.size(); i += 3) {
    const auto& a = h.positions[h.indices[i]];
    const auto& b = h.positions[h.indices[i + 1]];
    const auto& c = h.positions[h.indices[i + 2]];
    P3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    P3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    P3 out{a[0] - kCentre[0], a[1] - kCentre[1], a[2] - kCentre[2]};
    inward += n[0] * out[0] + n[1] * out[1] + n[2] * out[2] < 0;
  }
  CHECK(inward == h.triangle_count());
}

TEST_CASE("surface nets splits each quad along its shorter diagonal", "[surface_nets]") {
  auto g = cave_terrain({24, 20, 24}, 5);
  Mesh m = mesh_whole(g, sn());
  // Triangles come in pairs sharing the quad diagonal as their first-and-third/first-and-
  // second corners; the shared edge is never the longer diagonal.
  for (size_t i = 0; i < m.indices.size(); i += 6) {
    const uint32_t* t = &m.indices[i];
    // First triangle (q0 q1 q2), second (q0 q2 q3): diagonal q0-q2, other q1-q3.
    uint32_t d0 = t[0], d1 = t[2], o0 = t[1], o1 = t[5];
    auto d2 = [&](uint32_t a, uint32_t b) {
      const auto& p = m.positions[a];
      const auto& q = m.positions[b];
      return (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
             (p[2] - q[2]) * (p[2] - q[2]);
    };
    CHECK(d2(d0, d1) <= d2(o0, o1));
  }
}

TEST_CASE("surface nets chunks match the whole-grid mesh bit for bit", "[surface_nets]") {
  auto g = cave_terrain({37, 29, 33}, 11);  // sizes not multiples of the chunk size
  for (uint32_t cc : {4u, 8u, 16u}) {
    MeshOptions o = sn(cc);
    Mesh whole = mesh_whole(g, o);
    auto chunks = mesh_chunks(g, o);
    REQUIRE(!chunks.empty());
    CHECK(triangle_set(chunks) == triangle_set(whole));
    std::map<std::array<uint32_t, 3>, std::array<uint32_t, 3>> normals;
    REQUIRE(collect_normals(whole, normals));
    for (const auto& c : chunks) CHECK(collect_normals(c.mesh, normals));
    CHECK(normals.size() == whole.vertex_count());
  }
}

TEST_CASE("surface nets meshes rows of chunks into each chunk's own mesh", "[surface_nets]") {
  // mesh_chunks meshes a row of chunks along x at once; every chunk must come out exactly
  // as mesh_chunk makes it alone: chunk sizes that split 64-bit words unevenly, a last
  // chunk that is shorter, rows wider than a word, with and without normals and paint.
  auto g = cave_terrain({150, 21, 19}, 5);
  ByteGrid paint(g.cells, 0);
  for (size_t i = 0; i < paint.data.size(); ++i) paint.data[i] = uint8_t(i * 7 % 19);
  for (uint32_t cc : {3u, 8u, 16u, 24u, 33u, 64u, 70u, 150u}) {
    for (int variant = 0; variant < 3; ++variant) {
      MeshOptions o = sn(cc);
      o.normals = variant != 1;
      if (variant == 2) o.paint = {&paint, 12};
      auto chunks = mesh_chunks(g, o);
      auto n = chunk_counts(g.cells, cc);
      size_t at = 0, meshed = 0;
      for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
        for (int32_t cy = 0; cy < int32_t(n[1]); ++cy)
          for (int32_t cx = 0; cx < int32_t(n[0]); ++cx) {
            Mesh alone = mesh_chunk(g, {cx, cy, cz}, o);
            if (alone.empty()) continue;
            ++meshed;
            INFO("chunk size " << cc << ", variant " << variant << ", chunk " << cx << " " << cy
                               << " " << cz);
            REQUIRE(at < chunks.size());
            CHECK(chunks[at].chunk == std::array<int32_t, 3>{cx, cy, cz});
            CHECK(same_mesh(chunks[at].mesh, alone));
            ++at;
          }
      CHECK(at == chunks.size());
      CHECK(meshed > 0);
    }
  }
}

TEST_CASE("surface nets reads only the chunk's sample box", "[surface_nets]") {
  auto g = cave_terrain({20, 18, 20}, 3);
  MeshOptions o = sn(8);
  auto n = chunk_counts(g.cells, 8);
  for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
    for (int32_t cy = 0; cy < int32_t(n[1]); ++cy)
      for (int32_t cx = 0; cx < int32_t(n[0]); ++cx) {
        auto box = chunk_sample_box(g.cells, 8, {cx, cy, cz});
        std::vector<uint8_t> samples;  // exactly the box: ASan sees any read outside it
        for (uint32_t z = box.lo[2]; z <= box.hi[2]; ++z)
          for (uint32_t y = box.lo[1]; y <= box.hi[1]; ++y)
            for (uint32_t x = box.lo[0]; x <= box.hi[0]; ++x) samples.push_back(g.at(x, y, z));
        Mesh a = mesh_chunk_samples(g.cells, {cx, cy, cz}, samples, {}, o);
        Mesh b = mesh_chunk(g, {cx, cy, cz}, o);
        CHECK(same_mesh(a, b));
      }
}

TEST_CASE("surface nets gives all-solid and all-air chunks no mesh", "[surface_nets]") {
  ByteGrid solid({16, 16, 16}, 0), air({16, 16, 16}, 255);
  CHECK(mesh_chunks(solid, sn(8)).empty());
  CHECK(mesh_chunks(air, sn(8)).empty());
  CHECK(mesh_whole(air, sn(8)).empty());
  // A flat floor at y = 4.5 leaves the upper chunks without a mesh.
  ByteGrid floor({16, 16, 16}, 0);
  for (uint64_t z = 0; z <= 16; ++z)
    for (uint64_t y = 0; y <= 16; ++y)
      for (uint64_t x = 0; x <= 16; ++x) floor.at(x, y, z) = quantize_sdf(float(y) - 4.5f);
  auto chunks = mesh_chunks(floor, sn(8));
  REQUIRE(chunks.size() == 4);
  for (const auto& c : chunks) CHECK(c.chunk[1] == 0);
}

TEST_CASE("surface nets makes no faces for edges on the grid boundary", "[surface_nets]") {
  // A floor crossing the whole grid: quads need four cells, so the boundary ring is open.
  ByteGrid floor({6, 6, 6}, 0);
  for (uint64_t z = 0; z <= 6; ++z)
    for (uint64_t y = 0; y <= 6; ++y)
      for (uint64_t x = 0; x <= 6; ++x) floor.at(x, y, z) = quantize_sdf(float(y) - 2.5f);
  Mesh m = mesh_whole(floor, sn());
  CHECK(m.vertex_count() == 36);        // one per cell of the crossing layer
  CHECK(m.triangle_count() == 5 * 5 * 2);  // y edges at interior x and z only
  for (const auto& n : m.normals) CHECK(n == P3{0.0f, 1.0f, 0.0f});
}

TEST_CASE("surface nets output does not depend on the thread count", "[surface_nets]") {
  auto g = cave_terrain({48, 32, 48}, 21);
  MeshOptions o = sn(8);
  std::vector<ChunkMesh> one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = mesh_chunks(g, o);
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = mesh_chunks(g, o);
  }
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].chunk == two[i].chunk);
    CHECK(same_mesh(one[i].mesh, two[i].mesh));
  }
}

TEST_CASE("meshing rejects bad chunks, sizes and spans", "[surface_nets]") {
  auto g = cave_terrain({10, 10, 10}, 1);
  CHECK_THROWS_AS(mesh_chunk(g, {2, 0, 0}, sn(8)), Error);
  CHECK_THROWS_AS(mesh_chunk(g, {-1, 0, 0}, sn(8)), Error);
  CHECK_THROWS_AS(mesh_chunks(g, sn(0)), Error);
  std::vector<uint8_t> few(10, 0);
  CHECK_THROWS_AS(mesh_chunk_samples(g.cells, {0, 0, 0}, few, {}, sn(8)), Error);
  ByteGrid bad = g;
  bad.data.pop_back();
  CHECK_THROWS_AS(mesh_whole(bad, sn(8)), Error);
  CHECK(chunk_counts(g.cells, 8) == std::array<uint32_t, 3>{2, 2, 2});
  auto box = chunk_sample_box(g.cells, 8, {1, 0, 1});
  CHECK(box.lo == std::array<uint32_t, 3>{7, 0, 7});
  CHECK(box.hi == std::array<uint32_t, 3>{10, 8, 10});
}

TEST_CASE("meshers agree on rows of any width, chunked or whole", "[surface_nets]") {
  // Whole-grid rows of 131 samples take the multi-word path, chunk rows the one-word path.
  auto g = cave_terrain({130, 14, 12}, 31);
  for (Mesher m : {Mesher::SurfaceNets, Mesher::MarchingCubes})
    for (uint32_t cc : {7u, 16u, 70u}) {
      MeshOptions o = sn(cc);
      o.mesher = m;
      CHECK(triangle_set(mesh_chunks(g, o)) == triangle_set(mesh_whole(g, o)));
    }
}

TEST_CASE("surface nets meshes rows of more than 64 words like single chunks", "[surface_nets]") {
  // A row of 4200 cells spans 66 words: the row's quads visit every word instead of a mask
  // of the words holding edges.
  auto g = cave_terrain({4200, 6, 5}, 17);
  MeshOptions o = sn(16);
  auto chunks = mesh_chunks(g, o);
  REQUIRE(chunks.size() > 100);
  for (const auto& c : chunks) {
    INFO("chunk " << c.chunk[0] << " " << c.chunk[1] << " " << c.chunk[2]);
    CHECK(same_mesh(c.mesh, mesh_chunk(g, c.chunk, o)));
  }
  CHECK(triangle_set(chunks) == triangle_set(mesh_whole(g, o)));
}
