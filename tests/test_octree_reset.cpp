// Selective reset: hand-derived outputs for compat and default modes, the top-level rule,
// collapse, veins, shapes, rooms, and compat equivalence with a direct reading of the
// terrain_reset.py behaviour described in FORMATS.md.
#include <catch2/catch.hpp>

#include <functional>

#include "lib/core/error.hpp"
#include "lib/octree/octree_reset.hpp"
#include "lib/octree/octree_stats.hpp"
#include "lib/octree/octree_synth.hpp"
#include "tests/octree_util.hpp"

using namespace voxkit;
using namespace voxkit::test;
using octree::Region;
using octree::Shape;

namespace {

Bytes run(const Bytes& f, const Region& r, bool compat, octree::ResetStats* st = nullptr) {
  octree::ResetOptions o;
  o.region = r;
  o.compat = compat;
  return octree::reset(octree::parse(f, {true}), o, st);
}

Region keep_box(Box3i b) {
  Region r;
  r.keep.push_back(Shape::make_box(b));
  return r;
}

// maxDepth 1: a 2^3 world, origin 1; child i sits at octree (i&1, i>>1&1, i>>2&1), world
// x = ox - 1, z = oz - 1. World (0,0,0) is child 5.
const Bytes kTree = cat({Bytes{0x02}, Bytes{0x03, 0x10, 0x01}, kUnmod, Bytes{0x03, 0x20, 0x02},
                         Bytes{0x03, 0x30, 0x01}, Bytes{0x01, 0x05, 0x06}, Bytes{0x03, 0x40, 0x02},
                         Bytes{0x03, 0x50, 0x01}, Bytes{0x03, 0x60, 0x02}});
const Bytes kVeins = cat({vein(0, 0, 0, 7, 1), vein(5, 5, 5, 8, 0)});

// The behaviour of terrain_reset.py as FORMATS.md states it, written directly.
void compat_ref(const Bytes& n, size_t& at, int md, int d, int64_t ox, int64_t oy, int64_t oz,
                int64_t origin, const Box3i& keep, Bytes& out) {
  const int64_t size = int64_t(1) << (md - d);
  const int64_t wx = ox - origin, wz = oz - origin;
  const bool overlaps = !(wx + size - 1 < keep.min[0] || wx > keep.max[0] || oy + size - 1 < keep.min[1] ||
                          oy > keep.max[1] || wz + size - 1 < keep.min[2] || wz > keep.max[2]);
  const uint8_t f = n[at];
  if (f & 1) {
    if ((f & 2) && !overlaps) out.insert(out.end(), {1, 0, 0});
    else out.insert(out.end(), n.begin() + long(at), n.begin() + long(at) + 3);
    at += 3;
    return;
  }
  if (!overlaps) {
    at = octree::skip_subtree(n.data(), at);
    out.insert(out.end(), {1, 0, 0});
    return;
  }
  out.push_back(f);
  ++at;
  const int64_t h = size / 2;
  for (int i = 0; i < 8; ++i)
    compat_ref(n, at, md, d + 1, ox + (i & 1 ? h : 0), oy + (i & 2 ? h : 0), oz + (i & 4 ? h : 0), origin, keep, out);
}

}  // namespace

TEST_CASE("octree reset compat mode writes the hand-derived bytes of terrain_reset.py", "[octree][reset]") {
  octree::ResetStats st;
  const Bytes out = run(dat(1, kTree, 2, kVeins), keep_box({{0, 0, 0}, {0, 0, 0}}), true, &st);
  // Root overlaps the box: copied (flags as read), children: 0 reset, 1 copied (unmodified),
  // 2 and 3 reset, 4 copied with its payload, 5 kept, 6 and 7 reset. Vein at (0,0,0) kept.
  const Bytes want = dat(1, cat({Bytes{0x02}, kUnmod, kUnmod, kUnmod, kUnmod, Bytes{0x01, 0x05, 0x06},
                                 Bytes{0x03, 0x40, 0x02}, kUnmod, kUnmod}),
                         1, vein(0, 0, 0, 7, 1));
  CHECK(out == want);
  CHECK(st.modified_leaves_reset == 5);
  CHECK(st.modified_leaves_kept == 1);
  CHECK(st.veins_kept == 1);
  CHECK(st.veins_reset == 1);
  CHECK(st.bytes_before == dat(1, kTree, 2, kVeins).size());
  CHECK(st.bytes_after == want.size());
  // The default mode gives the same bytes here: the root keeps a modified child.
  CHECK(run(dat(1, kTree, 2, kVeins), keep_box({{0, 0, 0}, {0, 0, 0}}), false) == want);
}

