// Raw LZ4 blocks (no frame, no size prefix, no checksum) through liblz4, with a decoder that
// insists on the exact decompressed size the caller expects (docs/formats/lz4-block.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace voxkit::lz4 {

// liblz4's limit on one block's uncompressed size (LZ4_MAX_INPUT_SIZE).
inline constexpr size_t kMaxBlockSize = 0x7E000000;
// A block of n bytes can expand to at most about 255 * n bytes: a bound used to refuse an
// impossible expected size before allocating it.
constexpr uint64_t max_expansion(uint64_t block_size) { return block_size * 255 + 16; }

enum class Level {
  Fast,   // LZ4_compress_default
  HcMax,  // LZ4 HC at LZ4HC_CLEVEL_MAX, as the Scrap Mechanic mod writes its chunk strings
};

// Worst-case compressed size of `n` bytes.
size_t compress_bound(size_t n);

// Compresses `in` into one raw block. Throws a usage error if in.size() > kMaxBlockSize.
std::vector<uint8_t> compress(std::span<const uint8_t> in, Level level = Level::Fast);

// Decompresses `block` into `out`, which must come out filled exactly: a block that is
// malformed, or decodes to fewer or more bytes than out.size(), is a data error saying
// what was expected and what was found. Bytes after the block's last sequence are an error.
void decompress_to(std::span<const uint8_t> block, std::span<uint8_t> out);

// Allocates `expected` bytes and decompresses into them. `expected` above `max_size`, or
// more than `block` could possibly expand to, is refused before anything is allocated.
std::vector<uint8_t> decompress(std::span<const uint8_t> block, size_t expected,
                                size_t max_size = kMaxBlockSize);

// The liblz4 this build runs with (LZ4_versionString), for `voxkit --version`.
const char* lz4_library_version();

}  // namespace voxkit::lz4
