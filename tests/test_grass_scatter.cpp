// The grass scatter (lib/grass/scatter.hpp) against the engine's own properties and the
// derived vectors of the specs page (section 5.4), and its arithmetic (lib/grass/grass_math.hpp).
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>

#include "lib/core/error.hpp"
#include "lib/grass/grass_math.hpp"
#include "lib/grass/scatter.hpp"
#include "lib/grass/surface_sample.hpp"
#include "lib/grass/verdict_batch.hpp"

using namespace voxkit::grass;

namespace {

SurfaceGrid flat(float x0, float z0, int samples, float spacing = 1.0f, float height = 0.0f) {
  SurfaceGrid g;
  g.origin_x = x0, g.origin_z = z0;
  g.spacing = spacing;
  g.samples_x = g.samples_z = samples;
  g.height.assign(size_t(samples) * samples, height);
  return g;
}

SurfaceGrid hills(float x0, float z0, int samples, float amplitude) {
  SurfaceGrid g = flat(x0, z0, samples);
  g.layer_names = {"Grass"};
  g.weights.assign(1, std::vector<float>(g.height.size()));
  for (int z = 0; z < samples; ++z)
    for (int x = 0; x < samples; ++x) {
      const size_t i = size_t(z) * samples + x;
      g.height[i] = amplitude * static_cast<float>(std::sin(x * 0.11) * std::cos(z * 0.07));
      g.weights[0][i] = static_cast<float>(0.5 + 0.5 * std::sin(x * 0.05 + z * 0.03));
    }
  return g;
}

bool same_bits(const Blade& a, const Blade& b) { return std::memcmp(&a, &b, sizeof(Blade)) == 0; }

}  // namespace

TEST_CASE("grass hash: the specs page's derived vectors", "[grass]") {
  struct V {
    int32_t x, z, i;
    uint32_t h;
  };
  for (const V& v : {V{0, 0, 0, 0x00000000u}, V{0, 0, 1, 0x688990C0u}, V{1, 0, 0, 0x6D523710u},
                     V{-1, 0, 0, 0x81AF2019u}, V{0, -1, 0, 0x1CBA8B71u}, V{-1, -1, 0, 0x331971D0u},
                     V{7, -3, 5, 0xFF8969E8u}})
    CHECK(cell_hash(v.x, v.z, v.i) == v.h);
  const float u0[] = {0.3229577f, 0.4511521f, 0.2882702f, 0.1246216f, 0.2173335f, 0.2699119f, 0.1567692f};
  const float u1[] = {0.7390475f, 0.7596094f, 0.3022393f, 0.9027900f, 0.0524009f, 0.6421339f, 0.5472236f};
  const int streams[] = {1, 3, 6, 7, 8, 9, 10};
  for (int k = 0; k < 7; ++k) {
    CHECK(unit(cell_hash(0, 0, 0), streams[k]) == Approx(u0[k]).margin(5e-8));
    CHECK(unit(cell_hash(0, 0, 1), streams[k]) == Approx(u1[k]).margin(5e-8));
  }
  // The four cells around the origin hash differently.
  std::set<uint32_t> h{cell_hash(0, 0, 0), cell_hash(-1, 0, 0), cell_hash(0, -1, 0), cell_hash(-1, -1, 0)};
  CHECK(h.size() == 4);
}

TEST_CASE("grass unit: a draw can be exactly 1.0, and then refuses even at keep 1", "[grass]") {
  CHECK(static_cast<float>(4294967168u) * 0x1p-32f == 1.0f);
  CHECK(static_cast<float>(4294967167u) * 0x1p-32f < 1.0f);
  // Find a candidate of cell (0, 0) whose density draw is 1.0 (128 in 2^32 are).
  int32_t found = -1;
  for (int32_t i = 0; i < 200000000 && found < 0; ++i)
    if (unit(cell_hash(0, 0, i), kDensityStream) == 1.0f) found = i;
  REQUIRE(found >= 0);
  GrassType t = default_type("one");
  t.density = 1e6f;  // 32000 per side: the index fits
  const SurfaceGrid g = flat(-1, -1, 40);
  const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
  REQUIRE(int64_t(s.side) * s.side > found);
  Trace tr;
  CHECK(consider(s, g, {0, 0}, found, nullptr, &tr) == Refusal::Density);
  CHECK(tr.keep == 1.0f);
  CHECK(tr.draw == 1.0f);
}

