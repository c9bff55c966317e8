// Dig-zone RLE: golden vectors from FORMATS.md, round trips, and every malformed stream.
#include <catch2/catch.hpp>

#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {
Bytes dec(const Bytes& s, uint64_t cap = 1 << 20) { return rle::decode(s, cap); }
}  // namespace

TEST_CASE("rle encodes a run of 10 then 3 literals as FORMATS.md says", "[rle]") {
  Bytes raw = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3};
  // count 13; run h = 10<<1|1 = 21, value 0; literal h = 3<<1 = 6, bytes.
  Bytes want = {0x0d, 0x15, 0x00, 0x06, 0x01, 0x02, 0x03};
  CHECK(rle::encode(raw) == want);
  CHECK(dec(want) == raw);
}

TEST_CASE("rle keeps runs shorter than 8 inside literals", "[rle]") {
  Bytes raw = {5, 5, 5, 5, 5, 5, 5, 9};  // a run of 7 stays literal
  Bytes want = {0x08, 0x10, 5, 5, 5, 5, 5, 5, 5, 9};
  CHECK(rle::encode(raw) == want);
  Bytes raw8 = {5, 5, 5, 5, 5, 5, 5, 5};  // a run of 8 becomes a run
  CHECK(rle::encode(raw8) == Bytes{0x08, 0x11, 5});
}

TEST_CASE("rle flushes pending literals before a run and writes multi-byte varints", "[rle]") {
  Bytes raw = {1, 2};
  raw.insert(raw.end(), 200, 255);
  // count 202 = 0xca 0x01; literal 2 = h 4; run 200: h = 401 = 0x91 0x03.
  Bytes want = {0xca, 0x01, 0x04, 1, 2, 0x91, 0x03, 0xff};
  CHECK(rle::encode(raw) == want);
  CHECK(dec(want) == raw);
}

TEST_CASE("rle encodes an empty grid as a zero count", "[rle]") {
  CHECK(rle::encode(Bytes{}) == Bytes{0x00});
  CHECK(dec(Bytes{0x00}).empty());
}

TEST_CASE("rle round trips random and terrain-like grids", "[rle]") {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    Bytes r = test::random_bytes(1000 + seed * 37, seed, seed % 3 == 0 ? 1 : 255);
    CHECK(dec(rle::encode(r)) == r);
  }
  auto g = test::terrain_grid({40, 24, 33}, 7);
  auto enc = rle::encode(g.data);
  CHECK(enc.size() < g.data.size() / 4);
  CHECK(dec(enc) == g.data);
}

TEST_CASE("rle decoder rejects every truncation of a valid stream", "[rle]") {
  auto g = test::terrain_grid({12, 10, 9}, 3);
  Bytes enc = rle::encode(g.data);
  for (size_t n = 0; n < enc.size(); ++n) {
    Bytes cut(enc.begin(), enc.begin() + long(n));
    CHECK_THROWS_AS(dec(cut), Error);
  }
}

TEST_CASE("rle decoder rejects extra bytes after the last token", "[rle]") {
  Bytes s = {0x0d, 0x15, 0x00, 0x06, 0x01, 0x02, 0x03, 0x00};
  CHECK_THROWS_WITH(dec(s), Catch::Contains("offset 7: extra bytes"));
}

TEST_CASE("rle decoder rejects a zero-length token", "[rle]") {
  CHECK_THROWS_WITH(dec(Bytes{0x02, 0x00}), Catch::Contains("offset 1: zero-length token"));
  CHECK_THROWS_WITH(dec(Bytes{0x02, 0x01, 0x07}), Catch::Contains("zero-length token"));
}

TEST_CASE("rle decoder rejects a token longer than the samples left", "[rle]") {
  CHECK_THROWS_WITH(dec(Bytes{0x02, 0x07, 0x01}),
                    Catch::Contains("token runs past the sample count"));
  CHECK_THROWS_WITH(dec(Bytes{0x02, 0x08, 1, 2, 3, 4}),
                    Catch::Contains("expected at most 2 samples, found 4"));
}

TEST_CASE("rle decoder rejects a literal longer than the stream", "[rle]") {
  CHECK_THROWS_WITH(dec(Bytes{0x04, 0x08, 1, 2}), Catch::Contains("literal token is longer"));
}

