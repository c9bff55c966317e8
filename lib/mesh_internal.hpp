// Internals shared by the meshers: sample views, the meshing task, gradients and paint.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "lib/grid.hpp"
#include "lib/mesh.hpp"

namespace voxkit::mesh_detail {

using Vec3 = std::array<float, 3>;

// A box of samples in memory, addressed by whole-grid sample coordinates lo..hi (inclusive).
// Every read goes through `at`, which asserts the box: a mesher never reads outside it.
struct View {
  const uint8_t* data = nullptr;  // sample lo
  int64_t lo[3]{0, 0, 0}, hi[3]{0, 0, 0};
  int64_t sy = 0, sz = 0;  // strides of y and z

  bool empty() const { return data == nullptr; }
  bool contains(int64_t x, int64_t y, int64_t z) const {
    return x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] && z >= lo[2] && z <= hi[2];
  }
  // Pointer to sample (x, y, z); the row of x values from there is contiguous.
  const uint8_t* ptr(int64_t x, int64_t y, int64_t z) const {
    assert(contains(x, y, z));
    return data + (x - lo[0]) + sy * (y - lo[1]) + sz * (z - lo[2]);
  }
  uint8_t at(int64_t x, int64_t y, int64_t z) const { return *ptr(x, y, z); }
};

// A view of a whole grid.
View whole_view(const ByteGrid& g);
// A view of a buffer holding just a chunk sample box, x fastest.
View buffer_view(const uint8_t* data, const ChunkSampleBox& box);

// What a mesher is asked to do: mesh the owned cells [own_lo, own_hi) of a grid of `cells`
// from the samples in `sdf`, which holds at least samples own_lo - 1 .. own_hi (clipped).
struct Task {
  Dims cells;
  uint32_t chunk_cells = 16;  // selects the normal rule near chunk planes
  View sdf;
  View paint;  // empty when there is no paint
  uint32_t layer_count = 0;
  PaintSlots slots;
  int64_t own_lo[3]{0, 0, 0}, own_hi[3]{0, 0, 0};
  bool normals = true;

  int64_t n(int a) const { return a == 0 ? cells.nx : a == 1 ? cells.ny : cells.nz; }
};

void surface_nets(const Task& t, Mesh& out);
void marching_cubes(const Task& t, Mesh& out);

// --- Normals (mesh_normals.cpp) ---------------------------------------------------------
// Gradient of the SDF at corner `corner` (bit 0 x, 1 y, 2 z) of cell `cell`, for Surface
// Nets: central differences, one-sided at the grid border, and along an axis on which the
// cell straddles a chunk plane the cell's own two samples (so both chunks agree).
Vec3 sn_corner_gradient(const Task& t, const int64_t cell[3], int corner);
// Gradient of the SDF at a sample, for Marching Cubes: central differences, one-sided at
// the grid border, and backward on a chunk plane (both chunks hold the sample before it).
Vec3 mc_sample_gradient(const Task& t, int64_t x, int64_t y, int64_t z);
// Unit vector along g; straight up when g vanishes.
Vec3 normalized(Vec3 g);

// --- Paint (mesh_paint.cpp) -------------------------------------------------------------
// Per paint byte: the slot it weighs on (0..3), 4 for dug soil, 5 for none (auto, a layer
// outside the slots, or a value above 17).
struct PaintClasses {
  uint8_t of[256];
};
PaintClasses paint_classes(const PaintSlots& slots, uint32_t layer_count);
// The slots of the paint samples in a view.
PaintSlots view_slots(const View& paint, uint32_t layer_count);
// Terrain layer of a paint byte, or -1 (auto, dug soil, invalid).
inline int paint_layer(uint8_t p) {
  if (p >= 1 && p <= 4) return p - 1;
  if (p >= 6 && p <= 17) return p - 2;
  return -1;
}
inline constexpr uint8_t kPaintDug = 5;

// Marching Cubes tables (mc_tables.cpp): triangle list per cube case, -1 terminated.
extern const int8_t kMcTriangles[256][16];
// Bit e set when edge e of the cube has a vertex in that case (derived from the corners).
extern const std::array<uint16_t, 256> kMcEdges;

}  // namespace voxkit::mesh_detail
