// Chunk packer: golden vectors worked out by hand from FORMATS.md, round trips, single-chunk
// decoding, and every malformed offsets table or blob.
#include <tbb/global_control.h>

#include <catch2/catch.hpp>

#include "lib/codec/chunk_pack.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using namespace voxkit::chunk_pack;
using Bytes = std::vector<uint8_t>;
using Offsets = std::vector<int32_t>;

namespace {

Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes repeat(Bytes unit, int times) {
  Bytes out;
  for (int i = 0; i < times; ++i) out.insert(out.end(), unit.begin(), unit.end());
  return out;
}

ByteGrid fill(Dims cells, uint8_t (*f)(uint64_t, uint64_t, uint64_t)) {
  ByteGrid g(cells, 0);
  for (uint64_t z = 0; z < cells.sz(); ++z)
    for (uint64_t y = 0; y < cells.sy(); ++y)
      for (uint64_t x = 0; x < cells.sx(); ++x) g.at(x, y, z) = f(x, y, z);
  return g;
}

// The samples of `box` cut straight out of the grid, x fastest.
Bytes cut(const ByteGrid& g, const Box& b) {
  Bytes out;
  for (uint64_t z = b.lo[2]; z <= b.hi[2]; ++z)
    for (uint64_t y = b.lo[1]; y <= b.hi[1]; ++y)
      for (uint64_t x = b.lo[0]; x <= b.hi[0]; ++x) out.push_back(g.at(x, y, z));
  return out;
}

}  // namespace

TEST_CASE("chunk boxes add one sample of border on each side, clipped at the zone", "[chunk_pack]") {
  // 2 cells, cc 1: chunk 0 covers samples max(0,-1)..min(2,1) = 0..1, chunk 1 covers 0..2.
  Layout l = make_layout({2, 2, 2}, 1);
  CHECK(l.chunks == std::array<uint32_t, 3>{2, 2, 2});
  CHECK(l.chunk_box(0) == Box{{0, 0, 0}, {1, 1, 1}});
  CHECK(l.chunk_box(7) == Box{{0, 0, 0}, {2, 2, 2}});
  CHECK(l.chunk_box(1) == Box{{0, 0, 0}, {2, 1, 1}});  // cx=1 is the x-fastest neighbour
  CHECK(l.chunk_box(2) == Box{{0, 0, 0}, {1, 2, 1}});
  CHECK(l.chunk_box(4) == Box{{0, 0, 0}, {1, 1, 2}});
  // 40 cells, cc 16: ncx = 3; chunks cover 0..16, 15..32, 31..40.
  Layout m = make_layout({40, 1, 1}, 16);
  CHECK(m.chunks[0] == 3);
  CHECK(m.chunk_box(1).lo[0] == 15);
  CHECK(m.chunk_box(1).hi[0] == 32);
  CHECK(m.chunk_box(2).lo[0] == 31);
  CHECK(m.chunk_box(2).hi[0] == 40);
  CHECK(m.owned_box(2).lo[0] == 32);
  CHECK(m.owned_box(2).hi[0] == 40);
}

TEST_CASE("chunk pack of a 2x2x2 grid with one chunk cell matches the hand-made blob", "[chunk_pack]") {
  // Sample (x,y,z) is 0 on the floor (y = 0) and 255 above. With cc = 1 a chunk with
  // coordinate 0 covers samples 0..1 and one with coordinate 1 covers 0..2. Per z-slice a
  // chunk holds sx samples of 0 then (sy - 1) * sx samples of 255. No run reaches 8, so each
  // stream is varint(count), one literal token h = count << 1, the samples.
  ByteGrid g = fill({2, 2, 2}, [](uint64_t, uint64_t y, uint64_t) -> uint8_t { return y ? 255 : 0; });
  Packed p = pack(make_layout({2, 2, 2}, 1), g.data);
  const uint8_t F = 0xff;
  Bytes want = cat({
      {0x08, 0x10}, repeat({0, 0, F, F}, 2),                    // chunk 0: 2x2x2 = 8
      {0x0c, 0x18}, repeat({0, 0, 0, F, F, F}, 2),              // chunk 1: 3x2x2 = 12
      {0x0c, 0x18}, repeat({0, 0, F, F, F, F}, 2),              // chunk 2: 2x3x2 = 12
      {0x12, 0x24}, repeat({0, 0, 0, F, F, F, F, F, F}, 2),     // chunk 3: 3x3x2 = 18
      {0x0c, 0x18}, repeat({0, 0, F, F}, 3),                    // chunk 4: 2x2x3 = 12
      {0x12, 0x24}, repeat({0, 0, 0, F, F, F}, 3),              // chunk 5: 3x2x3 = 18
      {0x12, 0x24}, repeat({0, 0, F, F, F, F}, 3),              // chunk 6: 2x3x3 = 18
      {0x1b, 0x36}, repeat({0, 0, 0, F, F, F, F, F, F}, 3),     // chunk 7: 3x3x3 = 27
  });
  CHECK(p.blob == want);
  // Stream sizes 10, 14, 14, 20, 14, 20, 20, 29.
  CHECK(p.offsets == Offsets{0, 10, 24, 38, 58, 72, 92, 112});
  CHECK(unpack(make_layout({2, 2, 2}, 1), p.offsets, p.blob) == g.data);
}

