// PNG encoding with zlib, into memory (the caller writes the file atomically), and the
// structure check.
#include "formats/image/png.hpp"

#include <zlib.h>

#include <string>

#include "lib/core/error.hpp"

namespace voxkit::png {
namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
// PNG sizes are 31-bit.
constexpr uint32_t kMaxSide = 0x7fffffffu;

uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
}

// Length, type, data, and the CRC-32 of type and data.
void put_chunk(std::vector<uint8_t>& out, const char (&type)[5], std::span<const uint8_t> data) {
  put_be32(out, uint32_t(data.size()));
  const size_t type_at = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  const uLong crc = crc32_z(crc32(0, nullptr, 0), out.data() + type_at, out.size() - type_at);
  put_be32(out, uint32_t(crc));
}

std::string bytes_left(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

namespace {

// 8-bit grey (1 channel, colour type 0), RGB (3, colour type 2) or RGBA (4, colour type 6);
// `depth16`: 16-bit grey (2 bytes a pixel, big-endian, colour type 0).
std::vector<uint8_t> encode_pixels(uint32_t width, uint32_t height, int channels, std::span<const uint8_t> px,
                                   int level, bool depth16 = false) {
  if (width == 0 || height == 0) throw_usage("cannot encode an empty picture as PNG");
  if (width > kMaxSide || height > kMaxSide) {
    throw_usage("a PNG is at most 2147483647 pixels across and down");
  }
  const uint64_t row = uint64_t(width) * uint64_t(channels);
  if (px.size() != row * height) {
    throw_usage("the picture's pixels do not match its size (" + std::to_string(width) + "x" +
                std::to_string(height) + ")");
  }
  if (level < 0 || level > 9) {
    throw_usage("PNG compression level " + std::to_string(level) + " is not 0..9");
  }

  // Every row behind its filter type byte (0: none).
  std::vector<uint8_t> raw;
  raw.reserve((row + 1) * height);
  for (uint64_t y = 0; y < height; ++y) {
    raw.push_back(0);
    const auto first = px.begin() + ptrdiff_t(y * row);
    raw.insert(raw.end(), first, first + ptrdiff_t(row));
  }
  uLongf packed = compressBound(uLong(raw.size()));
  std::vector<uint8_t> z(packed);
  if (compress2(z.data(), &packed, raw.data(), uLong(raw.size()), level) != Z_OK) {
    throw Error(ErrorKind::Io, "PNG encoding failed (zlib)");
  }
  z.resize(packed);
  if (z.size() > kMaxSide) throw_usage("the picture's pixel data deflate to more than one PNG chunk holds");

  std::vector<uint8_t> out(kSignature, kSignature + 8);
  std::vector<uint8_t> ihdr;
  put_be32(ihdr, width);
  put_be32(ihdr, height);
  // 8 bits a channel (16 for 16-bit grey), grey, RGB or RGBA, deflate, filter set 0, no interlace.
  ihdr.insert(ihdr.end(), {uint8_t(depth16 ? 16 : 8), uint8_t(channels == 4 ? 6 : channels == 3 ? 2 : 0), 0, 0, 0});
  put_chunk(out, "IHDR", ihdr);
  put_chunk(out, "IDAT", z);
  put_chunk(out, "IEND", {});
  return out;
}

}  // namespace

std::vector<uint8_t> encode(const RgbImage& img, int level) {
  return encode_pixels(img.width, img.height, 3, img.rgb, level);
}

std::vector<uint8_t> encode_gray(uint32_t width, uint32_t height, std::span<const uint8_t> grey, int level) {
  return encode_pixels(width, height, 1, grey, level);
}

std::vector<uint8_t> encode_gray16(uint32_t width, uint32_t height, std::span<const uint16_t> grey, int level) {
  std::vector<uint8_t> be(grey.size() * 2);
  for (size_t i = 0; i < grey.size(); ++i) be[2 * i] = uint8_t(grey[i] >> 8), be[2 * i + 1] = uint8_t(grey[i]);
  return encode_pixels(width, height, 2, be, level, true);
}

std::vector<uint8_t> encode_rgba(uint32_t width, uint32_t height, std::span<const uint8_t> rgba, int level) {
  return encode_pixels(width, height, 4, rgba, level);
}

bool looks_like_png(std::span<const uint8_t> b) {
  return b.size() >= 4 && b[0] == kSignature[0] && b[1] == 'P' && b[2] == 'N' && b[3] == 'G';
}

void check_structure(std::span<const uint8_t> b) {
  for (size_t i = 0; i < 8; ++i) {
    if (i >= b.size()) {
      throw_data("file ends inside the PNG signature", b.size(), "8 bytes", bytes_left(b.size()));
    }
    if (b[i] != kSignature[i]) {
      throw_data("bad PNG signature", i, hex_byte(kSignature[i]), hex_byte(b[i]));
    }
  }
  uint64_t at = 8;
  for (bool first = true;; first = false) {
    const uint64_t left = b.size() - at;
    if (left < 8) {
      throw_data("file ends before a PNG chunk header", at, "8 bytes of length and type (or IEND)",
                 bytes_left(left));
    }
    const uint32_t len = be32(&b[at]);
    const std::string type(reinterpret_cast<const char*>(&b[at + 4]), 4);
    if (len > 0x7fffffffu) {
      throw_data("PNG chunk length out of range", at, "at most 2147483647", std::to_string(len));
    }
    if (first && type != "IHDR") {
      throw_data("the first PNG chunk is not IHDR", at + 4, "IHDR", "'" + type + "'");
    }
    if (uint64_t(len) + 12 > left) {
      throw_data("PNG chunk " + type + " runs past the end of the file", at,
                 bytes_left(uint64_t(len) + 12), bytes_left(left));
    }
    const uint32_t stored = be32(&b[at + 8 + len]);
    const uint32_t computed = uint32_t(crc32(crc32(0, nullptr, 0), &b[at + 4], uInt(len + 4)));
    if (stored != computed) {
      throw_data("CRC-32 mismatch in PNG chunk " + type, at + 8 + len, hex32(computed),
                 hex32(stored));
    }
    at += uint64_t(len) + 12;
    if (type == "IEND") return;
  }
}

}  // namespace voxkit::png
