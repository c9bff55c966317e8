// Zone file (.vxz): round trips, golden header bytes, and every kind of damage.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

std::string error_of(const Bytes& b, zone_file::ReadOptions opts = {}) {
  try {
    read_zone(b, opts);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void require_same(const Zone& a, const Zone& b) {
  CHECK(a.meta.cells == b.meta.cells);
  CHECK(a.meta.voxel_size == b.meta.voxel_size);
  CHECK(a.meta.origin == b.meta.origin);
  CHECK(a.meta.chunk_cells == b.meta.chunk_cells);
  CHECK(a.meta.border_voxels == b.meta.border_voxels);
  CHECK(a.meta.edit_box == b.meta.edit_box);
  CHECK(a.meta.hole == b.meta.hole);
  CHECK(a.meta.height_min == b.meta.height_min);
  CHECK(a.meta.height_max == b.meta.height_max);
  CHECK(a.meta.layer_names == b.meta.layer_names);
  CHECK(a.meta.source == b.meta.source);
  CHECK(a.meta.grid_version == b.meta.grid_version);
  CHECK(a.grid.cells == b.grid.cells);
  CHECK(a.grid.data == b.grid.data);
  CHECK(a.baked.data == b.baked.data);
  CHECK(a.paint.data == b.paint.data);
  CHECK(a.height.width == b.height.width);
  CHECK(a.height.depth == b.height.depth);
  CHECK(a.height.values == b.height.values);
  REQUIRE(a.splat.size() == b.splat.size());
  for (size_t i = 0; i < a.splat.size(); ++i) CHECK(a.splat[i].values == b.splat[i].values);
  REQUIRE(a.unknown_sections.size() == b.unknown_sections.size());
  for (size_t i = 0; i < a.unknown_sections.size(); ++i) {
    CHECK(a.unknown_sections[i].tag == b.unknown_sections[i].tag);
    CHECK(a.unknown_sections[i].bytes == b.unknown_sections[i].bytes);
  }
}

Zone minimal_zone() {
  Zone z;
  z.meta.cells = {2, 3, 4};
  z.grid = ByteGrid(z.meta.cells, 255);
  return z;
}

}  // namespace

TEST_CASE("zone file round trips every field and carries unknown sections through", "[zone]") {
  Zone z = test::sample_zone();
  Bytes a = write_zone(z);
  Zone back = read_zone(a);
  require_same(z, back);
  CHECK(write_zone(back) == a);
}

TEST_CASE("zone reader decodes only the parts asked for, checking every section", "[zone]") {
  Zone z = test::sample_zone();
  REQUIRE(!z.baked.data.empty());
  REQUIRE(!z.paint.data.empty());
  REQUIRE(!z.height.values.empty());
  REQUIRE(!z.splat.empty());
  const Bytes a = write_zone(z);
  zone_file::ReadOptions mesher;
  mesher.baked_grid = false;
  mesher.textures = false;
  Zone back = read_zone(a, mesher);
  CHECK(back.grid.data == z.grid.data);
  CHECK(back.paint.data == z.paint.data);
  CHECK(back.baked.data.empty());
  CHECK(back.height.values.empty());
  CHECK(back.splat.empty());
  CHECK(back.meta.layer_names == z.meta.layer_names);
  zone_file::ReadOptions baked_only = mesher;
  baked_only.current_grid = false;
  baked_only.baked_grid = true;
  back = read_zone(a, baked_only);
  CHECK(back.baked.data == z.baked.data);
  CHECK(back.grid.data.empty());
  CHECK(back.paint.data.empty());
  // A damaged section left out is still refused (its CRC).
  for (const auto& s : list_zone_sections(a)) {
    if (s.tag_string() != "HGHT" && s.tag_string() != "BAKE") continue;
    Bytes bad = a;
    bad[size_t(s.offset + zone_file::kSectionHeaderSize + s.length / 2)] ^= 1;  // a payload byte
    CHECK_THROWS_AS(read_zone(bad, mesher), Error);
  }
}

TEST_CASE("zone writer gives the same bytes every time and for any thread count", "[zone]") {
  Zone z = test::sample_zone({20, 11, 17}, 9);
  Bytes a = write_zone(z);
  Bytes one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = write_zone(z);
    CHECK(write_zone(read_zone(one)) == one);
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = write_zone(z);
  }
  CHECK(one == a);
  CHECK(two == a);
}

