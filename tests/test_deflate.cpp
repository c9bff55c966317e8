// Raw deflate: the block index recorded while inflating, and splicing (old blocks reused
// bit for bit where the new contents allow): every spliced stream must inflate to exactly
// the new bytes, whatever the edit, the old stream's producer or the runs claimed.
#include <tbb/global_control.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "formats/stationeers/deflate.hpp"
#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/zip.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

// Text-like bytes: words from a small vocabulary, compressible about 3:1 like XML.
Bytes wordy(size_t n, uint32_t seed) {
  static const char* words[] = {"<Grid>", "</Grid>", "<x>", "</x>", "Room", "Checksum",
                                "0", "12", "345", "-6789", "\n  ", "Thing", "Prefab"};
  std::mt19937 rng(seed);
  Bytes v;
  v.reserve(n + 16);
  while (v.size() < n) {
    const char* w = words[rng() % 13];
    v.insert(v.end(), w, w + std::strlen(w));
    if (rng() % 7 == 0) v.push_back(uint8_t('a' + rng() % 26));
  }
  v.resize(n);
  return v;
}

// A stream as another producer might write it: one zlib call, any level and strategy.
Bytes foreign_deflate(const Bytes& in, int level, int strategy) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, -15, 8, strategy) == Z_OK);
  Bytes out(deflateBound(&zs, uLong(in.size())) + 64);
  zs.next_in = const_cast<Bytef*>(in.data());
  zs.avail_in = uInt(in.size());
  zs.next_out = out.data();
  zs.avail_out = uInt(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

Bytes inflate_all(const Bytes& stream, size_t size, zip::DeflateIndex* index = nullptr) {
  Bytes out(size);
  auto st = zip::inflate_raw(stream, out, index);
  REQUIRE(st.rc == Z_STREAM_END);
  REQUIRE_FALSE(st.overflow);
  REQUIRE(st.out_used == size);
  REQUIRE(st.in_used == stream.size());
  return out;
}

// Splices `now` against `old` compressed as `stream`, checks the result inflates to `now`
// with the right CRC, and returns the stats.
zip::SpliceStats splice_check(const Bytes& old, const Bytes& stream, const Bytes& now,
                              std::vector<zip::Run> runs, int level = 1) {
  zip::DeflateIndex index;
  REQUIRE(inflate_all(stream, old.size(), &index) == old);
  zip::SpliceStats st;
  auto c = zip::splice(stream, index, old, now, runs, level, &st);
  CHECK(inflate_all(c.data, now.size()) == now);
  CHECK(c.crc32 == zip::crc32(now));
  CHECK(st.reused_bytes + st.compressed_bytes == now.size());
  return st;
}

Bytes edited(const Bytes& old, size_t at, size_t cut, const Bytes& insert) {
  Bytes v(old.begin(), old.begin() + long(at));
  v.insert(v.end(), insert.begin(), insert.end());
  v.insert(v.end(), old.begin() + long(at + cut), old.end());
  return v;
}

}  // namespace

TEST_CASE("inflating with an index records every block with its CRC", "[deflate]") {
  const Bytes in = wordy(3 << 20, 1);
  for (int producer = 0; producer < 3; ++producer) {
    const Bytes stream = producer == 0   ? zip::deflate_raw(in, 1).data
                         : producer == 1 ? foreign_deflate(in, 9, Z_DEFAULT_STRATEGY)
                                         : foreign_deflate(in, 0, Z_DEFAULT_STRATEGY);
    zip::DeflateIndex index;
    REQUIRE(inflate_all(stream, in.size(), &index) == in);
    REQUIRE(index.blocks.size() > 3);
    CHECK(index.blocks[0].bit == 0);
    CHECK(index.blocks[0].out == 0);
    CHECK(index.size == in.size());
    CHECK(index.end_bit <= uint64_t(stream.size()) * 8);
    CHECK(index.end_bit + 8 > uint64_t(stream.size()) * 8);
    uint32_t crc = 0;
    for (size_t k = 0; k < index.blocks.size(); ++k) {
      const auto& b = index.blocks[k];
      const bool last = k + 1 == index.blocks.size();
      CHECK(b.final == last);
      CHECK(b.type <= 2);
      if (producer == 2) CHECK(b.type == 0);
      if (k > 0) {
        CHECK(b.bit > index.blocks[k - 1].bit);
        CHECK(b.out >= index.blocks[k - 1].out);
      }
      const uint64_t end = last ? index.size : index.blocks[k + 1].out;
      CHECK(b.crc == zip::crc32(std::span<const uint8_t>(in).subspan(b.out, end - b.out)));
      crc = k == 0 ? b.crc : uint32_t(crc32_combine(crc, b.crc, z_off_t(end - b.out)));
    }
    CHECK(crc == zip::crc32(in));
  }
}

