// Keep/drop shapes for terrain resets, in world voxel coordinates (world = octree position
// - (size/2, 0, size/2)): boxes, spheres, vertical cylinders (a radius around a point on
// the map) and boxes around the rooms of world.xml. See docs/octree-reset.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/core/box.hpp"

namespace voxkit::octree {

struct Shape {
  enum class Kind { Box, Sphere, Cylinder };
  Kind kind = Kind::Box;
  Box3i box;                             // Kind::Box
  std::array<double, 3> center{0, 0, 0};  // Sphere: x, y, z; Cylinder: x, z (y unused)
  double radius = 0;                      // Sphere, Cylinder; a voxel is inside at distance <= radius

  static Shape make_box(const Box3i& b) { return {Kind::Box, b, {}, 0}; }
  static Shape sphere(double x, double y, double z, double r) { return {Kind::Sphere, {}, {x, y, z}, r}; }
  static Shape cylinder(double x, double z, double r) { return {Kind::Cylinder, {}, {x, 0, z}, r}; }

  bool contains(const Vec3i& p) const;
  bool contains(const Box3i& b) const;  // every voxel of b is inside
  bool disjoint(const Box3i& b) const;  // no voxel of b is inside (may say false near the rim)
  std::string describe() const;
};

// The region a reset applies to: everything inside a drop shape (everything at all when
// there are none) and outside every keep shape.
struct Region {
  std::vector<Shape> keep, drop;

  enum class Cover { Keep, Reset, Mixed };
  Cover classify(const Box3i& b) const;
  bool resets(const Vec3i& p) const;
};

// One <Grid> of a <Room> as written in world.xml (10x world voxels); a cell's corner is
// floor(v / 10) and the cell covers 2 voxels per axis from there.
struct RoomCell {
  int64_t x = 0, y = 0, z = 0;
};
struct Room {
  std::vector<RoomCell> cells;
};

// World-voxel box of one room: its cells grown by `margin` voxels on every side; empty for
// a room without cells.
Box3i room_box(const Room& room, int64_t margin);
// One box per room that has cells, in room order.
std::vector<Box3i> room_boxes(const std::vector<Room>& rooms, int64_t margin);
// The single bounding box of every room cell grown by `margin`; empty when there are no
// cells.
Box3i rooms_bounding_box(const std::vector<Room>& rooms, int64_t margin);
// The box terrain_reset.py keeps: the rooms' bounding box, and with no cells at all the box
// (0,0,0)-(0,0,0) (compatibility).
Box3i compat_keep_box(const std::vector<Room>& rooms, int64_t margin);
size_t room_cell_count(const std::vector<Room>& rooms);

}  // namespace voxkit::octree