TEST_CASE("zone file starts with magic, version and section count, then META as sorted JSON", "[zone]") {
  Zone z = minimal_zone();
  Bytes f = write_zone(z);
  Bytes head = {0x89, 'V', 'X', 'Z', 0x0d, 0x0a, 0x1a, 0x0a, 1, 0, 2, 0, 2, 0, 0, 0};
  REQUIRE(f.size() > 36);
  CHECK(Bytes(f.begin(), f.begin() + 16) == head);
  std::string json =
      R"({"border_voxels":2,"cells":[2,3,4],"chunk_cells":16,"edit_box":{"max":[0,0,0],"min":[0,0,0]},)"
      R"("grid_version":1,"height_range":[0.0,0.0],"hole_rect":{"max_x":0.0,"max_z":0.0,"min_x":0.0,"min_z":0.0},)"
      R"("layers":[],"origin":[0.0,0.0,0.0],"source":"","voxel_size":0.5})";
  // 60 samples of 255: count 60, one run token (60 << 1 | 1 = 121), value 255.
  Bytes grid_rle = {60, 121, 255};
  Bytes want = test::build_zone_file({{"META", 0, test::bytes_of(json)}, {"GRID", 0, grid_rle}}, 1, 2);
  CHECK(f == want);
  // CRC of the META section covers tag, flags and length, then the payload.
  CHECK(std::string(f.begin() + 16, f.begin() + 20) == "META");
}

TEST_CASE("zone without paint, baked grid, height or splat stores none of those sections", "[zone]") {
  Zone z = minimal_zone();
  auto secs = list_zone_sections(write_zone(z));
  REQUIRE(secs.size() == 2);
  CHECK(secs[0].tag_string() == "META");
  CHECK(secs[1].tag_string() == "GRID");
  Zone back = read_zone(write_zone(z));
  CHECK(back.paint.data.empty());
  CHECK(back.baked.data.empty());
  CHECK(back.height.values.empty());
  CHECK(back.splat.empty());
}

TEST_CASE("zone reader rejects every truncation with a message naming the section", "[zone]") {
  Bytes f = write_zone(test::sample_zone({5, 4, 3}, 2));
  for (size_t n = 0; n < f.size(); ++n) {
    std::string err = error_of(Bytes(f.begin(), f.begin() + long(n)));
    INFO("length " << n << ": " << err);
    REQUIRE(!err.empty());
    if (n >= 16) CHECK(err.find("section") != std::string::npos);
  }
}

TEST_CASE("zone reader names the damaged section for a flipped byte in each section", "[zone]") {
  Bytes f = write_zone(test::sample_zone({5, 4, 3}, 2));
  auto secs = list_zone_sections(f);
  REQUIRE(secs.size() == 7);
  for (auto& s : secs) {
    for (uint64_t at : {s.offset, s.offset + 9, s.offset + 17, s.offset + 20 + s.length / 2,
                        s.offset + 20 + s.length - 1}) {
      Bytes bad = f;
      bad[at] ^= 0x10;
      std::string err = error_of(bad);
      INFO("flip at " << at << ": " << err);
      CHECK(err.find("section") != std::string::npos);
      CHECK(err.find("offset") != std::string::npos);
      if (at >= s.offset + 20) {
        CHECK(err.find(s.tag_string()) != std::string::npos);
        CHECK(err.find("CRC-32") != std::string::npos);
      }
    }
  }
}

TEST_CASE("zone reader rejects a flip of any byte but the minor version", "[zone]") {
  Bytes f = write_zone(test::sample_zone({3, 2, 2}, 4));
  for (size_t i = 0; i < f.size(); ++i) {
    if (i == 10 || i == 11) continue;  // minor version: any value is readable
    for (uint8_t bit : {uint8_t(0x01), uint8_t(0x80)}) {
      Bytes bad = f;
      bad[i] ^= bit;
      INFO("byte " << i);
      CHECK(!error_of(bad).empty());
    }
  }
  Bytes newer_minor = f;
  newer_minor[10] = 9;
  CHECK(error_of(newer_minor).empty());
}

