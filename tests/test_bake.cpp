// Bake: the band SDF against a brute-force reference, zone geometry, rebake, splat, RLE.
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"
#include "lib/codec/rle_parallel.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;

namespace {

using V3 = std::array<double, 3>;
V3 sub(V3 a, V3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(V3 a, V3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
V3 mad(V3 a, V3 b, double t) { return {a[0] + b[0] * t, a[1] + b[1] * t, a[2] + b[2] * t}; }

// Closest point on triangle abc to p (Voronoi regions), in double.
double point_triangle(V3 p, V3 a, V3 b, V3 c) {
  V3 ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  double d1 = dot(ab, ap), d2 = dot(ac, ap);
  V3 q;
  if (d1 <= 0 && d2 <= 0) {
    q = a;
  } else {
    V3 bp = sub(p, b);
    double d3 = dot(ab, bp), d4 = dot(ac, bp);
    V3 cp = sub(p, c);
    double d5 = dot(ab, cp), d6 = dot(ac, cp);
    double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) {
      q = b;
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
      q = mad(a, ab, d1 / (d1 - d3));
    } else if (d6 >= 0 && d5 <= d6) {
      q = c;
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      q = mad(a, ac, d2 / (d2 - d6));
    } else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
      q = mad(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    } else {
      double den = 1.0 / (va + vb + vc);
      q = mad(mad(a, ab, vb * den), ac, vc * den);
    }
  }
  V3 d = sub(p, q);
  return std::sqrt(dot(d, d));
}

// The reference: exact distance over every triangle, in voxels, signed by the side.
ByteGrid brute_force(const Heightfield& hf, const ZoneMeta& m) {
  ByteGrid g(m.cells, 0);
  const double v = m.voxel_size;
  for (uint64_t z = 0; z < m.cells.sz(); ++z)
    for (uint64_t x = 0; x < m.cells.sx(); ++x) {
      auto w = m.world(double(x), 0, double(z));
      double hc = surface_height(hf, w[0], w[2]);
      for (uint64_t y = 0; y < m.cells.sy(); ++y) {
        V3 p{w[0], m.origin[1] + y * v, w[2]};
        double best = 1e300;
        for (uint32_t j = 0; j + 1 < hf.depth; ++j)
          for (uint32_t i = 0; i + 1 < hf.width; ++i) {
            V3 p00{hf.x_of(i), hf.at(i, j), hf.z_of(j)};
            V3 p10{hf.x_of(i + 1), hf.at(i + 1, j), hf.z_of(j)};
            V3 p01{hf.x_of(i), hf.at(i, j + 1), hf.z_of(j + 1)};
            V3 p11{hf.x_of(i + 1), hf.at(i + 1, j + 1), hf.z_of(j + 1)};
            best = std::min({best, point_triangle(p, p00, p10, p11), point_triangle(p, p00, p11, p01)});
          }
        double d = best / v;
        g.at(x, y, z) = quantize_sdf(float(p[1] > hc ? d : -d));
      }
    }
  return g;
}

Heightfield random_terrain(uint32_t seed, uint32_t w, uint32_t d, double spacing, double amp) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Heightfield hf;
  hf.width = w;
  hf.depth = d;
  hf.dx = spacing;
  hf.dz = spacing * (0.7 + 0.6 * u(rng));
  hf.origin_x = -3.25 + u(rng);
  hf.origin_z = 1.5 + u(rng);
  hf.heights.resize(size_t(w) * d);
  double a = u(rng) * 6, b = u(rng) * 6;
  for (uint32_t j = 0; j < d; ++j)
    for (uint32_t i = 0; i < w; ++i)
      hf.heights[i + size_t(w) * j] =
          float(5 + amp * std::sin(i * 0.5 + a) * std::cos(j * 0.4 + b) + amp * 0.6 * (u(rng) - 0.5));
  return hf;
}

int max_byte_diff(const ByteGrid& a, const ByteGrid& b) {
  int worst = 0;
  for (size_t k = 0; k < a.data.size(); ++k) worst = std::max(worst, std::abs(int(a.data[k]) - int(b.data[k])));
  return worst;
}

ZoneBoxSpec whole(double voxel) {
  ZoneBoxSpec s;
  s.voxel_size = voxel;
  s.border_voxels = 1;
  s.depth_voxels = 1;
  return s;
}

// A box zone between two world corners, one border voxel.
ZoneBoxSpec box_spec(std::array<double, 3> min, std::array<double, 3> max, double voxel) {
  ZoneBoxSpec s;
  s.kind = ZoneBoxSpec::Kind::Box;
  s.min = min;
  s.max = max;
  s.voxel_size = voxel;
  s.border_voxels = 1;
  return s;
}

// Plans and bakes the zone, and returns the largest byte difference from the brute force.
int bake_error(const Heightfield& hf, const ZoneBoxSpec& s) {
  const ZoneMeta m = plan_zone(hf, s);
  ByteGrid fast;
  bake_sdf(hf, m, fast);
  return max_byte_diff(fast, brute_force(hf, m));
}

}  // namespace

