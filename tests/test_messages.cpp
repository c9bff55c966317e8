// Data-error messages: input bytes escaped, one line each; the offset and expected/found
// that ZIP, gzip, PNG, XML, LZ4 and Scrap Mechanic chunk errors carry.
#include <catch2/catch.hpp>

#include <string>

#include "formats/core/io.hpp"
#include "formats/image/png.hpp"
#include "formats/zone/region_grid.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "formats/scrap_mechanic/sm_chunk_batch.hpp"
#include "formats/image/splat.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/lz4_block.hpp"
#include "lib/bake/preview.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

// Runs `f` and returns the Error it throws (fails the test when it throws none).
template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no voxkit::Error thrown");
  return Error(ErrorKind::Data, "unreachable");
}

// The offset is set, and expected/found too.
void check_located(const Error& e) {
  INFO(e.what());
  CHECK(e.offset().has_value());
  CHECK(!e.expected().empty());
  CHECK(!e.found().empty());
}

Bytes small_zip() {
  zip::Writer w;
  zip::Writer::Options d;
  std::string a = "alpha alpha alpha alpha alpha";
  w.add("a.txt", B(a), d);
  w.add("b.txt", B("bravo"), d);
  return w.finish();
}

std::string zero_lua() {
  std::string t = "return {";
  for (size_t i = 0; i < sm::kLuaNumbers; ++i) t += i ? ", 0" : "0";
  return t + "}\n";
}

}  // namespace

TEST_CASE("input bytes in a message are escaped: one line, no control bytes", "[messages]") {
  Error e(ErrorKind::Data, "bad name 'a\nb\x01\x1b[2J\x7f\xff'", 4, "'x\ty'", "\r");
  e.set_source("dir/f\nile.xml");
  CHECK(std::string(e.what()) ==
        "dir/f\\nile.xml: offset 4: bad name 'a\\nb\\x01\\x1b[2J\\x7f\\xff' (expected "
        "'x\\x09y', found \\x0d)");
  // Valid UTF-8 stays readable; a lone continuation byte, an overlong form, a truncated
  // sequence and a C1 control are escaped.
  CHECK(std::string(Error(ErrorKind::Data, "caf\xc3\xa9 \xe2\x82\xac").what()) ==
        "caf\xc3\xa9 \xe2\x82\xac");
  CHECK(std::string(Error(ErrorKind::Data, "\x80 \xc0\xaf \xe2\x82 \xc2\x9b").what()) ==
        "\\x80 \\xc0\\xaf \\xe2\\x82 \\xc2\\x9b");
  // Escaping twice changes nothing: a message wrapped in another stays as it was.
  const std::string once = escape_text("a\nb\xff\\x41");
  CHECK(once == "a\\nb\\xff\\x41");
  CHECK(escape_text(once) == once);
}

TEST_CASE("a note ends the message and keeps offset, expected and found", "[messages]") {
  Error e(ErrorKind::Data, "bad byte", 7, "0x00", "0x01");
  e.add_note("read as lz4");
  e.set_source("f");
  CHECK(std::string(e.what()) == "f: offset 7: bad byte (expected 0x00, found 0x01) [read as lz4]");
  CHECK(e.reason() == "bad byte");
  CHECK(e.offset() == 7u);
}

TEST_CASE("LZ4 block errors give the offset in the block", "[messages]") {
  const Bytes block = lz4::compress(Bytes(100, 7));
  Bytes out(101);
  auto e = error_of([&] { lz4::decompress_to(block, out); });
  CHECK(e.offset() == block.size());
  check_located(e);
  Bytes small(99);
  e = error_of([&] { lz4::decompress_to(block, small); });
  CHECK(e.offset().has_value());
  check_located(e);
  e = error_of([&] { lz4::decompress(Bytes{0x10, 'a'}, 5000); });
  CHECK(e.offset() == 2u);
  check_located(e);
}

TEST_CASE("ZIP errors give offset, expected and found", "[messages]") {
  const Bytes z = small_zip();
  // No end record.
  Bytes no_end(z.begin(), z.end() - 22);
  check_located(error_of([&] { save::list_members(no_end); }));
  // A member that is not there.
  auto e = error_of([&] { save::read_member(z, "c.txt", 1 << 20); });
  check_located(e);
  CHECK_THAT(e.what(), Catch::Contains("no member named c.txt"));
  // Corrupt deflate data: zlib's reason as what was found.
  auto a = zip::read_archive(zip::MemorySource(z));
  Bytes bad = z;
  for (uint64_t i = a.entries[0].data_offset; i < a.entries[0].data_offset + 4; ++i) bad[i] = 0xff;
  e = error_of([&] { save::read_member(bad, "a.txt", 1 << 20); });
  check_located(e);
  CHECK_THAT(e.found(), Catch::Contains("zlib"));
  // Two members of one name.
  zip::Writer w;
  w.add("x", B("1"), {});
  w.add("x", B("2"), {});
  const Bytes twice = w.finish();
  check_located(error_of([&] { save::read_member(twice, "x", 100); }));
  // A split archive: the end record names disk 1.
  Bytes split = z;
  zip::put16(&split[split.size() - 22 + 4], 1);
  check_located(error_of([&] { save::list_members(split); }));
}

TEST_CASE("gzip, region grid and world.xml errors give offset, expected and found", "[messages]") {
  Bytes gz = terrain_base::gzip(Bytes(1000, 1));
  gz[12] ^= 0xff;
  gz[13] ^= 0xff;
  auto e = error_of([&] { terrain_base::gunzip(gz); });
  check_located(e);
  check_located(error_of([&] { decode_region_grid(Bytes(7), Dims{2, 2, 2}); }));
  for (const char* doc : {"<a><!-- open", "<a x=\"1>", "</a>", "<a><?pi", "<!DOCTYPE a",
                          "<a><![CDATA[ x", "<a b='1' </a>"}) {
    INFO(doc);
    check_located(error_of([&] { world_xml::read_rooms(doc); }));
  }
}

