// Foliage anchors: the package's test points, the mask texel layout, the anchor-chunk rule,
// the bake, erases, the chunk-local re-check against the whole-grid re-check on random zones
// and logs, thread-count independence, the FOLI section and the instance lists.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <random>

#include "formats/core/io.hpp"
#include "formats/foliage/instances.hpp"
#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_foliage.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"
#include "lib/edit/replay.hpp"
#include "lib/foliage/foliage.hpp"
#include "tests/test_util.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;
namespace fo = voxkit::foliage;

namespace {

Zone flat_zone(Dims cells, uint32_t cc, uint32_t seed) {
  Zone z;
  z.meta.cells = cells;
  z.meta.voxel_size = 0.5;
  z.meta.origin = {10, -2, 20};
  z.meta.chunk_cells = cc;
  z.meta.edit_box = {{0, 0, 0}, {int32_t(cells.nx), int32_t(cells.ny) - 1, int32_t(cells.nz)}};
  z.meta.hole = {10, 20, 10 + cells.nx * 0.5, 20 + cells.nz * 0.5};
  z.grid = test::terrain_grid(cells, seed);
  z.baked = z.grid;
  return z;
}

// Trees on the top surface (and a few in the air and underground), surface details on it,
// details scattered over the zone.
fo::BakeInput random_input(const Zone& z, uint32_t seed, std::vector<fo::TreeInput>& trees,
                           std::vector<fo::DetailInput>& details, std::vector<fo::SurfaceInput>& surface) {
  std::mt19937 rng(seed);
  const Dims& d = z.meta.cells;
  const auto top = fo::top_surfaces(z.grid);
  std::uniform_real_distribution<float> ux(-1.f, float(d.nx) + 1.f), uz(-1.f, float(d.nz) + 1.f), off(-1.5f, 1.5f);
  const float v = float(z.meta.voxel_size);
  auto world = [&](float gx, float gy, float gz) {
    return std::array<float, 3>{float(z.meta.origin[0]) + gx * v, float(z.meta.origin[1]) + gy * v,
                                float(z.meta.origin[2]) + gz * v};
  };
  for (uint32_t i = 0; i < 200; ++i) {
    const float gx = ux(rng), gz = uz(rng);
    const uint32_t cx = uint32_t(std::clamp(int(std::lround(gx)), 0, int(d.nx))), cz = uint32_t(std::clamp(int(std::lround(gz)), 0, int(d.nz)));
    const float h = top[cx + d.sx() * cz] + (i % 5 == 0 ? off(rng) : 0.f);
    trees.push_back({i, i % 3, world(gx, h, gz), 0.5f, 1, 1, {0, 0, 0}});
  }
  for (uint32_t i = 0; i < 500; ++i) {
    const auto w = world(ux(rng), 0, uz(rng));
    details.push_back({i, i % 2, w[0], w[2], 30, 1, 1});
  }
  for (uint32_t i = 0; i < 60; ++i) {
    const float gx = ux(rng), gz = uz(rng);
    const uint32_t cx = uint32_t(std::clamp(int(std::lround(gx)), 0, int(d.nx))), cz = uint32_t(std::clamp(int(std::lround(gz)), 0, int(d.nz)));
    surface.push_back({i, 0, world(gx, top[cx + d.sx() * cz] + off(rng) * 0.2f, gz), {0, 1, 0}, 0, 1, 1});
  }
  fo::BakeInput in;
  in.trees = trees;
  in.details = details;
  in.surface = surface;
  return in;
}

uint64_t random_edit(std::mt19937& rng, const Dims& c) {
  std::uniform_real_distribution<float> ux(0, float(c.nx)), uy(float(c.ny) * 0.2f, float(c.ny) * 0.8f), uz(0, float(c.nz));
  std::uniform_real_distribution<float> ur(1, 5);
  const int pick = std::uniform_int_distribution<int>(0, 9)(rng);
  const edit::Op op = pick < 4 ? edit::Op::Dig : pick < 7 ? edit::Op::Add : pick < 8 ? edit::Op::Smooth
                      : pick < 9 ? edit::Op::Tree : edit::Op::Detail;
  const uint32_t layer = op == edit::Op::Smooth ? 16u : 0u;  // tree/detail layer 0: an erase
  return edit::pack(ux(rng), uy(rng), uz(rng), ur(rng), op, layer);
}

void apply_erases(ZoneFoliage& f, const Dims& d, uint64_t e) {
  const auto fl = edit::unpack(e);
  if ((fl.op == 4 || fl.op == 5) && fl.layer == 0)
    fo::erase(f, d, {float(fl.x) / 16.f, float(fl.y) / 16.f, float(fl.z) / 16.f}, float(fl.radius) / 8.f, fl.op == 4);
}

bool same_state(const ZoneFoliage& a, const ZoneFoliage& b) {
  if (a.mask != b.mask || a.trees.size() != b.trees.size()) return false;
  for (size_t i = 0; i < a.trees.size(); ++i)
    if (a.trees[i].state != b.trees[i].state) return false;
  return true;
}

}  // namespace

