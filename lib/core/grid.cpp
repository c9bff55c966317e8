// Byte grids, SDF quantisation and density conventions.
#include "lib/core/grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit {

void check_dims(const Dims& c, uint64_t max_samples) {
  if (c.nx == 0 || c.ny == 0 || c.nz == 0) {
    throw_usage("grid cells must be at least 1 on every axis, got " + std::to_string(c.nx) + "x" +
                std::to_string(c.ny) + "x" + std::to_string(c.nz));
  }
  // Checked axis by axis so that huge dimensions cannot wrap the 64-bit product.
  const bool over = c.sx() > max_samples || c.sx() * c.sy() > max_samples ||
                    c.sx() * c.sy() > max_samples / c.sz();
  if (over) {
    throw_usage("grid of " + std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" +
                std::to_string(c.nz) + " cells has more than " + std::to_string(max_samples) +
                " samples (the limit)");
  }
}

ByteGrid::ByteGrid(Dims c, uint8_t fill) : cells(c), data(c.samples(), fill) {}

uint8_t quantize_sdf(float d) {
  float scaled = d * float(kSdfScale);
  if (std::isnan(scaled)) return 128;
  // nearbyint uses the current rounding mode: round half to even by default.
  float q = std::nearbyint(std::clamp(scaled, -128.0f, 127.0f));
  return uint8_t(int(q) + 128);
}

uint8_t ice_to_sdf(uint8_t v) { return uint8_t(std::min(256 - int(v), 255)); }
uint8_t sdf_to_ice(uint8_t s) { return uint8_t(std::min(256 - int(s), 255)); }

uint8_t sdf_to_sm_density(uint8_t s) { return uint8_t(((255 - s) * 63 * 2 + 255) / (255 * 2)); }
uint8_t sm_density_to_sdf(uint8_t density) {
  density &= 63u;
  return uint8_t(255 - (density * 255 * 2 + 63) / (63 * 2));
}

void convert_ice_to_sdf(std::span<const uint8_t> in, std::span<uint8_t> out) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = ice_to_sdf(in[i]);
}
void convert_sdf_to_ice(std::span<const uint8_t> in, std::span<uint8_t> out) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = sdf_to_ice(in[i]);
}

SampleStats sdf_stats(std::span<const uint8_t> grid) {
  SampleStats s;
  for (uint8_t b : grid) {
    s.solid += b < 128;
    s.band += (b != 0 && b != 255);
  }
  s.air = grid.size() - s.solid;
  return s;
}

}  // namespace voxkit
