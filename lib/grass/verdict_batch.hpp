// The scatter's verdicts many candidates at a time: the candidate's hash, its jittered place,
// the ground there (TerrainSurface.SampleAt: on the grid, not in a hole, five bilinear heights
// for the point and its normal, the layer weight), the slope against a threshold and the
// density draw, for neighbouring candidates of one row in vector lanes: eight with AVX2 and
// FMA, sixteen with AVX-512 (one kernel, verdict_lanes.inc, built for each). Every lane takes
// the operations of scatter.cpp's loop and surface_sample.hpp for one candidate, in the same
// order (the fused lerps as FMA instructions, which round once as std::fma does), so verdicts
// and grounds are the same bits.
#pragma once

#include <cstdint>

#include "lib/grass/surface.hpp"

namespace voxkit::grass::detail {

enum class VerdictLanes { Avx2, Avx512 };

// Whether this CPU runs a build (asked once); verdicts_batch_supported(): any of them. The
// widest build it runs, and a build's lane count.
bool verdict_lanes_supported(VerdictLanes lanes);
bool verdicts_batch_supported();
VerdictLanes verdict_lanes_best();
int verdict_lane_count(VerdictLanes lanes);

// The placed candidates of a stretch of a cell, in candidate order, field by field: where the
// blade stands, the ground's normal there, and what the blade takes from the candidate's hash
// (its yaw, scale, tint and wind phase, as place() computes them). Room for kRun candidates
// and 32 more (a batch writes all its lanes and keeps the placed ones).
struct PlacedRun {
  static constexpr size_t kRun = 1024;
  static constexpr size_t kRoom = kRun + 32;
  alignas(64) float px[kRoom], py[kRoom], pz[kRoom];
  alignas(64) float nx[kRoom], ny[kRoom], nz[kRoom];
  alignas(64) float yaw[kRoom], scale[kRoom], tint[kRoom], phase[kRoom];
  alignas(64) int32_t index[kRoom];
  size_t size = 0;
};

struct VerdictSetup {
  VerdictSetup(const SurfaceGrid& surface, int layer);  // the grid's constants, taken once
  const SurfaceGrid* surface;
  int layer;
  float reach = 0;             // the jitter's half-width
  float min_up = 0;            // steep when the normal's up component is below this
  bool weighted = false;       // the density reads the layer weight (else keep = scale)
  float low = 0, span = 1, scale = 1;  // the density curve's constants (scatter.cpp Density)
  bool random_yaw = true;      // the type's RandomYaw
  float min_scale = 1, max_scale = 1;  // the type's MinScale and MaxScale
  // From the surface: its layer's weights (null when none is read), 1 / spacing for a
  // power-of-two spacing (else 0), the last sample coordinates, the widths.
  const float* weight;
  float inv, top_x, top_z, width_x, width_z;
};

// Candidates first .. first + n - 1 (n <= the build's lane count) of a cell whose hash seed is
// `seed`, in one row of slots: centre_x[k] is the slot centre of candidate first + k, centre_z
// the row's. Adds each one's verdict to counts (by Refusal: placed, no surface, slope, density)
// and, when `placed` is not null, appends the placed ones to it (writing a lane count of values
// past its size). The build must be supported.
void verdicts_with(VerdictLanes lanes, const VerdictSetup& v, uint32_t seed, int32_t first, const float* centre_x,
                   float centre_z, int n, uint32_t* counts, PlacedRun* placed);

}  // namespace voxkit::grass::detail
