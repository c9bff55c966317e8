// Heightmap and splat readers: GDAL rasters (ASCII grid, PNG), warping, NoData, Unity .raw.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "formats/image/heightmap.hpp"
#include "formats/core/io.hpp"
#include "formats/image/png.hpp"
#include "formats/image/splat.hpp"
#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// An Esri ASCII grid: 4 columns x 3 rows, 10 m cells, lower-left corner at (1000, 2000).
std::string ascii_grid(const std::string& nodata_cell = "4") {
  return "ncols 4\nnrows 3\nxllcorner 1000\nyllcorner 2000\ncellsize 10\nNODATA_value -9999\n"
         "1 2 3 " + nodata_cell + "\n5 6 7 8\n9 10 11 12\n";
}

const char* kWgs84 =
    "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],"
    "PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]]";

}  // namespace

TEST_CASE("a georeferenced raster is placed from its geotransform, south-west corner at 0") {
  test::TempDir dir;
  write_text(dir.file("dem.asc"), ascii_grid());
  heightmap::Info info;
  Heightfield hf = heightmap::read(dir.file("dem.asc"), {}, &info);
  CHECK(info.driver == "AAIGrid");
  CHECK(hf.width == 4);
  CHECK(hf.depth == 3);
  CHECK(hf.dx == 10);
  CHECK(hf.origin_x == 5);  // pixel centre, relative to the west edge
  CHECK(hf.origin_z == 5);
  // Row 0 of the file is the north edge: it becomes the last sample row.
  CHECK(hf.at(0, 2) == 1);
  CHECK(hf.at(3, 0) == 12);
  heightmap::Options o;
  o.origin = {1000, 2000, 5};
  Heightfield shifted = heightmap::read(dir.file("dem.asc"), o);
  CHECK(shifted.at(0, 0) == 4);  // 9 - 5
}

TEST_CASE("NoData pixels become gaps, a zone over them is refused unless filled") {
  test::TempDir dir;
  write_text(dir.file("hole.asc"), ascii_grid("-9999"));
  heightmap::Info info;
  Heightfield hf = heightmap::read(dir.file("hole.asc"), {}, &info);
  CHECK(info.nodata == 1);
  CHECK(std::isnan(hf.at(3, 2)));
  ZoneBoxSpec s;
  s.voxel_size = 2;
  s.border_voxels = 1;
  CHECK_THROWS_WITH(plan_zone(hf, s), Catch::Contains("without data"));
  fill_nodata(hf, NodataFill{NodataFill::Kind::Nearest, 0});
  CHECK(hf.at(3, 2) == 3);
  CHECK_NOTHROW(plan_zone(hf, s));
}

TEST_CASE("a geographic raster is warped to the local UTM zone in metres") {
  test::TempDir dir;
  // 0.001 degree cells near 10.5 E, 45.5 N: UTM zone 32 north.
  write_text(dir.file("geo.asc"),
             "ncols 5\nnrows 5\nxllcorner 10.5\nyllcorner 45.5\ncellsize 0.001\n"
             "1 1 1 1 1\n2 2 2 2 2\n3 3 3 3 3\n4 4 4 4 4\n5 5 5 5 5\n");
  write_text(dir.file("geo.prj"), kWgs84);
  heightmap::Info info;
  Heightfield hf = heightmap::read(dir.file("geo.asc"), {}, &info);
  CHECK(info.warped);
  CHECK(info.crs == "EPSG:32632");
  // 0.001 degree of latitude is about 111 m; of longitude at 45.5 N about 78 m.
  CHECK(hf.dz > 50);
  CHECK(hf.dz < 120);
  CHECK(double(hf.width) * hf.dx == Approx(5 * 78.0).epsilon(0.2));
  heightmap::Options o;
  o.t_srs = "EPSG:3857";
  Heightfield merc = heightmap::read(dir.file("geo.asc"), o, &info);
  CHECK(info.crs == "EPSG:3857");
  CHECK(merc.dx > 100);  // web mercator stretches away from the equator
}