TEST_CASE("octree reset collapses a branch left with unmodified leaves, compat does not", "[octree][reset]") {
  Bytes tree = kTree;
  tree[16] = 0x01;  // child 5 (offset 1 + 5*3) becomes unmodified: 01 40 02
  const Bytes f = dat(1, tree, 0);
  octree::ResetStats st;
  CHECK(run(f, keep_box({{0, 0, 0}, {0, 0, 0}}), false, &st) == dat(1, kUnmod, 0));
  CHECK(st.branches_collapsed == 1);
  // Compat: the root overlaps, so it stays a branch with its flags byte as read.
  const Bytes want = dat(1, cat({Bytes{0x02}, kUnmod, kUnmod, kUnmod, kUnmod, Bytes{0x01, 0x05, 0x06},
                                 Bytes{0x01, 0x40, 0x02}, kUnmod, kUnmod}), 0);
  CHECK(run(f, keep_box({{0, 0, 0}, {0, 0, 0}}), true) == want);
}

TEST_CASE("octree reset keeps the top maxDepth-10 levels as branches", "[octree][reset]") {
  // maxDepth 12: depths 0 and 1 stay branches. Child 0 of the root is a modified 2048 leaf.
  Bytes nodes = {0x02, 0x03, 0x11, 0x01};
  for (int i = 1; i < 8; ++i) nodes = cat({nodes, unmod_branch()});
  const Bytes f = dat(12, nodes, 0);
  const Region everything = keep_box({{0, -100, 0}, {0, -100, 0}});  // keeps nothing
  octree::ResetStats st;
  const Bytes out = run(f, everything, false, &st);
  Bytes want = {0x00};  // root: no modified child left, IS_MODIFIED cleared
  for (int i = 0; i < 8; ++i) want = cat({want, unmod_branch()});
  CHECK(out == dat(12, want, 0));
  CHECK(st.modified_leaves_reset == 1);
  // Compat mode collapses the whole tree into one leaf, as terrain_reset.py does.
  CHECK(run(f, everything, true) == dat(12, kUnmod, 0));
}

TEST_CASE("octree reset with a box around the whole world changes nothing", "[octree][reset]") {
  const Bytes f = dat(1, kTree, 2, kVeins);
  octree::ResetStats st;
  CHECK(run(f, keep_box({{-10, -10, -10}, {10, 10, 10}}), false, &st) == f);
  CHECK(st.subtrees_reset == 0);
  CHECK(st.veins_kept == 2);
}

TEST_CASE("octree reset in drop mode resets only inside the dropped shapes", "[octree][reset]") {
  Region r;
  r.drop.push_back(Shape::make_box({{-1, 1, -1}, {-1, 1, -1}}));  // octree (0,1,0): child 2
  octree::ResetStats st;
  const Bytes out = run(dat(1, kTree, 2, kVeins), r, false, &st);
  Bytes want = kTree;
  want[7] = 0x01;
  want[8] = 0x00;
  want[9] = 0x00;
  CHECK(out == dat(1, want, 2, kVeins));
  CHECK(st.modified_leaves_reset == 1);
  CHECK(st.veins_kept == 2);
  // Keep shapes win over drop shapes.
  r.keep.push_back(Shape::make_box({{-1, 1, -1}, {-1, 1, -1}}));
  CHECK(run(dat(1, kTree, 2, kVeins), r, false) == dat(1, kTree, 2, kVeins));
}

TEST_CASE("octree compat reset equals a direct reading of terrain_reset.py on synthetic deltas", "[octree][reset]") {
  octree::SynthOptions o;
  o.max_depth = 10;
  o.tunnels = 10;
  o.veins = 20;
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    o.seed = seed;
    const auto s = octree::synthesize(o);
    const auto v = octree::parse(s.terrain_dat);
    const Box3i keep = octree::rooms_bounding_box(s.rooms, 3);
    Bytes want;
    octree::put_i32(want, v.max_depth);
    const Bytes nodes(v.nodes.begin(), v.nodes.end());
    size_t at = 0;
    compat_ref(nodes, at, v.max_depth, 0, 0, 0, 0, v.origin(), keep, want);
    Bytes kept;
    int32_t n = 0;
    octree::VeinReader r(v);
    octree::Vein vein;
    while (r.next(vein)) {
      if (keep.contains({vein.world[0], vein.world[1], vein.world[2]})) {
        kept.insert(kept.end(), vein.record.begin(), vein.record.end());
        ++n;
      }
    }
    want = cat({want, i32(n), kept});
    CHECK(run(s.terrain_dat, keep_box(keep), true) == want);
  }
}

