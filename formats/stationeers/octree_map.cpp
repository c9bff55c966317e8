// Top-view PNG of modified terrain.
#include "formats/stationeers/octree_map.hpp"

#include <algorithm>
#include <cmath>

#include "formats/image/png.hpp"

namespace voxkit::octree_map {
namespace {

constexpr Colour kUnmodified{28, 28, 28};

// The colour of t in (0, 1]: log1p(count) / log1p(peak).
Colour ramp(double t) {
  return {uint8_t(std::lround(120 + 135 * std::min(1.0, t * 2))), uint8_t(std::lround(230 * std::max(0.0, t * 1.2 - 0.2))),
          uint8_t(std::lround(40 * t))};
}

}  // namespace

std::vector<uint8_t> render_rgb(const octree::TopMap& m) {
  std::vector<uint8_t> rgb(size_t(m.width) * m.height * 3);
  uint64_t peak = 0;
  for (uint64_t v : m.modified) peak = std::max(peak, v);
  const double scale = peak > 0 ? 1.0 / std::log1p(double(peak)) : 0.0;
  for (size_t i = 0; i < m.modified.size(); ++i) {
    const size_t x = i % m.width, z = i / m.width;
    uint8_t* px = &rgb[((m.height - 1 - z) * m.width + x) * 3];  // north up
    const Colour c = m.modified[i] == 0 ? kUnmodified : ramp(std::log1p(double(m.modified[i])) * scale);
    std::copy(c.begin(), c.end(), px);
  }
  return rgb;
}

Framed render(const octree::TopMap& m, const std::string& title) {
  RgbImage img;
  img.width = m.width;
  img.height = m.height;
  img.rgb = render_rgb(m);
  uint64_t peak = 0, modified = 0;
  for (uint64_t v : m.modified) peak = std::max(peak, v), modified += v > 0;
  MapFrame f;
  f.title = title + " - OCTREE MAP (" + std::to_string(m.cell) + (m.cell == 1 ? " VOXEL" : " VOXELS") + " A PIXEL)";
  // Voxels are 1 m; world = octree position - (size / 2, 0, size / 2) (lib/octree/octree.hpp).
  const double cell = double(m.cell), half = double(m.width) * cell / 2;
  f.across = {'x', -half, cell};
  f.down = {'z', half, -cell};
  f.compass = Compass::NorthUp;
  ColourBar bar;
  for (int k = 1; k <= 64; ++k) bar.ramp.push_back(ramp(k / 64.0));
  bar.low = "1";
  bar.high = std::to_string(std::max<uint64_t>(peak, 1));
  bar.caption = "MODIFIED VOXELS UNDER A PIXEL (LOG SCALE)";
  f.bars.push_back(bar);
  f.legend.push_back({kUnmodified, std::to_string(uint64_t(m.width) * m.height - modified) + " UNMODIFIED"});
  return frame_picture(img, f);
}

void write_png(const std::string& path, const octree::TopMap& m, io::OutputOptions opts, const std::string& title) {
  io::check_output(path, opts);
  io::write_file(path, png::encode(render(m, title).img), opts);
}

}  // namespace voxkit::octree_map
