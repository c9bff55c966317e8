// Base64: RFC 4648 vectors, round trips at every length, and every rule of the strict decoder.
#include <catch2/catch.hpp>

#include <string>

#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {
Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }
}  // namespace

TEST_CASE("base64 encodes the RFC 4648 section 10 vectors", "[base64]") {
  CHECK(base64::encode(B("")) == "");
  CHECK(base64::encode(B("f")) == "Zg==");
  CHECK(base64::encode(B("fo")) == "Zm8=");
  CHECK(base64::encode(B("foo")) == "Zm9v");
  CHECK(base64::encode(B("foob")) == "Zm9vYg==");
  CHECK(base64::encode(B("fooba")) == "Zm9vYmE=");
  CHECK(base64::encode(B("foobar")) == "Zm9vYmFy");
}

TEST_CASE("base64 decodes the RFC 4648 section 10 vectors", "[base64]") {
  CHECK(base64::decode(std::string_view("")).empty());
  CHECK(base64::decode(std::string_view("Zg==")) == B("f"));
  CHECK(base64::decode(std::string_view("Zm8=")) == B("fo"));
  CHECK(base64::decode(std::string_view("Zm9v")) == B("foo"));
  CHECK(base64::decode(std::string_view("Zm9vYg==")) == B("foob"));
  CHECK(base64::decode(std::string_view("Zm9vYmE=")) == B("fooba"));
  CHECK(base64::decode(std::string_view("Zm9vYmFy")) == B("foobar"));
}

TEST_CASE("base64 uses the standard '+' and '/' characters", "[base64]") {
  // fb ff = 111110 111111 1111(00): 62 63 60 -> '+' '/' '8'
  CHECK(base64::encode(Bytes{0xfb, 0xff}) == "+/8=");
  CHECK(base64::decode(std::string_view("+/8=")) == Bytes{0xfb, 0xff});
  // every 6-bit value once: 00 10 83 10 51 87 ... is the alphabet in order
  std::string all = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  CHECK(base64::encode(base64::decode(std::string_view(all))) == all);
  CHECK(base64::decode(std::string_view(all)).size() == 48);
}

TEST_CASE("base64 round trips every length from 0 to 300 and random large inputs", "[base64]") {
  for (size_t n = 0; n <= 300; ++n) {
    Bytes r = test::random_bytes(n, uint32_t(n) + 11);
    std::string e = base64::encode(r);
    REQUIRE(e.size() == base64::encoded_size(n));
    REQUIRE(base64::decode(std::string_view(e)) == r);
  }
  Bytes big = test::random_bytes(100003, 5);
  CHECK(base64::decode(std::string_view(base64::encode(big))) == big);
}

TEST_CASE("base64 decoder rejects a length that is not a multiple of 4", "[base64]") {
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9vY")),
                    Catch::Contains("offset 4: Base64 length is not a multiple of 4") &&
                        Catch::Contains("found 5 characters"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zg=")), Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Z")), Catch::Contains("multiple of 4"));
}

TEST_CASE("base64 decoder rejects more than two '='", "[base64]") {
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9vZ===")),
                    Catch::Contains("offset 5: more than two Base64 padding '='") &&
                        Catch::Contains("found 3 '='"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9v====")),
                    Catch::Contains("offset 4: more than two") && Catch::Contains("found 4 '='"));
}

TEST_CASE("base64 decoder rejects '=' anywhere but the end", "[base64]") {
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zg==Zm9v")),
                    Catch::Contains("offset 2: Base64 padding '=' before the end"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm=v")),
                    Catch::Contains("offset 2: Base64 padding '=' before the end"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("=m9v")),
                    Catch::Contains("offset 0: Base64 padding '=' before the end"));
  // in the middle of a long text, past the first block of groups
  std::string t = std::string(400, 'A') + "=" + std::string(403, 'A');
  CHECK_THROWS_WITH(base64::decode(std::string_view(t)), Catch::Contains("offset 400: Base64 padding"));
}