TEST_CASE("grass sine, cosine and arc cosine round like the correctly rounded functions", "[grass]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> angle(0.0f, 6.2831855f), cosine(-1.0f, 1.0f);
  int bad = 0;
  for (int i = 0; i < 300000; ++i) {
    const float a = angle(rng), c = cosine(rng);
    bad += sin_f(a) != static_cast<float>(std::sin(double(a)));
    bad += cos_f(a) != static_cast<float>(std::cos(double(a)));
    bad += acos_f(c) != static_cast<float>(std::acos(double(c)));
  }
  CHECK(bad == 0);
  CHECK(acos_f(1.0f) == 0.0f);
  CHECK(acos_f(-1.0f) == static_cast<float>(std::acos(-1.0)));
  CHECK(std::isnan(acos_f(1.5f)));
}

TEST_CASE("grass density curve: the guarded smoothstep", "[grass]") {
  GrassType t = default_type("d");
  CHECK(density_at(t, 0.0f) == 1.0f);  // no layer: everywhere
  t.layer = "Grass";
  CHECK(density_at(t, 0.3f) == Approx(0.259259).margin(1e-6));
  CHECK(density_at(t, 0.375f) == Approx(0.5).margin(1e-6));
  CHECK(density_at(t, 0.5f) == Approx(0.8738).margin(1e-4));
  CHECK(density_at(t, 0.6f) == 1.0f);
  CHECK(density_at(t, 0.1f) == 0.0f);
  t.min_weight = t.max_weight = 0.5f;  // collapsed: defined, a step 1e-4 wide
  CHECK(density_at(t, 0.5f) == 0.0f);
  CHECK(density_at(t, 0.50005f) == Approx(0.5).margin(0.01));
  CHECK(density_at(t, 0.6f) == 1.0f);
  CHECK(grid_side(default_type("g"), 32.0f) == 128);
  GrassType h = default_type("h");
  h.density = 6.25f;  // 2.5 per metre: a 1 m cell rounds 2.5 half to even (2), a 3 m one 7.5 -> 8
  CHECK(grid_side(h, 1.0f) == 2);
  CHECK(grid_side(h, 3.0f) == 8);
  h.density = 0.0f;
  CHECK(grid_side(h, 32.0f) == 1);
}