TEST_CASE("zone reader rejects bad magic, major version, section count and extra bytes", "[zone]") {
  Bytes f = write_zone(minimal_zone());
  Bytes b = f;
  b[1] = 'W';
  CHECK(error_of(b).find("bad magic") != std::string::npos);
  b = f;
  b[8] = 2;
  CHECK(error_of(b).find("unsupported zone file version") != std::string::npos);
  b = f;
  b[12] = 0xff;
  b[13] = 0xff;
  CHECK(error_of(b).find("too many sections") != std::string::npos);
  b = f;
  b.push_back(0);
  CHECK(error_of(b).find("extra bytes after the last section") != std::string::npos);
  b = f;
  b[12] = 0;
  CHECK(error_of(Bytes(b.begin(), b.begin() + 16)).find("no sections") != std::string::npos);
}

TEST_CASE("zone reader refuses oversized lengths and counts before allocating", "[zone]") {
  Zone z = minimal_zone();
  Bytes f = write_zone(z);
  // META length claims 2^62 bytes.
  Bytes b = f;
  b[16 + 15] = 0x40;
  CHECK(error_of(b).find("payload runs past the end of the file") != std::string::npos);

  // A header claiming a huge grid, against the cap; and a stream whose count disagrees.
  auto meta_for = [](const std::string& cells) {
    return test::bytes_of(R"({"border_voxels":2,"cells":)" + cells +
                          R"(,"chunk_cells":16,"edit_box":{"max":[0,0,0],"min":[0,0,0]},"grid_version":1,)"
                          R"("height_range":[0,0],"hole_rect":{"max_x":0,"max_z":0,"min_x":0,"min_z":0},)"
                          R"("layers":[],"origin":[0,0,0],"source":"","voxel_size":0.5})");
  };
  Bytes huge = test::build_zone_file({{"META", 0, meta_for("[2000,2000,2000]")}, {"GRID", 0, {0}}});
  CHECK(error_of(huge).find("over the limit") != std::string::npos);
  Bytes capped = test::build_zone_file({{"META", 0, meta_for("[100,100,100]")}, {"GRID", 0, {0}}});
  CHECK(error_of(capped, {.max_samples = 1000}).find("over the limit") != std::string::npos);
  Bytes wrong = test::build_zone_file({{"META", 0, meta_for("[2,3,4]")}, {"GRID", 0, {0xff, 0xff, 0xff, 0xff, 0x07}}});
  std::string err = error_of(wrong);
  CHECK(err.find("GRID (current grid): RLE sample count does not match the cells") != std::string::npos);
  CHECK(err.find("expected 60, found 2147483647") != std::string::npos);
  // Raster headers against the columns.
  Bytes height = {3, 0, 0, 0, 5, 0, 0, 0};
  height.resize(8 + 4 * 15);
  Bytes hb = test::build_zone_file({{"META", 0, meta_for("[2,3,4]")}, {"GRID", 0, {60, 121, 255}}, {"HGHT", 0, height}});
  CHECK(error_of(hb).empty());
  height[0] = 0xff;
  hb = test::build_zone_file({{"META", 0, meta_for("[2,3,4]")}, {"GRID", 0, {60, 121, 255}}, {"HGHT", 0, height}});
  CHECK(error_of(hb).find("HGHT (height texture): raster size does not match") != std::string::npos);
  Bytes splat = {200, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0};
  Bytes sb = test::build_zone_file({{"META", 0, meta_for("[2,3,4]")}, {"GRID", 0, {60, 121, 255}}, {"SPLT", 0, splat}});
  CHECK(error_of(sb).find("SPLT (splat weights): bad layer count") != std::string::npos);
}