TEST_CASE("bake matches the brute-force exact distance within one step on random terrains") {
  struct Case {
    uint32_t seed, w, d;
    double spacing, amp, voxel;
  };
  for (Case c : {Case{1, 9, 8, 1.0, 1.5, 0.5}, Case{2, 7, 9, 0.5, 2.5, 0.5}, Case{3, 12, 10, 0.3, 1.0, 0.25},
                 Case{4, 6, 6, 2.0, 3.0, 0.5}, Case{5, 10, 7, 0.7, 4.0, 0.35},
                 Case{6, 16, 14, 0.2, 0.8, 0.5}, Case{7, 8, 8, 1.0, 0.0, 0.5},
                 Case{8, 14, 14, 0.5, 8.0, 0.5}, Case{9, 7, 9, 1.5, 6.0, 0.3}}) {
    Heightfield hf = random_terrain(c.seed, c.w, c.d, c.spacing, c.amp);
    ZoneMeta m = plan_zone(hf, whole(c.voxel));
    ByteGrid fast;
    bake_sdf(hf, m, fast);
    ByteGrid ref = brute_force(hf, m);
    INFO("seed " << c.seed);
    REQUIRE(fast.data.size() == ref.data.size());
    CHECK(max_byte_diff(fast, ref) <= 1);
  }
}

// Terrains the pruning in the fast path must get right: flat ground (every cell ties),
// steep planes (foot points far from the column), cliffs (a few voxels between neighbours),
// rough noise, and the heightmap-aligned layout of the benchmark (columns on vertices).
Heightfield shaped_terrain(int kind, uint32_t seed, uint32_t n, double spacing) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Heightfield hf;
  hf.width = hf.depth = n;
  hf.dx = hf.dz = spacing;
  hf.heights.resize(size_t(n) * n);
  const double a = u(rng) * 6, b = u(rng) * 6;
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < n; ++i) {
      const double x = i * spacing, z = j * spacing;
      double h = 4;
      switch (kind) {
        case 0: h = 4.3; break;                                             // flat
        case 1: h = 1 + 2.5 * x + 0.7 * z + 0.1 * u(rng); break;           // steep plane
        case 2: h = 3 + (x + 0.3 * z > 2.2 ? 2.6 : 0) + 0.05 * u(rng); break;  // cliff
        case 3: h = 4 + 2.0 * (u(rng) - 0.5); break;                        // rough
        default: h = 4 + 1.5 * std::sin(x * 1.3 + a) * std::cos(z * 0.9 + b); break;
      }
      hf.heights[i + size_t(n) * j] = float(h);
    }
  return hf;
}

TEST_CASE("bake matches the brute force on flat, steep, cliff, rough and vertex-aligned terrains") {
  for (int kind = 0; kind < 5; ++kind)
    for (uint32_t seed : {3u, 8u}) {
      // 0.5 m voxels on a 0.5 m heightmap puts every column on a heightmap vertex, as in
      // the benchmark; 0.35 m and 0.8 m put them anywhere in the cells.
      for (double spacing : {0.5, 0.35, 0.8}) {
        Heightfield hf = shaped_terrain(kind, seed, 10, spacing);
        INFO("kind " << kind << " seed " << seed << " spacing " << spacing);
        CHECK(bake_error(hf, whole(0.5)) <= 1);
      }
    }
}

