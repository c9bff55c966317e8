// The melt step of ice modules: the falloff's derived values, litres per point and for a
// sphere against the integral, rounding, the border, the hardness curve and the intensity
// formula, cave regions opened through a face neighbour, thresholds, chunks, determinism.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <cmath>
#include <random>

#include "lib/caves/melt.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;

namespace {

MeltHit amount_hit(double x, double y, double z, double r, double amount) {
  MeltHit h;
  h.centre = {x, y, z};
  h.radius = r;
  h.amount = amount;
  return h;
}

}  // namespace

TEST_CASE("melt falloff has the derived values of the specs page", "[melt]") {
  CHECK(melt_falloff(0.f) == 1.f);
  CHECK(melt_falloff(0.25f) == 0.84375f);  // 0.8438
  CHECK(melt_falloff(0.5f) == 0.5f);
  CHECK(melt_falloff(0.75f) == 0.15625f);  // 0.1562
  CHECK(melt_falloff(0.25f) == Approx(0.8438).margin(5e-5));
  CHECK(melt_falloff(0.75f) == Approx(0.1562).margin(5e-5));
}

TEST_CASE("melt counts 15.625 litres for a full point at 0.25 m, scaled by the cube of the voxel", "[melt]") {
  CHECK(melt_litres(255, 0.25) == 15.625);
  CHECK(melt_litres(255, 0.5) == 125.0);
  CHECK(melt_litres(255 * 98304, 0.25) == 1536000.0);  // the TDD module's voxels

  ByteGrid g({8, 8, 8}, 255);
  const MeltHit h = amount_hit(4, 4, 4, 0.5, 1.0);  // only the centre is strictly within r
  MeltResult r = melt(g, std::span(&h, 1));
  CHECK(r.points_changed == 1);
  CHECK(r.bytes_removed == 255);
  CHECK(r.litres(0.25) == 15.625);
  CHECK(g.at(4, 4, 4) == 0);
  CHECK(g.at(5, 4, 4) == 255);
}

TEST_CASE("melt of a sphere removes the volume of the falloff's integral", "[melt]") {
  // Removed points = integral of (1 - smoothstep(d/R)) over the ball = 4 pi R^3 / 15.
  for (double radius : {6.0, 10.0, 13.5}) {
    ByteGrid g({40, 40, 40}, 255);
    const MeltHit h = amount_hit(20.3, 19.6, 20.1, radius, 1.0);
    MeltResult r = melt(g, std::span(&h, 1));
    const double want = 4.0 * M_PI * radius * radius * radius / 15.0 * 15.625;
    INFO("radius " << radius);
    CHECK(r.litres(0.25) == Approx(want).epsilon(0.01));
  }
}

TEST_CASE("melt rounds the new byte half to even and never goes below 0", "[melt]") {
  ByteGrid g({2, 2, 2}, 255);
  g.at(1, 1, 1) = 200;
  // amount 0.5: 127.5 bytes at the centre; 200 - 127.5 = 72.5 -> 72.
  MeltHit h = amount_hit(1, 1, 1, 0.5, 0.5);
  melt(g, std::span(&h, 1));
  CHECK(g.at(1, 1, 1) == 72);
  g.at(1, 1, 1) = 201;  // 73.5 -> 74
  MeltResult r = melt(g, std::span(&h, 1));
  CHECK(g.at(1, 1, 1) == 74);
  CHECK(r.bytes_removed == 127);
  g.at(1, 1, 1) = 100;  // 100 - 127.5 < 0 -> 0, and litres count the 100 bytes removed
  r = melt(g, std::span(&h, 1));
  CHECK(g.at(1, 1, 1) == 0);
  CHECK(r.bytes_removed == 100);
  h.amount = 0.001;  // 0.255 bytes rounds back to the old value: nothing changes
  g.at(1, 1, 1) = 50;
  r = melt(g, std::span(&h, 1));
  CHECK(r.points_changed == 0);
  CHECK(r.changed.empty());
  CHECK(r.remesh.empty());
}

