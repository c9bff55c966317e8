// Raw LZ4 blocks via liblz4. The exact-size decoder takes the fast path when liblz4 fills
// the buffer exactly; only on failure does it decode again into scratch to say what it found.
#include "lib/codec/lz4_block.hpp"

#include <lz4.h>
#include <lz4hc.h>

#include <algorithm>
#include <memory>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit::lz4 {
namespace {

std::string bytes(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

size_t compress_bound(size_t n) {
  return n > kMaxBlockSize ? 0 : size_t(LZ4_compressBound(int(n)));
}

std::vector<uint8_t> compress(std::span<const uint8_t> in, Level level) {
  if (in.size() > kMaxBlockSize) {
    throw_usage("LZ4 block input of " + bytes(in.size()) + " is over liblz4's limit of " +
                bytes(kMaxBlockSize));
  }
  std::vector<uint8_t> out(compress_bound(in.size()));
  // liblz4's HC path dereferences a null source even for zero bytes.
  static const uint8_t kNothing = 0;
  const auto* src = reinterpret_cast<const char*>(in.empty() ? &kNothing : in.data());
  auto* dst = reinterpret_cast<char*>(out.data());
  const int n = level == Level::HcMax
                    ? LZ4_compress_HC(src, dst, int(in.size()), int(out.size()), LZ4HC_CLEVEL_MAX)
                    : LZ4_compress_default(src, dst, int(in.size()), int(out.size()));
  // With a bound-sized buffer liblz4 cannot fail on valid sizes.
  if (n <= 0) throw_data("liblz4 failed to compress " + bytes(in.size()));
  out.resize(size_t(n));
  return out;
}

void decompress_to(std::span<const uint8_t> block, std::span<uint8_t> out) {
  if (block.empty()) {
    throw_data("empty LZ4 block", 0, "at least one token byte", "no bytes");
  }
  if (block.size() > size_t(INT32_MAX) || out.size() > kMaxBlockSize) {
    throw_usage("LZ4 block of " + bytes(block.size()) + " to " + bytes(out.size()) +
                " is over liblz4's limits");
  }
  const auto* src = reinterpret_cast<const char*>(block.data());
  const int got = LZ4_decompress_safe(src, reinterpret_cast<char*>(out.data()),
                                      int(block.size()), int(out.size()));
  if (got >= 0 && size_t(got) == out.size()) return;
  if (got >= 0) {
    // liblz4 consumed the whole block: the missing bytes were due at its end.
    throw_data("LZ4 block decompresses to fewer bytes than expected", block.size(),
               bytes(out.size()), bytes(size_t(got)));
  }
  // Either malformed or longer than expected: decode into a scratch buffer as large as the
  // block could ever expand to (capped) to tell which.
  const uint64_t bound = max_expansion(block.size());
  const uint64_t probe =
      std::min<uint64_t>(bound, std::min<uint64_t>(kMaxBlockSize, out.size() + (64u << 20)));
  // liblz4 reports -(input position) - 1 where it stopped.
  const uint64_t stopped = uint64_t(-int64_t(got) - 1);
  int bad = got;
  if (probe > out.size()) {
    std::unique_ptr<char[]> scratch(new char[probe]);
    const int full = LZ4_decompress_safe(src, scratch.get(), int(block.size()), int(probe));
    if (full >= 0) {
      // Where the expected size ran out.
      throw_data("LZ4 block decompresses to more bytes than expected", stopped,
                 bytes(out.size()), bytes(size_t(full)));
    }
    if (probe < bound) {
      throw_data("LZ4 block is malformed or decompresses to far more than expected",
                 uint64_t(-int64_t(full) - 1), bytes(out.size()),
                 "more than " + bytes(probe) + " or bad data");
    }
    bad = full;
  }
  // The buffer was as large as the block can expand to, so the block itself is bad.
  throw_data("malformed LZ4 block", uint64_t(-int64_t(bad) - 1),
             "valid sequences ending exactly at the end of the block",
             "a bad offset or length, or a block that ends early or late");
}

std::vector<uint8_t> decompress(std::span<const uint8_t> block, size_t expected,
                                size_t max_size) {
  if (expected > max_size) {
    throw_usage("expected size " + bytes(expected) + " is over the limit of " + bytes(max_size));
  }
  if (expected > max_expansion(block.size())) {
    throw_data("LZ4 block is too short for the expected size", block.size(),
               "at least " + bytes((expected - 16 + 254) / 255) + " of block for " +
                   bytes(expected),
               bytes(block.size()));
  }
  std::vector<uint8_t> out(expected);
  decompress_to(block, out);
  return out;
}

const char* lz4_library_version() { return LZ4_versionString(); }

}  // namespace voxkit::lz4
