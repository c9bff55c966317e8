// Cave-region grids of ice modules (one uint16 id per point, little-endian, the density
// grid's layout) and lists of closed region ids (docs/formats/regions.md).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lib/caves/caves.hpp"

namespace voxkit {

// Decodes a region grid for `cells`: exactly 2 bytes per sample. Data errors name the
// expected and found sizes.
RegionGrid decode_region_grid(std::span<const uint8_t> bytes, const Dims& cells);
std::vector<uint8_t> encode_region_grid(const RegionGrid& grid);

// Parses a list of region ids (1..65535) separated by commas, spaces or newlines; '#'
// starts a comment to the end of the line. Data errors give the byte offset of a bad token.
// The result is sorted, without duplicates.
std::vector<uint16_t> parse_region_list(std::string_view text);
// One id per line, ascending.
std::string format_region_list(std::span<const uint16_t> ids);

}  // namespace voxkit
