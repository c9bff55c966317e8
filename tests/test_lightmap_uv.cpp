// Lightmap UVs: every chart rasterised conservatively (each texel whose closed square meets a
// triangle), dilated by the padding and checked against the other charts' texels; no overlap
// inside a chart (exact separating-axis tests with a rounding tolerance); uvs in [0,1], the
// vertex order and split copies, determinism, stats, errors and edge cases, on flat grids, a
// package chunk mesh with hills, a cliff, a ledge and a cave, a cube, triangle soups, zero-area
// triangles, duplicate vertices, a ramp winding over itself and a non-manifold edge, at 1024
// and 64 texels.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "lib/mesh/lightmap_uv.hpp"
#include "lib/mesh/package_mesher.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
namespace lm = voxkit::lightmap;

namespace {

using V3 = std::array<float, 3>;

struct TestMesh {
  std::vector<V3> positions;
  std::vector<uint32_t> indices;
};

lm::Unwrap run(const TestMesh& m, const lm::Options& o) { return lm::unwrap(m.positions, m.indices, o); }

// n x n unit quads on y = 0; `shared`: one vertex per grid point, else four per quad.
TestMesh quad_grid(uint32_t n, bool shared, float step = 1) {
  TestMesh m;
  auto at = [&](uint32_t x, uint32_t z) { return V3{float(x) * step, 0, float(z) * step}; };
  if (shared) {
    for (uint32_t z = 0; z <= n; ++z)
      for (uint32_t x = 0; x <= n; ++x) m.positions.push_back(at(x, z));
  }
  for (uint32_t z = 0; z < n; ++z)
    for (uint32_t x = 0; x < n; ++x) {
      uint32_t a, b, c, d;
      if (shared) {
        a = x + (n + 1) * z, b = a + 1, c = a + n + 2, d = a + n + 1;
      } else {
        a = uint32_t(m.positions.size()), b = a + 1, c = a + 2, d = a + 3;
        for (auto p : {at(x, z), at(x + 1, z), at(x + 1, z + 1), at(x, z + 1)}) m.positions.push_back(p);
      }
      for (uint32_t i : {a, c, b, a, d, c}) m.indices.push_back(i);
    }
  return m;
}

// The package mesher's chunk (0, 0, 0) of 16 cells over rolling hills with a cliff, a ledge
// hanging over the low side and a cave under the high side.
TestMesh chunk_mesh() {
  const Dims cells{16, 16, 16};
  ByteGrid g(cells, 0);
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y < g.cells.sy(); ++y)
      for (uint64_t x = 0; x < g.cells.sx(); ++x) {
        const float fx = float(x), fy = float(y), fz = float(z);
        const float h = 6.0f + 1.5f * std::sin(fx * 0.5f) * std::cos(fz * 0.4f) + (x >= 10 ? 5.0f : 0.0f);
        float d = fy - h;  // positive in air
        // The ledge: a slab out of the cliff face at y 9..10, x 6..10.
        const float lx = std::max({6.0f - fx, fx - 10.5f, 0.0f}), ly = std::max({9.0f - fy, fy - 10.5f, 0.0f});
        const float lz = std::max({3.0f - fz, fz - 12.0f, 0.0f});
        const float ledge = std::sqrt(lx * lx + ly * ly + lz * lz) - 0.5f;
        d = std::min(d, ledge);
        // The cave: a sphere under the high side.
        const float cx = fx - 13, cy = fy - 6, cz = fz - 8;
        d = std::max(d, 3.0f - std::sqrt(cx * cx + cy * cy + cz * cz));
        g.at(x, y, z) = quantize_sdf(d);
      }
  package::Options o;
  o.chunk_cells = 16;
  o.voxel_size = 0.5f;
  const package::ChunkMesh cm = package::build_chunk(g, {0, 0, 0}, o);
  return {cm.positions, cm.indices};
}

TestMesh cube() {
  TestMesh m;
  for (int i = 0; i < 8; ++i) m.positions.push_back({float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)});
  const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces)
    for (int i : {0, 1, 2, 0, 2, 3}) m.indices.push_back(f[i]);
  return m;
}