TEST_CASE("melt changes only points strictly within the radius", "[melt]") {
  ByteGrid g({8, 8, 8}, 255);
  const MeltHit h = amount_hit(4, 4, 4, 2.0, 1.0);
  melt(g, std::span(&h, 1));
  CHECK(g.at(6, 4, 4) == 255);  // dist 2 = r
  CHECK(g.at(5, 4, 4) == 128);  // dist 1: falloff 0.5 -> 255 - 127.5 = 127.5 -> 128
  CHECK(g.at(5, 5, 4) < 255);   // dist 1.414
}

TEST_CASE("melt reaches the grid border unless asked to keep it", "[melt]") {
  ByteGrid g({4, 4, 4}, 255);
  const MeltHit h = amount_hit(0, 0, 0, 2.0, 1.0);
  ByteGrid kept = g;
  melt(g, std::span(&h, 1));
  CHECK(g.at(0, 0, 0) == 0);
  MeltOptions o;
  o.keep_border = true;
  MeltResult r = melt(kept, std::span(&h, 1), o);
  CHECK(kept.at(0, 0, 0) == 255);
  CHECK(kept.at(1, 0, 0) == 255);
  CHECK(kept.at(1, 1, 1) < 255);
  CHECK(r.changed == Box3i{{1, 1, 1}, {1, 1, 1}});
}

TEST_CASE("melt intensity is power x temperature x dt / (hardness(depth) x brake)", "[melt]") {
  MeltOptions o;
  o.hardness = {1.0, 3.0};  // over the module's height: 1 at the top face, 3 at the bottom
  o.voxel_size = 0.25;
  CHECK(hardness_at(o, 0.0, 2.0) == 1.0);
  CHECK(hardness_at(o, 1.0, 2.0) == 2.0);
  CHECK(hardness_at(o, 2.0, 2.0) == 3.0);
  CHECK(hardness_at(o, -1.0, 2.0) == 1.0);  // clamped at both ends
  CHECK(hardness_at(o, 9.0, 2.0) == 3.0);
  o.hardness_step = 0.5;  // samples at depths 0 and 0.5 m
  CHECK(hardness_at(o, 0.25, 2.0) == 2.0);
  CHECK(hardness_at(o, 1.0, 2.0) == 3.0);
  o.hardness_step.reset();

  ByteGrid g({8, 8, 8}, 255);
  MeltHit h;
  h.centre = {4, 4, 4};  // depth 4 cells of 8: hardness 2
  h.radius = 0.5;
  h.power = 2;
  h.temperature = 3;
  h.dt = 0.5;
  h.brake = 1.5;  // 2 * 3 * 0.5 / (2 * 1.5) = 1 whole point
  MeltResult r = melt(g, std::span(&h, 1), o);
  REQUIRE(r.hits.size() == 1);
  CHECK(r.hits[0].amount == 1.0);
  CHECK(*r.hits[0].hardness == 2.0);
  CHECK(r.hits[0].depth == 1.0);
  CHECK(g.at(4, 4, 4) == 0);

  h.brake.reset();  // the run's brake
  o.brake = 3.0;
  g.at(4, 4, 4) = 255;
  r = melt(g, std::span(&h, 1), o);
  CHECK(r.hits[0].amount == 0.5);
  CHECK(g.at(4, 4, 4) == 128);  // 255 - 127.5 -> 127.5 rounds to even 128
}

TEST_CASE("melt refuses hits out of range and contradictory hits", "[melt]") {
  ByteGrid g({4, 4, 4}, 255);
  auto refused = [&](const MeltHit& h, const char* what) {
    try {
      melt(g, std::span(&h, 1));
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Data);
      CHECK_THAT(e.what(), Catch::Contains("hit 1") && Catch::Contains(what));
    }
  };
  refused(amount_hit(1, 1, 1, -1, 1), "radius");
  refused(amount_hit(1, 1, 1, 0, 1), "radius");
  refused(amount_hit(1, NAN, 1, 1, 1), "centre y");
  refused(amount_hit(1, 1, 1, 1, -0.5), "amount");
  MeltHit both = amount_hit(1, 1, 1, 1, 1);
  both.power = 1;
  refused(both, "both");
  MeltHit none = amount_hit(1, 1, 1, 1, 1);
  none.amount.reset();
  none.power = 1;
  refused(none, "no amount");
  CHECK(g.data == ByteGrid({4, 4, 4}, 255).data);
}