TEST_CASE("zone reader checks the structure of sections", "[zone]") {
  Zone z = minimal_zone();
  Bytes f = write_zone(z);
  auto secs = list_zone_sections(f);
  auto payload = [&](size_t i) {
    return Bytes(f.begin() + long(secs[i].offset + 20), f.begin() + long(secs[i].offset + 20 + secs[i].length));
  };
  Bytes meta = payload(0), grid = payload(1);
  CHECK(error_of(test::build_zone_file({{"GRID", 0, grid}, {"META", 0, meta}})).find("first section must be the JSON header") != std::string::npos);
  CHECK(error_of(test::build_zone_file({{"META", 0, meta}})).find("no current grid") != std::string::npos);
  CHECK(error_of(test::build_zone_file({{"META", 0, meta}, {"GRID", 0, grid}, {"GRID", 0, grid}})).find("appears twice") != std::string::npos);
  CHECK(error_of(test::build_zone_file({{"META", 0, meta}, {"GRID", 0, grid}, {"NEWX", 1, {}}})).find("unknown section marked required") != std::string::npos);
  CHECK(error_of(test::build_zone_file({{"META", 2, meta}, {"GRID", 0, grid}})).find("reserved flag bits") != std::string::npos);
  CHECK(error_of(test::build_zone_file({{"META", 0, meta}, {"GRID", 0, Bytes{60, 121, 255, 0}}})).find("extra bytes after the RLE stream") != std::string::npos);
  CHECK(error_of(test::build_zone_file({{"META", 0, test::bytes_of("{\"cells\":")}, {"GRID", 0, grid}})).find("does not parse") != std::string::npos);
  // A bad RLE token reports the file offset of the token.
  Bytes bad_grid = {60, 0, 255};
  Bytes bf = test::build_zone_file({{"META", 0, meta}, {"GRID", 0, bad_grid}});
  uint64_t token_at = 16 + 20 + meta.size() + 20 + 1;
  CHECK(error_of(bf).find("offset " + std::to_string(token_at) + ": section GRID (current grid): zero-length token") != std::string::npos);
  // An unknown optional section is kept, in order.
  Zone k = read_zone(test::build_zone_file({{"META", 0, meta}, {"AAAA", 0, {9}}, {"GRID", 0, grid}, {"ZZZZ", 0, {}}}));
  REQUIRE(k.unknown_sections.size() == 2);
  CHECK(std::string(k.unknown_sections[0].tag.data(), 4) == "AAAA");
  CHECK(k.unknown_sections[0].bytes == Bytes{9});
  CHECK(std::string(k.unknown_sections[1].tag.data(), 4) == "ZZZZ");
}

TEST_CASE("zone JSON header rejects wrong types and values", "[zone]") {
  Zone z = minimal_zone();
  // Replace one key of a valid header at a time.
  Bytes f = write_zone(z);
  auto secs = list_zone_sections(f);
  std::string meta(f.begin() + 36, f.begin() + 36 + long(secs[0].length));
  auto with = [&](const std::string& key, const std::string& value) {
    std::string m = meta;
    size_t at = m.find("\"" + key + "\":");
    REQUIRE(at != std::string::npos);
    size_t start = at + key.size() + 3;
    int depth = 0;
    size_t end = start;
    for (; end < m.size(); ++end) {
      char c = m[end];
      if (c == '[' || c == '{') ++depth;
      if (c == ']' || c == '}') {
        if (depth == 0) break;
        --depth;
      }
      if (c == ',' && depth == 0) break;
    }
    m.replace(start, end - start, value);
    Bytes grid(f.begin() + long(secs[1].offset + 20), f.end());
    return error_of(test::build_zone_file({{"META", 0, test::bytes_of(m)}, {"GRID", 0, grid}}));
  };
  CHECK(with("cells", "[2,3,4]").empty());
  CHECK(with("cells", "[2,3]").find("'cells' has a bad value") != std::string::npos);
  CHECK(with("cells", "[0,3,4]").find("cells[0]") != std::string::npos);
  CHECK(with("voxel_size", "-1").find("voxel size must be a positive number") != std::string::npos);
  CHECK(with("voxel_size", "\"0.5\"").find("a number") != std::string::npos);
  CHECK(with("chunk_cells", "0").find("chunk_cells") != std::string::npos);
  CHECK(with("layers", "\"Grass\"").find("layers") != std::string::npos);
  CHECK(with("grid_version", "-1").find("grid_version") != std::string::npos);
  CHECK(with("edit_box", R"({"max":[3,0,0],"min":[0,0,0]})").find("edit box") != std::string::npos);
  CHECK(with("hole_rect", R"({"max_x":0,"max_z":0,"min_x":1,"min_z":0})").find("hole rect") != std::string::npos);
}

