// Scrap Mechanic chunks: golden strings, every form's round trip, detection, parse errors.
#include <catch2/catch.hpp>

#include <string>

#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "formats/scrap_mechanic/sm_chunk_batch.hpp"
#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"
#include "lib/codec/lz4_block.hpp"
#include "tests/test_util.hpp"
#include "tools/options.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

// A chunk with every material and a density ramp: voxel v gets material v % 4 and
// density (x * 4 + y) % 64.
sm::Chunk sample_chunk() {
  sm::Chunk c{};
  for (size_t x = 0; x < 17; ++x)
    for (size_t y = 0; y < 17; ++y)
      for (size_t z = 0; z < 17; ++z) {
        const size_t v = sm::voxel_index(x, y, z);
        c[v] = sm_pack(uint8_t(v % 4), uint8_t((x * 4 + y) % 64));
      }
  return c;
}

std::string lua_numbers(const sm::Chunk& c, const std::string& sep = ", ") {
  std::string s;
  for (size_t v = 0; v < sm::kVoxels; ++v) {
    if (v) s += sep;
    s += std::to_string(c[v] >> 6) + sep + std::to_string(c[v] & 63);
  }
  return s;
}

}  // namespace

TEST_CASE("sm voxel (x, y, z) is byte z + 17y + 289x", "[sm]") {
  CHECK(sm::voxel_index(0, 0, 1) == 1);
  CHECK(sm::voxel_index(0, 1, 0) == 17);
  CHECK(sm::voxel_index(1, 0, 0) == 289);
  CHECK(sm::voxel_index(16, 16, 16) == 4912);
}

TEST_CASE("sm decodes the serialized string of the all-zero chunk worked out by hand", "[sm]") {
  // LZ4 block (30 bytes): 1f | 00 | 01 00 | ff x19 2b | 50 00 00 00 00 00
  //   one literal 00, a match at offset 1 of 4 + 15 + 19*255 + 43 = 4907 bytes, 5 literals.
  // Base64 of it, 6 bits at a time: 1f 00 01 -> "HwAB", 00 ff ff -> "AP//", ff ff ff ->
  // "////" (x5), ff ff 2b -> "//8r", 50 00 00 -> "UAAA", 00 00 00 -> "AAAA" ... 2 bytes left:
  // 00 00 -> "AAA=".
  const std::string s = "HwABAP////////////////////////8rUAAAAAAA";
  REQUIRE(s.size() == 40);
  const sm::Chunk zero{};
  CHECK(sm::decode_b64(s) == zero);
  CHECK(sm::encode_b64(zero) == s);
  CHECK(sm::detect(B(s)) == sm::Form::B64);
}

TEST_CASE("sm every form round trips a chunk with all materials", "[sm]") {
  const sm::Chunk c = sample_chunk();
  for (auto f : {sm::Form::Lua, sm::Form::Json, sm::Form::Bin, sm::Form::Lz4, sm::Form::B64}) {
    INFO(sm::form_name(f));
    const Bytes enc = sm::encode(c, f);
    CHECK(sm::detect(enc) == f);
    CHECK(sm::decode(enc, f) == c);
    sm::WriteOptions one{true, false};
    const Bytes line = sm::encode(c, f, one);
    CHECK(sm::decode_any(line) == c);
  }
}

TEST_CASE("sm round trips random chunks through every form", "[sm]") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    auto r = test::random_bytes(sm::kVoxels, seed);
    sm::Chunk c;
    std::copy(r.begin(), r.end(), c.begin());
    for (auto f : {sm::Form::Lua, sm::Form::Json, sm::Form::Bin, sm::Form::Lz4, sm::Form::B64})
      REQUIRE(sm::decode_any(sm::encode(c, f)) == c);
  }
}

TEST_CASE("sm writes the Lua table as material, density pairs, one row per line", "[sm]") {
  sm::Chunk c{};
  c[0] = sm_pack(0, 23);
  c[1] = sm_pack(0, 54);
  c[2] = sm_pack(2, 63);
  const std::string lua = sm::encode_lua(c);
  CHECK(lua.rfind("return {\n  0, 23, 0, 54, 2, 63, 0, 0,", 0) == 0);
  CHECK(lua.substr(lua.size() - 4) == "0\n}\n");
  sm::WriteOptions one{true, false};
  CHECK(sm::encode_lua(c, one).rfind("{0,23,0,54,2,63,0,0", 0) == 0);
  CHECK(sm::encode_json(c, one).rfind("[0,23,0,54,2,63,0,0", 0) == 0);
  CHECK(sm::encode_json(c, one).back() == ']');
}