TEST_CASE("grass scatter: the engine's properties", "[grass]") {
  GrassType t = default_type("meadow");
  SECTION("the four cells around the origin disagree") {
    const SurfaceGrid g = flat(-40, -40, 81);
    const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
    const std::vector<CellKey> cells{{-1, -1}, {0, -1}, {-1, 0}, {0, 0}};
    const auto r = scatter(s, g, cells, {});
    // Offsets from each cell's corner differ between every pair.
    for (size_t a = 0; a < 4; ++a)
      for (size_t b = a + 1; b < 4; ++b) {
        const float dx = r[a].blades[0].position[0] - cells[a].x * 32.0f;
        const float dx2 = r[b].blades[0].position[0] - cells[b].x * 32.0f;
        CHECK(dx != dx2);
      }
  }
  SECTION("a cell re-entering range gets the same blades, on any thread count") {
    const SurfaceGrid g = hills(-70, -70, 141, 6.0f);
    t.layer = "Grass";
    const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
    std::vector<CellKey> cells;
    for (int z = -2; z <= 1; ++z)
      for (int x = -2; x <= 1; ++x) cells.push_back({x, z});
    std::vector<CellResult> one, two;
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
      one = scatter(s, g, cells, {});
    }
    two = scatter(s, g, cells, {});
    REQUIRE(one.size() == two.size());
    for (size_t c = 0; c < one.size(); ++c) {
      REQUIRE(one[c].blades.size() == two[c].blades.size());
      CHECK(one[c].counts == two[c].counts);
      for (size_t i = 0; i < one[c].blades.size(); ++i) CHECK(same_bits(one[c].blades[i], two[c].blades[i]));
    }
  }
  SECTION("a lower scale keeps a subset and moves nothing") {
    const SurfaceGrid g = hills(-70, -70, 141, 3.0f);
    t.layer = "Grass";
    const std::vector<CellKey> cells{{-1, 0}, {0, 0}};
    const auto full = scatter(make_setup(t, 32.0f, 1.0f, g), g, cells, {});
    const auto half = scatter(make_setup(t, 32.0f, 0.5f, g), g, cells, {});
    for (size_t c = 0; c < cells.size(); ++c) {
      CHECK(half[c].blades.size() < full[c].blades.size());
      size_t j = 0;
      for (size_t i = 0; i < half[c].blades.size(); ++i) {
        while (j < full[c].indices.size() && full[c].indices[j] != half[c].indices[i]) ++j;
        REQUIRE(j < full[c].indices.size());
        CHECK(same_bits(half[c].blades[i], full[c].blades[j]));
      }
    }
  }
  SECTION("verdicts: holes and the edge grow nothing, steep ground refuses by slope") {
    SurfaceGrid g = hills(0, 0, 33, 12.0f);
    g.hole.assign(32 * 32, 0);
    for (int z = 0; z < 8; ++z)
      for (int x = 0; x < 8; ++x) g.hole[size_t(z) * 32 + x] = 1;
    const auto r = scatter(make_setup(t, 32.0f, 1.0f, g), g, std::vector<CellKey>{{0, 0}, {1, 0}}, {});
    CHECK(r[0].counts[1] > 0);  // the hole
    CHECK(r[0].counts[2] > 0);  // steep
    CHECK(r[1].counts[1] == r[1].candidates);  // off the surface
  }
  SECTION("the slope threshold fast path gives the same verdicts and blades as the arc cosine") {
    const SurfaceGrid g = hills(-70, -70, 141, 10.0f);
    t.layer = "Grass";
    const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
    uint32_t steep = 0;
    for (const CellKey c : {CellKey{-2, -2}, CellKey{0, 1}}) {
      const auto r = scatter(s, g, std::vector<CellKey>{c}, {});
      size_t k = 0;
      std::array<uint32_t, 4> counts{};
      for (int32_t i = 0; i < s.side * s.side; ++i) {
        Blade b;
        const Refusal v = consider(s, g, c, i, &b);
        ++counts[static_cast<size_t>(v)];
        if (v == Refusal::Placed) {
          REQUIRE(k < r[0].blades.size());
          CHECK(r[0].indices[k] == i);
          CHECK(same_bits(r[0].blades[k++], b));
        }
      }
      CHECK(counts == r[0].counts);
      steep += counts[2];
    }
    CHECK(steep > 0);
  }
  SECTION("a layer the surface does not have reads weight 0: nothing grows") {
    const SurfaceGrid g = hills(-70, -70, 141, 1.0f);
    t.layer = "Snow";
    const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
    CHECK(s.layer == kMissingLayer);
    const auto r = scatter(s, g, std::vector<CellKey>{{0, 0}}, {});
    CHECK(r[0].counts[0] == 0);
    CHECK(r[0].counts[3] == r[0].candidates);
  }
  SECTION("capacity keeps the lowest candidate indices") {
    const SurfaceGrid g = flat(-40, -40, 81);
    const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
    ScatterOptions o;
    o.capacity = 100;
    const auto r = scatter(s, g, std::vector<CellKey>{{0, 0}}, o);
    const auto all = scatter(s, g, std::vector<CellKey>{{0, 0}}, {});
    REQUIRE(r[0].blades.size() == 100);
    CHECK(r[0].over_capacity == all[0].blades.size() - 100);
    for (size_t i = 0; i < 100; ++i) CHECK(r[0].indices[i] == all[0].indices[i]);
  }
}

