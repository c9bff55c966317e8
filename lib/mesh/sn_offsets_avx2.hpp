// The Surface Nets vertex offsets of eight cells from their corner samples with AVX2, shared
// by sn_offsets' eight-cell kernel and SnNormals' fused batch so that both compute the same
// bits by the same operations.
#pragma once

#include <array>
#include <cstdint>

#include "lib/mesh/mesh.hpp"
#include "lib/core/simd_avx2.hpp"

namespace voxkit::mesh_detail::sn_offsets_detail {

// The low corners of the four edges along each axis (corner bits: 1 x, 2 y, 4 z); an
// edge's high corner is its low corner plus the axis bit.
inline constexpr int kLow[3][4] = {{0, 2, 4, 6}, {0, 1, 4, 5}, {0, 1, 2, 3}};

// 1 / count for the counts of crossing edges a cell can have (0 for none), as the division
// 1.0f / float(count) rounds it: constant folding rounds correctly, as the division does.
constexpr std::array<float, 16> make_inverses() {
  std::array<float, 16> inv{};
  for (int k = 1; k < 16; ++k) inv[size_t(k)] = 1.0f / float(k);
  return inv;
}

alignas(32) inline constexpr std::array<float, 16> kInverse = make_inverses();

#if VOXKIT_HAVE_AVX2_TARGET
#define VOXKIT_AVX2_INLINE gnu::target("avx2"), gnu::always_inline

// The crossing offset of one edge for eight cells: (127.5 - lo) / (hi - lo) where the edge
// crosses, else 0; the other lanes divide by 1 so that no lane divides by zero.
[[VOXKIT_AVX2_INLINE]] inline __m256 edge8(__m256 num, __m256 lo, __m256 hi, __m256i cross) {
  const __m256 m = _mm256_castsi256_ps(cross);
  const __m256 den = _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_sub_ps(hi, lo), m);
  return _mm256_and_ps(m, _mm256_div_ps(num, den));
}

// (e0 + e2) + (e1 + e3), the order every path adds an axis' edges in.
[[VOXKIT_AVX2_INLINE]] inline __m256 axis_sum8(__m256 e0, __m256 e1, __m256 e2, __m256 e3) {
  return _mm256_add_ps(_mm256_add_ps(e0, e2), _mm256_add_ps(e1, e3));
}

// A count from the sum of crossing masks (each 0 or -1), as a float.
[[VOXKIT_AVX2_INLINE]] inline __m256 count_of8(__m256i negative) {
  return _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_setzero_si256(), negative));
}

// The offsets (fx, fy, fz) of eight cells, a lane each, from their corner samples c[k]
// (corner k = dx + 2 dy + 4 dz, one byte value per 32-bit lane), as sn_offsets defines them.
[[VOXKIT_AVX2_INLINE]] inline void offsets8(const __m256i (&c)[8], __m256& fx, __m256& fy,
                                            __m256& fz) {
  // Corner c as floats, and whether it is air (above 127.5 exactly when its byte is above
  // 127): an edge crosses when its corners differ in that as in being solid.
  const __m256 iso = _mm256_set1_ps(kIsoLevel);
  __m256 v[8], num[7];
  __m256i air[8];
  for (int k = 0; k < 8; ++k) {
    v[k] = _mm256_cvtepi32_ps(c[k]);
    air[k] = _mm256_castps_si256(_mm256_cmp_ps(v[k], iso, _CMP_GT_OQ));
    if (k < 7) num[k] = _mm256_sub_ps(iso, v[k]);  // corner 7 is no edge's low corner
  }
  // Crossing masks and offsets of the edges along x (0-1, 2-3, 4-5, 6-7), y (0-2, 1-3,
  // 4-6, 5-7) and z (0-4, 1-5, 2-6, 3-7), in each axis' kLow order.
  __m256i x[4], y[4], z[4];
  __m256 ex[4], ey[4], ez[4];
  for (int j = 0; j < 4; ++j) {
    const int lx = kLow[0][j], ly = kLow[1][j], lz = kLow[2][j];
    x[j] = _mm256_xor_si256(air[lx], air[lx + 1]);
    y[j] = _mm256_xor_si256(air[ly], air[ly + 2]);
    z[j] = _mm256_xor_si256(air[lz], air[lz + 4]);
    ex[j] = edge8(num[lx], v[lx], v[lx + 1], x[j]);
    ey[j] = edge8(num[ly], v[ly], v[ly + 2], y[j]);
    ez[j] = edge8(num[lz], v[lz], v[lz + 4], z[j]);
  }
  // Crossing edges whose low corner has the x bit: y 1, y 3, z 1, z 3; the y bit: x 1,
  // x 3, z 2, z 3; the z bit: x 2, x 3, y 2, y 3. Masks are -1, so the sums are negative.
  const __m256i x13 = _mm256_add_epi32(x[1], x[3]), y13 = _mm256_add_epi32(y[1], y[3]);
  const __m256i z13 = _mm256_add_epi32(z[1], z[3]);
  const __m256i bx = _mm256_add_epi32(y13, z13);
  const __m256i by = _mm256_add_epi32(x13, _mm256_add_epi32(z[2], z[3]));
  const __m256i bz = _mm256_add_epi32(_mm256_add_epi32(x[2], x[3]), _mm256_add_epi32(y[2], y[3]));
  const __m256i all = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_add_epi32(x[0], x[2]), _mm256_add_epi32(y[0], y[2])),
      _mm256_add_epi32(_mm256_add_epi32(z[0], z[2]), _mm256_add_epi32(bx, x13)));
  const __m256i count = _mm256_sub_epi32(_mm256_setzero_si256(), all);
  // 1 / count from the table: counts 0..7 from its first half, 8..15 from its second
  // (bit 3 of the count, shifted to the sign bit, selects).
  const __m256 inv = _mm256_blendv_ps(
      _mm256_permutevar8x32_ps(_mm256_load_ps(kInverse.data()), count),
      _mm256_permutevar8x32_ps(_mm256_load_ps(kInverse.data() + 8), count),
      _mm256_castsi256_ps(_mm256_slli_epi32(count, 28)));
  fx = _mm256_mul_ps(_mm256_add_ps(count_of8(bx), axis_sum8(ex[0], ex[1], ex[2], ex[3])), inv);
  fy = _mm256_mul_ps(_mm256_add_ps(count_of8(by), axis_sum8(ey[0], ey[1], ey[2], ey[3])), inv);
  fz = _mm256_mul_ps(_mm256_add_ps(count_of8(bz), axis_sum8(ez[0], ez[1], ez[2], ez[3])), inv);
}

#undef VOXKIT_AVX2_INLINE
#endif

}  // namespace voxkit::mesh_detail::sn_offsets_detail
