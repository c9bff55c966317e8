// Octree statistics, modified regions, top maps, diff and merge on hand-made trees.
#include <catch2/catch.hpp>

#include "lib/core/error.hpp"
#include "lib/octree/octree_merge.hpp"
#include "lib/octree/octree_stats.hpp"
#include "lib/octree/octree_synth.hpp"
#include "tests/octree_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

namespace {
// maxDepth 2 (4^3 world, origin 2): root branch; child 0 a branch with one modified voxel
// (its child 7, octree (1,1,1)); child 6 a modified 2^3 leaf at octree (0,2,2).
const Bytes kNodes = cat({Bytes{0x02}, Bytes{0x02}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod,
                          Bytes{0x03, 0x00, 0x00}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod,
                          Bytes{0x03, 0xff, 0x02}, kUnmod});
}  // namespace

TEST_CASE("octree stats count nodes by depth, modified volume and bounds", "[octree][stats]") {
  const Bytes f = dat(2, kNodes, 1, vein(1, 2, 3, 4, 5));
  const auto v = octree::parse(f, {true});
  const auto s = octree::stats(v);
  CHECK(s.nodes == 17);
  CHECK(s.branches == 2);
  CHECK(s.leaves == 15);
  CHECK(s.modified_leaves == 2);
  CHECK(s.by_depth[1].leaves == 7);
  CHECK(s.by_depth[2].modified_leaves == 1);
  CHECK(s.modified_volume == 9);
  CHECK(s.air_volume == 1);
  CHECK(s.solid_volume == 8);
  // Voxel (1,1,1) -> world (-1,1,-1); the leaf (0,2,2)+2 -> world x -2..-1, y 2..3, z 0..1.
  CHECK(s.modified_bounds == Box3i{{-2, 1, -1}, {-1, 3, 1}});
  CHECK(s.veins == 1);
  CHECK(s.minables == 5);
  CHECK(s.unflagged_ancestors == 0);
}

TEST_CASE("octree stats count modified nodes under unflagged branches", "[octree][stats]") {
  Bytes n = kNodes;
  n[0] = 0x00;
  CHECK(octree::stats(octree::parse(dat(2, n), {true})).unflagged_ancestors == 2);
}

TEST_CASE("octree regions group modified blocks and report tight world boxes", "[octree][stats]") {
  const Bytes f = dat(2, kNodes);
  const auto v = octree::parse(f, {true});
  // Blocks of 1: the voxel (1,1,1) and the 2^3 leaf at (0,2,2) touch diagonally: one region.
  auto r = octree::modified_regions(v, 0);
  REQUIRE(r.size() == 1);
  CHECK(r[0].volume == 9);
  CHECK(r[0].bounds == Box3i{{-2, 1, -1}, {-1, 3, 1}});
  CHECK_THROWS_AS(octree::modified_regions(v, 3), Error);
}

TEST_CASE("octree regions keep distant modifications apart", "[octree][stats]") {
  octree::SynthOptions o;
  o.max_depth = 10;
  o.tunnels = 0;
  o.pads = 3;
  o.veins = 0;
  const auto s = octree::synthesize(o);
  const auto v = octree::parse(s.terrain_dat);
  const auto regions = octree::modified_regions(v, 4);
  CHECK(regions.size() >= 1);
  uint64_t total = 0;
  for (const auto& r : regions) total += r.volume;
  CHECK(total == octree::stats(v).modified_volume);
}

TEST_CASE("octree top map sums modified voxels per column cell", "[octree][stats]") {
  const Bytes f = dat(2, kNodes);
  const auto v = octree::parse(f, {true});
  const auto m = octree::top_map(v, 1);
  REQUIRE(m.width == 4);
  CHECK(m.modified[1 + 4 * 1] == 1);  // voxel (1,1,1)
  CHECK(m.modified[0 + 4 * 2] == 2);  // leaf (0,2,2) size 2: 2 voxels per column
  CHECK(m.modified[1 + 4 * 3] == 2);
  const auto m2 = octree::top_map(v, 2);
  CHECK(m2.modified[0] == 1);
  CHECK(m2.modified[0 + 2 * 1] == 8);
  CHECK_THROWS_AS(octree::top_map(v, 3), Error);
}

