// Unity DigZoneData assets: import of the fixtures, value-only export, limits and errors.
#include <catch2/catch.hpp>

#include <algorithm>

#include "formats/core/io.hpp"
#include "formats/zone/unity_asset.hpp"
#include "lib/core/error.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;

namespace {

std::string fixture(const std::string& name) {
  return io::read_text(std::string(VOXKIT_SOURCE_DIR) + "/test_data/unity/" + name);
}

// The fixture grids (test_data/unity/make_fixtures.py): height 1.5 + 0.25 x voxels.
std::vector<uint8_t> fixture_base() {
  ByteGrid g({4, 3, 4}, 0);
  for (uint32_t z = 0; z <= 4; ++z)
    for (uint32_t y = 0; y <= 3; ++y)
      for (uint32_t x = 0; x <= 4; ++x) g.at(x, y, z) = quantize_sdf(float(y) - (1.5f + 0.25f * float(x)));
  return g.data;
}
const uint64_t kDug = 2 + 5 * (1 + 4 * 2);

std::string import_error(const std::string& text) {
  try {
    unity::import_asset(text, "t.asset");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The text with the values of `keys` in the DigZoneData document blanked out.
std::string without_values(const std::string& text, const std::vector<std::string>& keys) {
  auto doc = unity::find_zone_document(text);
  std::string out;
  size_t pos = 0;
  for (auto& f : doc.fields) {
    if (std::find(keys.begin(), keys.end(), f.key) == keys.end()) continue;
    out += text.substr(pos, f.value_begin - pos) + "<value>";
    pos = f.value_end;
  }
  return out + text.substr(pos);
}

}  // namespace

TEST_CASE("unity import reads every zone field of a DigZoneData asset", "[unity]") {
  Zone z = unity::import_asset(fixture("quarry.asset"), "quarry.asset");
  CHECK(z.meta.cells == Dims{4, 3, 4});
  CHECK(z.meta.voxel_size == 0.5);
  CHECK(z.meta.chunk_cells == 16);
  CHECK(z.meta.origin == std::array<double, 3>{32, -1.25, 32});
  CHECK(z.meta.edit_box == SampleBox{{1, 0, 1}, {3, 3, 3}});
  CHECK(z.meta.hole == HoleRect{32.5, 32.5, 33.5, 33.5});
  CHECK(z.meta.height_min == -2.5);
  CHECK(z.meta.height_max == 3.75);
  CHECK(z.meta.grid_version == 2);
  CHECK(z.meta.source == "Unity asset quarry.asset (DigZone_Quarry)");
  auto base = fixture_base();
  CHECK(z.baked.data == base);
  base[kDug] = 200;
  CHECK(z.grid.data == base);
  REQUIRE(z.paint.data.size() == 100);
  CHECK(z.paint.data[kDug] == 5);
  CHECK(std::count(z.paint.data.begin(), z.paint.data.end(), 0) == 99);
}

TEST_CASE("unity import reads folded upper-case hex, CRLF lines and an empty paint grid", "[unity]") {
  Zone a = unity::import_asset(fixture("quarry.asset"), "a");
  Zone b = unity::import_asset(fixture("folded_crlf.asset"), "b");
  CHECK(b.grid.data == a.grid.data);
  CHECK(b.baked.data == a.baked.data);
  CHECK(b.paint.data.empty());
  CHECK(b.meta.grid_version == 5);
  CHECK(b.meta.edit_box == a.meta.edit_box);
}

TEST_CASE("unity import reads the raw grids of 0.3-era assets", "[unity]") {
  Zone a = unity::import_asset(fixture("quarry.asset"), "a");
  Zone l = unity::import_asset(fixture("legacy_0_3.asset"), "l");
  CHECK(l.grid.data == a.grid.data);
  CHECK(l.baked.data == a.baked.data);
  CHECK(l.paint.data == a.paint.data);
  CHECK(l.meta.grid_version == 9);
}

TEST_CASE("unity export changes only the values of the zone fields", "[unity]") {
  for (const char* name : {"quarry.asset", "folded_crlf.asset"}) {
    INFO(name);
    const std::string text = fixture(name);
    Zone z = test::sample_zone({6, 5, 3}, 11);
    unity::ExportReport report;
    std::string out = unity::export_asset(text, z, &report);
    std::vector<std::string> want = {"nx", "ny", "nz", "voxelSize", "chunkCells", "gridRle", "paintRle",
                                     "baseGridRle", "origin", "hasOrigin", "editBox", "_gridVersion", "holeRect"};
    auto sorted = report.fields;
    std::sort(sorted.begin(), sorted.end());
    std::sort(want.begin(), want.end());
    CHECK(sorted == want);
    CHECK(without_values(out, report.fields) == without_values(text, report.fields));
    // Hex is written on one line: the folded continuation lines are gone with the old value.
    size_t grid_line_end = out.find('\n', out.find("  gridRle: "));
    CHECK(out.compare(grid_line_end + 1, 11, "  paintRle:") == 0);
    // Line ends stay as they were.
    const bool crlf = text.find("\r\n") != std::string::npos;
    for (size_t i = out.find('\n'); i != std::string::npos; i = out.find('\n', i + 1)) {
      REQUIRE((i > 0 && out[i - 1] == '\r') == crlf);
    }
    Zone back = unity::import_asset(out, "out");
    CHECK(back.meta.cells == z.meta.cells);
    CHECK(back.grid.data == z.grid.data);
    CHECK(back.baked.data == z.baked.data);
    CHECK(back.paint.data == z.paint.data);
    CHECK(back.meta.chunk_cells == z.meta.chunk_cells);
    CHECK(back.meta.edit_box == z.meta.edit_box);
    CHECK(back.meta.voxel_size == z.meta.voxel_size);
    CHECK(back.meta.origin[1] == z.meta.origin[1]);
    CHECK(back.meta.hole == z.meta.hole);
  }
}

TEST_CASE("unity export bumps _gridVersion past the asset's and the zone's", "[unity]") {
  Zone z = test::sample_zone();
  z.meta.grid_version = 7;
  unity::ExportReport r;
  Zone back = unity::import_asset(unity::export_asset(fixture("quarry.asset"), z, &r), "x");
  CHECK(r.old_grid_version == 2);
  CHECK(r.new_grid_version == 8);
  CHECK(back.meta.grid_version == 8);
  z.meta.grid_version = 1;
  unity::export_asset(fixture("folded_crlf.asset"), z, &r);
  CHECK(r.old_grid_version == 5);
  CHECK(r.new_grid_version == 6);
}

TEST_CASE("unity export writes an unpainted zone as an empty paintRle", "[unity]") {
  Zone z = test::sample_zone();
  z.paint = ByteGrid{};
  std::string out = unity::export_asset(fixture("quarry.asset"), z);
  CHECK(out.find("\n  paintRle: \n") != std::string::npos);
  CHECK(unity::import_asset(out, "x").paint.data.empty());
}

TEST_CASE("unity export refuses zones over the package's 128 Mi sample limit", "[unity]") {
  Zone z;
  z.meta.cells = {1024, 127, 1023};  // 1025 * 128 * 1024 samples: just over 2^27
  try {
    unity::export_asset(fixture("quarry.asset"), z);
    FAIL("exported");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Usage);
    CHECK(std::string(e.what()).find("limit of 134217728 (128 Mi)") != std::string::npos);
  }
}

TEST_CASE("unity export refuses assets without RLE fields", "[unity]") {
  try {
    unity::export_asset(fixture("legacy_0_3.asset"), test::sample_zone());
    FAIL("exported");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Data);
    CHECK(std::string(e.what()).find("0.3 or earlier") != std::string::npos);
  }
}

