// Hole clip, merge with welded borders, vertex-cache order and LODs over hand-made meshes.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh_clip.hpp"
#include "lib/mesh/mesh_ops.hpp"
#include "tests/mesh_fixtures.hpp"

using namespace voxkit;

namespace {

double area(const Mesh& m) {
  double a = 0;
  for (size_t i = 0; i < m.indices.size(); i += 3) {
    const auto& p = m.positions[m.indices[i]];
    const auto& q = m.positions[m.indices[i + 1]];
    const auto& r = m.positions[m.indices[i + 2]];
    double ux = q[0] - p[0], uy = q[1] - p[1], uz = q[2] - p[2];
    double vx = r[0] - p[0], vy = r[1] - p[1], vz = r[2] - p[2];
    double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    a += 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
  }
  return a;
}

// Undirected edges and how many triangles use each.
std::map<std::pair<uint32_t, uint32_t>, int> edge_use(const Mesh& m) {
  std::map<std::pair<uint32_t, uint32_t>, int> e;
  for (size_t i = 0; i < m.indices.size(); i += 3)
    for (int k = 0; k < 3; ++k) {
      uint32_t a = m.indices[i + k], b = m.indices[i + (k + 1) % 3];
      e[{std::min(a, b), std::max(a, b)}]++;
    }
  return e;
}

std::set<std::array<float, 3>> position_set(const Mesh& m) {
  return {m.positions.begin(), m.positions.end()};
}

}  // namespace

TEST_CASE("clip keeps exactly the part inside the rectangle, vertices on the planes", "[mesh-clip]") {
  Mesh g = test::quad_grid(10);
  ClipRect r{2.25, 1.5, 7.75, 6.2};
  Mesh c = clip_mesh(g, r);
  REQUIRE_FALSE(c.empty());
  CHECK(area(c) == Approx((7.75 - 2.25) * (6.2 - 1.5)).epsilon(1e-5));
  int on_planes = 0;
  for (const auto& p : c.positions) {
    CHECK(p[0] >= float(r.min_x));
    CHECK(p[0] <= float(r.max_x));
    CHECK(p[2] >= float(r.min_z));
    CHECK(p[2] <= float(r.max_z));
    on_planes += p[0] == float(r.min_x) || p[0] == float(r.max_x) || p[2] == float(r.min_z) ||
                 p[2] == float(r.max_z);
  }
  CHECK(on_planes > 0);
  // Every attribute array stays one entry per vertex.
  CHECK(c.normals.size() == c.positions.size());
  CHECK(c.colors.size() == c.positions.size());
  CHECK(c.uv0.size() == c.positions.size());
  CHECK_NOTHROW(check_mesh(c, "clipped"));
}

TEST_CASE("clip interpolates attributes linearly at the cut", "[mesh-clip]") {
  Mesh g = test::quad_grid(4);  // colour.r = x / 8, uv.x = x/8 + z/100
  Mesh c = clip_mesh(g, {0.3, -1, 4, 5});
  for (size_t v = 0; v < c.positions.size(); ++v) {
    CHECK(c.colors[v][0] == Approx(c.positions[v][0] / 8.f).margin(1e-6));
    CHECK(c.uv0[v][0] == Approx(c.positions[v][0] * 0.125f + c.positions[v][2] * 0.01f).margin(1e-6));
    CHECK(c.uv0[v][1] == float(0x3210));
    CHECK(c.normals[v][1] == 1.f);
  }
}

TEST_CASE("clip shares the vertices of a cut edge between both triangles", "[mesh-clip]") {
  Mesh g = test::quad_grid(6);
  Mesh c = clip_mesh(g, {1.5, 1.5, 4.5, 4.5});
  CHECK(position_set(c).size() == c.positions.size());  // no duplicated vertex
  for (const auto& [edge, uses] : edge_use(c)) CHECK(uses <= 2);
}

