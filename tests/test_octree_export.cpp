// Tests for octree export: a box of a delta as a dig zone, written and read back.
#include <catch2/catch.hpp>

#include <algorithm>

#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree_export.hpp"
#include "octree_util.hpp"
#include "test_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

namespace {

// maxDepth 10: branches down child 0 to depth 8 (4 voxels), whose child 0 is a branch of
// single voxels and child 1 a modified 2^3 leaf of density 200. World = octree - (512,0,512).
Bytes hand_tree() {
  const Bytes voxels = cat({Bytes{0x02}, Bytes{0x03, 0, 0}, Bytes{0x03, 255, 1}, Bytes{0x03, 128, 1},
                            Bytes{0x01, 77, 0}, Bytes{0x03, 54, 1}, Bytes{0x03, 55, 1},
                            Bytes{0x03, 56, 1}, Bytes{0x03, 57, 1}});
  Bytes sub = cat({Bytes{0x02}, voxels, Bytes{0x03, 200, 2}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod});
  for (int d = 7; d >= 0; --d) sub = cat({Bytes{0x02}, sub, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod});
  return dat(10, sub);
}

Box3i wbox(int64_t x0, int64_t y0, int64_t z0, int64_t x1, int64_t y1, int64_t z1) {
  return {{x0, y0, z0}, {x1, y1, z1}};
}

}  // namespace

TEST_CASE("octree export writes the modified densities of a box as SDF bytes", "[octree][export]") {
  const Bytes f = hand_tree();
  const auto v = octree::parse(f);
  octree::ExportOptions o;
  o.box = wbox(-512, 0, -512, -508, 2, -511);  // octree x 0..4, y 0..2, z 0..1
  o.source = "stationeers terrain.dat export test";
  octree::ExportStats st;
  const Zone z = octree::export_zone(v, o, &st);
  TempDir t;
  write_zone_file(t.file("z.vxz"), z);
  const Zone r = read_zone_file(t.file("z.vxz"));

  CHECK(r.meta.cells == Dims{4, 2, 1});
  CHECK(r.meta.voxel_size == 1.0);
  CHECK(r.meta.origin == std::array<double, 3>{-512, 0, -512});
  CHECK(r.meta.edit_box.max == std::array<int32_t, 3>{4, 2, 1});
  CHECK(r.meta.hole == HoleRect{-512, -512, -508, -511});
  CHECK(r.meta.source == o.source);
  const auto& g = r.grid;
  CHECK(g.at(0, 0, 0) == 255);  // density 0: air
  CHECK(g.at(1, 0, 0) == 1);    // density 255: solid
  CHECK(g.at(0, 1, 0) == 128);  // the surface maps to itself
  CHECK(g.at(1, 1, 0) == 255);  // unmodified leaf (its density 77 is ignored): air by default
  CHECK(g.at(0, 0, 1) == 256 - 54);
  CHECK(g.at(1, 1, 1) == 256 - 57);
  CHECK(g.at(2, 0, 0) == 56);   // the depth-9 leaf of density 200 covers x 2..3, y 0..1, z 0..1
  CHECK(g.at(3, 1, 1) == 56);
  CHECK(g.at(4, 0, 0) == 255);  // unmodified
  CHECK(g.at(0, 2, 0) == 255);
  CHECK(st.modified_voxels == 7 + 8);
  CHECK(st.unmodified_voxels == 30 - 15);
  // Only the nodes meeting the box: 9 branches on the path, their 8 children each.
  CHECK(st.nodes_visited < 9 * 9 + 9);

  o.unmodified = octree::Unmodified::Solid;
  const Zone s = octree::export_zone(v, o);
  CHECK(s.grid.at(1, 1, 0) == 1);
  CHECK(s.grid.at(4, 0, 0) == 1);
  CHECK(s.grid.at(0, 0, 0) == 255);
}

TEST_CASE("octree export refuses boxes outside the world, too thin or too large", "[octree][export]") {
  const Bytes f = hand_tree();
  const auto v = octree::parse(f);
  octree::ExportOptions o;
  o.box = wbox(500, 0, 0, 512, 10, 10);  // world x ends at 511
  CHECK_THROWS_WITH(octree::export_zone(v, o), Catch::Contains("not inside the world"));
  o.box = wbox(0, -1, 0, 10, 10, 10);
  CHECK_THROWS_WITH(octree::export_zone(v, o), Catch::Contains("not inside the world"));
  o.box = wbox(2000, 0, 0, 2010, 10, 10);
  CHECK_THROWS_WITH(octree::export_zone(v, o), Catch::Contains("not inside the world"));
  o.box = wbox(0, 5, 0, 10, 5, 10);
  CHECK_THROWS_WITH(octree::export_zone(v, o), Catch::Contains("at least 2 voxels"));
  o.box = wbox(0, 0, 0, 9, 9, 9);
  o.max_samples = 999;
  CHECK_THROWS_WITH(octree::export_zone(v, o), Catch::Contains("1000 voxels, over the zone limit of 999"));
}

TEST_CASE("octree export of a box under one unmodified root leaf is all fill", "[octree][export]") {
  const Bytes f = dat(10, kUnmod);
  const auto v = octree::parse(f);
  octree::ExportOptions o;
  o.box = wbox(-3, 7, 4, 3, 9, 6);
  octree::ExportStats st;
  const Zone z = octree::export_zone(v, o, &st);
  CHECK(st.nodes_visited == 1);
  CHECK(st.modified_voxels == 0);
  CHECK(std::all_of(z.grid.data.begin(), z.grid.data.end(), [](uint8_t b) { return b == 255; }));
}