// Unconnected random triangles in a box of `extent`.
TestMesh soup(uint32_t triangles, uint32_t seed, float extent = 10) {
  TestMesh m;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0, extent), d(-1, 1);
  for (uint32_t t = 0; t < triangles; ++t) {
    const V3 c{u(rng), u(rng), u(rng)};
    for (int k = 0; k < 3; ++k) m.positions.push_back({c[0] + d(rng), c[1] + d(rng), c[2] + d(rng)});
    for (int k = 0; k < 3; ++k) m.indices.push_back(3 * t + uint32_t(k));
  }
  return m;
}

// A grid with zero-area triangles: a repeated index, three points on a line, a point, a
// collinear sliver along the border, and zero-area triangles touching nothing else.
TestMesh with_degenerates() {
  TestMesh m = quad_grid(6, true);
  const uint32_t n = uint32_t(m.positions.size());
  m.positions.push_back({3, 0, 0});      // n: on the border edge between vertices 3 and 4? (at x = 3)
  m.positions.push_back({20, 5, 20});    // n + 1: far away
  m.positions.push_back({21, 5, 20});    // n + 2
  m.positions.push_back({22, 5, 20});    // n + 3
  for (uint32_t i : {0u, 0u, 1u, 2u, 3u, n, 0u, 6u, 3u, n + 1, n + 2, n + 3, n + 1, n + 1, n + 1, 8u, 9u, 9u})
    m.indices.push_back(i);
  return m;
}

// A ramp winding `turns` times around the y axis, rising slowly: it faces up everywhere, and
// its projection onto the ground overlaps itself after one turn.
TestMesh helix(uint32_t steps, double turns) {
  TestMesh m;
  for (uint32_t k = 0; k <= steps; ++k) {
    const double a = 2 * 3.14159265358979 * turns * k / steps;
    for (double r : {1.0, 3.0}) m.positions.push_back({float(r * std::cos(a)), float(0.2 * a), float(r * std::sin(a))});
  }
  for (uint32_t k = 0; k < steps; ++k)
    for (uint32_t v : {0u, 2u, 1u, 1u, 2u, 3u}) m.indices.push_back(2 * k + v);
  return m;
}

// A flat n x n grid with a long sliver on each edge of its z = 0 border: on even edges it
// points away from the grid, on odd ones it is wound the other way round and lies back over
// the grid (still facing up), so that its projection overlaps the grid's. Their boxes span
// many times the grid triangles' size.
TestMesh fringe(uint32_t n, float length) {
  TestMesh m = quad_grid(n, true);
  for (uint32_t x = 0; x < n; ++x) {
    const bool back = x % 2;
    m.positions.push_back({float(x) + 0.5f, back ? 0.01f : 0.0f, back ? length : -length});
    const uint32_t a = x, b = x + 1, far = uint32_t(m.positions.size() - 1);
    for (uint32_t v : back ? std::array{b, a, far} : std::array{a, b, far}) m.indices.push_back(v);
  }
  return m;
}

// Three squares sharing one edge (a non-manifold edge), and a triangle twice over.
TestMesh book() {
  TestMesh m{{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {-1, 0, 0.2f}, {-1, 1, 0.2f}, {0, 0, 1}, {0, 1, 1}}, {}};
  for (uint32_t s : {2u, 4u, 6u})
    for (uint32_t v : {0u, 1u, s, 1u, s + 1, s}) m.indices.push_back(v);
  for (uint32_t v : {0u, 1u, 2u}) m.indices.push_back(v);
  return m;
}

