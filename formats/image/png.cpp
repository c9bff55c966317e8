// PNG encoding through stb_image_write, into memory (the caller writes the file atomically).
#include "formats/image/png.hpp"

#include <stb_image_write.h>
#include <zlib.h>

#include <cstdio>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit::png {

std::vector<uint8_t> encode(const RgbImage& img) {
  if (img.width == 0 || img.height == 0 || img.rgb.size() != size_t(img.width) * img.height * 3) {
    throw_usage("cannot encode an empty picture as PNG");
  }
  std::vector<uint8_t> out;
  auto sink = [](void* ctx, void* data, int size) {
    auto* v = static_cast<std::vector<uint8_t>*>(ctx);
    auto* p = static_cast<uint8_t*>(data);
    v->insert(v->end(), p, p + size);
  };
  if (!stbi_write_png_to_func(sink, &out, int(img.width), int(img.height), 3, img.rgb.data(),
                              int(img.width) * 3)) {
    throw Error(ErrorKind::Io, "PNG encoding failed");
  }
  return out;
}

namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};

uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string bytes_left(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

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