TEST_CASE("unity import reports bad fields with their line and offset", "[unity]") {
  const std::string text = fixture("quarry.asset");
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  CHECK(import_error(replace("  nx: 4\n", "")).find("no DigZoneData document") != std::string::npos);
  CHECK(import_error(replace("nx: 4", "nx: four")).find("field 'nx' (line 15): is not an integer") != std::string::npos);
  CHECK(import_error(replace("gridRle: 64", "gridRle: 6g")).find("not a hex digit") != std::string::npos);
  CHECK(import_error(replace("gridRle: 64", "gridRle: 6")).find("odd number of digits") != std::string::npos);
  CHECK(import_error(replace("gridRle: 64", "gridRle: 65")).find("field 'gridRle' (line 20) holds a bad RLE stream: stream byte 0: RLE sample count does not match nx, ny, nz (expected 100, found 101)") != std::string::npos);
  CHECK(import_error(replace("editBox: 01", "editBox: ")).find("is not six int32 values") != std::string::npos);
  CHECK(import_error(replace("origin: {x: 32, y: -1.25, z: 32}", "origin: {x: 32, y: -1.25}")).find("lacks the component 'z'") != std::string::npos);
  CHECK(import_error(replace("holeRect: {x: 32.5", "holeRect: {x: 34.5")).find("hole rect") != std::string::npos);
  CHECK(import_error(replace("voxelSize: 0.5", "voxelSize: nan")).find("voxelSize") != std::string::npos);
  std::string doc = text.substr(text.find("--- !u!114"), text.find("--- !u!43") - text.find("--- !u!114"));
  CHECK(import_error(text + doc).find("holds 2 DigZoneData documents") != std::string::npos);
  std::string empty_grid = replace("gridRle: 64", "gridRle: ");
  empty_grid = empty_grid.substr(0, empty_grid.find("gridRle: ") + 9) + empty_grid.substr(empty_grid.find("\n", empty_grid.find("gridRle: ")));
  CHECK(import_error(empty_grid).find("never baked") != std::string::npos);
  std::string off = import_error(replace("gridRle: 64c8", "gridRle: 64x8"));
  CHECK(off.find("offset " + std::to_string(text.find("gridRle: 64c8") + 11)) != std::string::npos);
}

