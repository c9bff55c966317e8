// Blade rotations many at a time: the scatter's rotation (the yaw about up, then turned toward
// the ground normal by the type's AlignToNormal, normalised) for a group of blades in vector lanes,
// each lane the same operations in the same order as place() takes for one blade (float32
// where it is float, the sine, cosine and arc cosine of grass_math.hpp in double lanes, their
// Horner chains padded with leading zero coefficients where a lane takes fewer terms, which
// leaves its sum unchanged), so the bits are place()'s.
//
// Two builds of one kernel (rotation_lanes.inc): AVX2, eight blades, each double step as two
// four-lane instructions; AVX-512, thirty-two blades, each double step as four eight-lane
// instructions. The rotation is long chains of dependent double operations: independent chains
// side by side run in little more time than one (measured: 4 registers beat 2, 6 and 8).
#pragma once

#include <cstddef>

namespace voxkit::grass::detail {

enum class RotationLanes { Avx2, Avx512 };

// Whether this CPU runs a build (asked once); rotations_batch_supported(): any of them.
bool rotation_lanes_supported(RotationLanes lanes);
bool rotations_batch_supported();

// Rotations (x, y, z, w) of n blades into rot[4i .. 4i + 3]: yaw[i] the blade's yaw, (nx, ny,
// nz)[i] the normal of the ground under it, `align` the type's clamped AlignToNormal (0: the
// normal is not read). rotations_batch takes the widest build this CPU runs; rotations_with
// the one named (for tests). Require that it is supported.
void rotations_batch(const float* yaw, const float* nx, const float* ny, const float* nz, size_t n, float align,
                     float* rot);
void rotations_with(RotationLanes lanes, const float* yaw, const float* nx, const float* ny, const float* nz, size_t n,
                    float align, float* rot);

}  // namespace voxkit::grass::detail