TEST_CASE("sm Lua reader takes what users paste: return, local x =, comments, semicolons, trailing comma",
          "[sm]") {
  const sm::Chunk c = sample_chunk();
  const std::string body = lua_numbers(c);
  CHECK(sm::decode_lua("{" + body + "}") == c);
  CHECK(sm::decode_lua("  \n{" + body + ",}\n") == c);
  CHECK(sm::decode_lua("return {" + body + "}") == c);
  CHECK(sm::decode_lua("local rawData = {" + body + "}\n") == c);
  CHECK(sm::decode_lua("data.chunk = {" + body + "};") == c);
  CHECK(sm::decode_lua("-- exported\n--[[ voxel #1 ]] {" + body + "} -- end") == c);
  CHECK(sm::decode_lua("--[==[ a ]] b ]==]{" + lua_numbers(c, ";\n") + "}") == c);
  CHECK(sm::decode_any(B("local t={" + lua_numbers(c, ",") + "}")) == c);
  // a UTF-8 byte order mark before the text is skipped; offsets still count it
  CHECK(sm::decode_any(B("\xef\xbb\xbf{" + body + "}")) == c);
  CHECK_THROWS_WITH(sm::decode_any(B("\xef\xbb\xbf{9" + body.substr(1) + "}")),
                    Catch::Contains("offset 4: material of voxel 0"));
}

TEST_CASE("sm Lua reader reads integral floats and rejects other numbers", "[sm]") {
  sm::Chunk c{};
  std::string body = lua_numbers(c);
  CHECK(sm::decode_lua("{1.0, 23.00" + body.substr(4) + "}")[0] == sm_pack(1, 23));
  CHECK_THROWS_WITH(sm::decode_lua("{0, 23.5" + body.substr(4) + "}"),
                    Catch::Contains("offset 4: not an integer") && Catch::Contains("'23.5'"));
  CHECK_THROWS_WITH(sm::decode_lua("{0, 0x10" + body.substr(4) + "}"), Catch::Contains("not an integer"));
  CHECK_THROWS_WITH(sm::decode_lua("{0, 1e3" + body.substr(4) + "}"), Catch::Contains("not an integer"));
  CHECK_THROWS_WITH(sm::decode_lua("{0, x" + body.substr(4) + "}"), Catch::Contains("offset 4: not an integer"));
}

TEST_CASE("sm Lua reader rejects values out of range with the voxel and offset", "[sm]") {
  sm::Chunk c{};
  std::string body = lua_numbers(c);  // "0, 0, 0, 0, ..."
  // voxel 1 = (x 0, y 0, z 1): its material is the third number, at offset 1 + 6
  std::string bad_m = "{" + body.substr(0, 6) + "4" + body.substr(7) + "}";
  CHECK_THROWS_WITH(sm::decode_lua(bad_m),
                    Catch::Contains("offset 7: material of voxel 1 (x 0, y 0, z 1) is out of range") &&
                        Catch::Contains("expected 0..3, found 4"));
  std::string bad_d = "{" + body.substr(0, 3) + "64" + body.substr(4) + "}";
  CHECK_THROWS_WITH(sm::decode_lua(bad_d), Catch::Contains("offset 4: density of voxel 0") &&
                                               Catch::Contains("expected 0..63, found 64"));
  std::string neg = "{-1" + body.substr(1) + "}";
  CHECK_THROWS_WITH(sm::decode_lua(neg), Catch::Contains("offset 1: material") &&
                                             Catch::Contains("found -1"));
  std::string huge = "{99999999999999999999" + body.substr(1) + "}";
  CHECK_THROWS_WITH(sm::decode_lua(huge), Catch::Contains("out of range"));
  // material 3 is kept as it is (the game reads it as 0)
  std::string three = "{3" + body.substr(1) + "}";
  CHECK(sm::decode_lua(three)[0] == 0xc0);
}