TEST_CASE("unity hex and float helpers match Unity's spelling", "[unity]") {
  CHECK(unity::to_hex({0x00, 0xab, 0x10}) == "00ab10");
  CHECK(unity::from_hex("00AB10", 0) == std::vector<uint8_t>{0x00, 0xab, 0x10});
  CHECK(unity::from_hex("00 ab\n    10", 0) == std::vector<uint8_t>{0x00, 0xab, 0x10});
  CHECK(unity::format_float(0.5) == "0.5");
  CHECK(unity::format_float(-1.25) == "-1.25");
  CHECK(unity::format_float(32) == "32");
  CHECK(unity::format_float(0.1) == "0.1");
  CHECK(unity::format_float(1.0 / 3.0) == "0.33333334");
  CHECK(unity::format_float(0) == "0");
}

TEST_CASE("unity import then export into the same asset changes only _gridVersion", "[unity]") {
  const std::string text = fixture("quarry.asset");
  Zone z = unity::import_asset(text, "quarry.asset");
  std::string out = unity::export_asset(text, z);
  std::string want = text;
  const std::string from = "_gridVersion: 2\n";
  want.replace(want.find(from), from.size(), "_gridVersion: 3\n");
  CHECK(out == want);
}

TEST_CASE("unity import reads the terrain cut: cutRect as a block or flow mapping, cutPrevious as bools", "[unity]") {
  const std::string text = fixture("quarry.asset");
  Zone z = unity::import_asset(text, "quarry.asset");
  CHECK(z.hole_cut.resolution == 0);  // the terrain's holes resolution is not in the asset
  CHECK(z.hole_cut.x == 60);
  CHECK(z.hole_cut.z == 60);
  CHECK(z.hole_cut.width == 4);
  CHECK(z.hole_cut.depth == 4);
  CHECK(z.hole_cut.previous == std::vector<uint8_t>{1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  const std::string block = "  cutRect:\n    x: 60\n    y: 60\n    width: 4\n    height: 4\n  cutPrevious: 01010000010101010101010101010101\n";
  // A flow mapping, other keys (a Rect's serializedVersion) ignored, any non-zero byte true.
  Zone f = unity::import_asset(replace(block, "  cutRect: {x: -2, y: 7, width: 2, height: 1}\n  cutPrevious: 0002\n"), "f");
  CHECK(f.hole_cut.x == -2);
  CHECK(f.hole_cut.z == 7);
  CHECK(f.hole_cut.previous == std::vector<uint8_t>{0, 1});
  Zone v = unity::import_asset(replace("  cutRect:\n", "  cutRect:\n    serializedVersion: 2\n"), "v");
  CHECK(v.hole_cut.width == 4);
  // No cut: an empty rect, or no previous values (a copied zone's data).
  CHECK(unity::import_asset(replace("    width: 4\n", "    width: 0\n"), "e").hole_cut.empty());
  CHECK(unity::import_asset(replace("  cutPrevious: 0101", "  cutPrevious: \n  x: 0101"), "e").hole_cut.empty());
  // Values that do not fit the rect, and bad numbers, are refused.
  CHECK(import_error(replace("cutPrevious: 0101", "cutPrevious: 01")).find(
            "field 'cutPrevious' (line 77): does not hold one value per cell of cutRect (expected 4 x 4 values, found 15 values)") !=
        std::string::npos);
  CHECK(import_error(replace("    width: 4\n", "    width: -4\n")).find("'width' that is not an integer in range") != std::string::npos);
  CHECK(import_error(replace("    height: 4\n", "")).find("lacks the component 'height'") != std::string::npos);
}

TEST_CASE("unity import reads heights only from a column texture, splat only when controlST is heightST", "[unity]") {
  // quarry.asset names textures of other files: nothing read.
  Zone q = unity::import_asset(fixture("quarry.asset"), "q");
  CHECK(q.height.values.empty());
  CHECK(q.splat.empty());
  // pit.asset: an RHalf texture of 9 x 9 on the columns, an alphamap control texture.
  Zone p = unity::import_asset(fixture("pit.asset"), "p");
  REQUIRE(p.height.values.size() == 81);
  CHECK(p.height.width == 9);
  CHECK(p.height.values[0] == 0.f);
  CHECK(p.height.values[1] == Approx(0.0625).margin(1e-3));  // as close as a half of the range allows
  CHECK(p.height.values[80] == Approx(0.75).margin(1e-3));
  CHECK(p.height.values[4 + 9 * 4] == 0.875f);  // the top of heightRange exactly
  CHECK(p.splat.empty());
}
