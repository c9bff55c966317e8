// Top-view PNG of modified terrain.
#include "formats/stationeers/octree_map.hpp"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>

#include "lib/core/error.hpp"

namespace voxkit::octree_map {

std::vector<uint8_t> render_rgb(const octree::TopMap& m) {
  std::vector<uint8_t> rgb(size_t(m.width) * m.height * 3);
  uint64_t peak = 0;
  for (uint64_t v : m.modified) peak = std::max(peak, v);
  const double scale = peak > 0 ? 1.0 / std::log1p(double(peak)) : 0.0;
  for (size_t i = 0; i < m.modified.size(); ++i) {
    uint8_t* px = &rgb[i * 3];
    if (m.modified[i] == 0) {
      px[0] = px[1] = px[2] = 28;
      continue;
    }
    const double t = std::log1p(double(m.modified[i])) * scale;  // (0, 1]
    px[0] = uint8_t(std::lround(120 + 135 * std::min(1.0, t * 2)));
    px[1] = uint8_t(std::lround(230 * std::max(0.0, t * 1.2 - 0.2)));
    px[2] = uint8_t(std::lround(40 * t));
  }
  return rgb;
}

void write_png(const std::string& path, const octree::TopMap& m, io::OutputOptions opts) {
  io::check_output(path, opts);
  const auto rgb = render_rgb(m);
  std::vector<uint8_t> png;
  auto sink = [](void* ctx, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(ctx);
    const auto* b = static_cast<const uint8_t*>(data);
    out->insert(out->end(), b, b + size);
  };
  if (!stbi_write_png_to_func(sink, &png, int(m.width), int(m.height), 3, rgb.data(),
                              int(m.width) * 3)) {
    throw Error(ErrorKind::Io, "PNG encoder failed for " + path);
  }
  io::write_file(path, png, opts);
}

}  // namespace voxkit::octree_map
