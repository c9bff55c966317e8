// Shared by the foliage sources: the editor's rounding of a double expression to float.
#pragma once

namespace voxkit::foliage::detail {

// A double expression rounded to float where the C# stores it (the Unity editor's
// evaluation). The compiler may not fuse or reassociate (no -ffast-math; baseline x86-64 has
// no FMA to contract into).
inline float f32(double v) { return float(v); }

}  // namespace voxkit::foliage::detail
