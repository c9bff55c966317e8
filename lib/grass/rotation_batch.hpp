// Blade rotations four at a time: the scatter's rotation (the yaw about up, then turned toward
// the ground normal by the type's AlignToNormal, normalised) for four blades in the lanes of
// AVX vectors, each lane the same operations in the same order as place() takes for one blade
// (float32 where it is float, the sine, cosine and arc cosine of grass_math.hpp in double
// lanes, their Horner chains padded with leading zero coefficients where a lane takes fewer
// terms, which leaves its sum unchanged), so the bits are place()'s.
#pragma once

#include <cstddef>

namespace voxkit::grass::detail {

// Whether this CPU runs rotations_avx2 (asked once).
bool rotations_avx2_supported();

// Rotations (x, y, z, w) of n blades into rot[4i .. 4i + 3]: yaw[i] the blade's yaw, (nx, ny,
// nz)[i] the normal of the ground under it, `align` the type's clamped AlignToNormal (0: the
// normal is not read). Requires rotations_avx2_supported().
void rotations_avx2(const float* yaw, const float* nx, const float* ny, const float* nz, size_t n, float align,
                    float* rot);

}  // namespace voxkit::grass::detail
