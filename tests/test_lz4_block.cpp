// Raw LZ4 blocks: hand-made blocks, round trips, and the exact-size decoder's refusals.
#include <catch2/catch.hpp>

#include "lib/core/error.hpp"
#include "lib/codec/lz4_block.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {
// A literal-only block: token 0x50 = 5 literals, no match (the last sequence of a block
// has none), then the literals.
const Bytes kHello = {0x50, 'h', 'e', 'l', 'l', 'o'};
// A block with a match:
//   token 0x26: 2 literals, match length 6 + 4 = 10; literals "ab"; offset 02 00 (2 back):
//     copies "ab" over itself -> "ab" + "abababababab"[0..10) = 12 bytes "abababababab"
//   token 0x50: the last 5 bytes are literals, as the format requires: "hello"
const Bytes kMatch = {0x26, 'a', 'b', 0x02, 0x00, 0x50, 'h', 'e', 'l', 'l', 'o'};
Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }
}  // namespace

TEST_CASE("lz4 decodes a hand-made literal-only block", "[lz4]") {
  CHECK(lz4::decompress(kHello, 5) == B("hello"));
}

TEST_CASE("lz4 decodes a hand-made block with an overlapping match", "[lz4]") {
  CHECK(lz4::decompress(kMatch, 17) == B("ababababababhello"));
}

TEST_CASE("lz4 compresses short input as one literal run", "[lz4]") {
  CHECK(lz4::compress(B("hello")) == kHello);
  CHECK(lz4::compress(B("hello"), lz4::Level::HcMax) == kHello);
}

TEST_CASE("lz4 HC compresses 4913 zeros as one literal, one long match and 5 literals", "[lz4]") {
  // 1 literal 00, then a match at offset 1 of 4913 - 1 - 5 = 4907 bytes (4907 - 4 = 4903 =
  // 15 in the token + 19 * 255 + 43), then the last 5 literals.
  Bytes want = {0x1f, 0x00, 0x01, 0x00};
  want.insert(want.end(), 19, 0xff);
  want.push_back(0x2b);
  want.insert(want.end(), {0x50, 0, 0, 0, 0, 0});
  Bytes zeros(4913, 0);
  CHECK(lz4::compress(zeros, lz4::Level::HcMax) == want);
  CHECK(lz4::decompress(want, 4913) == zeros);
}

TEST_CASE("lz4 round trips random and terrain-like data at both levels", "[lz4]") {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    Bytes r = test::random_bytes(seed * 731, seed, seed % 2 ? 255 : 3);
    for (auto level : {lz4::Level::Fast, lz4::Level::HcMax}) {
      auto c = lz4::compress(r, level);
      REQUIRE(lz4::decompress(c, r.size()) == r);
    }
  }
  auto g = test::terrain_grid({30, 20, 25}, 4);
  auto fast = lz4::compress(g.data), hc = lz4::compress(g.data, lz4::Level::HcMax);
  CHECK(hc.size() <= fast.size());
  CHECK(lz4::decompress(hc, g.data.size()) == g.data);
}

TEST_CASE("lz4 decoder rejects a block that decodes to fewer bytes than expected", "[lz4]") {
  CHECK_THROWS_WITH(lz4::decompress(kHello, 6),
                    Catch::Contains("fewer bytes than expected") &&
                        Catch::Contains("expected 6 bytes, found 5 bytes"));
}

TEST_CASE("lz4 decoder rejects a block that decodes to more bytes than expected", "[lz4]") {
  CHECK_THROWS_WITH(lz4::decompress(kMatch, 16),
                    Catch::Contains("more bytes than expected") &&
                        Catch::Contains("expected 16 bytes, found 17 bytes"));
  CHECK_THROWS_WITH(lz4::decompress(kHello, 4), Catch::Contains("expected 4 bytes, found 5 bytes"));
  Bytes zeros(4913, 0);
  auto block = lz4::compress(zeros, lz4::Level::HcMax);
  CHECK_THROWS_WITH(lz4::decompress(block, 4912), Catch::Contains("found 4913 bytes"));
  CHECK_THROWS_WITH(lz4::decompress(block, 4914), Catch::Contains("found 4913 bytes"));
}

TEST_CASE("lz4 decoder rejects every truncation and extra bytes", "[lz4]") {
  auto g = test::terrain_grid({14, 9, 11}, 8);
  auto block = lz4::compress(g.data, lz4::Level::HcMax);
  for (size_t n = 0; n < block.size(); ++n) {
    Bytes cut(block.begin(), block.begin() + long(n));
    CHECK_THROWS_AS(lz4::decompress(cut, g.data.size()), Error);
  }
  Bytes extra = kHello;
  extra.push_back(0);
  CHECK_THROWS_AS(lz4::decompress(extra, 5), Error);
}

TEST_CASE("lz4 decoder rejects a match offset before the start of the output", "[lz4]") {
  // 2 literals, then a match 3 bytes back: before the first byte.
  Bytes bad = {0x26, 'a', 'b', 0x03, 0x00, 0x50, 'h', 'e', 'l', 'l', 'o'};
  CHECK_THROWS_WITH(lz4::decompress(bad, 17), Catch::Contains("malformed LZ4 block"));
}

TEST_CASE("lz4 decoder refuses an expected size over the cap or past the block's reach", "[lz4]") {
  CHECK_THROWS_WITH(lz4::decompress(kHello, 5000, 4096), Catch::Contains("over the limit"));
  // 6 bytes can never expand to a gigabyte: refused before allocating it.
  CHECK_THROWS_WITH(lz4::decompress(kHello, size_t(1) << 30),
                    Catch::Contains("too short for the expected size"));
  CHECK_THROWS_WITH(lz4::decompress(Bytes{}, 0), Catch::Contains("empty LZ4 block"));
}

TEST_CASE("lz4 handles an empty input as a single zero token", "[lz4]") {
  auto c = lz4::compress(Bytes{});
  CHECK(c == Bytes{0x00});
  CHECK(lz4::compress(Bytes{}, lz4::Level::HcMax) == Bytes{0x00});
  CHECK(lz4::decompress(c, 0).empty());
}
