// Stamps and replay: hand-derived bytes (the band, the strict tests, ties to even, the 127
// cap, the Jacobi smooth), properties (idempotent logs, per-chunk copies equal to the whole
// grid, shuffled network arrival equal to the ordered log), spawns, dirty chunks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "lib/edit/packed_edit.hpp"
#include "lib/edit/replay.hpp"
#include "lib/edit/stamp.hpp"

using namespace voxkit;
using edit::Op;

namespace {

ByteGrid filled(uint32_t n, uint8_t v) { return ByteGrid(Dims{n, n, n}, v); }
SampleBox whole(const ByteGrid& g) { return SampleBox{{0, 0, 0}, {int(g.cells.nx), int(g.cells.ny), int(g.cells.nz)}}; }

// A terrain-like grid: the SDF of a wavy floor, so stamps meet air, solid and the band.
ByteGrid terrain(uint32_t nx, uint32_t ny, uint32_t nz) {
  ByteGrid g(Dims{nx, ny, nz}, 255);
  for (uint32_t z = 0; z <= nz; ++z)
    for (uint32_t y = 0; y <= ny; ++y)
      for (uint32_t x = 0; x <= nx; ++x) {
        const float h = float(ny) * 0.45f + 3.0f * std::sin(float(x) * 0.3f) * std::cos(float(z) * 0.2f);
        g.at(x, y, z) = quantize_sdf(float(y) - h);
      }
  return g;
}

uint64_t random_edit(std::mt19937& rng, const Dims& c, bool with_smooth) {
  std::uniform_real_distribution<float> ux(0, float(c.nx)), uy(0, float(c.ny)), uz(0, float(c.nz));
  std::uniform_real_distribution<float> ur(1, 6);
  const int ops = with_smooth ? 4 : 3;
  const int pick = std::uniform_int_distribution<int>(0, ops - 1)(rng);
  const Op op = pick == 0 ? Op::Dig : pick == 1 ? Op::Add : pick == 2 ? Op::Paint : Op::Smooth;
  uint32_t layer = std::uniform_int_distribution<uint32_t>(0, 17)(rng);
  if (op == Op::Smooth) layer = std::uniform_int_distribution<uint32_t>(1, 31)(rng);
  return edit::pack(ux(rng), uy(rng), uz(rng), ur(rng), op, layer);
}

}  // namespace

TEST_CASE("dig and add write the quantised sphere inside the band only", "[stamp]") {
  ByteGrid g = filled(16, 0);  // solid
  ByteGrid paint = filled(16, 0);
  auto r = edit::stamp(g, &paint, whole(g), 8, 8, 8, 2, 0, 0);
  REQUIRE(r.changed);
  CHECK(g.at(8, 8, 8) == 255);   // d = -2: q = -128, -q = 128 capped at 127
  CHECK(g.at(9, 8, 8) == 192);   // d = -1: 128 + 64
  CHECK(g.at(11, 8, 8) == 64);   // d = 1: max(-64, -128)
  CHECK(g.at(12, 8, 8) == 0);    // d = 2: outside the band (strict)
  CHECK(r.box == SampleBox{{5, 5, 5}, {11, 11, 11}});
  CHECK(r.visited > 0);

  ByteGrid a = filled(16, 255);  // air
  r = edit::stamp(a, &paint, whole(a), 8, 8, 8, 2, 1, 0);
  CHECK(a.at(8, 8, 8) == 0);
  CHECK(a.at(9, 8, 8) == 64);
  CHECK(a.at(12, 8, 8) == 255);
  // digging air and adding to solid change nothing
  ByteGrid air = filled(16, 255);
  CHECK_FALSE(edit::stamp(air, &paint, whole(air), 8, 8, 8, 2, 0, 0).changed);
  ByteGrid solid = filled(16, 0);
  CHECK_FALSE(edit::stamp(solid, &paint, whole(solid), 8, 8, 8, 2, 1, 0).changed);
}

TEST_CASE("stamps round d x 64 half to even", "[stamp]") {
  ByteGrid paint = filled(16, 0);
  // One sample at distance 1 + t/64 from a radius-1 sphere: d x 64 = t exactly.
  const struct {
    float t;
    int want;
  } ties[] = {{0.5f, 128}, {1.5f, 130}, {2.5f, 130}, {-0.5f, 128}, {-1.5f, 126}};
  for (const auto& c : ties) {
    ByteGrid a = filled(16, 255);
    const float cz = 8.0f - (1.0f + c.t / 64.0f);
    edit::stamp(a, &paint, whole(a), 8, 8, cz, 1, 1, 0);
    INFO(c.t);
    CHECK(int(a.at(8, 8, 8)) == c.want);
  }
}

