// Dig-zone RLE streams and raw sample grids as files: `voxkit info` descriptions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"
#include "lib/core/grid.hpp"

namespace voxkit::rle_stream {

// Describer for a bare RLE stream: sample count, tokens (runs and literals), ratio. A file
// that does not follow the RLE rules exactly is not one.
std::optional<identify::Description> describe(std::span<const uint8_t> bytes, const std::string& name);

// Adds solid / air / surface-band sample counts of an RLE stream read as a grid of `cells`
// (its sample count must match) to a description.
void add_grid_stats(identify::Description& d, std::span<const uint8_t> stream, Dims cells);

// A raw grid of `cells` (one byte per sample, nothing else): size, solid / air / band counts.
// Nothing when the size does not match.
std::optional<identify::Description> describe_raw_grid(std::span<const uint8_t> bytes, Dims cells);

}  // namespace voxkit::rle_stream