TEST_CASE("common runs are the shared prefix and suffix", "[deflate]") {
  const Bytes a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  auto r = zip::common_runs(a, Bytes{1, 2, 3, 9, 9, 10, 11, 12});
  REQUIRE(r.size() == 2);
  CHECK((r[0].to == 0 && r[0].from == 0 && r[0].len == 3));
  CHECK((r[1].to == 4 && r[1].from == 8 && r[1].len == 4));
  CHECK(zip::common_runs(a, a).size() == 1);
  CHECK(zip::common_runs(a, a)[0].len == a.size());
  CHECK(zip::common_runs(a, Bytes{}).empty());
  // Prefix and suffix never overlap, even when the edit duplicates bytes.
  auto d = zip::common_runs(Bytes{5, 5, 5}, Bytes{5, 5, 5, 5});
  uint64_t total = 0;
  for (auto& x : d) total += x.len;
  CHECK(total == 3);
}

TEST_CASE("splicing reuses the unchanged blocks around an edit", "[deflate]") {
  const Bytes old = wordy(4 << 20, 2);
  const Bytes insert = wordy(5000, 3);
  const Bytes stream_ours = zip::deflate_raw(old, 1).data;
  const Bytes stream_foreign = foreign_deflate(old, 6, Z_DEFAULT_STRATEGY);
  for (const Bytes* stream : {&stream_ours, &stream_foreign}) {
    for (size_t cut : {size_t(0), size_t(1), size_t(4999), size_t(70000)}) {
      const Bytes now = edited(old, 1500000, cut, insert);
      auto st = splice_check(old, *stream, now, zip::common_runs(old, now));
      CHECK(st.reused_bytes > now.size() * 8 / 10);
    }
  }
}

TEST_CASE("splicing handles edits at either end, truncation, growth and no change", "[deflate]") {
  const Bytes old = wordy(2 << 20, 4);
  const Bytes stream = foreign_deflate(old, 1, Z_DEFAULT_STRATEGY);
  const Bytes tail = wordy(300000, 5);
  std::vector<Bytes> cases;
  cases.push_back(old);                                            // unchanged
  cases.push_back(edited(old, 0, 10, {'x'}));                      // first bytes
  cases.push_back(edited(old, old.size() - 3, 3, {'y', 'z'}));     // last bytes
  cases.push_back(Bytes(old.begin(), old.begin() + 1500000));      // truncated
  cases.push_back(edited(old, old.size(), 0, tail));               // grown
  cases.push_back(Bytes(old.begin() + 600000, old.end()));         // head cut off
  cases.push_back(Bytes{});                                        // emptied
  cases.push_back(wordy(1 << 20, 6));                              // all new
  for (const Bytes& now : cases) splice_check(old, stream, now, zip::common_runs(old, now));
  // Unchanged: everything is reused.
  auto st = splice_check(old, stream, old, zip::common_runs(old, old));
  CHECK(st.compressed_bytes == 0);
}

TEST_CASE("splicing with several runs, shifted and reordered", "[deflate]") {
  const Bytes old = wordy(3 << 20, 7);
  const Bytes stream = zip::deflate_raw(old, 6).data;
  // new = old[2M, 3M) + "abc" + old[0, 1M): both runs can be reused away from their ends.
  Bytes now(old.begin() + (2 << 20), old.end());
  now.push_back('a');
  now.push_back('b');
  now.push_back('c');
  now.insert(now.end(), old.begin(), old.begin() + (1 << 20));
  std::vector<zip::Run> runs = {{(1 << 20) + 3, 0, 1 << 20}, {0, 2 << 20, 1 << 20}};
  auto st = splice_check(old, stream, now, runs);
  CHECK(st.reused_bytes > (1 << 20));
}

TEST_CASE("splicing ignores runs that do not hold", "[deflate]") {
  const Bytes old = wordy(2 << 20, 8);
  const Bytes stream = foreign_deflate(old, 4, Z_DEFAULT_STRATEGY);
  Bytes now = old;
  for (size_t i = 0; i < now.size(); i += 9973) now[i] ^= 0x20;
  std::vector<zip::Run> lies = {{0, 0, now.size()},
                                {100, 50, 1 << 20},
                                {now.size() - 10, 0, 20},
                                {5, old.size() - 2, 9}};
  auto st = splice_check(old, stream, now, lies);
  CHECK(st.reused_bytes == 0);
}