TEST_CASE("paint and add with soil paint strictly inside the sphere", "[stamp]") {
  ByteGrid g = filled(16, 0);
  ByteGrid paint = filled(16, 0);
  auto r = edit::stamp(g, &paint, whole(g), 8, 8, 8, 2, 3, 7);
  CHECK(r.changed);
  CHECK(paint.at(8, 8, 8) == 7);
  CHECK(paint.at(9, 8, 8) == 7);
  CHECK(paint.at(10, 8, 8) == 0);  // d = 0: on the sphere, not painted
  CHECK(g.at(8, 8, 8) == 0);       // paint never touches the grid
  CHECK(r.box == SampleBox{{7, 7, 7}, {9, 9, 9}});
  // painting again changes nothing
  CHECK_FALSE(edit::stamp(g, &paint, whole(g), 8, 8, 8, 2, 3, 7).changed);
  // add with a layer paints the soil inside even where the grid was already solid
  ByteGrid p2 = filled(16, 0);
  r = edit::stamp(g, &p2, whole(g), 8, 8, 8, 2, 1, 5);
  CHECK(r.changed);
  CHECK(p2.at(8, 8, 8) == 5);
  // with no paint grid, paint and add-with-layer do nothing at all
  ByteGrid air = filled(16, 255);
  CHECK_FALSE(edit::stamp(air, nullptr, whole(air), 8, 8, 8, 2, 1, 5).changed);
  CHECK(air.at(8, 8, 8) == 255);
}

TEST_CASE("stamps clip to the edit box and other ops do nothing", "[stamp]") {
  ByteGrid g = filled(16, 0);
  ByteGrid paint = filled(16, 0);
  const SampleBox box{{2, 2, 2}, {8, 8, 8}};
  auto r = edit::stamp(g, &paint, box, 8, 8, 8, 2, 0, 0);
  CHECK(r.box == SampleBox{{5, 5, 5}, {8, 8, 8}});
  CHECK(g.at(9, 8, 8) == 0);
  for (uint32_t op : {2u, 4u, 5u, 6u, 7u}) CHECK_FALSE(edit::stamp(g, &paint, box, 4, 4, 4, 2, op, 0).changed);
}

TEST_CASE("smooth is a Jacobi pass over interior samples", "[stamp]") {
  ByteGrid g = filled(16, 255);
  g.at(8, 8, 8) = 0;
  auto r = edit::smooth(g, whole(g), 8, 8, 8, 2, 1.0f);
  REQUIRE(r.changed);
  CHECK(g.at(8, 8, 8) == 255);  // k = 1: the neighbours' mean
  // k = 0.5, mean (0 + 5 x 255) / 6 = 212.5 read before the centre changed: 233.75 -> 234
  CHECK(g.at(9, 8, 8) == 234);
  CHECK(g.at(7, 8, 8) == 234);
  CHECK(g.at(10, 8, 8) == 255);  // dist 2: k = 0
  // r <= 0, strength 0: nothing
  CHECK_FALSE(edit::smooth(g, whole(g), 8, 8, 8, 0, 1.0f).changed);
  CHECK_FALSE(edit::smooth(g, whole(g), 8, 8, 8, 2, 0.0f).changed);
  // the border samples are never smoothed
  ByteGrid b = filled(8, 255);
  b.at(0, 4, 4) = 0;
  b.at(1, 4, 4) = 0;
  edit::smooth(b, whole(b), 0, 4, 4, 3, 1.0f);
  CHECK(b.at(0, 4, 4) == 0);
  CHECK(b.at(1, 4, 4) != 0);
}

TEST_CASE("dirty chunks follow the package's rule", "[stamp]") {
  const Dims c{64, 32, 64};
  auto r = edit::affected_chunks(SampleBox{{16, 0, 31}, {16, 15, 33}}, c, 16);
  CHECK(r.lo == std::array<uint32_t, 3>{0, 0, 1});
  CHECK(r.hi == std::array<uint32_t, 3>{1, 1, 2});
  r = edit::affected_chunks(SampleBox{{64, 32, 64}, {64, 32, 64}}, c, 16);
  CHECK(r.lo == std::array<uint32_t, 3>{3, 1, 3});
  CHECK(r.hi == std::array<uint32_t, 3>{3, 1, 3});
}