TEST_CASE("chunk pack stores uniform chunks as -1 - value and runs as run tokens", "[chunk_pack]") {
  // All air except sample (2,2,2) = 0. Only chunk 7 (box 0..2 on every axis) holds it; the
  // other seven are all 255, offset -1 - 255 = -256. Chunk 7: 26 samples of 255 (a run:
  // h = 26 << 1 | 1 = 0x35, value 0xff), then a literal of one 0 (h = 2).
  ByteGrid g({2, 2, 2}, 255);
  g.at(2, 2, 2) = 0;
  Layout l = make_layout({2, 2, 2}, 1);
  Packed p = pack(l, g.data);
  CHECK(p.offsets == Offsets{-256, -256, -256, -256, -256, -256, -256, 0});
  CHECK(p.blob == Bytes{0x1b, 0x35, 0xff, 0x02, 0x00});
  CHECK(unpack(l, p.offsets, p.blob) == g.data);
  CHECK(unpack_chunk(l, p.offsets, p.blob, 3) == Bytes(18, 255));
}

TEST_CASE("chunk pack clips the last chunk when the chunk size does not divide the cells", "[chunk_pack]") {
  // 3x1x1 cells, cc 2: ncx = 2. Chunk 0 covers x 0..2, chunk 1 covers x 1..3, both y 0..1 and
  // z 0..1. Sample value x + 10y + 20z; every stream is one 12-sample literal (h = 0x18).
  ByteGrid g = fill({3, 1, 1}, [](uint64_t x, uint64_t y, uint64_t z) { return uint8_t(x + 10 * y + 20 * z); });
  Layout l = make_layout({3, 1, 1}, 2);
  Packed p = pack(l, g.data);
  CHECK(p.offsets == Offsets{0, 14});
  CHECK(p.blob == Bytes{0x0c, 0x18, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32,
                        0x0c, 0x18, 1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33});
}

TEST_CASE("chunk pack round trips random and terrain-like grids for many chunk sizes", "[chunk_pack]") {
  const Dims shapes[] = {{1, 1, 1}, {5, 3, 7}, {17, 9, 16}, {33, 20, 31}};
  uint32_t seed = 1;
  for (Dims d : shapes) {
    for (uint32_t cc : {1u, 2u, 3u, 5u, 7u, 16u, 64u}) {
      ByteGrid t = test::terrain_grid(d, seed);
      Bytes r = test::random_bytes(d.samples(), seed + 1, seed % 4 ? 3 : 255);
      seed += 2;
      for (const Bytes* src : {&t.data, &r}) {
        Layout l = make_layout(d, cc);
        Packed p = pack(l, *src);
        CHECK_NOTHROW(check_offsets(l, p.offsets, p.blob.size()));
        CHECK(unpack(l, p.offsets, p.blob) == *src);
      }
    }
  }
}

TEST_CASE("chunk pack decodes one chunk alone to the region cut from the grid", "[chunk_pack]") {
  ByteGrid g = test::terrain_grid({37, 21, 18}, 11);
  for (uint32_t cc : {4u, 7u, 16u}) {
    Layout l = make_layout(g.cells, cc);
    Packed p = pack(l, g.data);
    for (uint64_t ci = 0; ci < l.chunk_count(); ++ci) {
      CHECK(unpack_chunk(l, p.offsets, p.blob, ci) == cut(g, l.chunk_box(ci)));
    }
  }
}

