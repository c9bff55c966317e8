// Chunk blob container: golden header, round trips, and every damaged file as a clear error;
// `info` identification of containers and RLE streams.
#include <zlib.h>

#include <catch2/catch.hpp>

#include "formats/zone/chunk_blob.hpp"
#include "formats/core/identify.hpp"
#include "formats/zone/rle_stream.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

// The 2x2x2-cell grid of test_chunk_pack: all 255 but sample (2,2,2) = 0, chunk cells 1.
Bytes small_container() {
  ByteGrid g({2, 2, 2}, 255);
  g.at(2, 2, 2) = 0;
  auto l = chunk_pack::make_layout(g.cells, 1);
  return chunk_blob::write(l, chunk_pack::pack(l, g.data));
}

void put_u32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

// Recomputes the CRC after a test has changed the payload on purpose.
void fix_crc(Bytes& b) {
  put_u32(b, 40, uint32_t(crc32(0, b.data() + 44, uInt(b.size() - 44))));
}

}  // namespace

TEST_CASE("chunk blob container has the documented header", "[chunk_blob]") {
  Bytes f = small_container();
  Bytes head = {'V', 'X', 'C', 'B', 1, 0, 0, 0,  // magic, version 1
                2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0,  // cells 2 x 2 x 2
                1, 0, 0, 0,                          // chunk cells 1
                2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0,  // chunks 2 x 2 x 2
                5, 0, 0, 0};                         // blob length 5
  REQUIRE(f.size() == 44 + 8 * 4 + 5);
  CHECK(Bytes(f.begin(), f.begin() + 40) == head);
  // Offsets: seven uniform chunks of 255 (-256 = 0xffffff00), then the stream at 0.
  for (int i = 0; i < 7; ++i) CHECK(Bytes(f.begin() + 44 + 4 * i, f.begin() + 48 + 4 * i) == Bytes{0x00, 0xff, 0xff, 0xff});
  CHECK(Bytes(f.begin() + 72, f.begin() + 76) == Bytes{0, 0, 0, 0});
  CHECK(Bytes(f.begin() + 76, f.end()) == Bytes{0x1b, 0x35, 0xff, 0x02, 0x00});
  const uint32_t crc = uint32_t(crc32(0, f.data() + 44, uInt(f.size() - 44)));
  CHECK(Bytes(f.begin() + 40, f.begin() + 44) ==
        Bytes{uint8_t(crc), uint8_t(crc >> 8), uint8_t(crc >> 16), uint8_t(crc >> 24)});
}

TEST_CASE("chunk blob container round trips terrain grids and single chunks", "[chunk_blob]") {
  ByteGrid g = test::terrain_grid({45, 19, 30}, 9);
  for (uint32_t cc : {3u, 16u, 100u}) {
    auto l = chunk_pack::make_layout(g.cells, cc);
    Bytes f = chunk_blob::write(l, chunk_pack::pack(l, g.data));
    auto v = chunk_blob::read(f);
    CHECK(v.layout.chunks == l.chunks);
    CHECK(chunk_blob::unpack(v) == g.data);
    CHECK(chunk_blob::unpack_chunk(v, l.chunk_count() - 1) ==
          chunk_pack::unpack_chunk(l, v.offsets, v.blob, l.chunk_count() - 1));
  }
}

TEST_CASE("chunk blob reader rejects every truncation and extra bytes", "[chunk_blob]") {
  Bytes f = small_container();
  for (size_t n = 0; n < f.size(); ++n) {
    Bytes cut(f.begin(), f.begin() + long(n));
    CHECK_THROWS_AS(chunk_blob::read(cut), Error);
  }
  CHECK_THROWS_WITH(chunk_blob::read(Bytes(f.begin(), f.begin() + 20)),
                    Catch::Contains("offset 20: file is truncated inside the header"));
  CHECK_THROWS_WITH(chunk_blob::read(Bytes(f.begin(), f.end() - 1)),
                    Catch::Contains("offset 80: file is truncated (expected 81 bytes"));
  Bytes extra = f;
  extra.push_back(0);
  CHECK_THROWS_WITH(chunk_blob::read(extra),
                    Catch::Contains("offset 81: extra bytes after the blob (expected end of file, found 1 more bytes)"));
}

TEST_CASE("chunk blob reader rejects a bad magic, version and CRC", "[chunk_blob]") {
  Bytes f = small_container();
  Bytes m = f;
  m[3] = 'X';
  CHECK_THROWS_WITH(chunk_blob::read(m), Catch::Contains("offset 0: not a voxkit chunk blob (bad magic)"));
  CHECK_THROWS_WITH(chunk_blob::read(Bytes{'V', 'Y'}), Catch::Contains("bad magic"));
  Bytes v = f;
  v[4] = 2;
  CHECK_THROWS_WITH(chunk_blob::read(v),
                    Catch::Contains("offset 4: unsupported chunk blob version (expected 1, found 2)"));
  Bytes c = f;
  c.back() ^= 1;
  CHECK_THROWS_WITH(chunk_blob::read(c), Catch::Contains("offset 40: CRC32 of the offsets and blob"));
}