TEST_CASE("logs of dig, add and paint are idempotent, smooth is not", "[stamp]") {
  const ByteGrid baked = terrain(48, 32, 48);
  std::mt19937 rng(7);
  std::vector<uint64_t> log;
  for (int i = 0; i < 200; ++i) log.push_back(random_edit(rng, baked.cells, false));
  edit::Editor once(baked, nullptr, edit::default_edit_box(baked.cells), {});
  for (uint64_t e : log) once.apply(e);
  edit::Editor twice(baked, nullptr, edit::default_edit_box(baked.cells), {});
  for (int k = 0; k < 2; ++k)
    for (uint64_t e : log) twice.apply(e);
  CHECK(once.grid().data == twice.grid().data);
  CHECK(once.paint().data == twice.paint().data);

  const uint64_t s = edit::pack(24, 14.5f, 24, 5, Op::Smooth, 31);
  edit::Editor sm(baked, nullptr, edit::default_edit_box(baked.cells), {});
  sm.apply(s);
  const auto after_one = sm.grid().data;
  sm.apply(s);
  CHECK(after_one != sm.grid().data);
}

TEST_CASE("stamping the package's chunk copies equals stamping the whole grid", "[stamp]") {
  const uint32_t cc = 8;
  ByteGrid g = terrain(32, 24, 32);
  ByteGrid paint(g.cells, 0);
  const SampleBox edit_box{{2, 2, 2}, {30, 23, 30}};
  // The chunk copies: on each axis max(0, c cc - 1) .. min(cells, c cc + cc).
  struct Copy {
    int lo[3], hi[3];
    ByteGrid grid, paint;
  };
  std::vector<Copy> copies;
  for (uint32_t cz = 0; cz < 4; ++cz)
    for (uint32_t cy = 0; cy < 3; ++cy)
      for (uint32_t cx = 0; cx < 4; ++cx) {
        Copy c;
        const uint32_t ch[3] = {cx, cy, cz};
        const uint32_t n[3] = {32, 24, 32};
        for (int a = 0; a < 3; ++a) {
          c.lo[a] = std::max(0, int(ch[a] * cc) - 1);
          c.hi[a] = std::min(int(n[a]), int(ch[a] * cc + cc));
        }
        const Dims d{uint32_t(c.hi[0] - c.lo[0]), uint32_t(c.hi[1] - c.lo[1]), uint32_t(c.hi[2] - c.lo[2])};
        c.grid = ByteGrid(d, 0);
        c.paint = ByteGrid(d, 0);
        for (int z = c.lo[2]; z <= c.hi[2]; ++z)
          for (int y = c.lo[1]; y <= c.hi[1]; ++y)
            for (int x = c.lo[0]; x <= c.hi[0]; ++x)
              c.grid.at(x - c.lo[0], y - c.lo[1], z - c.lo[2]) = g.at(x, y, z);
        copies.push_back(std::move(c));
      }
  std::mt19937 rng(11);
  for (int i = 0; i < 300; ++i) {
    const uint64_t e = random_edit(rng, g.cells, false);
    const auto f = edit::unpack(e);
    const float px = f.x / 16.0f, py = f.y / 16.0f, pz = f.z / 16.0f, r = f.radius / 8.0f;
    edit::stamp(g, &paint, edit_box, px, py, pz, r, f.op, f.layer);
    for (Copy& c : copies) {
      SampleBox local;
      for (size_t a = 0; a < 3; ++a) {
        local.min[a] = std::max(edit_box.min[a], c.lo[a]) - c.lo[a];
        local.max[a] = std::min(edit_box.max[a], c.hi[a]) - c.lo[a];
      }
      if (local.max[0] < local.min[0] || local.max[1] < local.min[1] || local.max[2] < local.min[2]) continue;
      edit::stamp(c.grid, &c.paint, local, px - float(c.lo[0]), py - float(c.lo[1]), pz - float(c.lo[2]), r, f.op,
                  f.layer);
    }
  }
  for (const Copy& c : copies)
    for (int z = c.lo[2]; z <= c.hi[2]; ++z)
      for (int y = c.lo[1]; y <= c.hi[1]; ++y)
        for (int x = c.lo[0]; x <= c.hi[0]; ++x) {
          REQUIRE(c.grid.at(x - c.lo[0], y - c.lo[1], z - c.lo[2]) == g.at(x, y, z));
          REQUIRE(c.paint.at(x - c.lo[0], y - c.lo[1], z - c.lo[2]) == paint.at(x, y, z));
        }
}