TEST_CASE("foliage: the package's standing test points", "[foliage]") {
  CHECK(fo::stands_between(88, 168, 0.5f));
  CHECK(fo::stands_between(152, 200, 0.0f));
  CHECK_FALSE(fo::stands_between(153, 200, 0.0f));
  // Inclusive on both sides.
  CHECK(fo::stands_between(104, 0, 0.0f));
  CHECK_FALSE(fo::stands_between(103, 0, 0.0f));
  // t is not clamped: at t = 2.5 the line from 80 to 100 is at 130 (stands); clamped it would be 100.
  CHECK(fo::stands_between(80, 100, 2.5f));
  CHECK_FALSE(fo::stands_between(80, 100, 1.0f));
}

TEST_CASE("foliage: point test clamps the cell and the fraction", "[foliage]") {
  ByteGrid g(Dims{2, 2, 2}, 255);
  for (uint32_t z = 0; z <= 2; ++z)
    for (uint32_t x = 0; x <= 2; ++x) g.at(x, 0, z) = 100;  // the floor: 100 below, 255 above
  // At y = 0.1 the blend is 100 + 155 * 0.1 = 115.5: s = -12.5 stands.
  CHECK(fo::point_stands(g, {0.5f, 0.1f, 0.5f}));
  // Negative coordinates clamp to cell 0, fraction 0: s = 100 - 128 = -28.
  CHECK_FALSE(fo::point_stands(g, {-3.f, -1.f, -7.f}));
  // Past the grid: the last cell, fraction 1 at y: 255.
  CHECK_FALSE(fo::point_stands(g, {9.f, 9.f, 9.f}));
  CHECK(fo::cell_of(-0.5f, 4) == 0);
  CHECK(fo::cell_of(3.99f, 4) == 3);
  CHECK(fo::cell_of(4.0f, 4) == 3);
  CHECK(fo::cell_of(1e30f, 4) == 3);
  CHECK(fo::frac_of(4.0f, 3) == 1.0f);
}