TEST_CASE("octree diff finds where two deltas read differently", "[octree][stats]") {
  const Bytes fa = dat(2, kNodes);
  const auto a = octree::parse(fa, {true});
  Bytes other = kNodes;
  other[42] = 0x80;  // the density of the 2^3 leaf (root child 6, at offset 2 + 24 + 15)
  REQUIRE(other[41] == 0x03);
  const Bytes fb = dat(2, other);
  const auto b = octree::parse(fb, {true});
  const auto d = octree::diff(a, b, 0);
  CHECK(d.differing_volume == 8);
  CHECK(d.both_changed == 8);
  REQUIRE(d.regions.size() == 1);
  CHECK(d.regions[0].bounds == Box3i{{-2, 2, 0}, {-1, 3, 1}});
  // Against an empty delta: A's modifications only.
  const Bytes fe = dat(2, kUnmod);
  const auto e = octree::diff(a, octree::parse(fe, {true}), 0);
  CHECK(e.differing_volume == 9);
  CHECK(e.only_a == 9);
  CHECK(octree::diff(a, a, 0).differing_volume == 0);
  const Bytes f3 = dat(3, kUnmod);
  CHECK_THROWS_WITH(octree::diff(a, octree::parse(f3, {true}), 0), Catch::Contains("different world sizes"));
}

TEST_CASE("octree merge lays B's modifications over A", "[octree][stats]") {
  const Bytes fa = dat(2, kNodes, 1, vein(1, 1, 1, 1, 0));
  // B: one modified voxel at octree (3,0,0) (root child 1 -> its child 1), and A's vein again.
  const Bytes nb = cat({Bytes{0x02}, kUnmod, Bytes{0x02}, kUnmod, Bytes{0x03, 0x07, 0x01}, kUnmod, kUnmod,
                        kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod});
  const Bytes fb = dat(2, nb, 2, cat({vein(1, 1, 1, 1, 0), vein(9, 9, 9, 2, 1)}));
  const auto a = octree::parse(fa, {true});
  const auto b = octree::parse(fb, {true});
  octree::MergeStats st;
  const Bytes m = octree::merge(a, b, &st);
  const auto mv = octree::parse(m, {true});
  CHECK(octree::stats(mv).modified_volume == 10);
  CHECK(octree::diff(mv, a, 0).differing_volume == 1);
  CHECK(st.leaves_from_a == 2);
  CHECK(st.leaves_from_b == 1);
  CHECK(mv.vein_count == 2);  // A's vein is also B's: taken once
  // Merging a delta over itself, or an empty delta over it, gives it back.
  CHECK(octree::merge(a, a) == fa);
  const Bytes fe = dat(2, kUnmod);
  CHECK(octree::merge(a, octree::parse(fe, {true})) == fa);
  // B modified over a modified A leaf: the leaf is split, B wins where it is modified.
  const Bytes fl = dat(1, Bytes{0x03, 0x11, 0x01});
  const Bytes fs = dat(1, cat({Bytes{0x02}, Bytes{0x03, 0x22, 0x02}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod}));
  const Bytes split = octree::merge(octree::parse(fl, {true}), octree::parse(fs, {true}));
  Bytes want = {0x02, 0x03, 0x22, 0x02};
  for (int i = 1; i < 8; ++i) want = cat({want, Bytes{0x03, 0x11, 0x01}});
  CHECK(split == dat(1, want));
}

TEST_CASE("octree regions refuse blocks too fine for the deepest worlds without a wide shift", "[octree][stats][limits]") {
  // 2^24 voxels per axis with 1-, 2- and 4-voxel blocks: 2^72, 2^69, 2^66 blocks.
  for (int b : {0, 1, 2, 16}) {
    CHECK_THROWS_WITH(octree::BlockGrouper(24, b), Catch::Contains("too fine"));
  }
  CHECK_NOTHROW(octree::BlockGrouper(24, 17));
  CHECK_THROWS_WITH(octree::BlockGrouper(24, 25), Catch::Contains("power of two"));
  // One modified leaf over the whole world.
  const Bytes f = dat(24, Bytes{0x03, 0xff, 0x00});
  const auto v = octree::parse(f, {true});
  CHECK_THROWS_WITH(octree::modified_regions(v, 0), Catch::Contains("too fine"));
  const auto r = octree::modified_regions(v, 17);
  REQUIRE(r.size() == 1);
  CHECK(r[0].blocks == 128 * 128 * 128);
  CHECK_THROWS_WITH(octree::diff(v, v, 1), Catch::Contains("too fine"));
}

TEST_CASE("octree block grouper refuses boxes outside its world", "[octree][stats][limits]") {
  octree::BlockGrouper g(4, 2);
  CHECK_NOTHROW(g.add({{0, 0, 0}, {15, 15, 15}}));
  CHECK_THROWS_WITH(g.add({{0, 0, 0}, {16, 1, 1}}), Catch::Contains("outside the world"));
  CHECK_THROWS_WITH(g.add({{-1, 0, 0}, {1, 1, 1}}), Catch::Contains("outside the world"));
}