TEST_CASE("a large stamp splits into slabs with the same result", "[stamp]") {
  ByteGrid a = terrain(96, 64, 96), b = a;
  ByteGrid pa(a.cells, 0), pb(a.cells, 0);
  // r = 30: the box holds well over the parallel threshold; compare against small pieces
  const auto big = edit::stamp(a, &pa, whole(a), 48, 30, 48, 30, 1, 3);
  edit::StampResult pieces;
  bool set = false;
  for (int z0 = 0; z0 <= 96; z0 += 4) {
    const SampleBox slab{{0, 0, z0}, {96, 64, std::min(96, z0 + 3)}};
    auto r = edit::stamp(b, &pb, slab, 48, 30, 48, 30, 1, 3);
    if (r.changed) edit::unite(pieces.box, set, r.box);
  }
  CHECK(a.data == b.data);
  CHECK(pa.data == pb.data);
  CHECK(big.box == pieces.box);
}

TEST_CASE("the editor applies as the standalone runtime does", "[stamp][replay]") {
  const ByteGrid baked = terrain(32, 24, 32);
  edit::Editor ed(baked, nullptr, edit::default_edit_box(baked.cells), {});
  // a tree spawns once (dedupe by value), a dig within its radius removes it
  const uint64_t tree = edit::pack(10, 12, 10, 1, Op::Tree, 2);
  CHECK(ed.apply(tree).outcome == edit::Outcome::Changed);
  CHECK(ed.apply(tree).outcome == edit::Outcome::NoChange);
  REQUIRE(ed.spawned().size() == 1);
  const uint64_t detail = edit::pack(20, 12, 20, 1, Op::Detail, 1);
  ed.apply(detail);
  // paint does not bury spawns
  ed.apply(edit::pack(10, 12, 10, 3, Op::Paint, 4));
  CHECK(ed.spawned().size() == 2);
  // a dig in the air above them still removes the tree within r (3-D distance)
  auto fx = ed.apply(edit::pack(10, 14, 10, 2.5f, Op::Dig, 0));
  CHECK(fx.spawns_removed == 1);
  CHECK(ed.spawned().size() == 1);
  // erase: layer 0 removes details within r only
  fx = ed.apply(edit::pack(20, 12, 20, 0.5f, Op::Tree, 0));
  CHECK(fx.spawns_removed == 0);
  fx = ed.apply(edit::pack(20, 12, 20, 0.5f, Op::Detail, 0));
  CHECK(fx.spawns_removed == 1);
  CHECK(ed.spawned().empty());
  // invalid edits are refused with a reason
  fx = ed.apply(edit::pack_fields(edit::Fields{16, 16, 16, 8, 6, 0}));
  CHECK(fx.outcome == edit::Outcome::Invalid);
  CHECK_FALSE(fx.why.empty());
  fx = ed.apply(edit::pack_fields(edit::Fields{16, 16, 16, 8, 3, 20}));
  CHECK(fx.outcome == edit::Outcome::Invalid);
  // reset: the baked grid, no spawns, the changed box keeps what was changed
  ed.apply(edit::pack(16, 11, 16, 3, Op::Dig, 0));
  REQUIRE(ed.any_change());
  ed.reset();
  CHECK(ed.grid().data == baked.data);
  CHECK(ed.spawned().empty());
  CHECK_FALSE(ed.dirty_chunks().empty());
}

TEST_CASE("network arrival order ends where the ordered log does", "[replay]") {
  const ByteGrid baked = terrain(40, 24, 40);
  std::mt19937 rng(3);
  std::vector<uint64_t> log;
  for (int i = 0; i < 300; ++i) log.push_back(random_edit(rng, baked.cells, true));
  edit::Editor ordered(baked, nullptr, edit::default_edit_box(baked.cells), {});
  for (uint64_t e : log) ordered.apply(e);

  // In order, then shuffled within windows of 64 with a duplicate of every tenth record.
  std::vector<edit::NetRecord> arrival;
  for (uint32_t i = 0; i < log.size(); ++i) arrival.push_back({edit::NetRecord::Kind::Edit, log[i], i, 0});
  for (size_t w = 0; w < arrival.size(); w += 64)
    std::shuffle(arrival.begin() + long(w), arrival.begin() + long(std::min(arrival.size(), w + 64)), rng);
  std::vector<edit::NetRecord> noisy;
  for (size_t i = 0; i < arrival.size(); ++i) {
    noisy.push_back(arrival[i]);
    if (i % 10 == 0) noisy.push_back(arrival[i]);
  }
  edit::Editor net(baked, nullptr, edit::default_edit_box(baked.cells), {});
  const auto rep = edit::replay_network(net, noisy);
  CHECK(rep.applied == log.size());
  CHECK(rep.duplicates >= 30);
  CHECK_FALSE(rep.first_missing);
  CHECK(rep.log == log);
  CHECK(net.grid().data == ordered.grid().data);
  CHECK(net.paint().data == ordered.paint().data);

  // A gap that never fills is reported, not guessed: drop record 100.
  std::vector<edit::NetRecord> gap;
  for (uint32_t i = 0; i < 150; ++i)
    if (i != 100) gap.push_back({edit::NetRecord::Kind::Edit, log[i], i, 0});
  edit::Editor g2(baked, nullptr, edit::default_edit_box(baked.cells), {});
  const auto rg = edit::replay_network(g2, gap);
  CHECK(rg.applied == 100);
  REQUIRE(rg.first_missing);
  CHECK(*rg.first_missing == 100);
  CHECK(rg.waiting == 49);

  // Epochs: a newer epoch's records wait for its reset; older ones are dropped.
  std::vector<edit::NetRecord> ep;
  ep.push_back({edit::NetRecord::Kind::Edit, log[0], 0, 0});
  ep.push_back({edit::NetRecord::Kind::Edit, log[1], 0, 1});  // early: epoch 1
  ep.push_back({edit::NetRecord::Kind::Reset, 0, 0, 1});
  ep.push_back({edit::NetRecord::Kind::Edit, log[2], 1, 0});  // old epoch: dropped
  ep.push_back({edit::NetRecord::Kind::Edit, log[3], 1, 1});
  edit::Editor g3(baked, nullptr, edit::default_edit_box(baked.cells), {});
  const auto re = edit::replay_network(g3, ep);
  CHECK(re.epoch == 1);
  CHECK(re.resets == 1);
  CHECK(re.stale == 1);
  CHECK(re.log == std::vector<uint64_t>{log[1], log[3]});
  edit::Editor want(baked, nullptr, edit::default_edit_box(baked.cells), {});
  want.apply(log[1]);
  want.apply(log[3]);
  CHECK(g3.grid().data == want.grid().data);
}

