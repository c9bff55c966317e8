// Marching Cubes: the 256 cube cases, sphere accuracy and topology, shared vertices, chunks.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include "lib/mesh/mesh.hpp"
#include "tests/mesh_test_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

namespace {

const P3 kCentre{15.7f, 16.4f, 16.1f};
constexpr float kRadius = 9.5f;

MeshOptions mc(uint32_t cc = 16) {
  MeshOptions o;
  o.mesher = Mesher::MarchingCubes;
  o.chunk_cells = cc;
  return o;
}

P3 face_normal(const Mesh& m, size_t i) {
  const auto& a = m.positions[m.indices[i]];
  const auto& b = m.positions[m.indices[i + 1]];
  const auto& c = m.positions[m.indices[i + 2]];
  P3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}

// Signed volume enclosed by each connected piece of a mesh (divergence theorem).
std::vector<double> component_volumes(const Mesh& m) {
  std::vector<uint32_t> parent(m.vertex_count());
  for (uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto find = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (size_t i = 0; i < m.indices.size(); i += 3)
    for (int k = 1; k < 3; ++k) parent[find(m.indices[i + k])] = find(m.indices[i]);
  std::map<uint32_t, double> vol;
  for (size_t i = 0; i < m.indices.size(); i += 3) {
    const auto& a = m.positions[m.indices[i]];
    const auto& b = m.positions[m.indices[i + 1]];
    const auto& c = m.positions[m.indices[i + 2]];
    vol[find(m.indices[i])] += (double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) -
                                double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
                                double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0])) /
                               6.0;
  }
  std::vector<double> out;
  for (auto& [root, v] : vol) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("marching cubes closes every one of the 256 cube cases", "[marching_cubes]") {
  // The case's corners sit at samples 1..2 of a 3x3x3-cell grid whose other samples are
  // air, so the surface of every case is closed and wound towards the air.
  const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                            {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int cube = 0; cube < 256; ++cube) {
    ByteGrid g({3, 3, 3}, 200);
    for (int c = 0; c < 8; ++c)
      if (cube >> c & 1) g.at(1 + corner[c][0], 1 + corner[c][1], 1 + corner[c][2]) = 40;
    Mesh m = mesh_whole(g, mc());
    INFO("case " << cube);
    CHECK(m.empty() == (cube == 0));
    EdgeReport r = check_edges(m);
    CHECK(r.closed);
    CHECK(r.oriented);
    // Every closed piece encloses solid with its faces looking out: positive volume.
    for (double v : component_volumes(m)) CHECK(v > 0);
  }
}

TEST_CASE("marching cubes puts sphere vertices on the sphere, closed, genus 0",
          "[marching_cubes]") {
  auto g = sphere_grid({32, 32, 32}, kCentre, kRadius);
  Mesh m = mesh_whole(g, mc(8));
  REQUIRE(m.vertex_count() > 500);
  float worst = 0;
  for (size_t i = 0; i < m.positions.size(); ++i) {
    const auto& p = m.positions[i];
    P3 r{p[0] - kCentre[0], p[1] - kCentre[1], p[2] - kCentre[2]};
    float len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    CHECK(std::abs(len - kRadius) < 0.05f);
    const auto& n = m.normals[i];
    float d = (n[0] * r[0] + n[1] * r[1] + n[2] * r[2]) / len;
    worst = std::max(worst, std::acos(std::min(d, 1.0f)) * 57.29578f);
  }
  CHECK(worst < 6.0f);
  EdgeReport r = check_edges(m);
  CHECK(r.closed);
  CHECK(r.oriented);
  CHECK(int64_t(m.vertex_count()) - int64_t(r.edges) + int64_t(m.triangle_count()) == 2);
  for (size_t i = 0; i < m.indices.size(); i += 3) {
    P3 n = face_normal(m, i);
    const auto& a = m.positions[m.indices[i]];
    CHECK(n[0] * (a[0] - kCentre[0]) + n[1] * (a[1] - kCentre[1]) + n[2] * (a[2] - kCentre[2]) >
          0);
  }
}

TEST_CASE("marching cubes shares vertices along edges within a chunk", "[marching_cubes]") {
  auto g = cave_terrain({32, 24, 32}, 9);
  for (const auto& c : mesh_chunks(g, mc(16))) {
    std::set<std::array<uint32_t, 3>> seen;
    for (const auto& p : c.mesh.positions) CHECK(seen.insert(bits(p)).second);
  }
}

TEST_CASE("marching cubes chunks match the whole-grid mesh bit for bit", "[marching_cubes]") {
  auto g = cave_terrain({37, 29, 33}, 17);
  for (uint32_t cc : {1u, 5u, 8u, 16u}) {
    MeshOptions o = mc(cc);
    Mesh whole = mesh_whole(g, o);
    auto chunks = mesh_chunks(g, o);
    CHECK(triangle_set(chunks) == triangle_set(whole));
    std::map<std::array<uint32_t, 3>, std::array<uint32_t, 3>> normals;
    REQUIRE(collect_normals(whole, normals));
    for (const auto& c : chunks) CHECK(collect_normals(c.mesh, normals));
    CHECK(normals.size() == whole.vertex_count());
  }
}

TEST_CASE("marching cubes reads only the chunk's sample box", "[marching_cubes]") {
  auto g = cave_terrain({20, 18, 20}, 4);
  MeshOptions o = mc(8);
  auto n = chunk_counts(g.cells, 8);
  for (uint32_t ci = 0; ci < n[0] * n[1] * n[2]; ++ci) {
    std::array<int32_t, 3> c{int32_t(ci % n[0]), int32_t(ci / n[0] % n[1]),
                             int32_t(ci / (n[0] * n[1]))};
    auto box = chunk_sample_box(g.cells, 8, c);
    std::vector<uint8_t> samples;
    for (uint32_t z = box.lo[2]; z <= box.hi[2]; ++z)
      for (uint32_t y = box.lo[1]; y <= box.hi[1]; ++y)
        for (uint32_t x = box.lo[0]; x <= box.hi[0]; ++x) samples.push_back(g.at(x, y, z));
    CHECK(same_mesh(mesh_chunk_samples(g.cells, c, samples, {}, o), mesh_chunk(g, c, o)));
  }
}

TEST_CASE("marching cubes output does not depend on the thread count", "[marching_cubes]") {
  auto g = cave_terrain({48, 32, 48}, 23);
  std::vector<ChunkMesh> one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = mesh_chunks(g, mc(8));
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = mesh_chunks(g, mc(8));
  }
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].chunk == two[i].chunk);
    CHECK(same_mesh(one[i].mesh, two[i].mesh));
  }
}
