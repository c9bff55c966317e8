// Raw deflate (RFC 1951) over zlib: parallel compression, inflation that records where each
// block starts, and splicing: a new stream that copies, bit for bit, the blocks of an old
// stream whose bytes and 32 KiB window did not change, and compresses only the rest.
// See docs/formats/stationeers-save.md (rewriting members).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace voxkit::zip {

struct Compressed {
  std::vector<uint8_t> data;
  uint32_t crc32 = 0;
};

// Raw deflate (no zlib header) and the CRC-32, in independent 1 MiB pieces primed with the
// previous 32 KiB and compressed in parallel: the bytes depend on the input and level only.
Compressed deflate_raw(std::span<const uint8_t> in, int level);
uint32_t crc32(std::span<const uint8_t> in);

// Where the blocks of a raw deflate stream start.
struct DeflateIndex {
  struct Block {
    uint64_t bit = 0;    // first bit of the block header in the compressed bytes
    uint64_t out = 0;    // first uncompressed byte the block produces
    uint32_t crc = 0;    // CRC-32 of the bytes the block produces
    uint8_t type = 0;    // BTYPE: 0 stored, 1 fixed Huffman, 2 dynamic Huffman
    bool final = false;  // BFINAL
  };
  std::vector<Block> blocks;
  uint64_t end_bit = 0;  // one past the last bit of the final block
  uint64_t size = 0;     // uncompressed bytes
};

// How an inflation ended.
struct InflateStatus {
  int rc = 0;                // zlib's last return code (Z_STREAM_END when complete)
  bool overflow = false;     // the stream produces more than out.size() bytes
  uint64_t in_used = 0, out_used = 0;
  std::string message;       // zlib's message, if any
};

// Inflates raw deflate `in` into `out` (sized by the caller to the expected length),
// recording the block boundaries in `index` when it is not null. Never writes past `out`.
InflateStatus inflate_raw(std::span<const uint8_t> in, std::span<uint8_t> out,
                          DeflateIndex* index = nullptr);

// new[to, to + len) holds the same bytes as old[from, from + len).
struct Run {
  uint64_t to = 0, from = 0, len = 0;
};

// The common prefix and the common suffix (not overlapping it) of two byte strings, as up
// to two runs; enough for an edit confined to one region of a member.
std::vector<Run> common_runs(std::span<const uint8_t> old_bytes, std::span<const uint8_t> new_bytes);

struct SpliceStats {
  uint64_t reused_bytes = 0;      // uncompressed bytes whose compressed blocks were copied
  uint64_t compressed_bytes = 0;  // uncompressed bytes compressed again
  uint64_t reused_blocks = 0;
};

// A raw deflate stream of `now` and its CRC-32: every block of `old_stream` (indexed by
// `index`, inflating to `old_bytes`) that lies inside one of `runs` together with the 32 KiB
// before it (so that its back-references find the same bytes) is copied bit for bit; all
// other bytes are compressed at `level` in parallel pieces. Stored blocks are never copied.
// Runs are checked against the bytes (those that do not hold are ignored), so wrong runs
// cost speed, never correctness. Deterministic for any thread count.
Compressed splice(std::span<const uint8_t> old_stream, const DeflateIndex& index,
                  std::span<const uint8_t> old_bytes, std::span<const uint8_t> now,
                  std::span<const Run> runs, int level, SpliceStats* stats = nullptr);

}  // namespace voxkit::zip
