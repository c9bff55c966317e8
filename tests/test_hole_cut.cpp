// The terrain hole cut (lib/bake/hole_cut.hpp) against values worked out by hand from the
// package's ComputeHoleRect and CutTerrain, and the zone file's HCUT section.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_hole_cut.hpp"
#include "lib/bake/hole_cut.hpp"
#include "lib/core/error.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;

namespace {

ZoneMeta meta_of(std::array<double, 3> origin, Dims cells, double voxel) {
  ZoneMeta m;
  m.origin = origin;
  m.cells = cells;
  m.voxel_size = voxel;
  m.border_voxels = 2;
  return m;
}

TerrainHoles terrain(uint32_t res) {
  TerrainHoles t;
  t.resolution = res;
  t.position = {0, 0, 0};
  t.size = {100, 50, 100};
  return t;
}

std::string usage_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Usage);
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("hole cut: cells fully inside the footprint shrunk by a voxel", "[hole_cut]") {
  // Footprint x 10..30, z 20..40; cells of 0.5 m: i0 = ceil(10.5 / 0.5) = 21,
  // i1 = floor(29.5 / 0.5) = 59; j0 = ceil(20.5 / 0.5) = 41, j1 = floor(39.5 / 0.5) = 79.
  const ZoneMeta m = meta_of({10, 0, 20}, {40, 8, 40}, 0.5);
  for (auto mode : {CutArithmetic::Editor, CutArithmetic::Player}) {
    const HoleCutRect r = hole_cut_rect(m, terrain(200), mode);
    CHECK(r.x == 21);
    CHECK(r.z == 41);
    CHECK(r.width == 38);
    CHECK(r.depth == 38);
    CHECK(r.world.min_x == 10.5);
    CHECK(r.world.min_z == 20.5);
    CHECK(r.world.max_x == 29.5);
    CHECK(r.world.max_z == 39.5);
  }
  // Cells of 100/128 = 0.78125 m: ceil(10.5 / 0.78125) = ceil(13.44) = 14,
  // floor(29.5 / 0.78125) = floor(37.76) = 37; z: ceil(26.24) = 27, floor(50.56) = 50.
  const HoleCutRect r = hole_cut_rect(m, terrain(128));
  CHECK(r.x == 14);
  CHECK(r.width == 23);
  CHECK(r.z == 27);
  CHECK(r.depth == 23);
  CHECK(r.world.min_x == 10.9375);
  CHECK(r.world.max_x == 28.90625);
  CHECK(r.world.min_z == 21.09375);
  CHECK(r.world.max_z == 39.0625);
}

TEST_CASE("hole cut: a boundary exactly on a cell edge stays inside", "[hole_cut]") {
  // b.min + v = 10.5 lies on cell 21's edge: ceil(21) = 21 (no rounding up past it).
  const HoleCutRect r = hole_cut_rect(meta_of({10, 0, 10}, {20, 4, 20}, 0.5), terrain(200));
  CHECK(r.x == 21);
  CHECK(r.x + r.width == 39);  // floor((20 - 0.5) / 0.5) = 39
}

TEST_CASE("hole cut: the package's refusals", "[hole_cut]") {
  std::string e = usage_error_of([] { hole_cut_rect(meta_of({-1, 0, 20}, {40, 8, 40}, 0.5), terrain(200)); });
  CHECK(e.find("lie completely on the terrain") != std::string::npos);
  // 8 cells of 0.5 m: the cut is 21..27 = 3 m, not wider than 0.5 * (2 * 2 + 2) = 3 m.
  e = usage_error_of([] { hole_cut_rect(meta_of({10, 0, 20}, {8, 4, 8}, 0.5), terrain(200)); });
  CHECK(e.find("too narrow") != std::string::npos);
  // Cells of 25 m: none fits inside a 20 m footprint.
  e = usage_error_of([] { hole_cut_rect(meta_of({10, 0, 20}, {40, 8, 40}, 0.5), terrain(4)); });
  CHECK(e.find("too small to cut") != std::string::npos);
  e = usage_error_of([] { hole_cut_rect(meta_of({10, 0, 20}, {40, 8, 40}, 0.5), terrain(0)); });
  CHECK(e.find("holes resolution") != std::string::npos);
}