TEST_CASE("melt opens a closed region that a carved point touches through a face neighbour", "[melt]") {
  // 32x16x16 cells of ice; region 2 is one closed air point at (10,8,8), region 3 another at
  // (25,8,8) far away. The hit carves (9,8,8) but not (10,8,8) itself.
  ByteGrid g({32, 16, 16}, 255);
  RegionGrid rg{g.cells, std::vector<uint16_t>(g.data.size(), 0)};
  g.at(10, 8, 8) = 0;
  rg.ids[g.cells.index(10, 8, 8)] = 2;
  g.at(25, 8, 8) = 0;
  rg.ids[g.cells.index(25, 8, 8)] = 3;
  MeltRegions regions{&rg, {2, 3}};
  std::vector<MeltHit> hits{amount_hit(4, 8, 8, 2, 1), amount_hit(8.5, 8, 8, 0.6, 1), amount_hit(9, 8, 8, 1, 1)};
  MeltResult r = melt(g, hits, {}, regions);
  CHECK(g.at(10, 8, 8) == 0);
  CHECK(g.at(9, 8, 8) == 0);
  REQUIRE(r.opened.size() == 1);
  CHECK(r.opened[0].id == 2);
  CHECK(r.opened[0].hit == 2);  // (9,8,8) is carved by hit 2 (dist 0.5 < 0.6)
  CHECK(r.hits[1].opened == std::vector<uint16_t>{2});
  CHECK(r.hits[2].opened.empty());  // already open
  CHECK(r.closed_after == std::vector<uint16_t>{3});
  // Chunks: the carved points (x 3..9) and the opened region's point (x 10) in chunk x 0,
  // y 8 and z 8 in chunk 0 only; region 3 is still closed, its chunk x 1 is not remeshed.
  CHECK(r.remesh == std::vector<std::array<uint32_t, 3>>{{0, 0, 0}});
}

