// Fuzz target: exact-size LZ4 block decoder. The first two bytes give the expected size; a
// block that decodes must round trip through compress (both levels) -> decompress.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lib/core/error.hpp"
#include "lib/codec/lz4_block.hpp"

// The cap of `voxkit lz4 decompress --max-size`.
constexpr size_t kCliMaxSize = size_t(1) << 30;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t expected = size_t(data[0]) | size_t(data[1]) << 8;
  const std::span<const uint8_t> block(data + 2, size - 2);
  std::vector<uint8_t> raw;
  try {
    raw = voxkit::lz4::decompress(block, expected, kCliMaxSize);
  } catch (const voxkit::Error&) {
    return 0;
  }
  if (raw.size() != expected) std::abort();
  for (auto level : {voxkit::lz4::Level::Fast, voxkit::lz4::Level::HcMax}) {
    const auto again = voxkit::lz4::compress(raw, level);
    if (voxkit::lz4::decompress(again, raw.size()) != raw) std::abort();
  }
  return 0;
}