TEST_CASE("foliage: column texels, the mask size and top surfaces", "[foliage]") {
  CHECK(fo::column_texel(-1.f) == std::array<uint8_t, 4>{0, 0, 0, 0});
  // 10.03125 * 16 = 160.5: half to even -> 160.
  CHECK(fo::column_texel(10.03125f) == std::array<uint8_t, 4>{255, 0, 160, 255});
  CHECK(fo::column_texel(10.09375f) == std::array<uint8_t, 4>{255, 0, 162, 255});  // 161.5 -> 162
  CHECK(fo::column_texel(5000.f) == std::array<uint8_t, 4>{255, 255, 255, 255});
  const uint8_t t[4] = {255, 1, 2, 255};
  CHECK(fo::texel_anchor(t) == 258.f / 16.f);
  const uint8_t erased[4] = {0, 1, 2, 0};
  CHECK(fo::texel_anchor(erased) == -1.f);
  const Dims d{4, 3, 4};
  CHECK(fo::mask_height(d, 0) == 5);
  CHECK(fo::mask_height(d, 1) == 6);
  CHECK(fo::mask_height(d, 5) == 6);
  CHECK(fo::mask_height(d, 6) == 7);

  ByteGrid g(Dims{1, 4, 1}, 255);
  // Column (0,0): solid below y = 2 (byte 64 at y = 1, 192 at y = 2): 1 + 64/128 = 1.5.
  g.at(0, 0, 0) = 0;
  g.at(0, 1, 0) = 64;
  g.at(0, 2, 0) = 192;
  CHECK(fo::top_surface(g, 0, 0) == 1.5f);
  // Column (1,0): all air.
  CHECK(fo::top_surface(g, 1, 0) == -1.f);
  // A solid top sample reads as air (255): sample 3 solid, sample 4 solid -> 3 + 28/155.
  g.at(0, 3, 1) = 100;
  g.at(0, 4, 1) = 10;
  CHECK(fo::top_surface(g, 0, 1) == float(3.0 + 28.0 / 155.0));
  const auto all = fo::top_surfaces(g);
  REQUIRE(all.size() == 4);
  CHECK(all[0] == 1.5f);
  CHECK(all[1] == -1.f);
  CHECK(all[2] == float(3.0 + 28.0 / 155.0));
}

TEST_CASE("foliage: the anchor-chunk rule keeps every read inside the chunk's samples", "[foliage]") {
  const Dims d{40, 20, 32};
  const fo::Chunks ch = fo::chunks_of(d, 16);
  REQUIRE(ch.cx == 3);
  REQUIRE(ch.cy == 2);
  REQUIRE(ch.cz == 2);
  CHECK(fo::anchor_chunk(d, ch, {-5.f, 100.f, 31.9f}) == 0 + 3 * (1 + 2 * 1));
  // Column nx belongs to the last chunk; a column anchor at ny belongs to the top row.
  CHECK(fo::column_chunk(d, ch, 40, 32, 20.f) == 2 + 3 * (1 + 2 * 1));
  CHECK(fo::column_chunk(d, ch, 16, 0, 15.99f) == 1);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-3.f, 45.f);
  for (int i = 0; i < 20000; ++i) {
    const std::array<float, 3> a{u(rng), u(rng) * 0.5f, u(rng)};
    const uint32_t ci = fo::anchor_chunk(d, ch, a);
    const uint32_t c[3] = {ci % ch.cx, (ci / ch.cx) % ch.cy, ci / (ch.cx * ch.cy)};
    const uint32_t n[3] = {d.nx, d.ny, d.nz}, last[3] = {ch.cx - 1, ch.cy - 1, ch.cz - 1};
    for (int k = 0; k < 3; ++k) {
      const int cell = fo::cell_of(a[size_t(k)], n[k]);
      const uint32_t lo = c[k] * 16, hi = c[k] == last[k] ? n[k] : lo + 16;  // the samples the chunk holds (+1 halo)
      REQUIRE(uint32_t(cell) >= lo);
      REQUIRE(uint32_t(cell) + 1 <= hi);
    }
  }
}