TEST_CASE("octree reset keeps every modified voxel inside the kept shapes and is idempotent", "[octree][reset]") {
  octree::SynthOptions o;
  o.max_depth = 11;
  o.tunnels = 30;
  const auto s = octree::synthesize(o);
  Region r;
  r.keep.push_back(Shape::sphere(0, 500, 0, 200));
  r.keep.push_back(Shape::cylinder(-300, 300, 150));
  for (const auto& b : octree::room_boxes(s.rooms, 3)) r.keep.push_back(Shape::make_box(b));
  const Bytes once = run(s.terrain_dat, r, false);
  CHECK(run(once, r, false) == once);
  // Nothing modified remains outside the kept shapes.
  const auto v = octree::parse(once);
  const auto st = octree::stats(v);
  CHECK(st.by_depth[0].leaves == 0);  // the top level stays a branch
  CHECK(st.unflagged_ancestors == 0);
  // Everything inside a kept box reads the same as before.
  const auto before = octree::parse(s.terrain_dat);
  for (const auto& b : octree::room_boxes(s.rooms, 3)) {
    Region only;
    only.keep.push_back(Shape::make_box(b));
    CHECK(run(s.terrain_dat, only, false) == run(once, only, false));
  }
  CHECK(octree::stats(before).modified_volume >= st.modified_volume);
}

TEST_CASE("octree shapes classify voxel boxes", "[octree][reset]") {
  const Shape s = Shape::sphere(0, 0, 0, 10);
  CHECK(s.contains(Box3i{{-5, -5, -5}, {5, 5, 5}}));
  CHECK_FALSE(s.contains(Box3i{{-6, -6, -6}, {6, 6, 6}}));  // corner at sqrt(108) > 10
  CHECK(s.disjoint(Box3i{{11, 0, 0}, {20, 0, 0}}));
  CHECK_FALSE(s.disjoint(Box3i{{10, 0, 0}, {20, 0, 0}}));
  const Shape c = Shape::cylinder(100, -100, 5);
  CHECK(c.contains(Box3i{{97, -1000, -103}, {103, 4000, -97}}));
  CHECK(c.disjoint(Box3i{{106, 0, -100}, {200, 0, -100}}));
  Region r;
  r.keep.push_back(s);
  CHECK(r.classify(Box3i{{-1, -1, -1}, {1, 1, 1}}) == Region::Cover::Keep);
  CHECK(r.classify(Box3i{{50, 50, 50}, {60, 60, 60}}) == Region::Cover::Reset);
  CHECK(r.classify(Box3i{{0, 0, 0}, {60, 60, 60}}) == Region::Cover::Mixed);
  CHECK(r.resets({11, 0, 0}));
  CHECK_FALSE(r.resets({10, 0, 0}));
}

TEST_CASE("octree rooms become boxes with floor division and a margin", "[octree][reset]") {
  // Cells: X=-15 -> corner floor(-1.5) = -2; X=25 -> 2. Each covers 2 voxels.
  const std::vector<octree::Room> rooms = {{{{-15, 0, 10}, {25, 9, 10}}}, {{{1000, 100, 1000}}}};
  const auto boxes = octree::room_boxes(rooms, 3);
  REQUIRE(boxes.size() == 2);
  CHECK(boxes[0] == Box3i{{-5, -3, -2}, {6, 4, 5}});
  CHECK(boxes[1] == Box3i{{97, 7, 97}, {104, 14, 104}});
  CHECK(octree::rooms_bounding_box(rooms, 0) == Box3i{{-2, 0, 1}, {101, 11, 101}});
  CHECK(octree::compat_keep_box(rooms, 0) == octree::rooms_bounding_box(rooms, 0));
  // No cells: no bounding box, but terrain_reset.py keeps the box (0,0,0)-(0,0,0).
  CHECK(octree::rooms_bounding_box({}, 3).empty());
  CHECK(octree::compat_keep_box({}, 3) == Box3i{{0, 0, 0}, {0, 0, 0}});
  CHECK(octree::compat_keep_box({octree::Room{}}, 3) == Box3i{{0, 0, 0}, {0, 0, 0}});
  CHECK(octree::room_boxes({octree::Room{}}, 3).empty());
}

