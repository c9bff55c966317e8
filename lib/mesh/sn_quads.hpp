// Surface Nets quads: a crossing edge's quad as four vertex indices, and the writing of
// listed quads as triangles split on their shorter diagonals (sn_quads.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/mesh/mesh_internal.hpp"

namespace voxkit::mesh_detail {

// A quad's four vertices counter-clockwise seen from the air.
struct QuadRef {
  uint32_t q[4];
};

// The quad of a crossing edge: c00..c01 go counter-clockwise seen from the edge's +axis
// end, which is the air side when the edge's low sample is solid.
inline void quad_ref(QuadRef& r, bool low_solid, uint32_t c00, uint32_t c10, uint32_t c11,
                     uint32_t c01) {
  const uint32_t solid = 0u - uint32_t(low_solid);
  r.q[0] = c00;
  r.q[1] = c01 ^ ((c10 ^ c01) & solid);
  r.q[2] = c11;
  r.q[3] = c10 ^ ((c01 ^ c10) & solid);
}

// Writes the n quads listed at r as triangles of the vertices at pos (arrays readable as
// 16 bytes per element: they have one spare element) to indices, six per quad: each quad
// split on its shorter diagonal, q0-q2 on a tie. Two quads a step with AVX2 where the CPU
// has it; every path makes the same choices.
void emit_quads(const QuadRef* r, size_t n, const Vec3* pos, uint32_t* indices);

}  // namespace voxkit::mesh_detail