TEST_CASE("splicing fixed-code and stored streams", "[deflate]") {
  const Bytes old = wordy(1 << 20, 9);
  const Bytes now = edited(old, 400000, 100, {'q'});
  const auto runs = zip::common_runs(old, now);
  auto fixed = splice_check(old, foreign_deflate(old, 6, Z_FIXED), now, runs);
  CHECK(fixed.reused_bytes > 0);
  auto stored = splice_check(old, foreign_deflate(old, 0, Z_DEFAULT_STRATEGY), now, runs);
  CHECK(stored.reused_bytes == 0);  // stored blocks cannot move by a fraction of a byte
}

TEST_CASE("random edits always splice back to the new bytes", "[deflate]") {
  std::mt19937 rng(77);
  const Bytes old = wordy(1 << 20, 10);
  const Bytes streams[] = {zip::deflate_raw(old, 1).data, foreign_deflate(old, 9, Z_FILTERED),
                           foreign_deflate(old, 2, Z_HUFFMAN_ONLY)};
  for (int round = 0; round < 24; ++round) {
    const size_t at = rng() % old.size();
    const size_t cut = std::min<size_t>(old.size() - at, rng() % 100000);
    const Bytes now = edited(old, at, cut, wordy(rng() % 50000, uint32_t(round)));
    splice_check(old, streams[round % 3], now, zip::common_runs(old, now), 1 + round % 9);
  }
}

TEST_CASE("a spliced stream is the same for any thread count", "[deflate]") {
  const Bytes old = wordy(5 << 20, 11);
  const Bytes stream = foreign_deflate(old, 6, Z_DEFAULT_STRATEGY);
  zip::DeflateIndex index;
  inflate_all(stream, old.size(), &index);
  // Large edit in the middle: compressed in several parallel pieces.
  const Bytes now = edited(old, 1 << 20, 3 << 20, wordy(3 << 20, 12));
  const auto runs = zip::common_runs(old, now);
  zip::Compressed one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = zip::splice(stream, index, old, now, runs, 1);
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = zip::splice(stream, index, old, now, runs, 1);
  }
  CHECK(one.data == two.data);
  CHECK(inflate_all(one.data, now.size()) == now);
}

TEST_CASE("rewriting a save reuses a member's unchanged blocks", "[deflate][save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  const Bytes big = wordy(3 << 20, 13);
  zip::Writer w;
  zip::Writer::Options six;
  six.level = 6;
  w.add("world.xml", big, six);
  w.add("other.bin", wordy(1000, 14), six);
  io::write_file(path, w.finish());
  const Bytes now = edited(big, 2000000, 40, {'0'});

  save::MemberOrigin origin;
  const Bytes old = save::read_member(path, "world.xml", big.size(), &origin);
  REQUIRE(old == big);
  CHECK(origin.index.blocks.size() > 1);

  save::RewriteOptions with;
  with.backup = false;
  with.previous["world.xml"] = {&origin, old, {}};
  auto res = save::rewrite(path, {{"world.xml", now}}, with);
  REQUIRE(res.replaced.size() == 1);
  CHECK(res.replaced[0].reused > now.size() * 8 / 10);
  CHECK(save::read_member(path, "world.xml", now.size()) == now);
  const Bytes spliced_with = io::read_all(path);

  // Without the origin the rewrite finds the blocks itself: the same bytes.
  io::write_file(path, [&] {
    zip::Writer w2;
    w2.add("world.xml", big, six);
    w2.add("other.bin", wordy(1000, 14), six);
    return w2.finish();
  }(), {.force = true});
  save::RewriteOptions without;
  without.backup = false;
  save::rewrite(path, {{"world.xml", now}}, without);
  CHECK(io::read_all(path) == spliced_with);

  // An origin that no longer matches the member is not trusted.
  save::MemberOrigin stale = origin;
  stale.crc32 ^= 1;
  save::RewriteOptions wrong;
  wrong.backup = false;
  Bytes bogus = old;
  bogus[10] ^= 1;
  wrong.previous["world.xml"] = {&stale, bogus, {}};
  const Bytes again = edited(now, 10, 1, {'!'});
  save::rewrite(path, {{"world.xml", again}}, wrong);
  CHECK(save::read_member(path, "world.xml", again.size()) == again);

  // Reuse off: compressed whole.
  save::RewriteOptions off;
  off.backup = false;
  off.reuse = false;
  auto r2 = save::rewrite(path, {{"world.xml", big}}, off);
  CHECK(r2.replaced[0].reused == 0);
  CHECK(save::read_member(path, "world.xml", big.size()) == big);
}
