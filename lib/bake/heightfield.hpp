// A terrain heightfield in world metres, its triangulated surface, and NoData filling.
//
// The surface is two triangles per heightmap cell, split along the diagonal from sample
// (i, j) to (i + 1, j + 1): triangle A = (i,j) (i+1,j) (i+1,j+1), triangle B =
// (i,j) (i+1,j+1) (i,j+1). Heights between samples follow those planes.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace voxkit {

struct Heightfield {
  uint32_t width = 0, depth = 0;      // samples along world x and world z (each >= 2)
  double origin_x = 0, origin_z = 0;  // world position of the source's sample (0, 0), metres
  double dx = 1, dz = 1;              // sample spacing along x and z, metres (> 0)
  std::vector<float> heights;         // world y in metres at x + width * z; NaN = no data
  // 1 where the sample had no data and fill_nodata gave it a height, else 0, at the index of
  // `heights`; empty when no sample was filled.
  std::vector<uint8_t> filled;
  // A window of a larger raster: the source index of the stored sample (0, 0). Positions are
  // computed from the source's origin and index, so a window places every sample exactly
  // where the whole raster does (tiled bakes equal a whole bake bit for bit).
  int64_t first_i = 0, first_j = 0;
  // The whole source's samples along x and z (0: the heightfield is the whole source).
  uint32_t source_width = 0, source_depth = 0;

  float at(uint32_t i, uint32_t j) const { return heights[size_t(i) + size_t(width) * j]; }
  double x_of(double i) const { return origin_x + (double(first_i) + i) * dx; }
  double z_of(double j) const { return origin_z + (double(first_j) + j) * dz; }
  // The stored index (fractional) of world x / z: (x - origin) / spacing - first, which is
  // exact after the division, so a window finds the same cells and fractions as the whole.
  double u_of(double x) const { return (x - origin_x) / dx - double(first_i); }
  double v_of(double z) const { return (z - origin_z) / dz - double(first_j); }
  double max_x() const { return x_of(width - 1); }
  double max_z() const { return z_of(depth - 1); }
  // The whole source's extent (sample centres), which a window's splat maps cover.
  double source_min_x() const { return origin_x; }
  double source_min_z() const { return origin_z; }
  double source_max_x() const { return origin_x + double((source_width ? source_width : width) - 1) * dx; }
  double source_max_z() const { return origin_z + double((source_depth ? source_depth : depth) - 1) * dz; }
};

// Checks sizes, spacing and that `heights` holds width * depth values (usage error otherwise).
void check_heightfield(const Heightfield& hf);

// Height of the triangulated surface at world (x, z); positions outside the terrain are
// clamped to its edge. NaN where a corner of the triangle has no data.
double surface_height(const Heightfield& hf, double x, double z);

// True when the surface height at world (x, z) (surface_height) gives weight to a sample
// marked in `hf.filled`: a corner of the triangle under the point whose barycentric weight
// is not zero. False when nothing was filled.
bool surface_uses_filled(const Heightfield& hf, double x, double z);

// Lowest and highest sample heights among the samples of every cell that meets the world
// rectangle [x0, x1] x [z0, z1] (clamped to the terrain). NaN samples are skipped; `nodata`
// (if given) receives how many were met.
struct HeightRange {
  double min = 0, max = 0;
  uint64_t nodata = 0;
  double nodata_x = 0, nodata_z = 0;  // world position of the first NaN sample met
};
HeightRange height_range(const Heightfield& hf, double x0, double z0, double x1, double z1);

// What to put where the source has no data.
struct NodataFill {
  enum class Kind { Refuse, Min, Value, Nearest } kind = Kind::Refuse;
  double value = 0;
};

// Replaces every NaN height by the policy's value: Min = lowest valid height, Value = N,
// Nearest = the height of the nearest valid sample (8-connected chamfer distance, ties to
// the first found in row order). Returns how many samples were filled, and marks them in
// `hf.filled` (left empty when none was). A heightfield without any valid sample is a data
// error. Refuse leaves the heights as they are.
uint64_t fill_nodata(Heightfield& hf, const NodataFill& fill);

}  // namespace voxkit