TEST_CASE("foliage: bake keeps the package's order, buckets and mask", "[foliage]") {
  Zone z = flat_zone({40, 24, 36}, 8, 11);
  std::vector<fo::TreeInput> trees;
  std::vector<fo::DetailInput> details;
  std::vector<fo::SurfaceInput> surface;
  fo::BakeInput in = random_input(z, 4, trees, details, surface);
  in.tree_prototypes = 2;  // prototype 2 is past the list: skipped
  fo::BakeStats st;
  const ZoneFoliage f = fo::bake(z, in, &st);
  CHECK(st.trees_bad_prototype == 66);
  CHECK(f.trees.size() == 134);
  CHECK(fo::problem(f, z.meta.cells, 8).empty());
  // Stable: within a bucket, ids ascend (the input order).
  const fo::Chunks ch = fo::chunks_of(z.meta.cells, 8);
  for (uint64_t c = 0; c < ch.count(); ++c)
    for (uint32_t k = f.tree_buckets[c] + 1; k < f.tree_buckets[c + 1]; ++k) CHECK(f.trees[k - 1].id < f.trees[k].id);
  // Trees placed on the surface stand; the mask holds every column's quantised anchor.
  const auto top = fo::top_surfaces(z.grid);
  for (size_t i = 0; i < top.size(); ++i) {
    const auto t = fo::column_texel(top[i]);
    REQUIRE(std::equal(t.begin(), t.end(), f.mask.begin() + ptrdiff_t(4 * i)));
  }
  CHECK(f.mask_height == fo::mask_height(z.meta.cells, f.surface.size()));
  CHECK(f.mask == f.baked_mask);
  uint64_t on_surface_standing = 0, on_surface = 0;
  for (const auto& t : f.trees)
    if (t.id % 5 != 0) {
      ++on_surface;
      on_surface_standing += t.state == TreeState::Standing;
    }
  // The surface between columns can lie a little off the nearest column's height.
  CHECK(on_surface_standing * 10 >= on_surface * 9);
  // Right after the bake, re-checking everything changes nothing.
  ZoneFoliage g = f;
  fo::recheck_all(z.grid, 8, g);
  CHECK(same_state(f, g));
}

TEST_CASE("foliage: a dig under a tree fells it, an add buries details, a far edit changes nothing", "[foliage]") {
  Zone z = flat_zone({32, 24, 32}, 8, 2);
  const auto top = fo::top_surfaces(z.grid);
  const float h = top[16 + 33 * 16];
  const float v = 0.5f;
  std::vector<fo::TreeInput> trees{{7, 0, {10 + 16 * v, -2 + h * v, 20 + 16 * v}, 0, 1, 1, {0, 0, 0}},
                                   {8, 0, {10 + 2 * v, -2 + top[2 + 33 * 2] * v, 20 + 2 * v}, 0, 1, 1, {0, 0, 0}}};
  fo::BakeInput in;
  in.trees = trees;
  ZoneFoliage f = fo::bake(z, in);
  REQUIRE(f.trees.size() == 2);
  for (const auto& t : f.trees) REQUIRE(t.state == TreeState::Standing);
  const ZoneFoliage baked = f;

  auto run = [&](uint64_t e) {
    edit::EditorOptions eo;
    eo.chunk_cells = 8;
    edit::Editor ed(z.grid, nullptr, z.meta.edit_box, eo);
    REQUIRE(ed.apply(e).outcome != edit::Outcome::Invalid);
    ZoneFoliage s = baked;
    std::vector<uint32_t> dirty;
    for (uint64_t c : ed.dirty_chunks()) dirty.push_back(uint32_t(c));
    fo::recheck(ed.grid(), 8, s, dirty);
    return s;
  };
  {  // Dig a pit under tree 7.
    const ZoneFoliage s = run(edit::pack(16, h, 16, 3, edit::Op::Dig, 0));
    const auto d = fo::diff(s, z.meta.cells);
    CHECK(d.trees_fell == std::vector<uint32_t>{7});
    CHECK(!d.columns_fell.empty());
  }
  {  // Bury the ground under tree 8 and its columns.
    const ZoneFoliage s = run(edit::pack(2, top[2 + 33 * 2] + 1.5f, 2, 3, edit::Op::Add, 0));
    const auto d = fo::diff(s, z.meta.cells);
    CHECK(d.trees_fell == std::vector<uint32_t>{8});
    CHECK(std::find(d.columns_fell.begin(), d.columns_fell.end(), 2u + 33u * 2u) != d.columns_fell.end());
  }
  {  // Far from everything, high in the air: nothing changes.
    const ZoneFoliage s = run(edit::pack(28, 23, 28, 1, edit::Op::Dig, 0));
    CHECK(fo::diff(s, z.meta.cells).empty());
    CHECK(same_state(s, baked));
  }
}

