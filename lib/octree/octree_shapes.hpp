// Keep/drop shapes for terrain resets, in world voxel coordinates (world = octree position
// - (size/2, 0, size/2)): boxes, spheres, vertical cylinders (a radius around a point on
// the map) and boxes around the rooms of world.xml. See docs/octree-reset.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace voxkit::octree {

using Vec3i = std::array<int64_t, 3>;

// A box of voxels, inclusive on both ends.
struct Box {
  Vec3i min{0, 0, 0};
  Vec3i max{0, 0, 0};
  bool operator==(const Box&) const = default;
  bool contains(const Vec3i& p) const {
    return p[0] >= min[0] && p[0] <= max[0] && p[1] >= min[1] && p[1] <= max[1] &&
           p[2] >= min[2] && p[2] <= max[2];
  }
};

struct Shape {
  enum class Kind { Box, Sphere, Cylinder };
  Kind kind = Kind::Box;
  Box box;                               // Kind::Box
  std::array<double, 3> center{0, 0, 0};  // Sphere: x, y, z; Cylinder: x, z (y unused)
  double radius = 0;                      // Sphere, Cylinder; a voxel is inside at distance <= radius

  static Shape make_box(const Box& b) { return {Kind::Box, b, {}, 0}; }
  static Shape sphere(double x, double y, double z, double r) { return {Kind::Sphere, {}, {x, y, z}, r}; }
  static Shape cylinder(double x, double z, double r) { return {Kind::Cylinder, {}, {x, 0, z}, r}; }

  bool contains(const Vec3i& p) const;
  bool contains(const Box& b) const;   // every voxel of b is inside
  bool disjoint(const Box& b) const;   // no voxel of b is inside (may say false near the rim)
  std::string describe() const;
};

// The region a reset applies to: everything inside a drop shape (everything at all when
// there are none) and outside every keep shape.
struct Region {
  std::vector<Shape> keep, drop;

  enum class Cover { Keep, Reset, Mixed };
  Cover classify(const Box& b) const;
  bool resets(const Vec3i& p) const;
};

// One <Grid> of a room as written in world.xml (10x world voxels); a cell's corner is
// floor(v / 10) and the cell covers 2 voxels per axis from there.
struct RoomCell {
  int64_t x = 0, y = 0, z = 0;
};
using RoomCells = std::vector<RoomCell>;

// One box per room (the room's cells grown by `margin` voxels on every side); rooms
// without cells give no box.
std::vector<Box> room_boxes(const std::vector<RoomCells>& rooms, int64_t margin);
// The single bounding box of every room cell grown by `margin`, as terrain_reset.py
// computes it; with no cells at all, that tool keeps the box (0,0,0)-(0,0,0), and so does
// this function (compatibility).
Box rooms_bounding_box(const std::vector<RoomCells>& rooms, int64_t margin);
size_t room_cell_count(const std::vector<RoomCells>& rooms);

}  // namespace voxkit::octree