TEST_CASE("clip drops the degenerate triangles a cut through vertices leaves", "[mesh-clip]") {
  Mesh g = test::quad_grid(4);
  // Planes through grid lines: every triangle is either inside or touches only along a line.
  Mesh c = clip_mesh(g, {1, 1, 3, 3});
  CHECK(c.triangle_count() == 8);
  CHECK(c.vertex_count() == 9);
  CHECK(area(c) == Approx(4));
  // A triangle touching the rectangle in one vertex or one edge leaves nothing.
  Mesh t;
  t.positions = {{0, 0, 0}, {-1, 0, 0}, {-1, 0, 1}};
  t.indices = {0, 2, 1};
  CHECK(clip_mesh(t, {0, -5, 5, 5}).empty());
  t.positions = {{0, 0, 0}, {0, 0, 1}, {-1, 0, 1}};
  CHECK(clip_mesh(t, {0, -5, 5, 5}).empty());
  CHECK(clip_mesh(t, {0, -5, 5, 5}).positions.empty());
}

TEST_CASE("clip of a mesh wholly outside leaves an empty mesh, wholly inside the same mesh", "[mesh-clip]") {
  Mesh c = test::cube();
  CHECK(clip_mesh(c, {10, 10, 20, 20}).empty());
  Mesh in = clip_mesh(c, {-1, -1, 3, 3});
  CHECK(in.positions == c.positions);
  CHECK(in.indices == c.indices);
}

TEST_CASE("clip keeps the winding of every cut triangle", "[mesh-clip]") {
  Mesh g = test::quad_grid(5);
  Mesh c = clip_mesh(g, {0.7, 0.2, 3.9, 4.1});
  for (size_t i = 0; i < c.indices.size(); i += 3) {
    const auto& a = c.positions[c.indices[i]];
    const auto& b = c.positions[c.indices[i + 1]];
    const auto& d = c.positions[c.indices[i + 2]];
    double ny = (b[2] - a[2]) * (d[0] - a[0]) - (b[0] - a[0]) * (d[2] - a[2]);
    CHECK(ny > 0);
  }
}

TEST_CASE("merge welds the border vertices chunks share", "[mesh-merge]") {
  Mesh a = test::quad_grid(4, 0, 0), b = test::quad_grid(4, 4, 0), c = test::quad_grid(4, 0, 4);
  std::vector<const Mesh*> ms = {&a, &b, &c};
  Mesh m = merge_meshes(ms);
  CHECK(m.triangle_count() == 3 * 32);
  CHECK(m.vertex_count() == 3 * 25 - 5 - 5);
  CHECK(position_set(m).size() == m.vertex_count());
  // Welded: the shared border edges are now used by two triangles each.
  int interior = 0;
  for (const auto& [edge, uses] : edge_use(m)) {
    CHECK(uses <= 2);
    interior += uses == 2;
  }
  CHECK(interior == 3 * 40 + 8);  // 40 inner edges per grid, 4 + 4 shared border edges
  CHECK(area(m) == Approx(48));
}

