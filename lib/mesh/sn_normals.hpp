// Surface Nets vertex gradients read straight from the samples, a batch of cells at a time:
// the same floats, bit for bit, as SnGradients' per-sample cache and blend (sn_gradients.hpp),
// with no cache to fill. Eight cells at a time with AVX2 (chosen at run time), one at a time
// with SSE2, and plain C++ otherwise.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/mesh/mesh_internal.hpp"

#include "lib/core/simd_avx2.hpp"  // VOXKIT_HAVE_AVX2_TARGET: the eight-cell path can be built

namespace voxkit::mesh_detail {

class SnNormals {
 public:
  enum class Path { Scalar, Sse2, Avx2 };

  SnNormals() : path_(best_path()) {}
  // The fastest path this machine runs.
  static Path best_path();
  // Selects a path (clamped to best_path()): tests and benchmarks compare them.
  void set_path(Path p) { path_ = p > best_path() ? best_path() : p; }
  Path path() const { return path_; }

  // For the sample box clo..chi (the cells clo..chi-1 and their corners) of task t, as
  // SnGradients::setup. The task's view must outlive the calls to slab().
  void setup(const Task& t, const int64_t (&clo)[3], const int64_t (&chi)[3]);

  // What slab() writes per cell: the gradient, unnormalised and doubled exactly as
  // SnGradients gives it, or the unit normal normalize_cell (sn_gradients.hpp) makes of it,
  // bit for bit, computed while the gradient is still in registers.
  enum class Output { Gradients, Normals };

  // The gradients (or normals) of the n cells (x[i], y[i], z) of the box, at vertex offsets
  // f[4i .. 4i+2] (each finite; f[4i+3] is ignored), to g[4i .. 4i+3] as (gx, gy, gz, 0).
  void slab(int64_t z, size_t n, const int32_t* x, const int32_t* y, const float* f, float* g,
            Output out = Output::Gradients) const;

  // sn_offsets(base, at, n, sy, sz, f) (sn_offsets.hpp; cell i has its minimum corner at
  // base + at[i], the sample (x[i], y[i], z)) and then slab(z, n, x, y, f, g, out): the same
  // bits in f and g. The AVX2 path makes one pass, taking each cell's offsets from the sample
  // rows its gradient reads. f is 16-byte aligned, as sn_offsets wants it.
  void slab_with_offsets(int64_t z, size_t n, const int32_t* x, const int32_t* y,
                         const uint8_t* base, const int32_t* at, float* f, float* g,
                         Output out = Output::Gradients) const;

  // Cell classes, per cell along an axis: the chunk-plane edge rule applies; the SSE2 path
  // cannot take it (a one-sided difference at a corner, or a neighbourhood outside the
  // readable view); the AVX2 path cannot take it. Along x, the AVX2 path also takes the
  // cells at the grid's faces and at the view's ends, each by a mode (bits kModeShift up).
  static constexpr int32_t kEdge = 1, kSlow = 2, kWideSlow = 4, kModeShift = 8;
  // The AVX2 modes: x - 1 .. x + 2 central, the edge rule reading x - 1 .. x + 2, x .. x + 3
  // or x - 2 .. x + 1, and the low and high grid faces (one-sided at one corner).
  enum XMode : int32_t { kCentral, kEdgeMid, kEdgeRight, kEdgeLeft, kFaceLo, kFaceHi };

 private:
  // Per sample along an axis: the difference (v[s + hi] - v[s + lo]) * mul, lo and hi in
  // samples, mul 2 for a one-sided difference.
  struct Sample {
    int8_t lo, hi, mul;
  };

  void cell_scalar(int64_t x, int64_t y, int64_t z, const float* f, float* g) const;
  void edge_rule(const uint8_t* p, const int32_t (&cls)[3], const float* f, float* g) const;
  void slab_sse2(int64_t z, size_t n, const int32_t* x, const int32_t* y, const float* f,
                 float* g) const;
  // With f_out, the offsets are computed into it (f is then f_out) rather than read from f.
  void slab_avx2(int64_t z, size_t n, const int32_t* x, const int32_t* y, const float* f,
                 float* f_out, float* g, Output out) const;

  View v_;
  int64_t clo_[3] = {0, 0, 0}, chi_[3] = {0, 0, 0};
  std::array<int64_t, 6> key_[3]{};  // what the tables of each axis were made for
  std::vector<Sample> sample_[3];  // per sample of the box
  std::vector<int32_t> cls_[3];    // per cell of the box: the classes
  bool wide_ok_ = false;           // sample offsets in a plane fit 32-bit lanes
  Path path_;
};

}  // namespace voxkit::mesh_detail
