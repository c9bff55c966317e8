// Filled NoData: the heightfield's mask of filled samples, the zone's mask of columns standing
// on them (bake, rebake, world tiles), its FILL section in the zone file, and `info`'s count.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_info.hpp"
#include "lib/bake/bake.hpp"
#include "lib/bake/world_grid.hpp"
#include "lib/core/error.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

// Smooth hills, unit spacing from (0, 0): zone columns of a 1 m voxel sit on the samples.
Heightfield hills(uint32_t w, uint32_t d, double dx = 1, double dz = 1) {
  Heightfield hf;
  hf.width = w;
  hf.depth = d;
  hf.dx = dx;
  hf.dz = dz;
  hf.heights.resize(size_t(w) * d);
  for (uint32_t j = 0; j < d; ++j)
    for (uint32_t i = 0; i < w; ++i) hf.heights[i + size_t(w) * j] = float(5 + 2 * std::sin(i * 0.4) * std::cos(j * 0.3));
  return hf;
}

ZoneBoxSpec whole(double voxel) {
  ZoneBoxSpec s;
  s.voxel_size = voxel;
  s.border_voxels = 1;
  s.depth_voxels = 1;
  return s;
}

ZoneBoxSpec box(std::array<double, 3> min, std::array<double, 3> max, double voxel) {
  ZoneBoxSpec s;
  s.kind = ZoneBoxSpec::Kind::Box;
  s.min = min;
  s.max = max;
  s.voxel_size = voxel;
  s.border_voxels = 1;
  return s;
}

uint64_t marked(const ColumnRaster<uint8_t>& r) {
  return uint64_t(std::count_if(r.values.begin(), r.values.end(), [](uint8_t v) { return v != 0; }));
}

// The columns whose height depends on the samples at `holes`: bake the height raster with
// two different heights there and compare. The mask must mark exactly these.
std::vector<uint8_t> columns_using(const Heightfield& hf, const std::vector<size_t>& holes, const ZoneMeta& m,
                                   const GridFrame* frame = nullptr) {
  Heightfield a = hf, b = hf;
  a.filled.clear();
  b.filled.clear();
  for (size_t k : holes) {
    a.heights[k] = 1.0f;
    b.heights[k] = 9.0f;
  }
  const auto ha = bake_height_raster(a, m, frame), hb = bake_height_raster(b, m, frame);
  std::vector<uint8_t> out(ha.values.size());
  for (size_t k = 0; k < out.size(); ++k) out[k] = ha.values[k] != hb.values[k];
  return out;
}

