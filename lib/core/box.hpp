// Integer boxes in voxel coordinates (inclusive bounds): keep/drop shapes and room boxes of
// resets, bounds of modified terrain, export boxes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace voxkit {

using Vec3i = std::array<int64_t, 3>;

// An axis-aligned box of voxels; min and max are both inside (inclusive). x, y, z order.
struct Box3i {
  Vec3i min{0, 0, 0};
  Vec3i max{-1, -1, -1};  // default: empty

  bool empty() const { return max[0] < min[0] || max[1] < min[1] || max[2] < min[2]; }

  bool contains(const Vec3i& p) const {
    return p[0] >= min[0] && p[0] <= max[0] && p[1] >= min[1] && p[1] <= max[1] &&
           p[2] >= min[2] && p[2] <= max[2];
  }

  // True when the boxes share a voxel.
  bool overlaps(const Box3i& o) const {
    for (int a = 0; a < 3; ++a)
      if (o.max[a] < min[a] || o.min[a] > max[a]) return false;
    return !empty() && !o.empty();
  }

  // Grows the box to hold `o` (an empty box takes `o` whole).
  void unite(const Box3i& o) {
    if (o.empty()) return;
    if (empty()) {
      *this = o;
      return;
    }
    for (int a = 0; a < 3; ++a) {
      min[a] = std::min(min[a], o.min[a]);
      max[a] = std::max(max[a], o.max[a]);
    }
  }

  bool operator==(const Box3i&) const = default;
};

// "x0,y0,z0 .. x1,y1,z1", for messages and reports.
inline std::string to_string(const Box3i& b) {
  const auto s = [](int64_t v) { return std::to_string(v); };
  return s(b.min[0]) + "," + s(b.min[1]) + "," + s(b.min[2]) + " .. " + s(b.max[0]) + "," +
         s(b.max[1]) + "," + s(b.max[2]);
}

}  // namespace voxkit
