// Byte grids in the dig-zone layout, SDF quantisation, and the density conventions voxkit meets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace voxkit {

// Cells per axis; a grid of cells (nx, ny, nz) has (nx+1)(ny+1)(nz+1) samples.
struct Dims {
  uint32_t nx = 0, ny = 0, nz = 0;

  uint64_t sx() const { return uint64_t(nx) + 1; }
  uint64_t sy() const { return uint64_t(ny) + 1; }
  uint64_t sz() const { return uint64_t(nz) + 1; }
  uint64_t samples() const { return sx() * sy() * sz(); }
  // Index of sample (x, y, z): x fastest, then y (up), then z.
  uint64_t index(uint64_t x, uint64_t y, uint64_t z) const { return x + sx() * (y + sy() * z); }
  bool operator==(const Dims&) const = default;
};

// Largest sample count any voxkit grid may have (2^31 - 1: the RLE format's int32 count).
inline constexpr uint64_t kMaxGridSamples = 0x7fffffffu;

// Checks that `cells` describes a grid voxkit can hold (each axis >= 1, samples within
// `max_samples`); throws a usage error naming the limit otherwise.
void check_dims(const Dims& cells, uint64_t max_samples = kMaxGridSamples);

// A grid of one byte per sample in the dig-zone layout.
struct ByteGrid {
  Dims cells;
  std::vector<uint8_t> data;

  ByteGrid() = default;
  ByteGrid(Dims c, uint8_t fill);
  uint8_t at(uint64_t x, uint64_t y, uint64_t z) const { return data[cells.index(x, y, z)]; }
  uint8_t& at(uint64_t x, uint64_t y, uint64_t z) { return data[cells.index(x, y, z)]; }
};

// --- SDF bytes (dig zones) ---------------------------------------------------------------
// byte = clamp(round_half_even(d * 64), -128, 127) + 128, d in voxels, positive in air.
// Computed in single precision, as the reference package does.
inline constexpr int kSdfScale = 64;
uint8_t quantize_sdf(float d_voxels);
// The inverse: the distance in voxels a byte stands for ((byte - 128) / 64).
inline float dequantize_sdf(uint8_t b) { return float(int(b) - 128) / float(kSdfScale); }
inline bool sdf_solid(uint8_t b) { return b < 128; }

// --- Density conventions --------------------------------------------------------------
// Ice modules: 0 empty, 255 solid, surface at 128 (a point is ice when above 128).
// SDF byte s <-> ice density v: s = clamp(256 - v, 0, 255) and v = clamp(256 - s, 0, 255),
// which maps the surface level 128 to itself and solid to solid. Exact for v in 1..255.
uint8_t ice_to_sdf(uint8_t v);
uint8_t sdf_to_ice(uint8_t s);

// Scrap Mechanic voxels: material << 6 | density, density 0 (outside) .. 63 (inside),
// material 0..2 (3 reads as 0). No surface level is documented; voxkit takes the
// density scale as a linear map of the SDF byte range: density = round((255 - s) * 63 / 255),
// s = 255 - round(density * 255 / 63), so the iso level 127.5 maps to 31.5 and a
// density -> SDF -> density round trip is exact.
uint8_t sdf_to_sm_density(uint8_t s);
uint8_t sm_density_to_sdf(uint8_t density);
inline uint8_t sm_pack(uint8_t material, uint8_t density) {
  return uint8_t(((material & 3u) << 6) | (density & 63u));
}
inline uint8_t sm_material(uint8_t voxel) {
  uint8_t m = voxel >> 6;
  return m == 3 ? 0 : m;
}
inline uint8_t sm_density(uint8_t voxel) { return voxel & 63u; }

// Whole-span conversions (same length in and out).
void convert_ice_to_sdf(std::span<const uint8_t> in, std::span<uint8_t> out);
void convert_sdf_to_ice(std::span<const uint8_t> in, std::span<uint8_t> out);

// Counts of samples by class: solid (< 128), air (>= 128), and samples inside the
// +-2 voxel band (not saturated at 0 or 255).
struct SampleStats {
  uint64_t solid = 0, air = 0, band = 0;
};
SampleStats sdf_stats(std::span<const uint8_t> grid);

}  // namespace voxkit
