// PNG encoding of pictures (previews, octree maps, the synthetic saves' screenshots) with
// zlib, and the structure check that says where a PNG that does not decode is damaged.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/bake/preview.hpp"

namespace voxkit::png {

inline constexpr int kDefaultLevel = 9;

// An 8-bit RGB PNG: the signature, IHDR (no interlace), one IDAT holding every row with
// filter type 0 (none) as one zlib stream deflated at `level` (0 stored .. 9 smallest), and
// IEND; no other chunks. Deterministic: the same pixels and level give the same bytes.
// A usage error for an empty picture, a pixel count that does not match, or a level
// outside 0..9.
std::vector<uint8_t> encode(const RgbImage& img, int level = kDefaultLevel);
// The same as 8-bit RGBA (colour type 6): 4 bytes a pixel, rows top first, no gamma or
// colour chunks, so the bytes read back exactly (the foliage mask is data, not a picture).
std::vector<uint8_t> encode_rgba(uint32_t width, uint32_t height, std::span<const uint8_t> rgba,
                                 int level = kDefaultLevel);

// The same as 8-bit greyscale (colour type 0): 1 byte a pixel, rows top first.
std::vector<uint8_t> encode_gray(uint32_t width, uint32_t height, std::span<const uint8_t> grey,
                                 int level = kDefaultLevel);
// 16-bit greyscale (colour type 0, bit depth 16), big-endian samples as PNG stores them.
std::vector<uint8_t> encode_gray16(uint32_t width, uint32_t height, std::span<const uint16_t> grey,
                                   int level = kDefaultLevel);
// True when `bytes` start with the PNG signature's first four bytes.
bool looks_like_png(std::span<const uint8_t> bytes);

// Walks the signature and the chunks (length, type, CRC-32) up to IEND and throws a data
// error at the first fault: its offset, what was expected and what was found. Pixel data
// is not decoded.
void check_structure(std::span<const uint8_t> bytes);

}  // namespace voxkit::png