TEST_CASE("foliage: erase edits take trees, columns and surface details within the radius", "[foliage]") {
  Zone z = flat_zone({16, 16, 16}, 8, 9);
  const auto top = fo::top_surfaces(z.grid);
  std::vector<fo::TreeInput> trees{{0, 0, {10 + 4 * 0.5f, -2 + top[4 + 17 * 4] * 0.5f, 20 + 4 * 0.5f}, 0, 1, 1, {}},
                                   {1, 0, {10 + 12 * 0.5f, -2 + top[12 + 17 * 12] * 0.5f, 20 + 12 * 0.5f}, 0, 1, 1, {}}};
  std::vector<fo::SurfaceInput> surf{{5, 0, {10 + 4 * 0.5f, -2 + top[4 + 17 * 4] * 0.5f, 20 + 4.5f * 0.5f}, {0, 1, 0}, 0, 1, 1}};
  fo::BakeInput in;
  in.trees = trees;
  in.surface = surf;
  ZoneFoliage f = fo::bake(z, in);
  const std::array<float, 3> p{4, top[4 + 17 * 4], 4};
  CHECK(fo::erase(f, z.meta.cells, p, 2, true) == 1);
  CHECK(fo::erase(f, z.meta.cells, p, 2, true) == 0);  // already erased
  const uint64_t taken = fo::erase(f, z.meta.cells, p, 2, false);
  CHECK(taken >= 2);  // the column under it and the surface detail at least
  const auto c = fo::counts(f, z.meta.cells);
  CHECK(c.trees_erased == 1);
  CHECK(c.surface_erased == 1);
  CHECK(c.columns_erased + 1 == taken);
  // Erased stays erased whatever the ground does.
  fo::recheck_all(z.grid, 8, f);
  CHECK(fo::counts(f, z.meta.cells).trees_erased == 1);
  const auto d = fo::diff(f, z.meta.cells);
  CHECK(d.trees_fell == std::vector<uint32_t>{0});
  fo::restore_baked(f);
  CHECK(fo::diff(f, z.meta.cells).empty());
}

TEST_CASE("foliage: the chunk-local re-check equals the whole-grid re-check on random zones and logs", "[foliage]") {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const uint32_t cc = seed % 3 == 0 ? 4 : 8;
    Zone z = flat_zone({uint32_t(20 + seed * 3), 24, uint32_t(30 - seed)}, cc, seed);
    std::vector<fo::TreeInput> trees;
    std::vector<fo::DetailInput> details;
    std::vector<fo::SurfaceInput> surface;
    const fo::BakeInput in = random_input(z, seed * 7, trees, details, surface);
    const ZoneFoliage baked = fo::bake(z, in);
    std::mt19937 rng(seed);
    edit::EditorOptions eo;
    eo.chunk_cells = cc;
    edit::Editor ed(z.grid, nullptr, z.meta.edit_box, eo);
    ZoneFoliage local = baked;
    const int n = 5 + int(seed * 3);
    for (int i = 0; i < n; ++i) {
      const uint64_t e = random_edit(rng, z.meta.cells);
      if (ed.apply(e).outcome == edit::Outcome::Invalid) continue;
      apply_erases(local, z.meta.cells, e);
    }
    ZoneFoliage full = local;
    ZoneFoliage by_hash = local;
    std::vector<uint32_t> dirty;
    for (uint64_t c : ed.dirty_chunks()) dirty.push_back(uint32_t(c));
    fo::recheck(ed.grid(), cc, local, dirty);
    fo::recheck_all(ed.grid(), cc, full);
    INFO("seed " << seed << ", " << dirty.size() << " dirty chunks");
    CHECK(same_state(local, full));
    // The hashes find the same or more chunks, and give the same result.
    const auto after = fo::chunk_hashes(ed.grid(), cc);
    const auto reached = fo::chunks_reached(z.meta.cells, cc, baked.chunk_hash, after);
    fo::recheck(ed.grid(), cc, by_hash, reached);
    CHECK(same_state(by_hash, full));
    for (size_t i = 0; i < after.size(); ++i)
      if (after[i] != baked.chunk_hash[i]) CHECK(std::binary_search(dirty.begin(), dirty.end(), uint32_t(i)));
  }
}