TEST_CASE("merge welds to the first vertex at each position, in order, whatever the parts", "[mesh-merge]") {
  // Positions from a small set (so most repeat, within a mesh and across meshes), -0 and +0
  // among them; the result must be the one pass in order over a map of seen positions gives.
  std::mt19937 rng(7);
  const float values[] = {0.0f, -0.0f, 1.0f, 2.5f, -3.0f};
  std::vector<Mesh> meshes(40);
  for (Mesh& m : meshes) {
    const size_t nv = 3 + rng() % 50;
    for (size_t v = 0; v < nv; ++v) {
      m.positions.push_back({values[rng() % 5], values[rng() % 5], float(rng() % 3)});
      m.normals.push_back({float(rng() % 100), 0.0f, 1.0f});
    }
    for (size_t t = 0; t < 20; ++t)
      for (int k = 0; k < 3; ++k) m.indices.push_back(uint32_t(rng() % nv));
  }
  std::vector<const Mesh*> ms;
  for (const Mesh& m : meshes) ms.push_back(&m);
  const Mesh got = merge_meshes(ms);

  auto key = [](const std::array<float, 3>& p) {
    std::array<uint32_t, 3> k;
    for (int i = 0; i < 3; ++i) k[size_t(i)] = std::bit_cast<uint32_t>(p[size_t(i)] == 0.0f ? 0.0f : p[size_t(i)]);
    return k;
  };
  std::map<std::array<uint32_t, 3>, uint32_t> seen;
  Mesh want;
  for (const Mesh& m : meshes) {
    std::vector<uint32_t> id(m.positions.size());
    for (size_t v = 0; v < m.positions.size(); ++v) {
      const auto [it, fresh] = seen.emplace(key(m.positions[v]), uint32_t(want.positions.size()));
      if (fresh) want.positions.push_back(m.positions[v]), want.normals.push_back(m.normals[v]);
      id[v] = it->second;
    }
    for (uint32_t i : m.indices) want.indices.push_back(id[i]);
  }
  REQUIRE(got.positions.size() == want.positions.size());
  CHECK(std::memcmp(got.positions.data(), want.positions.data(), want.positions.size() * 12) == 0);
  CHECK(std::memcmp(got.normals.data(), want.normals.data(), want.normals.size() * 12) == 0);
  CHECK(std::vector<uint32_t>(got.indices.begin(), got.indices.end()) ==
        std::vector<uint32_t>(want.indices.begin(), want.indices.end()));
  CHECK(got.positions.size() < 5 * 5 * 3 + 1);
  // The consuming merge: the same mesh, and its inputs left empty.
  std::vector<Mesh> copies = meshes;
  std::vector<Mesh*> owned;
  for (Mesh& m : copies) owned.push_back(&m);
  const Mesh again = merge_meshes_consuming(owned);
  CHECK(std::memcmp(again.positions.data(), got.positions.data(), got.positions.size() * 12) == 0);
  CHECK(again.indices == got.indices);
  for (const Mesh& m : copies) CHECK((m.positions.empty() && m.indices.empty() && m.normals.empty()));
}

TEST_CASE("merge rejects meshes with different attributes", "[mesh-merge]") {
  Mesh a = test::quad_grid(2), b = test::quad_grid(2, 2);
  b.colors.clear();
  std::vector<const Mesh*> ms = {&a, &b};
  CHECK_THROWS_AS(merge_meshes(ms), Error);
}

TEST_CASE("vertex-cache order keeps the triangles and is deterministic", "[mesh-ops]") {
  Mesh g = test::quad_grid(12);
  Mesh o = g;
  optimize_vertex_order(o);
  CHECK(o.vertex_count() == g.vertex_count());
  CHECK(o.triangle_count() == g.triangle_count());
  CHECK(area(o) == Approx(area(g)));
  // Vertices in first-use order.
  uint32_t next = 0;
  for (uint32_t i : o.indices) {
    CHECK(i <= next);
    if (i == next) ++next;
  }
  Mesh o2 = g;
  optimize_vertex_order(o2);
  CHECK(o2.indices == o.indices);
  CHECK(o2.positions == o.positions);
}

TEST_CASE("LODs simplify but keep every open-border vertex in place", "[mesh-ops]") {
  Mesh g = test::quad_grid(16);
  for (auto& p : g.positions) p[1] = 0.02f * float(int(p[0]) % 3);  // a slight ripple
  Mesh l = simplify_mesh(g, 0.25, 0.05);
  CHECK(l.triangle_count() < g.triangle_count() / 2);
  CHECK(l.triangle_count() > 0);
  auto kept = position_set(l);
  for (const auto& p : g.positions)
    if (p[0] == 0 || p[0] == 16 || p[2] == 0 || p[2] == 16) CHECK(kept.count(p));
  CHECK_THROWS_AS(simplify_mesh(g, 0), Error);
  CHECK_THROWS_AS(simplify_mesh(g, 1.5), Error);
}
