// Parallel dig-zone RLE encoding: the same canonical bytes as rle::encode, over slices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace voxkit::rle {

// Encodes `samples` (at most kMaxCount) with TBB. The stream is cut only where a maximal
// run of 8 or more equal bytes starts: the canonical encoder flushes its literal there and
// starts a run token, so the slices' tokens joined give exactly rle::encode's bytes.
// `slice` is the nominal number of samples per task (tests use small ones to cross many
// slice boundaries on little data).
inline constexpr size_t kParallelSlice = size_t(1) << 22;
std::vector<uint8_t> encode_parallel(std::span<const uint8_t> samples,
                                     size_t slice = kParallelSlice);

}  // namespace voxkit::rle
