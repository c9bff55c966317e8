// SurfaceGrid's sampling as inline functions, for the scatter's inner loop (which is compiled
// once more for CPUs with FMA: the results are the same, fma is exact either way).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "lib/grass/grass_math.hpp"
#include "lib/grass/surface.hpp"

namespace voxkit::grass::detail {

// The clamped sample coordinate and the two neighbouring indices along one axis.
struct Axis {
  int32_t i0, i1;
  float f;
};
// 1 / spacing when the spacing is a power of two (then exact), else 0.
inline float power_of_two_reciprocal(float spacing) {
  uint32_t b;
  std::memcpy(&b, &spacing, 4);
  const uint32_t e = (b >> 23) & 0xFFu;
  if ((b & 0x807FFFFFu) != 0 || e < 1 || e > 253) return 0.0f;
  const uint32_t ib = (254u - e) << 23;  // 2^-(e - 127)
  float inv;
  std::memcpy(&inv, &ib, 4);
  return inv;
}

// local / spacing. Divided by a power of two (1 m, 0.5 m, 2 m grids), the quotient is the same
// real number as the product with the reciprocal, so the correctly rounded results are the
// same bits; the product is much cheaper.
inline float over_spacing(float local, float spacing) {
  const float inv = power_of_two_reciprocal(spacing);
  return inv != 0.0f ? local * inv : local / spacing;
}

inline Axis axis(float local, float spacing, int32_t samples) {
  float s = over_spacing(local, spacing);
  // Math.Clamp(s, 0, samples - 1)
  const float top = static_cast<float>(samples) - 1.0f;
  if (s < 0.0f) s = 0.0f;
  if (s > top) s = top;
  const int32_t i0 = static_cast<int32_t>(std::floor(s));
  const int32_t i1 = std::min(i0 + 1, samples - 1);
  return {i0, i1, s - static_cast<float>(i0)};
}

// TerrainPick.HeightAt (fused lerps of the four samples around the point).
inline float height_at(const SurfaceGrid& g, float local_x, float local_z) {
  const Axis ax = axis(local_x, g.spacing, g.samples_x), az = axis(local_z, g.spacing, g.samples_z);
  const float* h = g.height.data();
  const size_t row0 = static_cast<size_t>(az.i0) * g.samples_x, row1 = static_cast<size_t>(az.i1) * g.samples_x;
  const float top = lerp_fused(h[row0 + ax.i0], h[row0 + ax.i1], ax.f);
  const float bottom = lerp_fused(h[row1 + ax.i0], h[row1 + ax.i1], ax.f);
  return lerp_fused(top, bottom, az.f);
}

inline bool quad_missing(const SurfaceGrid& g, float local_x, float local_z) {
  if (g.hole.empty()) return false;
  // floor(local / scale), kept on the grid (the far edge belongs to the last quad).
  int32_t qx = static_cast<int32_t>(std::floor(over_spacing(local_x, g.spacing)));
  int32_t qz = static_cast<int32_t>(std::floor(over_spacing(local_z, g.spacing)));
  qx = std::clamp(qx, 0, g.samples_x - 2);
  qz = std::clamp(qz, 0, g.samples_z - 2);
  return g.hole[static_cast<size_t>(qz) * (g.samples_x - 1) + qx] != 0;
}

// WeightAt for a position relative to the grid origin (on the grid).
inline float weight_at(const SurfaceGrid& sg, float lx, float lz, int layer) {
  if (layer == kNoLayer) return 1.0f;
  if (layer < 0) return 0.0f;
  const float* w = sg.weights[static_cast<size_t>(layer)].data();
  const Axis ax = axis(lx, sg.spacing, sg.samples_x), az = axis(lz, sg.spacing, sg.samples_z);
  const size_t row0 = static_cast<size_t>(az.i0) * sg.samples_x, row1 = static_cast<size_t>(az.i1) * sg.samples_x;
  const float top = lerp_fused(w[row0 + ax.i0], w[row0 + ax.i1], ax.f);
  const float bottom = lerp_fused(w[row1 + ax.i0], w[row1 + ax.i1], ax.f);
  return lerp_fused(top, bottom, az.f);
}

// Whether there is ground under a position relative to the grid origin (SampleAt's first two
// checks: on the grid and not in a hole).
inline bool ground_there(const SurfaceGrid& sg, float lx, float lz) {
  if (lx < 0.0f || lz < 0.0f || lx > sg.width_x() || lz > sg.width_z()) return false;
  return !quad_missing(sg, lx, lz);
}

// TerrainSurface.SampleAt.
inline Ground sample(const SurfaceGrid& sg, float x, float z, int layer) {
  Ground g;
  const float lx = x - sg.origin_x, lz = z - sg.origin_z;
  if (lx < 0.0f || lz < 0.0f || lx > sg.width_x() || lz > sg.width_z()) return g;  // Missed
  if (quad_missing(sg, lx, lz)) return g;
  const float h = height_at(sg, lx, lz);
  g.px = x;
  g.py = h + sg.origin_y;
  g.pz = z;
  // NormalAt: (left - right, 2 scale, down - up), UnitY when zero, else normalised.
  const float sp = sg.spacing;
  const float left = height_at(sg, lx - sp, lz), right = height_at(sg, lx + sp, lz);
  const float down = height_at(sg, lx, lz - sp), up = height_at(sg, lx, lz + sp);
  float nx = left - right, ny = 2.0f * sp, nz = down - up;
  if (nx == 0.0f && ny == 0.0f && nz == 0.0f) {
    nx = 0.0f, ny = 1.0f, nz = 0.0f;
  } else {
    const float ls = (nx * nx + ny * ny) + nz * nz;
    if (ls < 1e-6f * 1e-6f) {
      nx = ny = nz = 0.0f;  // Vector3.Normalize answers zero below its tolerance
    } else {
      const float inv = 1.0f / std::sqrt(ls);
      nx *= inv, ny *= inv, nz *= inv;
    }
  }
  g.nx = nx, g.ny = ny, g.nz = nz;
  g.weight = weight_at(sg, lx, lz, layer);
  g.hit = true;
  return g;
}

}  // namespace voxkit::grass::detail
