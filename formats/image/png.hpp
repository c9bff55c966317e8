// PNG encoding of preview pictures (stb_image_write), and the structure check that says
// where a PNG that does not decode is damaged.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/bake/preview.hpp"

namespace voxkit::png {

std::vector<uint8_t> encode(const RgbImage& img);

// True when `bytes` start with the PNG signature's first four bytes.
bool looks_like_png(std::span<const uint8_t> bytes);

// Walks the signature and the chunks (length, type, CRC-32) up to IEND and throws a data
// error at the first fault: its offset, what was expected and what was found. Pixel data
// is not decoded.
void check_structure(std::span<const uint8_t> bytes);

}  // namespace voxkit::png