TEST_CASE("zone meta reading needs only the header and the META section", "[zone]") {
  Zone z = test::sample_zone();
  Bytes f = write_zone(z);
  auto secs = list_zone_sections(f);
  Bytes head(f.begin(), f.begin() + long(secs[1].offset));
  ZoneMeta m = read_zone_meta(head);
  CHECK(m.cells == z.meta.cells);
  CHECK(m.layer_names == z.meta.layer_names);
  CHECK(m.source == z.meta.source);
}

TEST_CASE("zone writer refuses zones whose parts disagree with the metadata", "[zone]") {
  auto refused = [](const Zone& z) {
    try {
      write_zone(z);
    } catch (const Error& e) {
      return e.kind() == ErrorKind::Usage;
    }
    return false;
  };
  Zone z = test::sample_zone();
  z.grid.data.pop_back();
  CHECK(refused(z));
  z = test::sample_zone();
  z.paint = ByteGrid({1, 1, 1}, 0);
  CHECK(refused(z));
  z = test::sample_zone();
  z.height.values.pop_back();
  CHECK(refused(z));
  z = test::sample_zone();
  z.meta.layer_names.pop_back();
  CHECK(refused(z));
  z = test::sample_zone();
  z.unknown_sections.push_back({{'G', 'R', 'I', 'D'}, {}});
  CHECK(refused(z));
  z = test::sample_zone();
  z.meta.edit_box.max[1] = 100;
  CHECK(refused(z));
}

TEST_CASE("zone file round trips through a file", "[zone]") {
  test::TempDir dir;
  Zone z = test::sample_zone();
  write_zone_file(dir.file("a.vxz"), z, {});
  require_same(read_zone_file(dir.file("a.vxz")), z);
  try {
    write_zone_file(dir.file("a.vxz"), z, {});
    FAIL("overwrote without force");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Usage);
  }
}

TEST_CASE("zone JSON header with a number out of double range is a data error with its offset", "[zone][limits]") {
  Bytes f = write_zone(minimal_zone());
  auto secs = list_zone_sections(f);
  std::string meta(f.begin() + 36, f.begin() + 36 + long(secs[0].length));
  const size_t at = meta.find("\"voxel_size\":");
  REQUIRE(at != std::string::npos);
  const size_t start = at + 13, end = meta.find(',', start);
  Bytes grid(f.begin() + long(secs[1].offset + 20), f.end());
  for (const std::string& number : {std::string("1e400"), std::string("-1e400"), "1" + std::string(400, '0')}) {
    std::string m = meta;
    m.replace(start, end - start, number);
    const Bytes bad = test::build_zone_file({{"META", 0, test::bytes_of(m)}, {"GRID", 0, grid}});
    try {
      read_zone(bad);
      FAIL("read_zone accepted " << number);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Data);
      // File offset: the 16-byte file header, the 20-byte section header, then the number.
      CHECK(e.offset() == 36 + start);
      CHECK(std::string(e.what()).find("JSON header holds a number out of range") != std::string::npos);
      CHECK(e.found() == number.substr(0, 40));
    }
    CHECK_THROWS_AS(read_zone_meta(bad), Error);
  }
}

TEST_CASE("zone spawn records round trip and bad entries are refused", "[zone]") {
  Zone z = test::sample_zone();
  z.spawns = {0x140C01E0007800C4ull, 0x1D08005000400030ull};  // a tree, a detail
  z.erases = {0x0508005000400030ull};                          // a detail erase
  const Bytes b = write_zone(z);
  const Zone back = read_zone(b);
  CHECK(back.spawns == z.spawns);
  CHECK(back.erases == z.erases);
  // A spawn entry that is not a tree or detail spawn.
  Zone bad = test::sample_zone();
  bad.spawns = {0x0018008000850080ull};  // a dig
  const std::string msg = error_of(write_zone(bad));
  CHECK_THAT(msg, Catch::Contains("SPWN") && Catch::Contains("not a tree or detail"));
  // No records: no section.
  const Bytes plain = write_zone(test::sample_zone());
  CHECK(std::search(plain.begin(), plain.end(), std::begin("SPWN"), std::begin("SPWN") + 4) == plain.end());
}