double orient(const std::array<double, 2>& a, const std::array<double, 2>& b, const std::array<double, 2>& c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// Texels whose closed square meets the closed triangle (a segment or a point when degenerate).
void rasterise(std::array<std::array<double, 2>, 3> t, uint32_t size, std::vector<std::pair<int64_t, int64_t>>& out) {
  double area = orient(t[0], t[1], t[2]);
  if (area < 0) std::swap(t[1], t[2]), area = -area;
  double scale = 0;
  for (auto& p : t) scale = std::max({scale, std::fabs(p[0]), std::fabs(p[1])});
  const bool flat = area <= 1e-12 * scale * scale;
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (auto& p : t) x0 = std::min(x0, p[0]), x1 = std::max(x1, p[0]), y0 = std::min(y0, p[1]), y1 = std::max(y1, p[1]);
  const int64_t i0 = std::max<int64_t>(0, int64_t(std::ceil(x0)) - 1), i1 = std::min<int64_t>(size - 1, int64_t(std::floor(x1)));
  const int64_t j0 = std::max<int64_t>(0, int64_t(std::ceil(y0)) - 1), j1 = std::min<int64_t>(size - 1, int64_t(std::floor(y1)));
  for (int64_t j = j0; j <= j1; ++j)
    for (int64_t i = i0; i <= i1; ++i) {
      const double x = double(i), y = double(j);
      const std::array<std::array<double, 2>, 4> sq{{{x, y}, {x + 1, y}, {x, y + 1}, {x + 1, y + 1}}};
      bool separated = false;
      for (int e = 0; e < 3 && !separated; ++e) {
        const auto &a = t[size_t(e)], &b = t[size_t(e + 1) % 3];
        if (a == b) continue;
        int below = 0, above = 0;
        for (const auto& c : sq) (orient(a, b, c) < 0 ? below : above) += orient(a, b, c) != 0;
        separated = flat ? (below == 4 || above == 4) : below == 4;
      }
      if (!separated) out.push_back({i, j});
    }
}

// Whether the interiors of two triangles (in texels) overlap by more than float rounding.
bool interiors_overlap(std::array<std::array<double, 2>, 3> a, std::array<std::array<double, 2>, 3> b) {
  if (orient(a[0], a[1], a[2]) < 0) std::swap(a[1], a[2]);
  if (orient(b[0], b[1], b[2]) < 0) std::swap(b[1], b[2]);
  auto separates = [](const auto& s, const auto& q) {
    for (int e = 0; e < 3; ++e) {
      const auto &p0 = s[size_t(e)], &p1 = s[size_t(e + 1) % 3];
      const double len = std::hypot(p1[0] - p0[0], p1[1] - p0[1]);
      bool all = true;
      for (const auto& c : q) all = all && orient(p0, p1, c) <= 1e-3 * len;  // within 1/1000 texel
      if (all) return true;
    }
    return false;
  };
  return !separates(a, b) && !separates(b, a);
}

// Everything the layout promises, checked from the result alone.
void check_layout(const TestMesh& m, const lm::Unwrap& u, const lm::Options& o, bool check_overlap = true) {
  const size_t n = m.positions.size(), nt = m.indices.size() / 3;
  REQUIRE(u.source_vertex.size() == u.uv.size());
  REQUIRE(u.source_vertex.size() >= n);
  REQUIRE(u.stats.vertices_in == n);
  REQUIRE(u.stats.vertices_out == u.source_vertex.size());
  for (size_t v = 0; v < n; ++v) REQUIRE(u.source_vertex[v] == v);
  for (const auto& t : u.uv) {
    REQUIRE(std::isfinite(t[0]));
    REQUIRE(std::isfinite(t[1]));
    REQUIRE((t[0] >= 0 && t[0] <= 1 && t[1] >= 0 && t[1] <= 1));
  }
  REQUIRE(u.indices.size() == m.indices.size());
  REQUIRE(u.chart.size() == nt);
  for (size_t k = 0; k < m.indices.size(); ++k) {
    REQUIRE(u.indices[k] < u.source_vertex.size());
    REQUIRE(m.positions[u.source_vertex[u.indices[k]]] == m.positions[m.indices[k]]);
  }
  // Each output vertex serves one chart; copies come in order of first use.
  std::vector<uint32_t> chart_of(u.uv.size(), ~0u);
  size_t next_copy = n;
  for (size_t k = 0; k < u.indices.size(); ++k) {
    const uint32_t o_v = u.indices[k], c = u.chart[k / 3];
    REQUIRE(c < u.stats.charts);
    if (chart_of[o_v] == ~0u) {
      chart_of[o_v] = c;
      if (o_v >= n) REQUIRE(o_v == next_copy++);
    }
    REQUIRE(chart_of[o_v] == c);
  }
  REQUIRE(next_copy == u.uv.size());
  // Footprints: no texel in two charts, none within the padding of another chart's.
  const int64_t size = o.size, gap = int64_t(std::ceil(o.padding_texels));
  std::vector<uint32_t> owner(size_t(size * size), ~0u);
  std::vector<std::vector<std::pair<int64_t, int64_t>>> texels(u.stats.charts);
  std::vector<std::pair<int64_t, int64_t>> tmp;
  auto corners = [&](size_t t) {
    std::array<std::array<double, 2>, 3> p;
    for (size_t k = 0; k < 3; ++k)
      p[k] = {double(u.uv[u.indices[3 * t + k]][0]) * double(size), double(u.uv[u.indices[3 * t + k]][1]) * double(size)};
    return p;
  };
  for (size_t t = 0; t < nt; ++t) {
    tmp.clear();
    rasterise(corners(t), o.size, tmp);
    for (auto [i, j] : tmp) {
      uint32_t& w = owner[size_t(i + size * j)];
      REQUIRE((w == ~0u || w == u.chart[t]));
      if (w == ~0u) texels[u.chart[t]].push_back({i, j});
      w = u.chart[t];
    }
  }
  uint64_t conflicts = 0;
  for (uint32_t c = 0; c < u.stats.charts; ++c)
    for (auto [i, j] : texels[c])
      for (int64_t y = std::max<int64_t>(0, j - gap); y <= std::min(size - 1, j + gap); ++y)
        for (int64_t x = std::max<int64_t>(0, i - gap); x <= std::min(size - 1, i + gap); ++x) {
          const uint32_t w = owner[size_t(x + size * y)];
          conflicts += w != ~0u && w != c;
        }
  CHECK(conflicts == 0);
  if (!check_overlap) return;
  // No two triangles of a chart overlap.
  std::vector<std::vector<uint32_t>> members(u.stats.charts);
  for (size_t t = 0; t < nt; ++t) members[u.chart[t]].push_back(uint32_t(t));
  uint64_t overlaps = 0;
  for (const auto& list : members)
    for (size_t a = 0; a < list.size(); ++a)
      for (size_t b = a + 1; b < list.size(); ++b) overlaps += interiors_overlap(corners(list[a]), corners(list[b]));
  CHECK(overlaps == 0);
}

// The same bytes: uvs and stats compared bit for bit.
bool same(const lm::Unwrap& a, const lm::Unwrap& b) {
  auto bits = [](double x) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  };
  const lm::Stats &s = a.stats, &t = b.stats;
  return a.source_vertex == b.source_vertex && a.indices == b.indices && a.chart == b.chart &&
         a.uv.size() == b.uv.size() &&
         (a.uv.empty() || std::memcmp(a.uv.data(), b.uv.data(), a.uv.size() * sizeof(a.uv[0])) == 0) &&
         s.charts == t.charts && s.vertices_in == t.vertices_in && s.vertices_out == t.vertices_out &&
         bits(s.texels_per_metre) == bits(t.texels_per_metre) && bits(s.coverage) == bits(t.coverage) &&
         bits(s.area_distortion_max) == bits(t.area_distortion_max) &&
         bits(s.area_distortion_mean) == bits(t.area_distortion_mean);
}

}  // namespace