TEST_CASE("chunk pack bytes do not depend on the thread count", "[chunk_pack]") {
  ByteGrid g = test::terrain_grid({70, 30, 50}, 5);
  Layout l = make_layout(g.cells, 8);
  Packed many = pack(l, g.data);
  Packed one;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = pack(l, g.data);
  }
  CHECK(one.blob == many.blob);
  CHECK(one.offsets == many.offsets);
}

TEST_CASE("chunk pack refuses bad chunk sizes and grids of the wrong size", "[chunk_pack]") {
  CHECK_THROWS_WITH(make_layout({4, 4, 4}, 0), Catch::Contains("chunk cells must be"));
  CHECK_THROWS_WITH(make_layout({0, 4, 4}, 4), Catch::Contains("at least 1"));
  CHECK_THROWS_WITH(pack(make_layout({2, 2, 2}, 1), Bytes(26)), Catch::Contains("27"));
  CHECK_THROWS_WITH(unpack_chunk(make_layout({2, 2, 2}, 1), Offsets(8, -1), {}, 8),
                    Catch::Contains("chunk 8 does not exist"));
}

TEST_CASE("chunk unpack rejects bad offsets tables", "[chunk_pack]") {
  Layout l = make_layout({3, 1, 1}, 2);
  Bytes blob = {0x0c, 0x18, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32,
                0x0c, 0x18, 1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33};
  CHECK_NOTHROW(unpack(l, Offsets{0, 14}, blob));
  CHECK_THROWS_WITH(unpack(l, Offsets{0}, blob),
                    Catch::Contains("wrong number of entries (expected 2 (one per chunk), found 1)"));
  CHECK_THROWS_WITH(unpack(l, Offsets{0, -257}, blob),
                    Catch::Contains("offset 4: chunk 1 (1,0,0): uniform chunk value out of range"));
  CHECK_THROWS_WITH(unpack(l, Offsets{14, 0}, blob),
                    Catch::Contains("chunk 0 (0,0,0): the first stream does not start the blob"));
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 0}, blob), Catch::Contains("not in chunk order"));
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 28}, blob),
                    Catch::Contains("past the end of the blob (expected less than 28, found 28)"));
  CHECK_THROWS_WITH(unpack(l, Offsets{-1, -1}, blob),
                    Catch::Contains("every chunk is uniform but the blob is not empty"));
  CHECK_THROWS_WITH(unpack_chunk(l, Offsets{0, 99}, blob, 1), Catch::Contains("chunk 1 (1,0,0)"));
  CHECK_THROWS_WITH(unpack_chunk(l, Offsets{0, -300}, blob, 1), Catch::Contains("out of range"));
}

TEST_CASE("chunk unpack requires the streams to tile the blob exactly", "[chunk_pack]") {
  Layout l = make_layout({3, 1, 1}, 2);
  Bytes a = {0x0c, 0x18, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32};
  Bytes b = {0x0c, 0x18, 1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33};
  // A gap byte between the streams.
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 15}, cat({a, {0x55}, b})),
                    Catch::Contains("offset 14: chunk 0 (0,0,0): unused bytes before the next stream"));
  // A byte after the last stream.
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 14}, cat({a, b, {0x00}})),
                    Catch::Contains("offset 28: chunk 1 (1,0,0): extra bytes after the last stream"));
  // The first stream reaching into the second: its literal is cut short.
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 10}, cat({a, b})), Catch::Contains("chunk 0 (0,0,0)"));
  // Single-chunk decoding reads only its own stream, so it does not see the gap.
  CHECK(unpack_chunk(l, Offsets{0, 15}, cat({a, {0x55}, b}), 1) == Bytes(b.begin() + 2, b.end()));
}

TEST_CASE("chunk unpack rejects a stream with the wrong sample count", "[chunk_pack]") {
  Layout l = make_layout({3, 1, 1}, 2);
  Bytes blob = {0x0b, 0x16, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31};  // 11 samples, not 12
  CHECK_THROWS_WITH(unpack(l, Offsets{0, -1}, blob),
                    Catch::Contains("chunk 0 (0,0,0): stream has the wrong sample count "
                                    "(expected 12, found 11)"));
  CHECK_THROWS_WITH(unpack_chunk(l, Offsets{0, -1}, blob, 0), Catch::Contains("expected 12"));
}