TEST_CASE("extreme heights in the heightmap window beside the zone leave the bake exact") {
  // The window reaches a cell past the band, and a column's groups of four load cells past
  // its candidates: spikes there must not reach the band (they are far horizontally) nor
  // upset the arithmetic of the lanes that hold them.
  Heightfield hf = shaped_terrain(4, 2, 16, 0.5);
  // Window samples 1 m to 1.5 m outside the box (the band reaches 1 m): i or j = 2 or 13.
  for (auto [i, j] : {std::pair{2u, 6u}, {13u, 7u}, {13u, 13u}, {6u, 2u}, {9u, 13u}, {2u, 2u}})
    hf.heights[i + 16 * j] = (i + j) % 2 ? 3e37f : -3e37f;
  CHECK(bake_error(hf, box_spec({2.5, 1.0, 2.5}, {5.0, 7.0, 5.0}, 0.5)) <= 1);
}

TEST_CASE("NoData beside the zone leaves holes: only triangles and edges with every corner count") {
  Heightfield hf = shaped_terrain(1, 6, 16, 0.5);
  // Within the band ring around the box (0.5 m outside it) and in the window beyond.
  for (auto [i, j] : {std::pair{4u, 8u}, {12u, 6u}, {7u, 4u}, {9u, 12u}, {2u, 9u}, {13u, 13u}})
    hf.heights[i + 16 * j] = NAN;
  // The reference skips them too: a triangle with a NaN corner has a NaN distance, which
  // std::min passes over.
  CHECK(bake_error(hf, box_spec({2.5, 0.0, 2.5}, {5.0, 20.0, 5.0}, 0.5)) <= 1);
}

TEST_CASE("bake writes the copy grid with the same bytes") {
  Heightfield hf = shaped_terrain(2, 5, 12, 0.5);
  ZoneMeta m = plan_zone(hf, whole(0.5));
  ByteGrid a, b, copy;
  bake_sdf(hf, m, a);
  bake_sdf(hf, m, b, {}, &copy);
  CHECK(a.data == b.data);
  CHECK(copy.cells == b.cells);
  CHECK(copy.data == b.data);
}

TEST_CASE("bake of a box inside the terrain matches the brute force, surface crossing the band") {
  Heightfield hf = random_terrain(11, 14, 14, 0.8, 2.0);
  CHECK(bake_error(hf, box_spec({hf.origin_x + 2.1, 4.0, hf.origin_z + 1.7},
                                 {hf.origin_x + 7.0, 6.0, hf.origin_z + 6.2}, 0.4)) <= 1);
}

TEST_CASE("a 45 degree slope gets the Euclidean distance, not the vertical one") {
  Heightfield hf;
  hf.width = hf.depth = 17;
  hf.heights.resize(17 * 17);
  for (uint32_t j = 0; j < 17; ++j)
    for (uint32_t i = 0; i < 17; ++i) hf.heights[i + 17 * j] = float(i);  // h = x: 45 degrees
  ZoneMeta m = plan_zone(hf, box_spec({4, 0, 4}, {12, 16, 12}, 1));
  ByteGrid g;
  bake_sdf(hf, m, g);
  // Sample one voxel above the slope: vertical distance 1, true distance 1/sqrt(2).
  auto w = m.world(4, 0, 4);
  int y = int(std::lround(w[0] + 1 - m.origin[1]));
  CHECK(g.at(4, y, 4) == quantize_sdf(float(1 / std::sqrt(2.0))));
  CHECK(g.at(4, y, 4) != quantize_sdf(1.0f));
  CHECK(g.at(4, y - 2, 4) == quantize_sdf(float(-1 / std::sqrt(2.0))));
}

TEST_CASE("bake is byte-identical with one and two threads") {
  for (const Heightfield& hf : {random_terrain(21, 40, 33, 0.5, 3.0), shaped_terrain(2, 4, 48, 0.5)}) {
    ZoneMeta m = plan_zone(hf, whole(0.25));
    ByteGrid a, b;
    {
      tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
      bake_sdf(hf, m, a);
    }
    {
      tbb::global_control two(tbb::global_control::max_allowed_parallelism, 2);
      bake_sdf(hf, m, b);
    }
    CHECK(a.data == b.data);
  }
}