TEST_CASE("sm Lua reader rejects wrong counts, bad separators and trailing text", "[sm]") {
  sm::Chunk c{};
  std::string body = lua_numbers(c);
  CHECK_THROWS_WITH(sm::decode_lua("{" + body.substr(3) + "}"),
                    Catch::Contains("wrong number of values in the table") &&
                        Catch::Contains("found 9825"));
  CHECK_THROWS_WITH(sm::decode_lua("{" + body + ", 0}"),
                    Catch::Contains("offset " + std::to_string(body.size() + 3) + ": too many numbers"));
  CHECK_THROWS_WITH(sm::decode_lua("{}"), Catch::Contains("offset 1: wrong number") &&
                                              Catch::Contains("found 0"));
  CHECK_THROWS_WITH(sm::decode_lua("{" + body), Catch::Contains("text ends inside the table"));
  CHECK_THROWS_WITH(sm::decode_lua("{0 0}"), Catch::Contains("offset 3: expected ',' or '}'"));
  CHECK_THROWS_WITH(sm::decode_lua("{0,,0}"), Catch::Contains("offset 3: expected a number"));
  CHECK_THROWS_WITH(sm::decode_lua("{" + body + "} x"),
                    Catch::Contains("unexpected text after the table"));
  CHECK_THROWS_WITH(sm::decode_lua(""), Catch::Contains("offset 0: expected the table's opening '{'"));
  CHECK_THROWS_WITH(sm::decode_lua("local = {}"), Catch::Contains("expected a variable name"));
  CHECK_THROWS_WITH(sm::decode_lua("x {}"), Catch::Contains("expected '=' after the name 'x'"));
  CHECK_THROWS_WITH(sm::decode_lua("--[[ open {}"), Catch::Contains("offset 0: unfinished long comment"));
}

TEST_CASE("sm JSON reader takes 9826 pairs or 4913 bytes and is strict JSON", "[sm]") {
  const sm::Chunk c = sample_chunk();
  CHECK(sm::decode_json("[" + lua_numbers(c) + "]") == c);
  std::string bytes;
  for (size_t v = 0; v < sm::kVoxels; ++v) bytes += (v ? "," : "") + std::to_string(c[v]);
  CHECK(sm::decode_json("[" + bytes + "]\n") == c);
  CHECK(sm::detect(B("[" + bytes + "]")) == sm::Form::Json);
  CHECK_THROWS_WITH(sm::decode_json("[" + bytes + ",]"), Catch::Contains("expected a number"));
  CHECK_THROWS_WITH(sm::decode_json("[" + bytes + "];"), Catch::Contains("unexpected text after the array"));
  CHECK_THROWS_WITH(sm::decode_json("[256" + bytes.substr(bytes.find(',')) + "]"),
                    Catch::Contains("offset 1: byte of voxel 0") && Catch::Contains("found 256"));
  CHECK_THROWS_WITH(sm::decode_json("[1, 2, 3]"),
                    Catch::Contains("wrong number of values in the array") && Catch::Contains("found 3"));
  CHECK_THROWS_WITH(sm::decode_json("{1}"), Catch::Contains("expected the array's opening '['"));
  CHECK_THROWS_WITH(sm::decode_json("[1; 2]"), Catch::Contains("expected ',' or ']'"));
}

TEST_CASE("sm detection picks the form or refuses to guess", "[sm]") {
  sm::Chunk solid;
  solid.fill(sm_pack(0, 63));  // 4913 '?' characters: text, but binary
  CHECK(sm::detect(Bytes(solid.begin(), solid.end())) == sm::Form::Bin);
  sm::Chunk brace;
  brace.fill('{');  // looks like Lua, is not: binary
  CHECK(sm::detect(Bytes(brace.begin(), brace.end())) == sm::Form::Bin);
  CHECK(sm::detect(Bytes{0x1f, 0x00, 0x01}) == sm::Form::Lz4);
  CHECK_THROWS_WITH(sm::detect(Bytes{}), Catch::Contains("empty input"));
  CHECK_THROWS_WITH(sm::detect(B("hello world")), Catch::Contains("no Scrap Mechanic chunk form"));
  CHECK(sm::detect(B("QUJD\n")) == sm::Form::B64);
  // The CLI's names of the forms are the format's own names.
  CHECK(cli::kChunkForms.size() == 5);
  for (const auto& [name, form] : cli::kChunkForms) CHECK(name == sm::form_name(form));
}