TEST_CASE("a damaged PNG control image is reported where it is damaged", "[messages]") {
  test::TempDir dir;
  RgbImage img;
  img.width = 8;
  img.height = 8;
  img.rgb.assign(8 * 8 * 3, 90);
  const Bytes good = png::encode(img);
  CHECK_NOTHROW(png::check_structure(good));
  // Cut inside the image data: stb_image cannot decode it.
  const Bytes cut(good.begin(), good.end() - 20);
  io::write_file(dir.file("cut.png"), cut);
  auto e = error_of([&] { splat::read(dir.file("cut.png")); });
  check_located(e);
  CHECK_THAT(e.what(), Catch::Contains("cut.png"));
  // A flipped CRC and a bad signature.
  Bytes crc = good;
  crc[8 + 8 + 13] ^= 1;  // IHDR's CRC
  e = error_of([&] { png::check_structure(crc); });
  CHECK(e.offset() == 29u);
  check_located(e);
  Bytes sig = good;
  sig[5] = 0;
  e = error_of([&] { png::check_structure(sig); });
  CHECK(e.offset() == 5u);
}

TEST_CASE("damaged Lua and JSON chunks are reported as Lua and JSON, not as LZ4", "[messages]") {
  std::string lua = zero_lua();
  lua[20] = '\x01';  // a control byte where a digit was
  sm::Form used{};
  auto e = error_of([&] { sm::decode_any(B(lua), std::nullopt, &used); });
  INFO(e.what());
  CHECK(used == sm::Form::Lua);
  CHECK(e.offset() == 20u);
  CHECK(e.found() == "0x01");
  CHECK_THAT(e.what(), !Catch::Contains("LZ4"));
  CHECK_THAT(e.what(), Catch::Contains("[read as lua"));
  // A few bytes of high-bit garbage in a JSON array.
  std::string json = "[";
  for (size_t i = 0; i < sm::kVoxels; ++i) json += i ? ",0" : "0";
  json += "]";
  json.replace(100, 3, "\xff\xfe\x80");
  e = error_of([&] { sm::decode_any(B(json), std::nullopt, &used); });
  INFO(e.what());
  CHECK(used == sm::Form::Json);
  CHECK(e.offset() == 100u);
  CHECK_THAT(e.what(), !Catch::Contains("LZ4"));
  // A true LZ4 block is still one.
  const Bytes block = sm::encode_lz4(sm::Chunk{});
  CHECK(sm::detect(block) == sm::Form::Lz4);
}

TEST_CASE("chunk errors keep their offset through the form note and batch lines", "[messages]") {
  auto e = error_of([&] { sm::decode_any(B(std::string("not\0a chunk", 11))); });
  check_located(e);
  // A Base64 string of a bad block: the offset is the text's, the block's byte is named.
  const Bytes block = {0xf0, 0x00};  // 15+ literals announced, none there
  const std::string b64 = base64::encode(block);
  e = error_of([&] { sm::decode_b64(b64); });
  INFO(e.what());
  CHECK(e.offset().has_value());
  CHECK_THAT(e.what(), Catch::Contains("bad LZ4 block"));
  sm::BatchOptions o;
  o.to = sm::Form::B64;
  o.source = "lines.txt";
  e = error_of([&] { sm::convert_batch(B("{0, 64}\n"), o); });
  INFO(e.what());
  CHECK(e.offset().has_value());
  CHECK_THAT(e.what(), Catch::Contains("lines.txt: item 1 (line 1): offset"));
}

TEST_CASE("an error says its option in the library's words, naming it puts the flag there or in a note",
          "[messages]") {
  Error e(ErrorKind::Data, "size does not match the cells 2 x 1 x 1", 4, "12", "16");
  e.set_hint("cells", "the cells").set_hint("convention");
  CHECK(e.has_hint("cells"));
  CHECK(e.has_hint("convention"));
  CHECK(!e.has_hint("regions"));
  CHECK(std::string(e.what()) == "offset 4: size does not match the cells 2 x 1 x 1 (expected 12, found 16)");
  const auto hints = e.hints();
  e.name_option(hints[0], "--cells");
  e.name_option(hints[1], "--convention");
  CHECK(std::string(e.what()) ==
        "offset 4: size does not match --cells 2 x 1 x 1 (expected 12, found 16) [--convention]");
  // The last occurrence of the words is the one replaced; words in a note are found there.
  Error b(ErrorKind::Usage, "too small for a border of 3: use a smaller border");
  b.add_note("read as lua; the form option sets the form");
  b.set_hint("border", "border").set_hint("from", "the form option");
  for (const auto& h : std::vector<Error::Hint>(b.hints())) b.name_option(h, "--" + h.key);
  CHECK(std::string(b.what()) ==
        "too small for a border of 3: use a smaller --border [read as lua; --from sets the form]");
}

TEST_CASE("library messages name no flag: the hints carry the option", "[messages]") {
  auto e = error_of([&] { sm::decode_any(B(std::string("not\0a chunk", 11))); });
  CHECK_THAT(e.what(), Catch::Contains("[read as lz4; the form option sets the form]"));
  CHECK(e.has_hint("from"));
  test::TempDir dir;
  io::OutputOptions o;
  io::write_file(dir.file("x"), Bytes{1}, o);
  e = error_of([&] { io::check_output(dir.file("x"), o); });
  CHECK_THAT(e.what(), Catch::Contains("exists; use the force option to overwrite it"));
  CHECK(e.has_hint("force"));
}