TEST_CASE("melt marks every chunk holding a point of an opened region", "[melt]") {
  ByteGrid g({48, 16, 16}, 255);
  RegionGrid rg{g.cells, std::vector<uint16_t>(g.data.size(), 0)};
  for (uint32_t x = 4; x <= 40; ++x) {  // a closed tunnel through chunks x 0..2
    g.at(x, 8, 8) = 0;
    rg.ids[g.cells.index(x, 8, 8)] = 1;
  }
  const MeltHit h = amount_hit(2, 8, 8, 1.5, 1);  // carves (3,8,8), beside the tunnel's end
  MeltResult r = melt(g, std::span(&h, 1), {}, MeltRegions{&rg, {1}});
  REQUIRE(r.opened.size() == 1);
  CHECK(r.remesh == std::vector<std::array<uint32_t, 3>>{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  CHECK(r.closed_after.empty());
}

TEST_CASE("melt marks the chunks of a changed point on a chunk border on both sides", "[melt]") {
  ByteGrid g({32, 32, 32}, 255);
  const MeltHit h = amount_hit(16, 8, 8, 0.5, 1);
  MeltResult r = melt(g, std::span(&h, 1));
  CHECK(r.chunk_grid == std::array<uint32_t, 3>{2, 2, 2});
  CHECK(r.remesh == std::vector<std::array<uint32_t, 3>>{{0, 0, 0}, {1, 0, 0}});
  const MeltHit h2 = amount_hit(15, 8, 8, 0.5, 1);  // sample 15 is in chunk 1's range too
  r = melt(g, std::span(&h2, 1));
  CHECK(r.remesh == std::vector<std::array<uint32_t, 3>>{{0, 0, 0}, {1, 0, 0}});
  const MeltHit h3 = amount_hit(8, 8, 8, 0.5, 1);
  r = melt(g, std::span(&h3, 1));
  CHECK(r.remesh == std::vector<std::array<uint32_t, 3>>{{0, 0, 0}});
}

TEST_CASE("melt reports the hit that crosses the highlight threshold and the one that completes", "[melt]") {
  // 2x2x2 cells: 27 points, all solid. Each hit melts one point fully.
  ByteGrid g({2, 2, 2}, 255);
  std::vector<MeltHit> hits;
  for (uint32_t z = 0; z <= 2; ++z)
    for (uint32_t y = 0; y <= 2; ++y)
      for (uint32_t x = 0; x <= 2; ++x) hits.push_back(amount_hit(x, y, z, 0.5, 1));
  hits.push_back(amount_hit(1, 1, 1, 0.5, 1));  // nothing left
  MeltResult r = melt(g, hits);
  CHECK(r.solid_before == 27);
  CHECK(r.solid_start == 27);
  // 10% of 27 is 2.7: solid 2 is the first count at or below, after hit 25.
  REQUIRE(r.highlight_hit);
  CHECK(*r.highlight_hit == 25);
  CHECK(r.hits[23].solid_after == 3);
  REQUIRE(r.completed_hit);
  CHECK(*r.completed_hit == 27);
  CHECK(r.completed);
  CHECK(r.remaining == 0.0);
  CHECK_FALSE(r.highlight_at_start);

  // Against a larger module start: 3 of 30 is 10% -> crossed at once.
  ByteGrid g2({2, 2, 2}, 0);
  for (int i = 0; i < 4; ++i) g2.data[size_t(i)] = 255;
  MeltOptions o;
  o.start_solid = 30;
  const MeltHit one = amount_hit(0, 0, 0, 0.5, 1);
  r = melt(g2, std::span(&one, 1), o);
  CHECK(r.solid_after == 3);
  CHECK(*r.highlight_hit == 1);
  CHECK(r.remaining == Approx(0.1));
  o.start_solid = 2;  // fewer than the module holds
  CHECK_THROWS_AS(melt(g2, std::span(&one, 1), o), Error);
}

TEST_CASE("melt counts solid as byte >= 128, incrementally", "[melt]") {
  ByteGrid g({4, 4, 4}, 128);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> p(0, 4), rad(0.5, 2.5), am(0, 0.8);
  std::vector<MeltHit> hits;
  for (int i = 0; i < 40; ++i) hits.push_back(amount_hit(p(rng), p(rng), p(rng), rad(rng), am(rng)));
  MeltResult r = melt(g, hits);
  CHECK(r.solid_before == g.data.size());
  CHECK(r.solid_after == count_solid(g.data));
  for (size_t i = 1; i < r.hits.size(); ++i) CHECK(r.hits[i].solid_after <= r.hits[i - 1].solid_after);
}

TEST_CASE("melt gives the same bytes and counters for any thread count", "[melt]") {
  ByteGrid base({96, 96, 96}, 0);
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> b(0, 255);
  for (auto& v : base.data) v = uint8_t(b(rng));
  RegionGrid rg{base.cells, std::vector<uint16_t>(base.data.size(), 0)};
  for (size_t i = 0; i < rg.ids.size(); i += 97) rg.ids[i] = uint16_t(1 + i % 500);
  std::vector<uint16_t> closed;
  for (uint16_t id = 1; id <= 500; id += 2) closed.push_back(id);
  std::uniform_real_distribution<double> p(0, 96), rad(1, 40), am(0.01, 0.5);
  std::vector<MeltHit> hits;
  for (int i = 0; i < 30; ++i) hits.push_back(amount_hit(p(rng), p(rng), p(rng), rad(rng), am(rng)));

  auto run = [&](int threads) {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, size_t(threads));
    ByteGrid g = base;
    MeltResult r = melt(g, hits, {}, MeltRegions{&rg, closed});
    return std::make_pair(g, r);
  };
  auto [g1, r1] = run(1);
  auto [g2, r2] = run(2);
  CHECK(g1.data == g2.data);
  CHECK(r1.bytes_removed == r2.bytes_removed);
  CHECK(r1.points_changed == r2.points_changed);
  CHECK(r1.solid_after == r2.solid_after);
  CHECK(r1.remesh == r2.remesh);
  CHECK(r1.closed_after == r2.closed_after);
  CHECK(r1.changed == r2.changed);
  REQUIRE(r1.opened.size() == r2.opened.size());
  for (size_t i = 0; i < r1.opened.size(); ++i) {
    CHECK(r1.opened[i].id == r2.opened[i].id);
    CHECK(r1.opened[i].hit == r2.opened[i].hit);
  }
  for (size_t i = 0; i < hits.size(); ++i) CHECK(r1.hits[i].bytes_removed == r2.hits[i].bytes_removed);
  CHECK(r1.bytes_removed > 0);
  CHECK_FALSE(r1.opened.empty());
}