TEST_CASE("lightmap uv: layouts rasterised at 1024 and 64 texels", "[lightmap]") {
  const std::vector<std::pair<const char*, TestMesh>> meshes{
      {"flat grid", quad_grid(12, true)},       {"chunk mesh", chunk_mesh()},
      {"cube", cube()},                         {"soup 1", soup(40, 1)},
      {"soup 2", soup(120, 2, 3)},              {"degenerate triangles", with_degenerates()},
      {"duplicate vertices", quad_grid(8, false)}, {"helix", helix(90, 2.5)},
      {"non-manifold edge", book()},            {"fringe", fringe(8, 6)}};
  for (uint32_t size : {1024u, 64u})
    for (const auto& [name, m] : meshes) {
      INFO(name << " at " << size);
      lm::Options o;
      o.size = size;
      const lm::Unwrap u = run(m, o);
      check_layout(m, u, o);
      CHECK(u.stats.coverage > 0);
      CHECK(u.stats.coverage <= 1);
      CHECK(same(u, run(m, o)));
    }
}

TEST_CASE("lightmap uv: charts of known meshes, and stats", "[lightmap]") {
  lm::Options o;
  {  // A flat plane: one chart, no distortion, nearly all of the square.
    const lm::Unwrap u = run(quad_grid(10, true), o);
    CHECK(u.stats.charts == 1);
    CHECK(u.stats.vertices_out == u.stats.vertices_in);
    CHECK(u.stats.area_distortion_max < 1e-6);
    CHECK(u.stats.coverage > 0.99);
    CHECK(u.stats.texels_per_metre == Approx(1023.5 / 10));
  }
  {  // Four vertices per quad: welded by position, still one chart, equal uvs at one place.
    const TestMesh m = quad_grid(5, false);
    const lm::Unwrap u = run(m, o);
    CHECK(u.stats.charts == 1);
    for (size_t a = 0; a < m.positions.size(); ++a)
      for (size_t b = 0; b < a; ++b)
        if (m.positions[a] == m.positions[b]) CHECK(u.uv[a] == u.uv[b]);
  }
  {  // A cube: six faces split at the 90 degree edges, each vertex in three charts.
    const lm::Unwrap u = run(cube(), o);
    CHECK(u.stats.charts == 6);
    CHECK(u.stats.vertices_out == 24);
    CHECK(u.stats.area_distortion_max < 1e-6);
    // With a hard angle over 90 degrees, faces may join a chart (within its 60 degree cone).
    lm::Options soft = o;
    soft.hard_angle_deg = 180;
    CHECK(run(cube(), soft).stats.charts == 6);
  }
  {  // A ramp over itself: the overlapping part is refused and seeds further charts.
    const lm::Unwrap u = run(helix(90, 2.5), o);
    CHECK(u.stats.charts >= 3);
    CHECK(u.stats.charts <= 4);
  }
  {  // Slivers over the grid are refused (each is a chart of its own); those away from it join.
    const TestMesh m = fringe(8, 6);
    const lm::Unwrap u = run(m, o);
    CHECK(u.stats.charts == 5);
    const size_t grid = 2 * 8 * 8;
    for (size_t t = grid; t < m.indices.size() / 3; ++t) CHECK((u.chart[t] == u.chart[0]) == ((t - grid) % 2 == 0));
  }
  {  // The chunk mesh: few charts for its triangles, sane figures.
    const TestMesh m = chunk_mesh();
    const lm::Unwrap u = run(m, o);
    INFO("charts " << u.stats.charts << " triangles " << m.indices.size() / 3 << " coverage " << u.stats.coverage
                   << " distortion " << u.stats.area_distortion_mean << " / " << u.stats.area_distortion_max);
    CHECK(u.stats.charts * 10 < m.indices.size() / 3);
    CHECK(u.stats.coverage > 0.35);
    CHECK(u.stats.area_distortion_mean < 0.3);
    CHECK(u.stats.texels_per_metre > 0);
  }
}