TEST_CASE("zone plan: hole inside the zone by the border, edit box the border inside the hole") {
  Heightfield hf = random_terrain(5, 41, 41, 1.0, 1.0);
  ZoneBoxSpec s;
  s.kind = ZoneBoxSpec::Kind::Centre;
  s.centre = {hf.origin_x + 20, 5, hf.origin_z + 20};
  s.size = {16, 6, 8};
  s.voxel_size = 0.5;
  s.border_voxels = 2;
  ZoneMeta m = plan_zone(hf, s);
  CHECK(m.cells.nx == 32);
  CHECK(m.cells.nz == 16);
  CHECK(m.origin[0] == Approx(hf.origin_x + 12));
  CHECK(m.hole.min_x == Approx(m.origin[0] + 1.0));
  CHECK(m.hole.max_x == Approx(m.origin[0] + 15.0));
  CHECK(m.hole.min_z == Approx(m.origin[2] + 1.0));
  CHECK(m.hole.max_z == Approx(m.origin[2] + 7.0));
  CHECK(m.edit_box.min == std::array<int32_t, 3>{4, 2, 4});
  CHECK(m.edit_box.max == std::array<int32_t, 3>{28, int32_t(m.cells.ny) - 2, 12});
  CHECK(m.chunk_cells == 16);
}

TEST_CASE("zone plan grows the top to clear the terrain by the band and the headroom") {
  Heightfield hf = random_terrain(6, 21, 21, 1.0, 2.0);
  ZoneBoxSpec s;
  s.kind = ZoneBoxSpec::Kind::Box;
  s.min = {hf.origin_x + 4, 0, hf.origin_z + 4};
  s.max = {hf.origin_x + 12, 1, hf.origin_z + 12};
  s.voxel_size = 0.5;
  s.headroom_voxels = 3;
  ZoneMeta m = plan_zone(hf, s);
  HeightRange near = height_range(hf, s.min[0] - 1, s.min[2] - 1, s.max[0] + 1, s.max[2] + 1);
  double top = m.origin[1] + m.cells.ny * m.voxel_size;
  CHECK(top >= near.max + 5 * 0.5 - 1e-9);
  CHECK(top < near.max + 5 * 0.5 + 0.5);
  CHECK(m.origin[1] <= near.min - 3 * 0.5 + 1e-9);
  CHECK(m.height_max <= near.max);
}

TEST_CASE("zone plan refuses zones over the sample limit with the fix, and outside the terrain") {
  Heightfield hf = random_terrain(7, 21, 21, 1.0, 1.0);
  ZoneBoxSpec s = whole(0.05);
  s.max_samples = 100000;
  try {
    plan_zone(hf, s);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Usage);
    CHECK(std::string(e.what()).find("use a larger voxel size or a smaller box") != std::string::npos);
    CHECK(e.has_hint("voxel-size"));
  }
  ZoneBoxSpec b;
  b.kind = ZoneBoxSpec::Kind::Box;
  b.min = {hf.origin_x - 5, 0, hf.origin_z};
  b.max = {hf.origin_x + 5, 5, hf.origin_z + 5};
  CHECK_THROWS_WITH(plan_zone(hf, b), Catch::Contains("not inside the terrain"));
  b.min = {hf.origin_x + 1, 0, hf.origin_z + 1};
  b.max = {hf.origin_x + 2, 5, hf.origin_z + 2};
  CHECK_THROWS_WITH(plan_zone(hf, b), Catch::Contains("too small for a border"));
}

