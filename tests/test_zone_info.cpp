// Zone summaries: counts, solid volume, chunks with a surface, text and JSON shapes.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include "formats/zone/zone_info.hpp"
#include "lib/core/error.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;

namespace {
// A flat ground at `h` voxels above sample row 0: d = y - h.
ByteGrid flat(Dims c, float h) {
  ByteGrid g(c, 0);
  for (uint32_t z = 0; z <= c.nz; ++z)
    for (uint32_t y = 0; y <= c.ny; ++y)
      for (uint32_t x = 0; x <= c.nx; ++x) g.at(x, y, z) = quantize_sdf(float(y) - h);
  return g;
}
}  // namespace

TEST_CASE("zone solid volume is exact for full grids and flat ground", "[zone-info]") {
  CHECK(solid_volume_m3(ByteGrid({4, 3, 5}, 0), 0.5) == Approx(4 * 3 * 5 * 0.125));
  CHECK(solid_volume_m3(ByteGrid({4, 3, 5}, 255), 0.5) == 0);
  CHECK(solid_volume_m3(flat({6, 8, 5}, 2.25f), 1.0) == Approx(6 * 5 * 2.25));
  CHECK(solid_volume_m3(flat({6, 8, 5}, 5.5f), 2.0) == Approx(6 * 5 * 5.5 * 8));
}

TEST_CASE("zone chunks with a surface follow the chunk packer's sample spans", "[zone-info]") {
  // 8 cells high, 4 per chunk: chunk y 0 covers samples 0..4, chunk y 1 samples 3..8.
  ByteGrid g = flat({8, 8, 4}, 3.5f);  // solid below y = 3.5: samples 0..3 solid, 4.. air
  CHECK(chunks_with_surface(g, 4) == 2 * 2 * 1);  // both y layers see samples 3 and 4
  ByteGrid low = flat({8, 8, 4}, 1.5f);  // surface between samples 1 and 2: only the low layer
  CHECK(chunks_with_surface(low, 4) == 2 * 1 * 1);
  CHECK(chunks_with_surface(ByteGrid({8, 8, 4}, 255), 4) == 0);
}

TEST_CASE("zone summary counts sculpted and painted samples and sizes", "[zone-info]") {
  Zone z = test::sample_zone({12, 9, 10}, 3);
  auto file = write_zone(z);
  ZoneSummary s = summarize_zone(z, file);
  CHECK(s.samples == 13 * 10 * 11);
  CHECK(s.solid + s.air == s.samples);
  uint64_t diff = 0;
  for (size_t i = 0; i < z.grid.data.size(); ++i) diff += z.grid.data[i] != z.baked.data[i];
  CHECK(s.sculpted.value() == diff);
  CHECK(diff >= 1);
  CHECK(s.painted.value() == 2);
  CHECK(s.stored_bytes == file.size());
  CHECK(s.decoded_bytes == 3 * s.samples + 4 * 13 * 11 + 3 * 13 * 11);
  CHECK(s.sections.size() == 7);
  CHECK(s.chunks == 3 * 3 * 3);
  z.paint = ByteGrid{};
  z.baked = ByteGrid{};
  ZoneSummary bare = summarize_zone(z, write_zone(z));
  CHECK(!bare.painted);
  CHECK(!bare.sculpted);
}

TEST_CASE("zone summary is the same for any thread count", "[zone-info]") {
  Zone z = test::sample_zone({40, 20, 30}, 8);
  auto file = write_zone(z);
  std::string one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = zone_summary_json(summarize_zone(z, file)).dump();
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = zone_summary_json(summarize_zone(z, file)).dump();
  }
  CHECK(one == two);
}

TEST_CASE("zone summary text and JSON name every figure", "[zone-info]") {
  Zone z = test::sample_zone();
  auto file = write_zone(z);
  ZoneSummary s = summarize_zone(z, file);
  auto d = describe_zone(file, "a.vxz");
  REQUIRE(d);
  CHECK(d->format == "zone");
  CHECK(d->summary == "voxkit zone file, version 1.2");
  std::string t = identify::to_text(*d, "a.vxz");
  for (const char* k : {"cells", "memory", "stored", "solid volume", "chunks", "sculpted", "painted", "layers",
                        "Grass, Rock", "surface band", "sections", "META"}) {
    INFO(k);
    CHECK(t.find(k) != std::string::npos);
  }
  auto j = zone_summary_json(s);
  for (const char* k : {"cells", "sample_dims", "samples", "memory_bytes", "stored_bytes", "counts", "solid_volume_m3",
                        "chunks", "sculpted_samples", "painted_samples", "layers", "sections", "grid_version"}) {
    INFO(k);
    CHECK(j.contains(k));
  }
  CHECK(j["counts"]["solid"].get<uint64_t>() == s.solid);
}

TEST_CASE("zone describer ignores other files and reports damage", "[zone-info]") {
  CHECK(!describe_zone(std::vector<uint8_t>{1, 2, 3}, "x"));
  CHECK(!describe_zone(std::vector<uint8_t>{}, "x"));
  auto file = write_zone(test::sample_zone());
  file[file.size() / 2] ^= 1;
  CHECK_THROWS_AS(describe_zone(file, "x"), Error);
  auto d = identify::identify(write_zone(test::sample_zone()), "x");
  REQUIRE(d);
  CHECK(d->format == "zone");
}
