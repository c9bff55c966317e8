// Fuzz target: dig-zone RLE decoder. Decodes, and checks decode -> encode -> decode.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"
#include "lib/codec/rle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> samples;
  try {
    samples = voxkit::rle::decode(std::span<const uint8_t>(data, size), voxkit::kMaxGridSamples);
  } catch (const voxkit::Error&) {
    return 0;
  }
  auto encoded = voxkit::rle::encode(samples);
  auto again = voxkit::rle::decode(encoded, voxkit::kMaxGridSamples);
  if (again != samples) std::abort();
  // The canonical encoding is a fixed point.
  if (voxkit::rle::encode(again) != encoded) std::abort();
  return 0;
}