TEST_CASE("grass blade: fused lerp scale, rotation order, record layout", "[grass]") {
  GrassType t = default_type("b");
  SurfaceGrid g = hills(-70, -70, 141, 8.0f);
  t.align_to_normal = 1.0f;
  t.random_yaw = false;
  t.max_slope = 3.0f;
  const ScatterSetup s = make_setup(t, 32.0f, 1.0f, g);
  const auto r = scatter(s, g, std::vector<CellKey>{{0, 0}}, {});
  REQUIRE(!r[0].blades.empty());
  int lerp_differs = 0;
  for (size_t i = 0; i < r[0].blades.size(); ++i) {
    const Blade& b = r[0].blades[i];
    const uint32_t h = cell_hash(0, 0, r[0].indices[i]);
    const float u = unit(h, kScaleStream);
    CHECK(b.scale == std::fma(t.min_scale, 1.0f - u, t.max_scale * u));
    lerp_differs += b.scale != t.min_scale * (1.0f - u) + t.max_scale * u;
    CHECK(b.padding[0] == 0.0f);
    CHECK(b.tint == unit(h, kTintStream));
    CHECK(b.wind_phase == unit(h, kPhaseStream) * kTau);
    // No yaw, full alignment: the blade's up axis is the surface normal (FromUpTo leaves
    // ground within 0.9999 of flat upright).
    const Ground gr = g.sample(b.position[0], b.position[2], kNoLayer);
    if (gr.ny > 0.9999f) continue;
    const float qx = b.rotation[0], qy = b.rotation[1], qz = b.rotation[2], qw = b.rotation[3];
    const double ux = 2 * (qx * qy - qw * qz), uy = 1 - 2 * (qx * qx + qz * qz), uz = 2 * (qy * qz + qw * qx);
    CHECK(ux == Approx(gr.nx).margin(2e-5));
    CHECK(uy == Approx(gr.ny).margin(2e-5));
    CHECK(uz == Approx(gr.nz).margin(2e-5));
  }
  CHECK(lerp_differs > 0);  // the fused form matters for some blades
  // With a yaw, the yaw turns the tilted blade about world up: its up axis keeps the normal's y.
  t.random_yaw = true;
  const ScatterSetup y = make_setup(t, 32.0f, 1.0f, g);
  const auto ry = scatter(y, g, std::vector<CellKey>{{0, 0}}, {});
  for (size_t i = 0; i < std::min<size_t>(ry[0].blades.size(), 200); ++i) {
    const Blade& b = ry[0].blades[i];
    const Ground gr = g.sample(b.position[0], b.position[2], kNoLayer);
    const float qx = b.rotation[0], qz = b.rotation[2];
    CHECK(1 - 2 * (qx * qx + qz * qz) == Approx(gr.ny).margin(2e-5));
  }
}

TEST_CASE("grass setup refuses what the engine would and grids too fine for an int", "[grass]") {
  const SurfaceGrid g = flat(0, 0, 4);
  GrassType t = default_type("x");
  t.density = -1.0f;
  CHECK_THROWS_AS(make_setup(t, 32.0f, 1.0f, g), voxkit::Error);
  t = default_type("x");
  t.density = 1e7f;  // 32 * 3162 = 101193 per side
  CHECK_THROWS_AS(make_setup(t, 32.0f, 1.0f, g), voxkit::Error);
  t = default_type("x");
  CHECK(make_setup(t, 0.25f, 1.0f, g).cell_size == 1.0f);  // cells below 1 m read as 1 m
}

TEST_CASE("grass surface: dividing by a power-of-two spacing as a product gives the same bits", "[grass]") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> pos(-5000.0f, 5000.0f);
  for (float sp : {0.25f, 0.5f, 1.0f, 2.0f, 32.0f, 0.75f, 3.0f}) {
    for (int i = 0; i < 20000; ++i) {
      float x = pos(rng);
      if (i % 7 == 0) x = std::ldexp(x, -140);  // results below the normal range too
      const float a = voxkit::grass::detail::over_spacing(x, sp);
      const float b = x / sp;
      REQUIRE(std::memcmp(&a, &b, 4) == 0);
    }
  }
}

TEST_CASE("grass scatter: the batched verdicts equal consider() on every kind of ground", "[grass]") {
  // Grids of power-of-two and other spacings, with holes, cells half off the grid, layers
  // present, missing and none, steep and gentle limits, densities whose rows are not a
  // multiple of eight candidates: every candidate's verdict and blade as consider() gives it.
  int cases = 0;
  for (const float spacing : {1.0f, 0.7f, 2.0f})
    for (const char* layer : {"Grass", "", "Snow"})
      for (const float max_slope : {0.785398185f, 0.3f, 3.2f}) {
        SurfaceGrid g = hills(-30, -30, 61, 6.0f);
        g.spacing = spacing;
        g.hole.assign(60 * 60, 0);
        for (int z = 20; z < 27; ++z)
          for (int x = 5; x < 40; x += 3) g.hole[size_t(z) * 60 + x] = 1;
        GrassType t = default_type("check");
        t.layer = layer, t.max_slope = max_slope, t.density = 3.3f, t.min_weight = 0.2f, t.max_weight = 0.7f;
        const ScatterSetup s = make_setup(t, 8.0f, 0.8f, g);
        const std::vector<CellKey> cells{{-4, -4}, {0, 0}, {-1, 2}, {3, -2}, {2 + int(40 * spacing / 8), 1}};
        const auto r = scatter(s, g, cells, {});
        for (size_t c = 0; c < cells.size(); ++c) {
          size_t k = 0;
          std::array<uint32_t, 4> counts{};
          bool same = true;
          for (int32_t i = 0; i < s.side * s.side; ++i) {
            Blade b;
            const Refusal v = consider(s, g, cells[c], i, &b);
            ++counts[static_cast<size_t>(v)];
            if (v != Refusal::Placed) continue;
            same = same && k < r[c].blades.size() && r[c].indices[k] == i && same_bits(r[c].blades[k], b);
            ++k;
          }
          INFO("spacing " << spacing << " layer '" << layer << "' max slope " << max_slope << " cell " << c);
          CHECK(same);
          CHECK(k == r[c].blades.size());
          CHECK(r[c].blades.capacity() == r[c].blades.size());  // no spare room held
          CHECK(counts == r[c].counts);
          ++cases;
        }
      }
  CHECK(cases == 3 * 3 * 3 * 5);
}