TEST_CASE("zone plan refuses NoData under the zone, a fill policy makes it bakeable") {
  Heightfield hf = random_terrain(8, 21, 21, 1.0, 1.0);
  hf.heights[10 + 21 * 10] = NAN;
  ZoneBoxSpec s = whole(0.5);
  const auto e = test::thrown_error([&] { plan_zone(hf, s); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("without data") && Catch::Contains("give a NoData fill policy"));
  CHECK(e->has_hint("nodata-fill"));
  Heightfield a = hf, b = hf, c = hf;
  CHECK(fill_nodata(a, NodataFill{NodataFill::Kind::Value, 3.5}) == 1);
  CHECK(a.heights[10 + 21 * 10] == 3.5f);
  fill_nodata(b, NodataFill{NodataFill::Kind::Min, 0});
  float lo = INFINITY;
  for (float h : hf.heights) if (!std::isnan(h)) lo = std::min(lo, h);
  CHECK(b.heights[10 + 21 * 10] == lo);
  fill_nodata(c, NodataFill{NodataFill::Kind::Nearest, 0});
  CHECK(c.heights[10 + 21 * 10] == hf.heights[9 + 21 * 10]);
  CHECK_NOTHROW(plan_zone(c, s));
}

TEST_CASE("rebake keeps sculpted samples and paint and takes the new terrain elsewhere") {
  Heightfield hf = random_terrain(9, 21, 21, 1.0, 1.5);
  Zone z = bake_zone(hf, whole(0.5));
  CHECK(z.grid.data == z.baked.data);
  CHECK(z.paint.data.empty());
  // Sculpt a few samples and paint one.
  z.grid.data[100] = uint8_t(z.grid.data[100] ^ 0x40);
  z.grid.data[5000] = uint8_t(z.grid.data[5000] ^ 0x11);
  z.paint = ByteGrid(z.grid.cells, 0);
  z.paint.data[777] = 5;
  const auto sculpted100 = z.grid.data[100], sculpted5000 = z.grid.data[5000];
  Heightfield moved = hf;
  for (float& h : moved.heights) h += 0.3f;
  Zone before = z;
  RebakeStats st = rebake_zone(z, moved);
  CHECK(st.kept == 2);
  CHECK(st.changed > 0);
  CHECK(z.grid.data[100] == sculpted100);
  CHECK(z.grid.data[5000] == sculpted5000);
  CHECK(z.paint.data[777] == 5);
  ByteGrid expect;
  bake_sdf(moved, z.meta, expect);
  CHECK(z.baked.data == expect.data);
  uint64_t differ = 0;
  for (size_t k = 0; k < expect.data.size(); ++k) differ += z.grid.data[k] != expect.data[k];
  CHECK(differ == 2);
  CHECK(z.meta.grid_version == before.meta.grid_version + 1);
}

TEST_CASE("rebake grows the top when the new terrain rises, keeping samples in place") {
  Heightfield hf = random_terrain(10, 21, 21, 1.0, 1.0);
  Zone z = bake_zone(hf, whole(0.5));
  z.grid.at(3, 2, 4) = 77;
  Heightfield high = hf;
  for (float& h : high.heights) h += 3.0f;
  RebakeStats st = rebake_zone(z, high);
  CHECK(st.grown_cells >= 6);
  CHECK(z.grid.at(3, 2, 4) == 77);
  CHECK(z.grid.data.size() == z.meta.cells.samples());
}

TEST_CASE("splat maps resample bilinearly to the zone columns in _Control order") {
  Heightfield hf = random_terrain(12, 9, 9, 1.0, 1.0);
  hf.origin_x = 0;
  hf.origin_z = 0;
  hf.dz = 1;
  ZoneMeta m = plan_zone(hf, whole(1.0));
  SplatImage img;
  img.width = 2;
  img.height = 2;
  // Row 0 is the far (max z) edge. Texel (0,1) = near-left: R = 200.
  img.rgba = {0, 10, 0, 0, 0, 20, 0, 0, 200, 30, 0, 0, 0, 40, 0, 0};
  auto layers = resample_splat({img}, 2, m, 0, 0, 8, 8);
  REQUIRE(layers.size() == 2);
  CHECK(layers[0].width == 9);
  CHECK(layers[0].values[0] == 200);                // x=0, z=0: near-left texel, clamped
  CHECK(layers[0].values[8 + 9 * 8] == 0);          // far-right
  CHECK(layers[1].values[4 + 9 * 4] == 25);         // centre: mean of 10, 20, 30, 40
  CHECK(layers[0].values[4 + 9 * 0] == 100);        // near edge, halfway between 200 and 0
  CHECK_THROWS_AS(resample_splat({img}, 5, m, 0, 0, 8, 8), Error);
}

TEST_CASE("parallel RLE encoding gives the canonical bytes") {
  // Small slices, so that a small bake and small noise cross hundreds of slice boundaries.
  Heightfield hf = random_terrain(13, 20, 20, 1.0, 3.0);
  ZoneMeta m = plan_zone(hf, whole(0.25));
  ByteGrid g;
  bake_sdf(hf, m, g);
  REQUIRE(g.data.size() > 100000);
  for (size_t slice : {size_t(1000), size_t(4099)})
    CHECK(rle::encode_parallel(g.data, slice) == rle::encode(g.data));
  std::vector<uint8_t> noise(size_t(1) << 16);
  std::mt19937 rng(3);
  for (auto& b : noise) b = uint8_t(rng() % 3);
  // Long runs spanning several slices, and runs exactly at the minimum length.
  std::fill(noise.begin() + 5000, noise.begin() + 9500, uint8_t(7));
  std::fill(noise.begin() + 12000, noise.begin() + 12008, uint8_t(9));
  for (size_t slice : {size_t(8), size_t(1000), size_t(1024)})
    CHECK(rle::encode_parallel(noise, slice) == rle::encode(noise));
  CHECK(rle::encode_parallel(noise) == rle::encode(noise));
}