TEST_CASE("an 8-bit PNG heightmap with Unity placement is normalised and flipped") {
  test::TempDir dir;
  RgbImage img;
  img.width = 3;
  img.height = 2;
  img.rgb = {0, 0, 0, 51, 0, 0, 102, 0, 0, 255, 0, 0, 204, 0, 0, 153, 0, 0};
  io::write_file(dir.file("h.png"), png::encode(img));
  heightmap::Options o;
  auto e = test::thrown_error([&] { heightmap::read(dir.file("h.png"), o); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("give the terrain size W,H,L"));
  CHECK((e->has_hint("terrain-size") && e->has_hint("terrain-pos")));
  o.terrain_size = {20, 100, 10};
  o.terrain_pos = {-5, 3, 7};
  Heightfield hf = heightmap::read(dir.file("h.png"), o);
  CHECK(hf.dx == 10);
  CHECK(hf.dz == 10);
  CHECK(hf.origin_x == -5);
  CHECK(hf.origin_z == 7);
  CHECK(hf.at(0, 0) == Approx(103));  // bottom image row, first pixel: 255 -> 1.0
  CHECK(hf.at(1, 1) == Approx(3 + 20));
}

TEST_CASE("Unity raw size is inferred from a square 2^n+1 file, else asked for") {
  CHECK(heightmap::infer_raw_size(2 * 33 * 33) == std::array<uint32_t, 2>{33, 33});
  CHECK(heightmap::infer_raw_size(2 * 2049 * 2049) == std::array<uint32_t, 2>{2049, 2049});
  auto e = test::thrown_error([] { heightmap::infer_raw_size(2 * 32 * 32); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("give its size W,H"));
  CHECK(e->has_hint("raw-size"));
  CHECK_THROWS_AS(heightmap::infer_raw_size(2 * 33 * 33 + 1), Error);
  std::vector<uint8_t> bytes(2 * 3 * 2, 0);
  bytes[0] = 0xff;
  bytes[1] = 0xff;  // sample (0, 0) = 65535
  heightmap::Options o;
  o.terrain_size = {2, 50, 1};
  CHECK_THROWS_AS(heightmap::from_unity_raw(bytes, o), Error);  // not square: size needed
  o.raw_size = std::array<uint32_t, 2>{3, 2};
  Heightfield hf = heightmap::from_unity_raw(bytes, o);
  CHECK(hf.at(0, 0) == 50);  // row 0 is z = 0 in Unity's raw order
  CHECK(hf.at(1, 0) == 0);
  CHECK(hf.dx == 1);
  o.raw_size = std::array<uint32_t, 2>{4, 2};
  CHECK_THROWS_WITH(heightmap::from_unity_raw(bytes, o), Catch::Contains("does not match"));
  o.terrain_size.reset();
  o.raw_size = std::array<uint32_t, 2>{3, 2};
  e = test::thrown_error([&] { heightmap::from_unity_raw(bytes, o); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("has no placement"));
  CHECK(e->has_hint("terrain-size"));
}

TEST_CASE("an unreadable heightmap is a clear error naming the file") {
  test::TempDir dir;
  write_text(dir.file("junk.tif"), "not a raster at all");
  CHECK_THROWS_WITH(heightmap::read(dir.file("junk.tif"), {}), Catch::Contains("junk.tif"));
  CHECK_THROWS_WITH(heightmap::read(dir.file("missing.tif"), {}), Catch::Contains("missing.tif"));
}

TEST_CASE("splat control images read through stb keep channel order, layer lists split") {
  test::TempDir dir;
  RgbImage img;
  img.width = 1;
  img.height = 1;
  img.rgb = {10, 20, 30};
  io::write_file(dir.file("c.png"), png::encode(img));
  SplatImage s = splat::read(dir.file("c.png"));
  CHECK(s.rgba == std::vector<uint8_t>{10, 20, 30, 0});
  CHECK(splat::split_list("grass,rock,,sand") == std::vector<std::string>{"grass", "rock", "", "sand"});
  CHECK(splat::split_list("").empty());
}