TEST_CASE("lightmap uv: edge cases", "[lightmap]") {
  lm::Options o;
  {  // No triangles: the vertices stay, at (0, 0).
    TestMesh m;
    m.positions = {{1, 2, 3}, {4, 5, 6}};
    const lm::Unwrap u = run(m, o);
    CHECK(u.stats.charts == 0);
    CHECK(u.indices.empty());
    CHECK(u.source_vertex == std::vector<uint32_t>{0, 1});
    CHECK(u.uv[1] == std::array<float, 2>{0, 0});
    CHECK(run(TestMesh{}, o).uv.empty());
  }
  {  // One triangle, with an unused vertex before it.
    TestMesh m{{{9, 9, 9}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {1, 2, 3}};
    const lm::Unwrap u = run(m, o);
    check_layout(m, u, o);
    CHECK(u.stats.charts == 1);
    CHECK(u.uv[0] == std::array<float, 2>{0, 0});
    CHECK(u.stats.coverage > 0.45);
  }
  {  // One huge triangle, and huge with tiny ones far away.
    TestMesh m{{{-1e30f, 0, 0}, {1e30f, 0, 0}, {0, 0, 1e30f}, {5, 5, 5}, {5.001f, 5, 5}, {5, 5.001f, 5}}, {0, 2, 1, 3, 4, 5}};
    const lm::Unwrap u = run(m, o);
    check_layout(m, u, o);
    CHECK(u.stats.charts == 2);
  }
  {  // Only zero-area triangles: one point chart.
    TestMesh m{{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {7, 7, 7}}, {0, 1, 2, 3, 3, 3, 2, 1, 0}};
    const lm::Unwrap u = run(m, o);
    check_layout(m, u, o);
    CHECK(u.stats.charts == 1);
    CHECK(u.stats.coverage == 0);
  }
  {  // 66049 vertices (32-bit indices): one chart.
    const TestMesh m = quad_grid(256, true, 0.25f);
    REQUIRE(m.positions.size() > 65535);
    const lm::Unwrap u = run(m, o);
    check_layout(m, u, o, false);
    CHECK(u.stats.charts == 1);
    CHECK(u.stats.coverage > 0.99);
  }
}

TEST_CASE("lightmap uv: errors", "[lightmap]") {
  lm::Options o;
  const TestMesh grid = quad_grid(2, true);
  auto message = [](auto&& f) {
    const auto e = test::thrown_error(f);
    REQUIRE(e);
    return std::string(e->what());
  };
  {  // Thousands of separate triangles cannot keep 2 texels apart in 64 x 64.
    lm::Options small = o;
    small.size = 64;
    const TestMesh m = soup(3000, 3);
    const std::string what = message([&] { run(m, small); });
    CHECK(what.find("3000 charts do not fit in a 64 x 64 lightmap with 2 texels between charts") != std::string::npos);
    CHECK(test::thrown_error([&] { run(m, o); }) == std::nullopt);  // 1024 x 1024 holds them
  }
  TestMesh bad = grid;
  bad.indices.push_back(0);
  CHECK(message([&] { run(bad, o); }).find("not a multiple of 3") != std::string::npos);
  bad = grid;
  bad.indices[4] = 99;
  CHECK(message([&] { run(bad, o); }).find("index 99 out of range") != std::string::npos);
  bad = grid;
  bad.positions[1][2] = NAN;
  CHECK(message([&] { run(bad, o); }).find("vertex 1 has a coordinate that is not finite") != std::string::npos);
  bad.positions[1][2] = 0;
  bad.positions.push_back({NAN, 0, 0});  // unused: no error
  CHECK(test::thrown_error([&] { run(bad, o); }) == std::nullopt);
  lm::Options bad_o = o;
  bad_o.size = 0;
  CHECK(message([&] { run(grid, bad_o); }).find("lightmap size 0 is out of range") != std::string::npos);
  bad_o = o;
  bad_o.padding_texels = -1;
  CHECK(message([&] { run(grid, bad_o); }).find("padding") != std::string::npos);
  bad_o = o;
  bad_o.hard_angle_deg = NAN;
  CHECK(message([&] { run(grid, bad_o); }).find("hard angle") != std::string::npos);
}

TEST_CASE("lightmap uv: batches match single meshes on any thread count", "[lightmap]") {
  std::vector<TestMesh> meshes{chunk_mesh(), cube(), soup(50, 4), quad_grid(7, false), TestMesh{}};
  std::vector<lm::MeshRef> refs;
  for (const auto& m : meshes) refs.push_back({m.positions, m.indices});
  lm::Options o;
  o.size = 256;
  const std::vector<lm::Unwrap> all = lm::unwrap_all(refs, o);
  std::vector<lm::Unwrap> one;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = lm::unwrap_all(refs, o);
  }
  REQUIRE(all.size() == meshes.size());
  for (size_t i = 0; i < meshes.size(); ++i) {
    CHECK(same(all[i], run(meshes[i], o)));
    CHECK(same(all[i], one[i]));
  }
  // A mesh large enough that its thread lets its buffers go does not change the next ones.
  const TestMesh big = quad_grid(190, true);
  const lm::Unwrap before = run(meshes[0], o);
  CHECK(run(big, o).stats.charts == 1);
  CHECK(same(before, run(meshes[0], o)));
  // An error names the first failing mesh.
  TestMesh bad = cube();
  bad.indices[0] = 100;
  refs.push_back({bad.positions, bad.indices});
  refs.push_back({bad.positions, bad.indices});
  const auto e = test::thrown_error([&] { lm::unwrap_all(refs, o); });
  REQUIRE(e);
  CHECK(std::string(e->what()).find("mesh 5: ") != std::string::npos);
}