TEST_CASE("sm string decoder tolerates one final newline and nothing else", "[sm]") {
  const std::string s = "HwABAP////////////////////////8rUAAAAAAA";
  CHECK(sm::decode_b64(s + "\n") == sm::Chunk{});
  CHECK(sm::decode_b64(s + "\r\n") == sm::Chunk{});
  CHECK_THROWS_WITH(sm::decode_b64(s + "\n\n"), Catch::Contains("found 41 characters"));
  CHECK_THROWS_WITH(sm::decode_b64(s + "\nAAA"), Catch::Contains("offset 40: invalid Base64 character"));
  CHECK_THROWS_WITH(sm::decode_b64(" " + s), Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(sm::decode_b64(s.substr(0, 36)), Catch::Contains("bad LZ4 block"));
}

TEST_CASE("sm string decoder requires exactly 4913 bytes from the LZ4 block", "[sm]") {
  for (size_t n : {size_t(4912), size_t(4914), size_t(100)}) {
    Bytes raw(n, 7);
    const std::string s = base64::encode(lz4::compress(raw, lz4::Level::HcMax));
    CHECK_THROWS_WITH(sm::decode_b64(s), Catch::Contains("expected 4913 bytes, found " +
                                                         std::to_string(n) + " bytes"));
  }
  CHECK_THROWS_WITH(sm::decode_b64(std::string(8000, 'A')), Catch::Contains("too long for a chunk"));
  CHECK_THROWS_WITH(sm::decode_bin(Bytes(4912)), Catch::Contains("expected 4913 bytes, found 4912"));
}

TEST_CASE("sm batch converts one chunk per line and names bad lines", "[sm]") {
  const sm::Chunk c = sample_chunk();
  const std::string s = sm::encode_b64(c);
  const std::string zero = "HwABAP////////////////////////8rUAAAAAAA";
  sm::BatchOptions o;
  o.to = sm::Form::B64;
  o.source = "in.txt";
  auto r = sm::convert_batch(B(s + "\n" + zero + "\r\n" + s), o);
  CHECK(r.lines == 3);
  CHECK(r.output == B(s + "\n" + zero + "\n" + s + "\n"));
  o.to = sm::Form::Bin;
  {  // a binary batch (docs/batch.md): 16-byte header, then per chunk status, length, bytes
    const auto bin = sm::convert_batch(B(zero + "\n" + zero + "\n"), o).output;
    CHECK(bin.size() == 16 + 2 * (9 + sm::kVoxels));
    CHECK(std::string(bin.begin(), bin.begin() + 7) == "VXBATCH");
  }
  o.to = sm::Form::Lua;
  auto lua = sm::convert_batch(B(zero + "\n"), o).output;
  CHECK(std::count(lua.begin(), lua.end(), '\n') == 1);
  o.to = sm::Form::B64;
  CHECK_THROWS_WITH(sm::convert_batch(B(zero + "\nAAA!\n" + zero), o),
                    Catch::StartsWith("in.txt: item 2 (line 2): offset 0: text is no Scrap Mechanic chunk"));
  o.from = sm::Form::B64;
  CHECK_THROWS_WITH(sm::convert_batch(B(zero + "\nAAA!\n" + zero), o),
                    Catch::StartsWith("in.txt: item 2 (line 2): offset 3: invalid Base64"));
  o.from.reset();
  CHECK_THROWS_WITH(sm::convert_batch(B(zero + "\n\n"), o), Catch::Contains("item 2 (line 2): offset 0: empty line"));
  o.keep_going = true;
  auto k = sm::convert_batch(B(zero + "\nAAA!\n" + zero), o);
  CHECK(k.output == B(zero + "\n\n" + zero + "\n"));
  REQUIRE(k.errors.size() == 1);
  CHECK(std::string(k.errors[0].what()).rfind("in.txt: item 2 (line 2):", 0) == 0);
  o.keep_going = false;
  o.from = sm::Form::Lz4;  // blocks come in a binary batch, not in lines
  CHECK_THROWS_AS(sm::convert_batch(B(zero), o), Error);
}