TEST_CASE("foliage: bake and check give the same bytes for one and two threads", "[foliage]") {
  Zone z = flat_zone({48, 24, 40}, 8, 21);
  std::vector<fo::TreeInput> trees;
  std::vector<fo::DetailInput> details;
  std::vector<fo::SurfaceInput> surface;
  const fo::BakeInput in = random_input(z, 5, trees, details, surface);
  std::vector<uint8_t> bytes[2];
  for (int k = 0; k < 2; ++k) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(k + 1));
    Zone zz = z;
    zz.foliage = fo::bake(zz, in);
    fo::recheck_all(zz.grid, 8, zz.foliage);
    bytes[k] = write_zone(zz);
  }
  CHECK(bytes[0] == bytes[1]);
}

TEST_CASE("foliage: the FOLI section round-trips and refuses damage", "[foliage][zone]") {
  Zone z = flat_zone({20, 12, 18}, 4, 3);
  std::vector<fo::TreeInput> trees;
  std::vector<fo::DetailInput> details;
  std::vector<fo::SurfaceInput> surface;
  z.foliage = fo::bake(z, random_input(z, 9, trees, details, surface));
  z.foliage.has_terrain = true;
  z.foliage.terrain_size = {100, 50, 100};
  const auto bytes = write_zone(z);
  const Zone back = read_zone(bytes);
  CHECK(write_zone(back) == bytes);
  CHECK(back.foliage.trees.size() == z.foliage.trees.size());
  CHECK(back.foliage.mask == z.foliage.mask);
  CHECK(back.foliage.terrain_size == z.foliage.terrain_size);

  const auto payload = zone_file::encode_foliage(z.foliage, z.meta);
  // Every truncation is refused with a data error, never a crash.
  for (size_t n = 0; n < payload.size(); n += (n < 200 ? 1 : 97)) {
    std::span<const uint8_t> cut(payload.data(), n);
    CHECK_THROWS_AS(zone_file::decode_foliage(cut, z.meta), Error);
  }
  // A count that claims more than the payload holds is refused before anything is allocated.
  auto big = payload;
  big[20] = 0xff, big[21] = 0xff, big[22] = 0xff, big[23] = 0x7f;  // trees
  CHECK_THROWS_WITH(zone_file::decode_foliage(big, z.meta), Catch::Contains("does not match its counts"));
  // A bucket out of order.
  auto bad = payload;
  const size_t buckets = zone_file::kFoliageHeaderSize + z.foliage.trees.size() * zone_file::kTreeRecordSize;
  bad[buckets + 4] = 0xff;
  CHECK_THROWS_WITH(zone_file::decode_foliage(bad, z.meta), Catch::Contains("buckets"));
  // Another grid.
  ZoneMeta other = z.meta;
  other.cells.ny += 1;
  CHECK_THROWS_WITH(zone_file::decode_foliage(payload, other), Catch::Contains("another grid"));
  // A bad tree state.
  auto st = payload;
  st[zone_file::kFoliageHeaderSize + 64] = 7;
  CHECK_THROWS_WITH(zone_file::decode_foliage(st, z.meta), Catch::Contains("tree state"));
}

