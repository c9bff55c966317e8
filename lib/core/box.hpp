// Integer boxes in world voxel coordinates (inclusive bounds): keep/drop shapes for resets.
#pragma once

#include <algorithm>
#include <cstdint>

namespace voxkit {

// An axis-aligned box of voxels; min and max are both inside (inclusive). x, y, z order.
struct Box3i {
  int64_t min[3] = {0, 0, 0};
  int64_t max[3] = {-1, -1, -1};  // default: empty

  bool empty() const { return max[0] < min[0] || max[1] < min[1] || max[2] < min[2]; }

  bool contains(int64_t x, int64_t y, int64_t z) const {
    return x >= min[0] && x <= max[0] && y >= min[1] && y <= max[1] && z >= min[2] &&
           z <= max[2];
  }

  // True when the inclusive span [lo[a], hi[a]] meets the box on every axis.
  bool overlaps(const int64_t lo[3], const int64_t hi[3]) const {
    for (int a = 0; a < 3; ++a)
      if (hi[a] < min[a] || lo[a] > max[a]) return false;
    return true;
  }
  bool overlaps(const Box3i& o) const { return overlaps(o.min, o.max); }

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

  friend bool operator==(const Box3i& a, const Box3i& b) {
    return std::equal(a.min, a.min + 3, b.min) && std::equal(a.max, a.max + 3, b.max);
  }
};

}  // namespace voxkit
