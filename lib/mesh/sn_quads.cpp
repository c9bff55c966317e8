// Listed Surface Nets quads written as triangles (sn_quads.hpp): the squared diagonals by
// the same IEEE operations on every path, two quads a step with AVX2 (chosen at run time).
#include "lib/mesh/sn_quads.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/core/simd_avx2.hpp"

namespace voxkit::mesh_detail {

namespace {

// Writes quad r (q0..q3 counter-clockwise seen from the air) as two triangles, split on its
// first diagonal (q0-q2) when `le`, else on the other.
inline void write_quad(const QuadRef& r, uint32_t* indices, bool le) {
  const uint32_t q0 = r.q[0], q1 = r.q[1], q2 = r.q[2], q3 = r.q[3];
  // (q0, q1, q2), (q0, q2, q3) on the first diagonal, else (q1, q2, q3), (q1, q3, q0). The
  // choice is a mask, not a jump: it is a coin toss the branch predictor would often lose.
  const uint32_t first = 0u - uint32_t(le);
  auto pick = [first](uint32_t yes, uint32_t no) { return no ^ ((yes ^ no) & first); };
  const uint32_t p0 = pick(q0, q1), p1 = pick(q1, q2), p2 = pick(q2, q3), p3 = pick(q3, q0);
  indices[0] = p0, indices[1] = p1, indices[2] = p2, indices[3] = p0, indices[4] = p2,
  indices[5] = p3;
}

inline void emit_quad(const QuadRef& r, const Vec3* pos, uint32_t* indices) {
  const uint32_t q0 = r.q[0], q1 = r.q[1], q2 = r.q[2], q3 = r.q[3];
  // The squared diagonals, each summed as (dx * dx + dy * dy) + dz * dz.
#if defined(__SSE2__)
  // Positions are readable as 16 bytes (the arrays have one spare element).
  auto load = [pos](uint32_t i) { return _mm_loadu_ps(pos[i].data()); };
  const __m128 a = _mm_sub_ps(load(q0), load(q2)), b = _mm_sub_ps(load(q1), load(q3));
  const __m128 sa = _mm_mul_ps(a, a), sb = _mm_mul_ps(b, b);
  const __m128 lo = _mm_unpacklo_ps(sa, sb);  // (ax², bx², ay², by²)
  const __m128 d = _mm_add_ps(_mm_add_ps(lo, _mm_movehl_ps(lo, lo)), _mm_unpackhi_ps(sa, sb));
  const bool le = _mm_movemask_ps(_mm_cmple_ss(d, _mm_shuffle_ps(d, d, 1))) & 1;
#else
  auto d2 = [&](uint32_t i, uint32_t j) {
    const Vec3& a = pos[i];
    const Vec3& b = pos[j];
    const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
  };
  const bool le = d2(q0, q2) <= d2(q1, q3);
#endif
  write_quad(r, indices, le);
}

#if VOXKIT_HAVE_AVX2_TARGET
// Two quads a step, one in each 128-bit half, by the same operations as emit_quad.
[[gnu::target("avx2")]] void emit_quads_avx2(const QuadRef* r, size_t n, const Vec3* pos,
                                             uint32_t* indices) {
  size_t q = 0;
  for (; q + 2 <= n; q += 2, indices += 12) {
    const QuadRef& u = r[q];
    const QuadRef& v = r[q + 1];
    auto pair = [&](int k) __attribute__((target("avx2"))) {
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(pos[u.q[k]].data())),
                                  _mm_loadu_ps(pos[v.q[k]].data()), 1);
    };
    const __m256 a = _mm256_sub_ps(pair(0), pair(2)), b = _mm256_sub_ps(pair(1), pair(3));
    const __m256 sa = _mm256_mul_ps(a, a), sb = _mm256_mul_ps(b, b);
    const __m256 lo = _mm256_unpacklo_ps(sa, sb);  // (ax², bx², ay², by²) per half
    const __m256 d = _mm256_add_ps(_mm256_add_ps(lo, _mm256_permute_ps(lo, _MM_SHUFFLE(3, 2, 3, 2))),
                                   _mm256_unpackhi_ps(sa, sb));
    // Per half, all ones when the quad takes its first diagonal (lane 0's test, broadcast).
    const __m256 first = _mm256_permute_ps(
        _mm256_cmp_ps(d, _mm256_permute_ps(d, _MM_SHUFFLE(1, 1, 1, 1)), _CMP_LE_OQ),
        _MM_SHUFFLE(0, 0, 0, 0));
    // The six indices as write_quad gives them, by a lane permutation of the quad's four:
    // (q0 q1 q2 q0 | q2 q3) on the first diagonal, (q1 q2 q3 q1 | q3 q0) on the other.
    const __m256i tri = _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(_mm256_setr_epi32(1, 2, 3, 1, 1, 2, 3, 1)),
        _mm256_castsi256_ps(_mm256_setr_epi32(0, 1, 2, 0, 0, 1, 2, 0)), first));
    const __m256i rest = _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(_mm256_setr_epi32(3, 0, 0, 0, 3, 0, 0, 0)),
        _mm256_castsi256_ps(_mm256_setr_epi32(2, 3, 0, 0, 2, 3, 0, 0)), first));
    const __m256 qs = _mm256_insertf128_ps(
        _mm256_castps128_ps256(_mm_loadu_ps(reinterpret_cast<const float*>(u.q))),
        _mm_loadu_ps(reinterpret_cast<const float*>(v.q)), 1);
    const __m256i head = _mm256_castps_si256(_mm256_permutevar_ps(qs, tri));
    const __m256i tail = _mm256_castps_si256(_mm256_permutevar_ps(qs, rest));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(indices), _mm256_castsi256_si128(head));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(indices + 4), _mm256_castsi256_si128(tail));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(indices + 6), _mm256_extracti128_si256(head, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(indices + 10), _mm256_extracti128_si256(tail, 1));
  }
  if (q < n) emit_quad(r[q], pos, indices);
}
#endif

}  // namespace

void emit_quads(const QuadRef* r, size_t n, const Vec3* pos, uint32_t* indices) {
#if VOXKIT_HAVE_AVX2_TARGET
  if (simd::has_avx2()) return emit_quads_avx2(r, n, pos, indices);
#endif
  for (size_t q = 0; q < n; ++q) emit_quad(r[q], pos, indices + 6 * q);
}

}  // namespace voxkit::mesh_detail
