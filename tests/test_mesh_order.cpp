// Vertex order: the FIFO and full vertex-cache passes, ACMR, and no copy of a mesh in order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "lib/mesh/mesh_ops.hpp"
#include "tests/mesh_fixtures.hpp"

using namespace voxkit;

namespace {

// The mesh's triangles as a set of position triples, each rotated to start at its least
// corner (winding kept).
std::set<std::array<std::array<float, 3>, 3>> triangles(const Mesh& m) {
  std::set<std::array<std::array<float, 3>, 3>> out;
  for (size_t t = 0; t < m.indices.size(); t += 3) {
    std::array<std::array<float, 3>, 3> c{m.positions[m.indices[t]], m.positions[m.indices[t + 1]],
                                          m.positions[m.indices[t + 2]]};
    const size_t k = size_t(std::min_element(c.begin(), c.end()) - c.begin());
    std::rotate(c.begin(), c.begin() + long(k), c.end());
    out.insert(c);
  }
  return out;
}

}  // namespace

TEST_CASE("vertex order: FIFO and full passes keep the triangles and reach about the same ACMR", "[mesh-order]") {
  const Mesh grid = test::quad_grid(48);
  Mesh fifo = grid, full = grid;
  optimize_vertex_order(fifo, VertexCacheMethod::Fifo);
  optimize_vertex_order(full, VertexCacheMethod::Full);
  CHECK(triangles(fifo) == triangles(grid));
  CHECK(triangles(full) == triangles(grid));
  CHECK(fifo.vertex_count() == grid.vertex_count());
  const double before = vertex_cache_acmr(grid), a_fifo = vertex_cache_acmr(fifo), a_full = vertex_cache_acmr(full);
  INFO("ACMR as made " << before << ", FIFO " << a_fifo << ", full " << a_full);
  CHECK(a_full < before);
  CHECK(a_fifo < before);
  CHECK(a_fifo <= a_full * 1.05);
  CHECK(vertex_cache_acmr(Mesh{}) == 0);
}

TEST_CASE("vertex order: a mesh already in order is left in place and not copied", "[mesh-order]") {
  Mesh m = test::quad_grid(8);
  optimize_vertex_order(m, VertexCacheMethod::Fifo);
  const auto* positions = m.positions.data();
  const auto* normals = m.normals.data();
  const Mesh before = m;
  optimize_vertex_order(m, VertexCacheMethod::None);
  CHECK(m.positions.data() == positions);
  CHECK(m.normals.data() == normals);
  CHECK(std::equal(m.indices.begin(), m.indices.end(), before.indices.begin(), before.indices.end()));
  // An unused vertex is dropped, which needs the copy.
  m.positions.push_back({99, 99, 99});
  m.normals.push_back({0, 1, 0});
  optimize_vertex_order(m, VertexCacheMethod::None);
  CHECK(m.vertex_count() == before.vertex_count());
}

TEST_CASE("vertex order: LODs keep only their vertices and every attribute", "[mesh-order]") {
  const Mesh g = test::quad_grid(16);  // with colours and uv0
  for (VertexCacheMethod method : {VertexCacheMethod::Fifo, VertexCacheMethod::Full}) {
    const Mesh l = simplify_mesh(g, 0.25, 0.05, method);
    CHECK(l.triangle_count() < g.triangle_count());
    CHECK(l.normals.size() == l.vertex_count());
    CHECK(l.colors.size() == l.vertex_count());
    CHECK(l.uv0.size() == l.vertex_count());
    CHECK_NOTHROW(check_mesh(l, "lod"));
    std::vector<bool> used(l.vertex_count());
    for (uint32_t i : l.indices) used[i] = true;
    CHECK(std::all_of(used.begin(), used.end(), [](bool b) { return b; }));
  }
}