std::string error_of(const Bytes& b) {
  try {
    read_zone(b);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The zone file with its FILL section's payload replaced (CRC fixed up).
Bytes with_fill_payload(const Bytes& file, const Bytes& payload) {
  std::vector<test::RawSectionSpec> secs;
  for (const auto& s : list_zone_sections(file)) {
    const auto* p = file.data() + s.offset + zone_file::kSectionHeaderSize;
    secs.push_back({s.tag_string(), s.flags, Bytes(p, p + s.length)});
    if (s.tag_string() == "FILL") secs.back().payload = payload;
  }
  return test::build_zone_file(secs, 1, 3);
}

}  // namespace

TEST_CASE("fill_nodata marks the samples it filled, and only when it filled some", "[nodata]") {
  Heightfield hf = hills(9, 7);
  Heightfield clean = hf;
  CHECK(fill_nodata(clean, NodataFill{NodataFill::Kind::Nearest, 0}) == 0);
  CHECK(clean.filled.empty());
  hf.heights[3 + 9 * 2] = NAN;
  hf.heights[4 + 9 * 2] = NAN;
  Heightfield refused = hf;
  CHECK(fill_nodata(refused, NodataFill{}) == 0);
  CHECK(refused.filled.empty());
  CHECK(fill_nodata(hf, NodataFill{NodataFill::Kind::Nearest, 0}) == 2);
  REQUIRE(hf.filled.size() == hf.heights.size());
  for (size_t k = 0; k < hf.filled.size(); ++k) CHECK(hf.filled[k] == uint8_t(k == 3 + 9 * 2 || k == 4 + 9 * 2));
  Heightfield bad = hf;
  bad.filled.pop_back();
  CHECK_THROWS_WITH(check_heightfield(bad), Catch::Contains("NoData mask"));
}

TEST_CASE("a NoData hole baked with nearest fill marks exactly the columns that use it", "[nodata]") {
  Heightfield hf = hills(21, 17);
  const std::vector<size_t> holes = {10 + 21 * 8, 11 + 21 * 8, 11 + 21 * 9};
  for (size_t k : holes) hf.heights[k] = NAN;
  REQUIRE(fill_nodata(hf, NodataFill{NodataFill::Kind::Nearest, 0}) == holes.size());

  SECTION("columns on the samples: just the holes") {
    const Zone z = bake_zone(hf, whole(1.0));
    REQUIRE(z.filled.width == z.meta.cells.sx());
    REQUIRE(z.filled.depth == z.meta.cells.sz());
    REQUIRE(z.filled.values.size() == z.meta.cells.sx() * z.meta.cells.sz());
    CHECK(marked(z.filled) == holes.size());
    for (size_t k : holes) {
      // Zone column (x, z) stands on sample (x, z): the whole-terrain zone starts at sample 0.
      const uint32_t i = uint32_t(k % 21), j = uint32_t(k / 21);
      CHECK(z.filled.values[i + size_t(z.filled.width) * j] == 1);
    }
    CHECK(z.filled.values == columns_using(hf, holes, z.meta));
  }
  SECTION("columns between samples: every column whose triangle gives the hole weight") {
    for (double voxel : {0.5, 0.37}) {
      const Zone z = bake_zone(hf, whole(voxel));
      INFO("voxel " << voxel);
      CHECK(marked(z.filled) > holes.size());
      CHECK(z.filled.values == columns_using(hf, holes, z.meta));
    }
  }
  SECTION("a box away from the hole: no mask, no section, the bytes of a terrain without NoData") {
    const ZoneBoxSpec b = box({0.5, 0, 0.5}, {6.5, 12, 6.0}, 0.5);
    const Zone z = bake_zone(hf, b);
    CHECK(z.filled.values.empty());
    Heightfield plain = hf;
    plain.filled.clear();
    const Bytes want = write_zone(bake_zone(plain, b));
    const Bytes got = write_zone(z);
    CHECK(got == want);
    CHECK(got[10] == 2);  // minor version 2: what earlier writers wrote
    for (const auto& s : list_zone_sections(got)) CHECK(s.tag_string() != "FILL");
  }
}

TEST_CASE("a terrain without NoData bakes the same bytes as before: no FILL section, minor 2", "[nodata]") {
  Heightfield hf = hills(15, 13);
  REQUIRE(fill_nodata(hf, NodataFill{NodataFill::Kind::Nearest, 0}) == 0);
  const Zone z = bake_zone(hf, whole(0.5));
  CHECK(z.filled.values.empty());
  const Bytes f = write_zone(z);
  CHECK(f[10] == 2);
  CHECK(f[11] == 0);
  for (const auto& s : list_zone_sections(f)) CHECK(s.tag_string() != "FILL");
  const ZoneSummary s = summarize_zone(z, f);
  CHECK(s.filled_columns == 0);
  for (const auto& [k, v] : zone_summary_fields(s)) CHECK(k != "filled NoData");
}

TEST_CASE("the FILL section round trips, and info counts its columns", "[nodata][zone]") {
  Heightfield hf = hills(21, 17);
  hf.heights[5 + 21 * 5] = NAN;
  hf.heights[6 + 21 * 5] = NAN;
  fill_nodata(hf, NodataFill{NodataFill::Kind::Min, 0});
  const Zone z = bake_zone(hf, whole(0.5));
  const uint64_t n = marked(z.filled);
  REQUIRE(n > 0);
  const Bytes f = write_zone(z);
  CHECK(f[10] == 3);  // minor version 3: the FILL section
  bool seen = false;
  for (const auto& s : list_zone_sections(f)) {
    if (s.tag_string() != "FILL") continue;
    seen = true;
    const uint64_t cols = z.meta.cells.sx() * z.meta.cells.sz();
    CHECK(s.length == 8 + (cols + 7) / 8);
  }
  CHECK(seen);
  const Zone back = read_zone(f);
  CHECK(back.filled.width == z.filled.width);
  CHECK(back.filled.depth == z.filled.depth);
  CHECK(back.filled.values == z.filled.values);
  CHECK(write_zone(back) == f);

  const ZoneSummary s = summarize_zone(back, f);
  CHECK(s.filled_columns == n);
  bool line = false;
  for (const auto& [k, v] : zone_summary_fields(s))
    if (k == "filled NoData") {
      line = true;
      CHECK_THAT(v, Catch::StartsWith(std::to_string(n) + " of "));
    }
  CHECK(line);
  CHECK(zone_summary_json(s)["filled_columns"] == n);

  // An edit keeps the mask; a zone without it writes the old bytes.
  Zone cleared = back;
  cleared.filled = {};
  const Bytes plain = write_zone(cleared);
  CHECK(plain[10] == 2);
  CHECK(plain.size() < f.size());
  CHECK(read_zone(plain).filled.values.empty());
}

TEST_CASE("the FILL section reader refuses damage with the offset, expected and found", "[nodata][zone]") {
  Zone z = test::sample_zone({9, 6, 7}, 3);  // 10 x 8 = 80 columns: 10 bytes of bits
  z.filled.width = 10;
  z.filled.depth = 8;
  z.filled.values.assign(80, 0);
  z.filled.values[0] = z.filled.values[17] = z.filled.values[79] = 1;
  const Bytes f = write_zone(z);
  REQUIRE(read_zone(f).filled.values == z.filled.values);
  uint64_t at = 0;
  Bytes payload;
  for (const auto& s : list_zone_sections(f))
    if (s.tag_string() == "FILL") {
      at = s.offset + zone_file::kSectionHeaderSize;
      payload.assign(f.begin() + long(at), f.begin() + long(at + s.length));
    }
  REQUIRE(payload.size() == 18);
  CHECK(payload[8] == 0x01);
  CHECK(payload[10] == 0x02);
  CHECK(payload[17] == 0x80);

  SECTION("short header") {
    const std::string e = error_of(with_fill_payload(f, Bytes(payload.begin(), payload.begin() + 5)));
    CHECK_THAT(e, Catch::Contains("FILL (filled columns)") && Catch::Contains("8-byte raster header") &&
                      Catch::Contains("offset " + std::to_string(at)));
  }
  SECTION("size against the columns") {
    Bytes p = payload;
    p[0] = 11;
    const std::string e = error_of(with_fill_payload(f, p));
    CHECK_THAT(e, Catch::Contains("does not match the zone's columns") && Catch::Contains("expected 10x8") &&
                      Catch::Contains("found 11x8"));
  }
  SECTION("a huge size is refused before anything is allocated") {
    Bytes p = payload;
    p[2] = p[3] = p[6] = p[7] = 0xff;
    CHECK_THAT(error_of(with_fill_payload(f, p)), Catch::Contains("does not match the zone's columns"));
  }
  SECTION("length against the raster") {
    Bytes p = payload;
    p.push_back(0);
    CHECK_THAT(error_of(with_fill_payload(f, p)),
               Catch::Contains("payload length does not match") && Catch::Contains("expected 18 bytes") &&
                   Catch::Contains("found 19 bytes"));
  }
  SECTION("padding bits") {
    Zone odd = test::sample_zone({8, 6, 6}, 3);  // 9 x 7 = 63 columns: the last bit is padding
    odd.filled.width = 9;
    odd.filled.depth = 7;
    odd.filled.values.assign(63, 0);
    odd.filled.values[62] = 1;
    const Bytes g = write_zone(odd);
    REQUIRE(read_zone(g).filled.values == odd.filled.values);
    Bytes p;
    for (const auto& s : list_zone_sections(g))
      if (s.tag_string() == "FILL")
        p.assign(g.begin() + long(s.offset + zone_file::kSectionHeaderSize),
                 g.begin() + long(s.offset + zone_file::kSectionHeaderSize + s.length));
    REQUIRE(p.size() == 16);
    p[15] |= 0x80;
    CHECK_THAT(error_of(with_fill_payload(g, p)), Catch::Contains("bits past the last column are set"));
  }
  SECTION("twice") {
    std::vector<test::RawSectionSpec> secs;
    for (const auto& s : list_zone_sections(f)) {
      const auto* p = f.data() + s.offset + zone_file::kSectionHeaderSize;
      secs.push_back({s.tag_string(), s.flags, Bytes(p, p + s.length)});
      if (s.tag_string() == "FILL") secs.push_back(secs.back());
    }
    CHECK_THAT(error_of(test::build_zone_file(secs, 1, 3)), Catch::Contains("FILL") && Catch::Contains("appears twice"));
  }
  SECTION("no bit set reads as no mask") {
    Bytes p = payload;
    std::fill(p.begin() + 8, p.end(), 0);
    const Zone back = read_zone(with_fill_payload(f, p));
    CHECK(back.filled.values.empty());
  }
  SECTION("the writer refuses a mask of the wrong size or values") {
    Zone bad = z;
    bad.filled.values.pop_back();
    CHECK_THROWS_WITH(write_zone(bad), Catch::Contains("filled-column mask"));
    bad = z;
    bad.filled.values[3] = 2;
    CHECK_THROWS_WITH(write_zone(bad), Catch::Contains("neither 0 nor 1"));
  }
}

TEST_CASE("rebake replaces the mask with the new terrain's", "[nodata]") {
  Heightfield hf = hills(21, 17);
  const Zone plain = bake_zone(hf, whole(0.5));
  REQUIRE(plain.filled.values.empty());
  Heightfield holed = hf;
  holed.heights[7 + 21 * 6] = NAN;
  fill_nodata(holed, NodataFill{NodataFill::Kind::Nearest, 0});
  Zone z = plain;
  rebake_zone(z, holed);
  CHECK(z.filled.values == columns_using(holed, {7 + 21 * 6}, z.meta));
  CHECK(marked(z.filled) > 0);
  rebake_zone(z, hf);
  CHECK(z.filled.values.empty());
}

TEST_CASE("world tiles mark the same columns as the whole bake", "[nodata][world]") {
  // Spacing and origin that are not multiples of the voxel size.
  Heightfield hf = hills(160, 130, 0.7, 0.9);
  hf.origin_x = -3.1;
  hf.origin_z = 1.37;
  std::mt19937 rng(3);
  for (int k = 0; k < 40; ++k) hf.heights[rng() % hf.heights.size()] = NAN;
  for (uint32_t i = 30; i < 45; ++i) hf.heights[i + size_t(160) * 50] = NAN;
  REQUIRE(fill_nodata(hf, NodataFill{NodataFill::Kind::Value, 4.0}) > 40);
  for (double voxel : {0.5, 0.37}) {
    WorldSpec s;
    s.min = {0.5, -2.0, 3.3};
    s.max = {0.5 + 90 * voxel, 20.0, 3.3 + 70 * voxel};
    s.voxel_size = voxel;
    s.chunk_cells = 8;
    s.tile_chunks = 3;
    const WorldGrid w = plan_world(s);
    ZoneBoxSpec b = box(s.min, s.max, voxel);
    b.chunk_cells = s.chunk_cells;
    b.border_voxels = 2;
    const Zone whole_zone = bake_zone(hf, b);
    REQUIRE(whole_zone.meta.cells.nx == w.cells.nx);
    REQUIRE(marked(whole_zone.filled) > 0);
    const Dims& g = whole_zone.meta.cells;
    uint64_t tiles_with_mask = 0;
    for (uint32_t j = 0; j < w.tiles_z(); ++j)
      for (uint32_t i = 0; i < w.tiles_x(); ++i) {
        const TileBox t = tile_box(w, i, j);
        // The samples the tile's windowed read gives, with their marks (a window is filled
        // by value, sample by sample, as the whole is).
        const auto r = tile_read_rect(w, t);
        auto range = [](double a, double c, uint32_t n, uint32_t& lo, uint32_t& hi) {
          lo = uint32_t(std::clamp(std::floor(a) - 1, 0.0, double(n - 1)));
          hi = uint32_t(std::clamp(std::ceil(c) + 1, 0.0, double(n - 1)));
        };
        uint32_t i0, i1, j0, j1;
        range(hf.u_of(r[0]), hf.u_of(r[2]), hf.width, i0, i1);
        range(hf.v_of(r[1]), hf.v_of(r[3]), hf.depth, j0, j1);
        Heightfield win = hf;
        win.width = i1 - i0 + 1;
        win.depth = j1 - j0 + 1;
        win.first_i = i0;
        win.first_j = j0;
        win.source_width = hf.width;
        win.source_depth = hf.depth;
        win.heights.clear();
        win.filled.clear();
        bool any = false;
        for (uint32_t jj = j0; jj <= j1; ++jj)
          for (uint32_t ii = i0; ii <= i1; ++ii) {
            win.heights.push_back(hf.at(ii, jj));
            win.filled.push_back(hf.filled[ii + size_t(hf.width) * jj]);
            any = any || win.filled.back();
          }
        if (!any) win.filled.clear();
        const Zone tile = bake_tile(w, t, win);
        const Dims& c = tile.meta.cells;
        uint64_t diff = 0, want = 0;
        for (uint32_t z = 0; z <= c.nz; ++z)
          for (uint32_t x = 0; x <= c.nx; ++x) {
            const uint8_t a = tile.filled.values.empty() ? 0 : tile.filled.values[x + size_t(c.sx()) * z];
            const uint8_t e = whole_zone.filled.values[x + t.zone_min[0] + size_t(g.sx()) * (z + t.zone_min[1])];
            diff += a != e;
            want += e;
          }
        INFO("voxel " << voxel << " tile " << i << "," << j);
        CHECK(diff == 0);
        // A tile over data only stores no mask, as a whole bake over data only.
        CHECK(tile.filled.values.empty() == (want == 0));
        tiles_with_mask += !tile.filled.values.empty();
      }
    CHECK(tiles_with_mask > 0);
  }
}
