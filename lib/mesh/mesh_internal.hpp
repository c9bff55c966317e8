// Internals shared by the meshers: sample views, the meshing task, gradients and paint.
#pragma once

#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/mesh/mesh.hpp"

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
  // The same samples seen as the box lo..hi (inclusive), which must lie inside this view.
  View narrowed(const int64_t (&box_lo)[3], const int64_t (&box_hi)[3]) const {
    View v = *this;
    v.data = ptr(box_lo[0], box_lo[1], box_lo[2]);
    for (int a = 0; a < 3; ++a) {
      v.lo[a] = box_lo[a];
      v.hi[a] = box_hi[a];
    }
    assert(contains(box_hi[0], box_hi[1], box_hi[2]));
    return v;
  }
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

// Bits below `n` of word k (the valid cells or samples of a row of n).
inline uint64_t word_limit(int64_t k, int64_t n) {
  const int64_t left = n - 64 * k;
  return left >= 64 ? ~uint64_t(0) : left <= 0 ? 0 : (uint64_t(1) << left) - 1;
}

// Set bits of a word, without a library call on CPUs the build does not assume POPCNT on.
inline uint64_t bit_count(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (v * 0x0101010101010101ull) >> 56;
}

// Solid bits (byte below 128) of every sample row of a box, 64 samples a word, so the
// meshers find the cells with a sign change and the crossing edges a word at a time.
class SolidBits {
 public:
  // The ways the bits are found: a byte at a time (eight with 64-bit arithmetic), sixteen
  // with SSE2, thirty-two with AVX2 (x86 CPUs that have it, detected at run time). All give
  // the same bits; none reads a byte outside the box's rows.
  enum class Path { Scalar, Sse2, Avx2 };
  // The fastest path this machine runs (decided once).
  static Path best_path();

  // Covers samples lo..hi (inclusive) of the view; keeps the bits in `storage` (scratch
  // space the caller reuses from chunk to chunk).
  SolidBits(const View& v, const int64_t lo[3], const int64_t hi[3],
            std::vector<uint64_t>& storage)
      : SolidBits(v, lo, hi, storage, best_path()) {}
  // The same with a given path (clamped to best_path()): tests and benchmarks compare them.
  SolidBits(const View& v, const int64_t lo[3], const int64_t hi[3],
            std::vector<uint64_t>& storage, Path path);
  const uint64_t* row(int64_t y, int64_t z) const {
    return bits_ + words_ * ((y - lo_[1]) + ny_ * (z - lo_[2]));
  }
  int64_t words() const { return words_; }
  int64_t x0() const { return lo_[0]; }
  // Word k of row r shifted down by one sample (bit i = sample i + 1).
  uint64_t next(const uint64_t* r, int64_t k) const {
    return (r[k] >> 1) | (k + 1 < words_ ? r[k + 1] << 63 : 0);
  }
  // Word k of the cells of row (y, z) whose eight corners are not all on one side;
  // cell x is bit x - x0() and only cells x0() .. x0() + cells - 1 are set.
  uint64_t mixed(int64_t y, int64_t z, int64_t k, int64_t cells) const {
    return mixed_at(row(y, z), k, word_limit(k, cells));
  }
  // The same for the row at r (from row()), with the valid-cell bits of word k given.
  uint64_t mixed_at(const uint64_t* r0, int64_t k, uint64_t valid) const {
    const uint64_t* r1 = r0 + words_;
    const uint64_t* r2 = r0 + words_ * ny_;
    const uint64_t* r3 = r2 + words_;
    const uint64_t any = r0[k] | r1[k] | r2[k] | r3[k];
    const uint64_t all = r0[k] & r1[k] & r2[k] & r3[k];
    const uint64_t n0 = next(r0, k), n1 = next(r1, k), n2 = next(r2, k), n3 = next(r3, k);
    return (any | n0 | n1 | n2 | n3) & ~(all & n0 & n1 & n2 & n3) & valid;
  }
  int64_t rows_y() const { return ny_; }
  // Every sample of the box on one side: no cell has a sign change.
  bool uniform() const { return uniform_; }

 private:
  int64_t lo_[3], hi_[3];
  int64_t ny_, words_;
  const uint64_t* bits_;
  bool uniform_ = true;
};


// The meshers. They choose the paint slots (when there is paint) once they know the box
// has a surface, so Task is theirs to complete.
void surface_nets(Task& t, Mesh& out);
// Surface Nets over a task owning cells along x in parts of `part_cells` (the last part may
// be shorter): outs[j] gets the mesh of part j, the same mesh a task owning just that part's
// cells would make; the vertices shared by neighbouring parts are computed once.
void surface_nets_parts(Task& t, int64_t part_cells, Mesh* outs);
void marching_cubes(Task& t, Mesh& out);

// --- Normals (mesh_normals.cpp) ---------------------------------------------------------
// One difference along an axis at a sample s: (v[s + hi] - v[s + lo]) * scale, where lo and
// hi are sample offsets (-1, 0 or 1) and scale is 1 / (hi - lo).
struct Diff {
  int8_t lo, hi;
  float scale;
};
// Surface Nets, per cell i of n along an axis: the differences at its corners i and i + 1.
// Central, one-sided at the grid border; when the cell straddles a chunk plane (i + 1 is a
// multiple of the chunk size inside the grid) both use the cell's own two samples, the only
// ones the chunks on either side both hold.
std::array<Diff, 2> sn_cell_rule(int64_t i, int64_t n, int64_t cc);
// Marching Cubes, at sample s of n along an axis: central, one-sided at the grid border,
// and backward on a chunk plane (the chunk below it holds no sample after it).
Diff mc_sample_rule(int64_t s, int64_t n, int64_t cc);

// Unit vector along g; straight up when g vanishes.
inline Vec3 normalized(const Vec3& g) {
  const float len2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
  if (!(len2 > 0.0f)) return {0.0f, 1.0f, 0.0f};
  const float inv = 1.0f / std::sqrt(len2);
  return {g[0] * inv, g[1] * inv, g[2] * inv};
}

// 1 / d for d = -255 .. 255 at index d + 255 (index 255, d = 0, holds 0).
extern const std::array<float, 511> kReciprocal;

// --- Paint (mesh_paint.cpp) -------------------------------------------------------------
// Per paint byte: the slot it weighs on (0..3), 4 for dug soil, 5 for none (auto, a layer
// outside the slots, or a value above 17).
struct PaintClasses {
  uint8_t of[256];
};
PaintClasses paint_classes(const PaintSlots& slots, uint32_t layer_count);
// The slots of the paint samples in a view.
PaintSlots view_slots(const View& paint, uint32_t layer_count);
// When the task has paint: chooses its slots from its paint view, and returns the classes.
PaintClasses prepare_paint(Task& t);
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
