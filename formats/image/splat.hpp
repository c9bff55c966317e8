// Splat (control) maps: RGBA images, four terrain layers each, in Unity's _Control order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/bake/bake.hpp"

namespace voxkit::splat {

// The largest control image read, in texels.
inline constexpr uint64_t kMaxTexels = uint64_t(1) << 26;

// Reads one control image (PNG, TGA, BMP, JPEG through stb_image; other rasters through
// GDAL): 4 channels per texel, missing channels 0 (alpha 0 too), 16-bit scaled to 8-bit.
SplatImage read(const std::string& path);

// Splits "a,b,c" (commas); empty text gives an empty list.
std::vector<std::string> split_list(const std::string& text);

}  // namespace voxkit::splat
