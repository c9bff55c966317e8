// Terrain{i}.dat base files: gzip round trips, stored checksums, and malformed files.
#include <catch2/catch.hpp>

#include "formats/stationeers/terrain_base.hpp"
#include "lib/core/error.hpp"
#include "tests/octree_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

TEST_CASE("terrain base encodes depth, nodes and the checksum inside gzip", "[terrain_base]") {
  const Bytes gz = terrain_base::encode(10, kUnmod);
  REQUIRE(terrain_base::looks_gzip(gz));
  // 0a 00 00 00 | 01 00 00 | checksum 16974593 = 0x01030301, little-endian 01 03 03 01.
  CHECK(terrain_base::gunzip(gz) == Bytes{0x0a, 0, 0, 0, 0x01, 0, 0, 0x01, 0x03, 0x03, 0x01});
  const auto f = terrain_base::decode(gz);
  CHECK(f.depth == 10);
  CHECK(f.stored_checksum == 16974593);
  CHECK(f.checksum_ok());
  CHECK(Bytes(f.nodes().begin(), f.nodes().end()) == kUnmod);
}

TEST_CASE("terrain base verifies the stored checksum", "[terrain_base]") {
  const Bytes raw = {0x0a, 0, 0, 0, 0x01, 0, 0, 0x00, 0x00, 0x00, 0x00};
  const Bytes gz = terrain_base::gzip(raw);
  CHECK_THROWS_WITH(terrain_base::decode(gz),
                    Catch::Contains("offset 7: stored checksum does not match the node stream (expected 16974593, found 0)"));
  const auto f = terrain_base::decode(gz, false);
  CHECK_FALSE(f.checksum_ok());
  CHECK(f.computed_checksum == 16974593u);
}

TEST_CASE("terrain base round trips a branch tree", "[terrain_base]") {
  const Bytes nodes = cat({Bytes{0x00}, unmod_branch(), kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod});
  for (int level : {0, 1, 6, 9}) {
    const auto f = terrain_base::decode(terrain_base::encode(10, nodes, level));
    CHECK(Bytes(f.nodes().begin(), f.nodes().end()) == nodes);
  }
}

TEST_CASE("terrain base rejects every truncation of the gzip stream", "[terrain_base]") {
  const Bytes gz = terrain_base::encode(10, unmod_branch());
  for (size_t n = 0; n < gz.size(); ++n) {
    CHECK_THROWS_AS(terrain_base::decode(Bytes(gz.begin(), gz.begin() + long(n))), Error);
  }
}

TEST_CASE("terrain base rejects bytes after the gzip stream and after the checksum", "[terrain_base]") {
  Bytes gz = terrain_base::encode(10, kUnmod);
  gz.push_back(0);
  CHECK_THROWS_WITH(terrain_base::decode(gz), Catch::Contains("extra bytes after the gzip stream"));
  const Bytes raw = {0x0a, 0, 0, 0, 0x01, 0, 0, 0x01, 0x03, 0x03, 0x01, 0x99};
  CHECK_THROWS_WITH(terrain_base::decode(terrain_base::gzip(raw)), Catch::Contains("offset 11: extra bytes after the checksum"));
}

TEST_CASE("terrain base rejects a bad depth, a truncated payload and bad node flags", "[terrain_base]") {
  CHECK_THROWS_WITH(terrain_base::decode(terrain_base::gzip(Bytes{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0})),
                    Catch::Contains("depth out of range"));
  CHECK_THROWS_WITH(terrain_base::decode(terrain_base::gzip(Bytes{0x0a, 0})), Catch::Contains("ends inside the depth"));
  CHECK_THROWS_WITH(terrain_base::decode(terrain_base::gzip(Bytes{0x0a, 0, 0, 0, 1, 0, 0, 1})),
                    Catch::Contains("ends inside the checksum"));
  CHECK_THROWS_WITH(terrain_base::decode(terrain_base::gzip(Bytes{0x0a, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0})),
                    Catch::Contains("offset 4: node flags have unknown bits"));
  CHECK_THROWS_WITH(terrain_base::decode(Bytes{0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff}),
                    Catch::Contains("gzip"));
}

TEST_CASE("terrain base caps the inflated size while inflating", "[terrain_base]") {
  const Bytes zeros(1 << 20, 0);
  const Bytes gz = terrain_base::gzip(zeros, 9);
  CHECK(gz.size() < 4096);
  CHECK_THROWS_WITH(terrain_base::gunzip(gz, 1000), Catch::Contains("inflates to more than the limit"));
  CHECK(terrain_base::gunzip(gz, 1 << 20).size() == zeros.size());
}
