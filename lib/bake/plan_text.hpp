// What the zone and world layouts share: cells covering a length, and metres as messages
// print them.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

namespace voxkit::bake_detail {

// Metres as messages print them (ten significant digits).
inline std::string metres(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

// Cells needed to cover `len` metres at voxel size `v` (a hair of slack for rounding). The
// world grid counts its cells as a bake of the same box does, through this one function.
inline double cells_for(double len, double v) { return std::ceil(len / v - 1e-9); }

}  // namespace voxkit::bake_detail