TEST_CASE("octree reset splits a modified leaf across a shape's boundary, compat keeps it whole", "[octree][reset]") {
  const Bytes f = dat(1, Bytes{0x03, 0x11, 0x01});
  octree::ResetStats st;
  // Only world (0,0,0), child 5, is kept: it repeats the leaf's bytes, the rest is reset.
  const Bytes want = cat({Bytes{0x02}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, Bytes{0x03, 0x11, 0x01}, kUnmod, kUnmod});
  CHECK(run(f, keep_box({{0, 0, 0}, {0, 0, 0}}), false, &st) == dat(1, want));
  CHECK(st.modified_leaves_split == 1);
  CHECK(run(f, keep_box({{0, 0, 0}, {0, 0, 0}}), true) == f);
  // Split below the top levels of a 4096^3 world: the root leaf becomes branches down to
  // the 1024 level, and only the part around the kept voxel stays modified.
  const Bytes big = dat(12, Bytes{0x03, 0x22, 0x02});
  const Bytes out = run(big, keep_box({{0, 0, 0}, {0, 0, 0}}), false);
  const auto v = octree::parse(out);
  const auto s = octree::stats(v);
  CHECK(s.modified_volume == 1);
  CHECK(s.by_depth[0].leaves == 0);
  CHECK(s.by_depth[1].leaves == 0);
  CHECK(s.unflagged_ancestors == 0);
}

TEST_CASE("octree reset reports the ranges it copied unchanged", "[octree][reset]") {
  octree::SynthOptions o;
  o.max_depth = 11;
  o.tunnels = 30;
  o.veins = 40;
  const auto s = octree::synthesize(o);
  std::vector<Region> regions(5);
  regions[0].drop.push_back(Shape::make_box({{-200, 0, -200}, {199, 2047, 199}}));
  regions[1].keep.push_back(Shape::sphere(0, 500, 0, 300));
  for (const auto& b : octree::room_boxes(s.rooms, 3)) regions[2].keep.push_back(Shape::make_box(b));
  regions[3].keep.push_back(Shape::make_box({{-1024, 0, -1024}, {1023, 2047, 1023}}));  // all
  regions[4].drop.push_back(Shape::sphere(100, 700, -50, 90));
  for (size_t i = 0; i < regions.size(); ++i) {
    for (bool compat : {false, true}) {
      if (compat && i != 2) continue;
      std::vector<octree::CopyRun> runs;
      octree::ResetOptions ro;
      ro.region = compat ? keep_box(octree::rooms_bounding_box(s.rooms, 3)) : regions[i];
      ro.compat = compat;
      ro.copies = &runs;
      const Bytes out = octree::reset(octree::parse(s.terrain_dat), ro);
      uint64_t covered = 0, end = 0;
      for (const auto& r : runs) {
        REQUIRE(r.len > 0);
        REQUIRE(r.to >= end);  // in output order, not overlapping
        REQUIRE(r.to + r.len <= out.size());
        REQUIRE(r.from + r.len <= s.terrain_dat.size());
        CHECK(std::equal(out.begin() + long(r.to), out.begin() + long(r.to + r.len),
                         s.terrain_dat.begin() + long(r.from)));
        covered += r.len;
        end = r.to + r.len;
      }
      // Everything but the vein count is a copy when nothing is reset.
      if (i == 3) CHECK(covered == out.size() - 4);
      if (i == 0 || i == 4) CHECK(covered > out.size() / 2);
    }
  }
}

TEST_CASE("octree reset refuses an output past max_output_bytes before writing it", "[octree][reset][limits]") {
  // A modified root branch of eight modified leaves. At maxDepth 23 the top 13 levels stay
  // branches, so each reset leaf expands into 8^12 leaves (about 27 GB each): refused at once.
  Bytes nodes = {0x02};
  for (int i = 0; i < 8; ++i) nodes = cat({nodes, Bytes{0x03, 0xff, 0x01}});
  const Region small = keep_box({{0, 0, 0}, {8, 8, 8}});
  octree::ResetOptions o;
  o.region = small;
  const Bytes deep = dat(23, nodes, 0);
  CHECK_THROWS_WITH(octree::reset(octree::parse(deep, {true}), o),
                    Catch::Contains("reset output would grow past the output cap") &&
                        Catch::Contains("expected at most 4294967296 bytes"));
  // At maxDepth 12 the same tree resets, and a cap below its output refuses it.
  const Bytes f = dat(12, nodes, 0);
  const auto v = octree::parse(f, {true});
  const Bytes out = octree::reset(v, o);
  o.max_output_bytes = out.size();
  CHECK(octree::reset(v, o) == out);
  o.max_output_bytes = out.size() - 1;
  CHECK_THROWS_WITH(octree::reset(v, o), Catch::Contains("expected at most " + std::to_string(out.size() - 1)));
  // The compat mode too, and a cap below the header.
  o.compat = true;
  o.max_output_bytes = 3;
  CHECK_THROWS_WITH(octree::reset(v, o), Catch::Contains("output cap"));
}