TEST_CASE("grass verdicts: every vector build gives the same counts and placed candidates", "[grass]") {
  // The scatter runs the widest build this CPU has (compared with consider() above); here each
  // build this CPU runs is compared with the eight-lane one, field by field, over rows whose
  // lengths are not multiples of eight or sixteen, on and off the grid, over holes.
  using namespace voxkit::grass::detail;
  if (!verdicts_batch_supported()) {
    SUCCEED("this CPU has no AVX2 and FMA: the scalar loop runs");
    return;
  }
  int rows = 0;
  for (const float spacing : {1.0f, 0.7f, 2.0f})
    for (const char* layer : {"Grass", "", "Snow"})
      for (const bool weighted : {true, false}) {
        SurfaceGrid g = hills(-30, -30, 61, 6.0f);
        g.spacing = spacing;
        g.hole.assign(60 * 60, 0);
        for (int z = 20; z < 27; ++z)
          for (int x = 5; x < 40; x += 3) g.hole[size_t(z) * 60 + x] = 1;
        VerdictSetup v(g, g.layer_index(layer));
        v.reach = 0.4f, v.min_up = 0.93f;
        v.weighted = weighted, v.low = 0.2f, v.span = 0.5f, v.scale = 0.8f;
        v.random_yaw = weighted, v.min_scale = 0.6f, v.max_scale = 1.7f;
        for (const int32_t side : {13, 37}) {
          std::vector<float> centre_x(static_cast<size_t>(side));
          for (int32_t k = 0; k < side; ++k) centre_x[size_t(k)] = -35.0f + float(k) * 0.9f * 2.2f * spacing;
          for (int32_t row = 0; row < side; ++row) {
            const float centre_z = -33.0f + float(row) * 1.9f * spacing;
            const uint32_t seed = 0x9E3779B9u * uint32_t(row + 7);
            std::array<uint32_t, 4> want_counts{}, got_counts{};
            PlacedRun want, got;
            auto run_row = [&](VerdictLanes lanes, std::array<uint32_t, 4>& counts, PlacedRun& out) {
              const int32_t width = verdict_lane_count(lanes);
              for (int32_t x = 0; x < side; x += width)
                verdicts_with(lanes, v, seed, row * side + x, &centre_x[size_t(x)], centre_z,
                              std::min(width, side - x), counts.data(), &out);
            };
            run_row(VerdictLanes::Avx2, want_counts, want);
            for (const auto lanes : {VerdictLanes::Avx2, VerdictLanes::Avx512}) {
              if (!verdict_lanes_supported(lanes)) continue;
              got_counts = {}, got.size = 0;
              run_row(lanes, got_counts, got);
              INFO("spacing " << spacing << " layer '" << layer << "' side " << side << " row " << row << " lanes "
                              << verdict_lane_count(lanes));
              CHECK(got_counts == want_counts);
              REQUIRE(got.size == want.size);
              const size_t n = want.size;
              bool same = std::memcmp(got.index, want.index, n * 4) == 0;
              for (const auto field : {&PlacedRun::px, &PlacedRun::py, &PlacedRun::pz, &PlacedRun::nx, &PlacedRun::ny,
                                       &PlacedRun::nz, &PlacedRun::yaw, &PlacedRun::scale, &PlacedRun::tint,
                                       &PlacedRun::phase})
                same = same && std::memcmp(got.*field, want.*field, n * 4) == 0;
              CHECK(same);
            }
            ++rows;
          }
        }
      }
  CHECK(rows == 3 * 3 * 2 * (13 + 37));
}