TEST_CASE("base64 decoder rejects whitespace, newlines and non-alphabet characters", "[base64]") {
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9v\nYmFy")), Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9v\nYm=")),
                    Catch::Contains("offset 4: invalid Base64 character") &&
                        Catch::Contains("found 0x0a (newline)"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm 9")), Catch::Contains("found 0x20 (space)"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm\t9")), Catch::Contains("found 0x09 (tab)"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9v\r\n==")), Catch::Contains("offset 4") &&
                                                                        Catch::Contains("carriage return"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm-_")),
                    Catch::Contains("offset 2: invalid Base64 character") &&
                        Catch::Contains("found '-' (0x2d)"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Zm9\xff")), Catch::Contains("found 0xff"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("Z\0==", 4)), Catch::Contains("offset 1") &&
                                                                     Catch::Contains("found 0x00"));
  // every byte that is not in the alphabet is rejected at every position of a group
  for (int c = 0; c < 256; ++c) {
    if (base64::is_alphabet(char(c)) || c == '=') continue;
    for (int pos = 0; pos < 12; ++pos) {
      std::string t = "QUJDREVGR0hJ";  // "ABCDEFGHI"
      t[size_t(pos)] = char(c);
      try {
        base64::decode(std::string_view(t));
        FAIL("accepted byte " << c << " at " << pos);
      } catch (const Error& e) {
        REQUIRE(e.offset() == uint64_t(pos));
      }
    }
  }
}

TEST_CASE("base64 decoder rejects non-zero bits under the padding", "[base64]") {
  // "QQ==" is 'A'; "QR==" has the same first byte but a stray 1 bit under the padding.
  CHECK(base64::decode(std::string_view("QQ==")) == B("A"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("QR==")),
                    Catch::Contains("offset 1: Base64 character before the padding has non-zero") &&
                        Catch::Contains("found 'R'"));
  CHECK(base64::decode(std::string_view("QUI=")) == B("AB"));
  CHECK_THROWS_WITH(base64::decode(std::string_view("QUJ=")), Catch::Contains("offset 2") &&
                                                                  Catch::Contains("non-zero"));
}

TEST_CASE("base64 decoder accepts exactly the canonical texts of short inputs", "[base64]") {
  // All 2-character groups with "==" padding: accepted iff encode gives the same text back.
  int accepted = 0;
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (char a : alphabet)
    for (char b : alphabet) {
      std::string t = {a, b, '=', '='};
      try {
        auto d = base64::decode(std::string_view(t));
        REQUIRE(base64::encode(d) == t);
        ++accepted;
      } catch (const Error&) {
      }
    }
  CHECK(accepted == 256);
}

TEST_CASE("base64 decoded_size checks length and padding before any character", "[base64]") {
  CHECK(base64::decoded_size("") == 0);
  CHECK(base64::decoded_size("AAAA") == 3);
  CHECK(base64::decoded_size("AAA=") == 2);
  CHECK(base64::decoded_size("AA==") == 1);
  CHECK_THROWS_AS(base64::decoded_size("AA=A"), Error);
}

TEST_CASE("base64 decoder finds a bad character at every offset of a long text", "[base64]") {
  // Long enough for the vector path; every byte value outside the alphabet, every offset
  // before the last group.
  const std::string good = base64::encode(test::random_bytes(150, 9));  // 200 characters
  REQUIRE(good.size() == 200);
  for (int c = 0; c < 256; ++c) {
    if (base64::is_alphabet(char(c))) continue;
    for (size_t pos = 0; pos < 196; pos += (c % 7 == 0 ? 1 : 13)) {
      std::string t = good;
      t[pos] = char(c);
      try {
        base64::decode(std::string_view(t));
        FAIL("accepted byte " << c << " at " << pos);
      } catch (const Error& e) {
        REQUIRE(e.offset() == uint64_t(pos));
      }
    }
  }
}

TEST_CASE("base64 decoder gives the same bytes on every path for every character", "[base64]") {
  // Each alphabet character at each position of a 40-group text, checked against the
  // character's value placed by hand.
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t v = 0; v < 64; ++v) {
    for (size_t pos = 0; pos < 160; pos += 5) {
      std::string t(160, 'A');
      t[pos] = alphabet[v];
      auto d = base64::decode(std::string_view(t));
      std::vector<uint8_t> want(120, 0);
      const size_t bit = (pos / 4) * 24 + (pos % 4) * 6;  // where the 6 bits start
      for (size_t k = 0; k < 6; ++k)
        if (v & (32u >> k)) want[(bit + k) / 8] |= uint8_t(0x80u >> ((bit + k) % 8));
      REQUIRE(d == want);
    }
  }
}

TEST_CASE("base64 encoder matches a bit-by-bit encoding on long inputs", "[base64]") {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t n : {size_t(28), size_t(29), size_t(51), size_t(52), size_t(100), size_t(1000)}) {
    const Bytes r = test::random_bytes(n, uint32_t(n));
    std::string want;
    for (size_t bit = 0; bit < n * 8; bit += 6) {
      unsigned v = 0;
      for (size_t k = 0; k < 6; ++k) {
        const size_t b = bit + k;
        v = v << 1 | (b < n * 8 ? (r[b / 8] >> (7 - b % 8)) & 1u : 0u);
      }
      want += alphabet[v];
    }
    while (want.size() % 4) want += '=';
    REQUIRE(base64::encode(r) == want);
  }
}
