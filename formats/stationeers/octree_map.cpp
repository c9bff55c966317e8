// Top-view PNG of modified terrain.
#include "formats/stationeers/octree_map.hpp"

#include <algorithm>
#include <cmath>

#include "formats/image/png.hpp"

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
  RgbImage img;
  img.width = m.width;
  img.height = m.height;
  img.rgb = render_rgb(m);
  io::write_file(path, png::encode(img), opts);
}

}  // namespace voxkit::octree_map
