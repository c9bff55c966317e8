// Vertex normals from the SDF gradient (never from faces): the difference taken at each
// sample, with a rule at chunk planes that lets two chunks holding only their own sample
// boxes give a shared vertex the same normal, bit for bit.
#include "lib/mesh/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

Diff make(int64_t lo, int64_t hi) {
  return {int8_t(lo), int8_t(hi), hi - lo == 2 ? 0.5f : 1.0f};
}

}  // namespace

std::array<Diff, 2> sn_cell_rule(int64_t i, int64_t n, int64_t cc) {
  if ((i + 1) % cc == 0 && i + 1 < n) {
    // The cell straddles a chunk plane: the chunks on either side share only its samples.
    return {make(0, 1), make(-1, 0)};
  }
  std::array<Diff, 2> r;
  for (int o = 0; o < 2; ++o) {
    const int64_t s = i + o;
    r[size_t(o)] = make(s > 0 ? -1 : 0, s < n ? 1 : 0);
  }
  return r;
}

Diff mc_sample_rule(int64_t s, int64_t n, int64_t cc) {
  if (s == 0) return make(0, 1);
  // Grid border, or a chunk plane: the chunk below holds no sample after it.
  if (s == n || s % cc == 0) return make(-1, 0);
  return make(-1, 1);
}

}  // namespace voxkit::mesh_detail