TEST_CASE("chunk blob reader checks header sizes before allocating", "[chunk_blob]") {
  Bytes f = small_container();
  Bytes z = f;
  put_u32(z, 12, 0);
  CHECK_THROWS_WITH(chunk_blob::read(z), Catch::Contains("offset 12: grid has no cells along y"));
  Bytes big = f;  // 2^31-ish samples claimed by a tiny file
  put_u32(big, 8, 0x7ffffff0);
  put_u32(big, 12, 0x7ffffff0);
  CHECK_THROWS_WITH(chunk_blob::read(big), Catch::Contains("offset 8: grid has too many samples"));
  Bytes cc = f;
  put_u32(cc, 20, 0);
  CHECK_THROWS_WITH(chunk_blob::read(cc), Catch::Contains("offset 20: chunk cells out of range"));
  Bytes nc = f;
  put_u32(nc, 28, 3);
  CHECK_THROWS_WITH(chunk_blob::read(nc),
                    Catch::Contains("offset 28: chunk count along y does not match the cells (expected 2"));
  Bytes bl = f;
  put_u32(bl, 36, 0xffffffff);
  CHECK_THROWS_WITH(chunk_blob::read(bl), Catch::Contains("offset 36: blob length is over the int32 limit"));
  Bytes bl2 = f;
  put_u32(bl2, 36, 1000);
  CHECK_THROWS_WITH(chunk_blob::read(bl2), Catch::Contains("file is truncated"));
  // A grid with many chunks whose table would not fit the file.
  Bytes many = f;
  put_u32(many, 8, 4000);
  put_u32(many, 24, 4000);
  CHECK_THROWS_WITH(chunk_blob::read(many), Catch::Contains("file is truncated"));
}

TEST_CASE("chunk blob reader names corrupt offsets and streams by file offset", "[chunk_blob]") {
  Bytes f = small_container();
  Bytes o = f;
  put_u32(o, 44 + 4 * 2, uint32_t(-300));
  fix_crc(o);
  CHECK_THROWS_WITH(chunk_blob::read(o),
                    Catch::Contains("offset 52: chunk 2 (0,1,0): uniform chunk value out of range"));
  Bytes p = f;
  put_u32(p, 44 + 4 * 7, 9);
  fix_crc(p);
  CHECK_THROWS_WITH(chunk_blob::read(p), Catch::Contains("offset 72: chunk 7 (1,1,1)"));
  Bytes s = f;
  s[77] = 0x00;  // chunk 7's run token becomes a zero-length token (blob offset 1, file 77)
  fix_crc(s);
  auto v = chunk_blob::read(s);
  CHECK_THROWS_WITH(chunk_blob::unpack(v), Catch::Contains("offset 77: chunk 7 (1,1,1): zero-length token"));
  CHECK_THROWS_WITH(chunk_blob::unpack_chunk(v, 7), Catch::Contains("offset 77: chunk 7"));
  CHECK(chunk_blob::unpack_chunk(v, 6) == Bytes(18, 255));
}

TEST_CASE("info identifies chunk blobs and RLE streams and describes them", "[identify]") {
  Bytes f = small_container();
  auto d = identify::identify(f, "x.vxcb");
  REQUIRE(d);
  CHECK(d->format == "chunk-blob");
  CHECK(d->details["chunk_count"] == 8);
  CHECK(d->details["uniform_by_value"]["255"] == 7);
  CHECK(d->details["stream_chunks"] == 1);
  auto j = identify::to_json(*d, "x.vxcb", f.size());
  CHECK(j["format"] == "chunk-blob");
  CHECK(j["size"] == f.size());
  CHECK(identify::to_text(*d, "x.vxcb").find("7 (7 of 255)") != std::string::npos);

  Bytes r = {0x0d, 0x15, 0x00, 0x06, 0x01, 0x02, 0x03};
  auto e = identify::identify(r, "x.rle");
  REQUIRE(e);
  CHECK(e->format == "rle");
  CHECK(e->details["samples"] == 13);
  CHECK(e->details["runs"] == 1);
  CHECK(e->details["literals"] == 1);
}

TEST_CASE("info adds solid, air and surface counts for an RLE stream with cells", "[identify]") {
  ByteGrid g({3, 1, 1}, 255);
  g.at(0, 0, 0) = 0;
  g.at(1, 0, 0) = 100;
  Bytes r = rle::encode(g.data);
  auto d = identify::identify(r, "g.rle");
  REQUIRE(d);
  rle_stream::add_grid_stats(*d, r, {3, 1, 1});
  CHECK(d->details["solid"] == 2);
  CHECK(d->details["air"] == 14);
  CHECK(d->details["surface"] == 1);
  const auto e = test::thrown_error([&] { rle_stream::add_grid_stats(*d, r, {2, 1, 1}); });
  REQUIRE(e);
  CHECK_THAT(e->what(), Catch::Contains("does not match the cells 2 x 1 x 1 (expected 12, found 16)"));
  CHECK(e->has_hint("cells"));
  auto raw = rle_stream::describe_raw_grid(g.data, {3, 1, 1});
  REQUIRE(raw);
  CHECK(raw->format == "raw-grid");
  CHECK(!rle_stream::describe_raw_grid(g.data, {2, 1, 1}));
}

TEST_CASE("info does not identify unknown bytes and reports damaged containers", "[identify]") {
  CHECK(!identify::identify(Bytes{}, "e"));
  CHECK(!identify::identify(Bytes{0x05, 0x02, 0x00}, "x"));  // zero-length token: not RLE
  CHECK(!identify::identify(Bytes{'h', 'e', 'l', 'l', 'o'}, "x"));
  Bytes f = small_container();
  f.pop_back();
  CHECK_THROWS_WITH(identify::identify(f, "x.vxcb"), Catch::Contains("file is truncated"));
  CHECK(identify::known_formats().find("chunk-blob") != std::string::npos);
}