namespace {
// The package's Stamp written out plainly, one sample at a time, as the reference.
void reference_stamp(ByteGrid& g, ByteGrid& paint, const SampleBox& e, float cx, float cy, float cz, float r,
                     uint32_t op, uint32_t layer) {
  const float reach = r + 2.0f;
  const int x0 = std::max(e.min[0], int(std::floor(cx - reach))), x1 = std::min(e.max[0], int(std::ceil(cx + reach)));
  const int y0 = std::max(e.min[1], int(std::floor(cy - reach))), y1 = std::min(e.max[1], int(std::ceil(cy + reach)));
  const int z0 = std::max(e.min[2], int(std::floor(cz - reach))), z1 = std::min(e.max[2], int(std::ceil(cz + reach)));
  const bool dig = op == 0, shape = op == 0 || op == 1, do_paint = op == 3 || (op == 1 && layer > 0);
  for (int z = z0; z <= z1; ++z)
    for (int y = y0; y <= y1; ++y) {
      const float dy = float(y) - cy, dz = float(z) - cz;
      const float dyz = dy * dy + dz * dz;
      for (int x = x0; x <= x1; ++x) {
        const float dx = float(x) - cx;
        const float d = std::sqrt(dx * dx + dyz) - r;
        if (d >= 2.0f) continue;
        if (shape) {
          const int q = std::clamp(int(std::nearbyint(d * 64.0f)), -128, 127);
          const int s = int(g.at(x, y, z)) - 128;
          const int ns = dig ? std::min(std::max(-q, s), 127) : std::min(q, s);
          g.at(x, y, z) = uint8_t(ns + 128);
        }
        if (do_paint && d < 0.0f) paint.at(x, y, z) = uint8_t(layer);
      }
    }
}
}  // namespace

TEST_CASE("the four-wide stamp kernel equals the plain per-sample rule", "[stamp]") {
  ByteGrid a = terrain(37, 29, 33), b = a;
  ByteGrid pa(a.cells, 0), pb(a.cells, 0);
  const SampleBox box{{1, 1, 1}, {36, 28, 32}};
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> ux(-3, 40), ur(0.125f, 9);
  for (int i = 0; i < 2000; ++i) {
    const float x = ux(rng), y = ux(rng) * 0.75f, z = ux(rng), r = ur(rng);
    const uint32_t op = std::uniform_int_distribution<uint32_t>(0, 3)(rng) == 2 ? 3u : i % 2;
    const uint32_t layer = std::uniform_int_distribution<uint32_t>(0, 17)(rng);
    const auto res = edit::stamp(a, &pa, box, x, y, z, r, op, layer);
    reference_stamp(b, pb, box, x, y, z, r, op, layer);
    REQUIRE(a.data == b.data);
    REQUIRE(pa.data == pb.data);
    if (res.changed) {
      for (size_t k = 0; k < 3; ++k) REQUIRE(res.box.min[k] <= res.box.max[k]);
    }
  }
}
