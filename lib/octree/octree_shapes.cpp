// Shape tests against voxel boxes, and room cells to keep boxes.
#include "lib/octree/octree_shapes.hpp"

#include <algorithm>
#include <cstdio>

namespace voxkit::octree {
namespace {

// Squared distance from c to the nearest and the farthest point of [lo, hi] on one axis.
inline double near_sq(double c, double lo, double hi) {
  double d = c < lo ? lo - c : (c > hi ? c - hi : 0.0);
  return d * d;
}
inline double far_sq(double c, double lo, double hi) {
  double d = std::max(c - lo, hi - c);
  return d * d;
}

// Written so that INT64_MIN (a hostile world.xml) does not overflow.
int64_t floor_div10(int64_t v) { return v >= 0 ? v / 10 : -((-(v + 1)) / 10) - 1; }

}  // namespace

bool Shape::contains(const Vec3i& p) const { return contains(Box3i{p, p}); }

bool Shape::contains(const Box3i& b) const {
  switch (kind) {
    case Kind::Box:
      return box.contains(b.min) && box.contains(b.max);
    case Kind::Sphere: {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += far_sq(center[k], double(b.min[k]), double(b.max[k]));
      return s <= radius * radius;
    }
    case Kind::Cylinder:
      return far_sq(center[0], double(b.min[0]), double(b.max[0])) +
                 far_sq(center[2], double(b.min[2]), double(b.max[2])) <=
             radius * radius;
  }
  return false;
}

bool Shape::disjoint(const Box3i& b) const {
  switch (kind) {
    case Kind::Box:
      for (int k = 0; k < 3; ++k)
        if (b.max[k] < box.min[k] || b.min[k] > box.max[k]) return true;
      return false;
    case Kind::Sphere: {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += near_sq(center[k], double(b.min[k]), double(b.max[k]));
      return s > radius * radius;
    }
    case Kind::Cylinder:
      return near_sq(center[0], double(b.min[0]), double(b.max[0])) +
                 near_sq(center[2], double(b.min[2]), double(b.max[2])) >
             radius * radius;
  }
  return true;
}

std::string Shape::describe() const {
  char buf[160];
  switch (kind) {
    case Kind::Box:
      std::snprintf(buf, sizeof buf, "box %lld,%lld,%lld..%lld,%lld,%lld", (long long)box.min[0],
                    (long long)box.min[1], (long long)box.min[2], (long long)box.max[0],
                    (long long)box.max[1], (long long)box.max[2]);
      break;
    case Kind::Sphere:
      std::snprintf(buf, sizeof buf, "sphere %g,%g,%g r %g", center[0], center[1], center[2],
                    radius);
      break;
    case Kind::Cylinder:
      std::snprintf(buf, sizeof buf, "radius %g around x %g z %g", radius, center[0], center[2]);
      break;
  }
  return buf;
}

Region::Cover Region::classify(const Box3i& b) const {
  for (const auto& s : keep)
    if (s.contains(b)) return Cover::Keep;
  bool in_drop = drop.empty();
  if (!drop.empty()) {
    bool touches = false;
    for (const auto& s : drop) {
      if (s.contains(b)) {
        in_drop = true;
        touches = true;
        break;
      }
      if (!s.disjoint(b)) touches = true;
    }
    if (!touches) return Cover::Keep;
  }
  if (!in_drop) return Cover::Mixed;
  for (const auto& s : keep)
    if (!s.disjoint(b)) return Cover::Mixed;
  return Cover::Reset;
}

bool Region::resets(const Vec3i& p) const {
  for (const auto& s : keep)
    if (s.contains(p)) return false;
  if (drop.empty()) return true;
  for (const auto& s : drop)
    if (s.contains(p)) return true;
  return false;
}

Box3i room_box(const Room& room, int64_t margin) {
  Box3i box;
  for (const RoomCell& c : room.cells) {
    const Vec3i corner{floor_div10(c.x), floor_div10(c.y), floor_div10(c.z)};
    Box3i cell;
    for (int k = 0; k < 3; ++k) {
      cell.min[k] = corner[k] - margin;
      cell.max[k] = corner[k] + 1 + margin;
    }
    box.unite(cell);
  }
  return box;
}

std::vector<Box3i> room_boxes(const std::vector<Room>& rooms, int64_t margin) {
  std::vector<Box3i> out;
  for (const Room& r : rooms) {
    const Box3i b = room_box(r, margin);
    if (!b.empty()) out.push_back(b);
  }
  return out;
}

Box3i rooms_bounding_box(const std::vector<Room>& rooms, int64_t margin) {
  Box3i box;
  for (const Room& r : rooms) box.unite(room_box(r, margin));
  return box;
}

Box3i compat_keep_box(const std::vector<Room>& rooms, int64_t margin) {
  const Box3i b = rooms_bounding_box(rooms, margin);
  return b.empty() ? Box3i{{0, 0, 0}, {0, 0, 0}} : b;
}

size_t room_cell_count(const std::vector<Room>& rooms) {
  size_t n = 0;
  for (const auto& r : rooms) n += r.cells.size();
  return n;
}

}  // namespace voxkit::octree
