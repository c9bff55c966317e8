// Parallel dig-zone RLE encoding: the same canonical bytes as rle::encode, over slices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace voxkit::rle {

// Encodes `samples` (at most kMaxCount) with TBB. The stream is cut only where a maximal
// run of 8 or more equal bytes starts: the canonical encoder flushes its literal there and
// starts a run token, so the slices' tokens joined give exactly rle::encode's bytes.
std::vector<uint8_t> encode_parallel(std::span<const uint8_t> samples);

}  // namespace voxkit::rle