TEST_CASE("rle decoder rejects overlong and oversized varints", "[rle]") {
  CHECK_THROWS_WITH(dec(Bytes{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
                    Catch::Contains("longer than 5 bytes"));
  CHECK_THROWS_WITH(dec(Bytes{0xff, 0xff, 0xff, 0xff, 0x0f}), Catch::Contains("31 bits"));
  CHECK_THROWS_WITH(dec(Bytes{0x81}), Catch::Contains("stream ends inside the sample count"));
}

TEST_CASE("rle decoder enforces the caller's sample cap before allocating", "[rle]") {
  // 2^31 - 1 samples claimed by a 5-byte header.
  Bytes s = {0xff, 0xff, 0xff, 0xff, 0x07};
  CHECK_THROWS_WITH(dec(s, 1000), Catch::Contains("sample count is over the limit"));
}

TEST_CASE("rle decode_into stops at the end of its stream", "[rle]") {
  Bytes a = rle::encode(Bytes{1, 2, 3});
  Bytes blob = a;
  blob.push_back(0x55);
  Bytes out(3);
  CHECK(rle::decode_into(blob, out) == a.size());
  CHECK(out == Bytes{1, 2, 3});
}

TEST_CASE("rle scan counts tokens and rejects exactly what decode rejects", "[rle]") {
  Bytes golden = {0x0d, 0x15, 0x00, 0x06, 0x01, 0x02, 0x03};
  auto st = rle::scan(golden);
  CHECK(st.samples == 13);
  CHECK(st.header_bytes == 1);
  CHECK(st.runs == 1);
  CHECK(st.run_samples == 10);
  CHECK(st.literals == 1);
  CHECK(st.literal_samples == 3);
  auto g = test::terrain_grid({12, 10, 9}, 4);
  Bytes enc = rle::encode(g.data);
  std::vector<Bytes> cases = {
      {0x02, 0x00}, {0x02, 0x07, 0x01}, {0x04, 0x08, 1, 2}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
      {0xff, 0xff, 0xff, 0xff, 0x0f}, {0x81}, {0x02, 0x05}, golden, enc};
  Bytes extra = golden;
  extra.push_back(0);
  cases.push_back(extra);
  for (size_t n = 0; n < enc.size(); n += 7) cases.emplace_back(enc.begin(), enc.begin() + long(n));
  for (const auto& c : cases) {
    bool scan_ok = true, decode_ok = true;
    try {
      rle::scan(c, 1 << 20);
    } catch (const Error&) {
      scan_ok = false;
    }
    try {
      dec(c);
    } catch (const Error&) {
      decode_ok = false;
    }
    CHECK(scan_ok == decode_ok);
  }
  CHECK_THROWS_WITH(rle::scan(Bytes{0xff, 0xff, 0xff, 0xff, 0x07}, 1000),
                    Catch::Contains("sample count is over the limit"));
}

TEST_CASE("rle proven_count trusts a count only up to a small multiple of the stream", "[rle][limits]") {
  // At most the trusted size: returned as read, the tokens are left to the decoder.
  CHECK(rle::proven_count(Bytes{0x90, 0x4e}, rle::kMaxCount) == 10000);
  CHECK(rle::proven_count(Bytes{0x80, 0x80, 0x40}, rle::kMaxCount) == rle::kTrustedSamples);
  // Over it, the tokens must make up the count before anything is allocated.
  CHECK_THROWS_WITH(rle::proven_count(Bytes{0xff, 0xff, 0xff, 0xff, 0x07}, rle::kMaxCount),
                    Catch::Contains("offset 5: stream ends inside the token varint"));
  CHECK_THROWS_WITH(rle::proven_count(Bytes{0x80, 0x80, 0x80, 0x02}, rle::kMaxCount),
                    Catch::Contains("offset 4: stream ends inside the token varint"));
  // Just over the trusted size for its 3 bytes: scanned too.
  CHECK_THROWS_WITH(rle::proven_count(Bytes{0xc1, 0x81, 0x40}, rle::kMaxCount),
                    Catch::Contains("offset 3: stream ends inside the token varint"));
  // A run of 2^24 whose value byte is missing, and one that falls a sample short.
  CHECK_THROWS_WITH(rle::proven_count(Bytes{0x80, 0x80, 0x80, 0x08, 0x81, 0x80, 0x80, 0x10}, rle::kMaxCount),
                    Catch::Contains("stream ends before a run's value byte"));
  CHECK_THROWS_WITH(rle::proven_count(Bytes{0x81, 0x80, 0x80, 0x08, 0x81, 0x80, 0x80, 0x10, 0x00}, rle::kMaxCount),
                    Catch::Contains("stream ends inside the token varint"));
  // The cap comes first.
  CHECK_THROWS_WITH(rle::proven_count(Bytes{0xff, 0xff, 0xff, 0xff, 0x07}, 1000),
                    Catch::Contains("sample count is over the limit"));
  // Tokens that do make up a large count prove it; bytes after them are not looked at.
  const Bytes big = {0x81, 0x80, 0x80, 0x08, 0x81, 0x80, 0x80, 0x10, 0x00, 0x02, 0x07, 0x55};
  CHECK(rle::proven_count(big, rle::kMaxCount) == (uint64_t(1) << 24) + 1);
}

TEST_CASE("rle decode proves a count over the trusted size before allocating it", "[rle][limits]") {
  // A count the 11-byte stream's tokens really make up decodes.
  const Bytes s = {0x81, 0x80, 0x80, 0x08, 0x81, 0x80, 0x80, 0x10, 0x00, 0x02, 0x07};
  const Bytes out = rle::decode(s, rle::kMaxCount);
  REQUIRE(out.size() == (uint64_t(1) << 24) + 1);
  CHECK(out.front() == 0);
  CHECK(out.back() == 7);
  CHECK_THROWS_WITH(rle::decode(Bytes{0xff, 0xff, 0xff, 0xff, 0x07}, rle::kMaxCount),
                    Catch::Contains("offset 5: stream ends inside the token varint"));
  // Both paths give the same errors as the token scan.
  for (const Bytes& bad : {Bytes{0x0d, 0x15, 0x00, 0x00}, Bytes{0x0d, 0x15}, Bytes{0x04, 0x08, 1, 2}}) {
    std::string a, b;
    try { rle::decode(bad, rle::kMaxCount); } catch (const Error& e) { a = e.what(); }
    try { rle::scan(bad); } catch (const Error& e) { b = e.what(); }
    CHECK(!a.empty());
    CHECK(a == b);
  }
}
