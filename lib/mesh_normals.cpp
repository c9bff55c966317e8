// Vertex normals from the SDF gradient (never from faces), with a rule at chunk planes that
// lets two chunks holding only their own sample boxes give a shared vertex the same normal.
#include <algorithm>
#include <cmath>

#include "lib/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

// (v[hi] - v[lo]) / (hi - lo) along axis a through sample p; hi - lo is 1 or 2.
inline float difference(const View& v, const int64_t p[3], int a, int64_t lo, int64_t hi) {
  int64_t q[3] = {p[0], p[1], p[2]};
  q[a] = lo;
  int va = v.at(q[0], q[1], q[2]);
  q[a] = hi;
  int vb = v.at(q[0], q[1], q[2]);
  float d = float(vb - va);
  return hi - lo == 2 ? d * 0.5f : d;
}

}  // namespace

Vec3 sn_corner_gradient(const Task& t, const int64_t cell[3], int corner) {
  const int64_t s[3] = {cell[0] + (corner & 1), cell[1] + ((corner >> 1) & 1),
                        cell[2] + ((corner >> 2) & 1)};
  const int64_t cc = t.chunk_cells;
  Vec3 g;
  for (int a = 0; a < 3; ++a) {
    const int64_t n = t.n(a), i = cell[a];
    int64_t lo, hi;
    if ((i + 1) % cc == 0 && i + 1 < n) {
      // The cell straddles a chunk plane: the chunks on either side share only its samples.
      lo = i;
      hi = i + 1;
    } else {
      lo = std::max<int64_t>(s[a] - 1, 0);
      hi = std::min<int64_t>(s[a] + 1, n);
    }
    g[a] = difference(t.sdf, s, a, lo, hi);
  }
  return g;
}

Vec3 mc_sample_gradient(const Task& t, int64_t x, int64_t y, int64_t z) {
  const int64_t s[3] = {x, y, z};
  const int64_t cc = t.chunk_cells;
  Vec3 g;
  for (int a = 0; a < 3; ++a) {
    const int64_t n = t.n(a), i = s[a];
    int64_t lo, hi;
    if (i == 0) {
      lo = 0;
      hi = 1;
    } else if (i == n || i % cc == 0) {
      // Grid border, or a chunk plane: the chunk below holds no sample after it.
      lo = i - 1;
      hi = i;
    } else {
      lo = i - 1;
      hi = i + 1;
    }
    g[a] = difference(t.sdf, s, a, lo, hi);
  }
  return g;
}

Vec3 normalized(Vec3 g) {
  float len2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
  if (!(len2 > 0.0f)) return {0.0f, 1.0f, 0.0f};
  float inv = 1.0f / std::sqrt(len2);
  return {g[0] * inv, g[1] * inv, g[2] * inv};
}

}  // namespace voxkit::mesh_detail