TEST_CASE("chunk unpack rejects neighbours that disagree on a shared sample", "[chunk_pack]") {
  Layout l = make_layout({3, 1, 1}, 2);
  Bytes blob = {0x0c, 0x18, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32,
                0x0c, 0x18, 1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33};
  Bytes bad1 = blob;
  bad1[16] = 99;  // chunk 1's copy of sample (1,0,0), which chunk 0 owns
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 14}, bad1),
                    Catch::Contains("chunk 1 (1,0,0): shared sample (1,0,0) disagrees with chunk 0 "
                                    "(0,0,0) (expected 1 as in the owning chunk, found 99)"));
  Bytes bad0 = bad1;
  bad0[4] = 77;  // chunk 0's copy of sample (2,0,0), which chunk 1 owns: the lower chunk is named
  CHECK_THROWS_WITH(unpack(l, Offsets{0, 14}, bad0),
                    Catch::Contains("chunk 0 (0,0,0): shared sample (2,0,0) disagrees with chunk 1"));
  // A uniform chunk that disagrees with its neighbour's stream.
  Layout u = make_layout({2, 2, 2}, 1);
  ByteGrid g({2, 2, 2}, 255);
  g.at(2, 2, 2) = 0;
  Packed p = pack(u, g.data);
  p.offsets[0] = -1;  // chunk 0 claims all 0; it owns (0,0,0), chunk 1 reads (0,0,0) as 255
  CHECK_THROWS_WITH(unpack(u, p.offsets, p.blob), Catch::Contains("shared sample"));
}

TEST_CASE("chunk unpack rejects every truncation of a packed blob", "[chunk_pack]") {
  ByteGrid g = test::terrain_grid({20, 12, 9}, 3);
  Layout l = make_layout(g.cells, 8);
  Packed p = pack(l, g.data);
  REQUIRE(p.blob.size() > 10);
  for (size_t n = 0; n < p.blob.size(); ++n) {
    Bytes cut(p.blob.begin(), p.blob.begin() + long(n));
    CHECK_THROWS_AS(unpack(l, p.offsets, cut), Error);
  }
}

TEST_CASE("repack re-encodes only the changed chunks and equals a whole pack", "[chunk_pack]") {
  const Layout layout = make_layout(Dims{20, 12, 17}, 4);
  Bytes grid(layout.cells.samples());
  for (uint64_t i = 0; i < grid.size(); ++i) grid[i] = uint8_t((i / 97) % 3 == 0 ? 0 : (i * 7) % 251);
  // a uniform region, so that some chunks store no stream
  for (uint64_t z = 0; z <= 8; ++z)
    for (uint64_t y = 0; y <= 12; ++y)
      for (uint64_t x = 0; x <= 20; ++x) grid[layout.cells.index(x, y, z)] = 255;
  const Packed before = pack(layout, grid);
  // change a few samples; the chunks holding them are the changed ones
  Bytes after = grid;
  std::vector<uint64_t> changed_samples = {layout.cells.index(5, 5, 5), layout.cells.index(8, 0, 16),
                                           layout.cells.index(20, 12, 17)};
  for (uint64_t s : changed_samples) after[s] = uint8_t(after[s] ^ 0x55);
  after[layout.cells.index(4, 4, 4)] = 255;  // stays uniform? (it was already 255)
  std::vector<uint64_t> changed;
  for (uint64_t ci = 0; ci < layout.chunk_count(); ++ci) {
    const Box b = layout.chunk_box(ci);
    bool any = false;
    for (uint64_t z = b.lo[2]; z <= b.hi[2]; ++z)
      for (uint64_t y = b.lo[1]; y <= b.hi[1]; ++y)
        for (uint64_t x = b.lo[0]; x <= b.hi[0]; ++x) any |= grid[layout.cells.index(x, y, z)] != after[layout.cells.index(x, y, z)];
    if (any) changed.push_back(ci);
  }
  REQUIRE(!changed.empty());
  REQUIRE(changed.size() < layout.chunk_count());
  const Packed want = pack(layout, after);
  const Packed got = repack(layout, before.offsets, before.blob, after, changed);
  CHECK(got.offsets == want.offsets);
  CHECK(got.blob == want.blob);
  // nothing changed: the same packing back
  const Packed same = repack(layout, before.offsets, before.blob, grid, {});
  CHECK(same.offsets == before.offsets);
  CHECK(same.blob == before.blob);
}