TEST_CASE("foliage: instance lists in CSV and JSON", "[foliage][formats]") {
  using namespace foliage_io;
  const auto t = read_trees("x,y,z,prototype,rotation,scale\n1,2,3,1,0.5,2\n\n# note\n4, 5, 6, 0, 0, 1\n", {});
  REQUIRE(t.size() == 2);
  CHECK(t[0].position == std::array<float, 3>{1, 2, 3});
  CHECK(t[0].width == 2.f);
  CHECK(t[1].id == 1);
  CHECK_THROWS_WITH(read_trees("x,y,zz\n1,2,3\n", {}), Catch::Contains("unknown column 'zz'"));
  CHECK_THROWS_WITH(read_trees("x,y\n1,2\n", {}), Catch::Contains("missing z"));
  CHECK_THROWS_WITH(read_trees("x,y,z\n1,2,abc\n", {}), Catch::Contains("line 2, column z: not a number"));
  CHECK_THROWS_WITH(read_trees("px,py,pz\n0.5,0,0.5\n", {}), Catch::Contains("terrain's size"));
  Terrain ter;
  ter.position = std::array<float, 3>{-10, 0, -10};
  ter.size = std::array<float, 3>{100, 50, 200};
  const auto n = read_trees("px,py,pz\n0.5,0.1,0.25\n", ter);
  CHECK(n[0].position == std::array<float, 3>{40, 5, 40});
  const auto j = read_trees(R"([{"position": {"x": 1, "y": 2, "z": 3}, "prototypeIndex": 2, "widthScale": 1.5, "color": {}}])", {});
  CHECK(j[0].prototype == 2);
  CHECK(j[0].width == 1.5f);
  CHECK_THROWS_WITH(read_trees(R"([{"position": [1, 2]}])", {}), Catch::Contains("three numbers"));
  CHECK_THROWS_WITH(read_trees(R"([{"x": 1, "y": 2, "z": 3, "bogus": 1}])", {}), Catch::Contains("unknown key"));
  CHECK_THROWS_WITH(read_trees("[1,", {}), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(read_surface(R"([{"position": [1e400, 0, 0]}])"), Catch::Contains("a JSON number out of range"));
  const auto d = read_details("x,z,prototype,rotation\n1,2,0,45\n", 10);
  CHECK(d[0].rotation == 45.f);
  CHECK_THROWS_WITH(read_details("x,z\n1,2\n3,4\n5,6\n", 2), Catch::Contains("more than 2"));
  const auto s = read_surface(R"({"surfaceDetails": [{"position": [1, 2, 3], "normal": [0, 0, 1]}]})");
  CHECK(s[0].normal == std::array<float, 3>{0, 0, 1});
}

TEST_CASE("foliage: the dig-zone asset's trees and a TerrainData asset's", "[foliage][formats]") {
  using namespace foliage_io;
  const std::string asset = io::read_text(std::string(VOXKIT_SOURCE_DIR) + "/test_data/unity/quarry.asset");
  CHECK_THROWS_WITH(read_asset_foliage(asset, {}), Catch::Contains("terrain's size"));
  Terrain ter;
  ter.size = std::array<float, 3>{64, 10, 64};
  const AssetFoliage a = read_asset_foliage(asset, ter);
  REQUIRE(a.trees.size() == 2);
  CHECK(a.trees[0].position == std::array<float, 3>{0.51f * 64, 0.02f * 10, 0.49f * 64});
  CHECK(a.trees[0].rotation == 2.3f);
  CHECK(a.trees[1].prototype == 1);
  CHECK(a.has_surface);
  CHECK(a.surface.empty());
  const std::string td =
      "%YAML 1.1\n--- !u!156 &15600000\nTerrainData:\n  m_Name: T\n  m_DetailDatabase:\n    m_TreeInstances:\n"
      "    - position: {x: 0.5, y: 0, z: 0.25}\n      widthScale: 1\n      heightScale: 2\n      rotation: 1\n"
      "      color: {r: 255, g: 255, b: 255, a: 255}\n      lightmapColor: {r: 255, g: 255, b: 255, a: 255}\n"
      "      index: 1\n    m_TreePrototypes:\n    - prefab: {fileID: 0}\n    - prefab: {fileID: 0}\n"
      "  m_Heightmap:\n    m_Resolution: 33\n    m_Scale: {x: 2, y: 40, z: 2}\n";
  const TerrainDataTrees t = read_terrain_data(td, {});
  CHECK(t.size == std::array<float, 3>{64, 40, 64});
  CHECK(t.prototypes == 2);
  REQUIRE(t.trees.size() == 1);
  CHECK(t.trees[0].position == std::array<float, 3>{32, 0, 16});
  CHECK(t.trees[0].prototype == 1);
  CHECK(t.trees[0].height == 2.f);
}