TEST_CASE("hole cut: previous values, the raster after the cut and the cut-only mask", "[hole_cut]") {
  const TerrainHoles t = terrain(200);
  const HoleCutRect r = hole_cut_rect(meta_of({10, 0, 20}, {40, 8, 40}, 0.5), t);
  std::vector<uint8_t> holes(200 * 200, 1);
  holes[22 + 200 * 41] = 0;  // a hole already inside the cut
  holes[5 + 200 * 5] = 0;    // and one outside
  const ZoneHoleCut c = cut_terrain(r, t, &holes);
  REQUIRE(c.previous.size() == 38u * 38u);
  CHECK(c.previous[1] == 0);
  CHECK(std::count(c.previous.begin(), c.previous.end(), uint8_t(0)) == 1);
  const auto after = hole_raster(c, &holes, false);
  CHECK(after[5 + 200 * 5] == 0);
  CHECK(after[21 + 200 * 41] == 0);
  CHECK(after[20 + 200 * 41] == 1);
  CHECK(after[58 + 200 * 78] == 0);
  CHECK(after[59 + 200 * 78] == 1);
  CHECK(std::count(after.begin(), after.end(), uint8_t(0)) == 38 * 38 + 1);
  const auto cut = hole_raster(c, &holes, true);
  CHECK(std::count(cut.begin(), cut.end(), uint8_t(1)) == 38 * 38);
  CHECK(cut[5 + 200 * 5] == 0);
  // Without a hole raster: the terrain had none.
  const ZoneHoleCut plain = cut_terrain(r, t, nullptr);
  CHECK(std::count(plain.previous.begin(), plain.previous.end(), uint8_t(1)) == 38 * 38);
}

TEST_CASE("zone file: HCUT round trips and rejects bad payloads", "[hole_cut][zone]") {
  Zone z = test::sample_zone({5, 4, 3}, 2);
  z.hole_cut.resolution = 64;
  z.hole_cut.terrain_position = {1.5, -2, 3};
  z.hole_cut.terrain_size = {64, 10, 32};
  z.hole_cut.x = 3;
  z.hole_cut.z = 4;
  z.hole_cut.width = 5;
  z.hole_cut.depth = 2;
  z.hole_cut.previous = {1, 1, 0, 1, 1, 1, 1, 1, 0, 1};
  const auto bytes = write_zone(z);
  const Zone back = read_zone(bytes);
  CHECK(back.hole_cut.resolution == 64);
  CHECK(back.hole_cut.terrain_position == z.hole_cut.terrain_position);
  CHECK(back.hole_cut.terrain_size == z.hole_cut.terrain_size);
  CHECK(back.hole_cut.x == 3);
  CHECK(back.hole_cut.z == 4);
  CHECK(back.hole_cut.width == 5);
  CHECK(back.hole_cut.depth == 2);
  CHECK(back.hole_cut.previous == z.hole_cut.previous);
  CHECK(write_zone(back) == bytes);

  const auto payload = zone_file::encode_hole_cut(z.hole_cut);
  REQUIRE(payload.size() == zone_file::kHoleCutHeaderSize + 10);
  for (size_t n = 0; n < payload.size(); ++n) {
    INFO("length " << n);
    CHECK_THROWS_AS(zone_file::decode_hole_cut(std::span(payload.data(), n)), Error);
  }
  auto bad = payload;
  bad[zone_file::kHoleCutHeaderSize + 2] = 7;  // a previous value that is not 0 or 1
  CHECK_THROWS_WITH(zone_file::decode_hole_cut(bad), Catch::Contains("neither 0 nor 1"));
  bad = payload;
  bad[64] = 0xff;  // width 2^32 - 1 ... read as -1: refused before allocating
  bad[65] = 0xff;
  bad[66] = 0xff;
  bad[67] = 0x7f;
  CHECK_THROWS_WITH(zone_file::decode_hole_cut(bad), Catch::Contains("bad cut size"));
  bad = payload;
  bad[56] = 62;  // x = 62: 62 + 5 cells pass the 64-cell raster
  CHECK_THROWS_WITH(zone_file::decode_hole_cut(bad), Catch::Contains("outside the terrain"));
}
