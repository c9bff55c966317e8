// Surface Nets vertex offsets in batches: plain C++, SSE2 one cell a step, and AVX2 eight
// cells a step (structure of arrays: one vector per corner and per edge), chosen at run time.
#include "lib/mesh/sn_offsets.hpp"

#include <array>
#include <cassert>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "lib/core/simd_avx2.hpp"
#include "lib/mesh/sn_offsets_avx2.hpp"

#include "lib/mesh/mesh.hpp"

namespace voxkit::mesh_detail {

namespace {

using sn_offsets_detail::kInverse;
using sn_offsets_detail::kLow;

// Per corner solid mask: per axis the number of crossing edges whose low corner has that
// axis' bit set, and 1 / the number of crossing edges (0 when none), ready to load as one
// vector.
struct alignas(16) CellCase {
  float base[3] = {0, 0, 0};
  float inv = 0;
};

constexpr std::array<CellCase, 256> make_cases() {
  std::array<CellCase, 256> cases{};
  for (unsigned mask = 0; mask < 256; ++mask) {
    int count = 0, base[3] = {0, 0, 0};
    for (int axis = 0; axis < 3; ++axis)
      for (int j = 0; j < 4; ++j) {
        const int lo = kLow[axis][j], hi = lo + (1 << axis);
        if (!(((mask >> lo) ^ (mask >> hi)) & 1u)) continue;
        ++count;
        for (int k = 0; k < 3; ++k) base[k] += (lo >> k) & 1;
      }
    for (int k = 0; k < 3; ++k) cases[mask].base[k] = float(base[k]);
    cases[mask].inv = kInverse[size_t(count)];
  }
  return cases;
}

constexpr std::array<CellCase, 256> kCases = make_cases();

void offsets_scalar(const uint8_t* base, const int32_t* offset, size_t n, int64_t sy,
                    int64_t sz, float* f_out) {
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = base + offset[i];
    int v[8];
    unsigned mask = 0;
    for (int c = 0; c < 8; ++c) {
      v[c] = p[(c & 1) + ((c >> 1) & 1) * sy + ((c >> 2) & 1) * sz];
      mask |= unsigned(v[c] < 128) << c;
    }
    const CellCase& cs = kCases[mask];
    for (int axis = 0; axis < 3; ++axis) {
      float e[4];
      for (int j = 0; j < 4; ++j) {
        const int lo = kLow[axis][j], hi = lo + (1 << axis);
        const bool cross = (v[lo] < 128) != (v[hi] < 128);
        e[j] = cross ? (kIsoLevel - float(v[lo])) / float(v[hi] - v[lo]) : 0.0f;
      }
      f_out[4 * i + size_t(axis)] = (cs.base[axis] + ((e[0] + e[2]) + (e[1] + e[3]))) * cs.inv;
    }
    f_out[4 * i + 3] = 0.0f;
  }
}

#if defined(__SSE2__)
// One cell a step: the eight corners as one vector, the twelve edges as three vectors of
// four (one per axis), the edges that do not cross masked to zero.
void offsets_sse2(const uint8_t* base, const int32_t* offset, size_t n, int64_t sy, int64_t sz,
                  float* f_out) {
  const __m128 iso = _mm_set1_ps(kIsoLevel), one = _mm_set1_ps(1.0f);
  const __m128 xyz = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = base + offset[i];
    uint16_t pair[4];  // corners (0, 1), (2, 3), (4, 5), (6, 7)
    std::memcpy(&pair[0], p, 2);
    std::memcpy(&pair[1], p + sy, 2);
    std::memcpy(&pair[2], p + sz, 2);
    std::memcpy(&pair[3], p + sy + sz, 2);
    uint64_t packed;
    std::memcpy(&packed, pair, 8);
    const __m128i bytes = _mm_cvtsi64_si128(int64_t(packed));
    // The top bit of a byte is clear exactly when the byte is below 128.
    const unsigned mask = ~unsigned(_mm_movemask_epi8(bytes)) & 0xffu;
    const __m128i wide = _mm_unpacklo_epi8(bytes, _mm_setzero_si128());
    const __m128 lo = _mm_cvtepi32_ps(_mm_unpacklo_epi16(wide, _mm_setzero_si128()));
    const __m128 hi = _mm_cvtepi32_ps(_mm_unpackhi_epi16(wide, _mm_setzero_si128()));
    auto axis = [&](__m128 a, __m128 b) {
      const __m128 cross = _mm_xor_ps(_mm_cmplt_ps(a, iso), _mm_cmplt_ps(b, iso));
      const __m128 den = _mm_or_ps(_mm_and_ps(cross, _mm_sub_ps(b, a)), _mm_andnot_ps(cross, one));
      return _mm_and_ps(cross, _mm_div_ps(_mm_sub_ps(iso, a), den));
    };
    const __m128 ex = axis(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1)));
    const __m128 ey = axis(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(1, 0, 1, 0)),
                           _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 2, 3, 2)));
    const __m128 ez = axis(lo, hi);
    // Transposed sums: u = (x0 + x2, y0 + y2, x1 + x3, y1 + y3), v = (z0 + z2, 0, z1 + z3, 0).
    const __m128 u = _mm_add_ps(_mm_unpacklo_ps(ex, ey), _mm_unpackhi_ps(ex, ey));
    const __m128 v = _mm_add_ps(_mm_unpacklo_ps(ez, _mm_setzero_ps()),
                                _mm_unpackhi_ps(ez, _mm_setzero_ps()));
    const __m128 sum = _mm_add_ps(_mm_movelh_ps(u, v), _mm_movehl_ps(v, u));
    const __m128 c = _mm_load_ps(kCases[mask].base);
    const __m128 f = _mm_mul_ps(_mm_add_ps(c, sum), _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 3, 3)));
    _mm_store_ps(f_out + 4 * i, _mm_and_ps(f, xyz));
  }
}
#endif

#if VOXKIT_HAVE_AVX2_TARGET
#define VOXKIT_AVX2 gnu::target("avx2"), gnu::always_inline

// Eight cells with minimum corners at base + at[0..7]: writes 32 floats to out.
[[VOXKIT_AVX2]] inline void step8(const uint8_t* base, const int32_t* at, int64_t sy, int64_t sz,
                                  float* out) {
  // The corner bytes, one vector per corner. Eight cells in a run along x (as a row's
  // mixed cells usually are) share their samples: each row's 9 bytes are read as the 8
  // from the first cell's corner and the 8 from the next sample. Other cells are read a
  // pair a time.
  const __m256i low = _mm256_set1_epi32(0xff);
  const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
  const __m256i run = _mm256_add_epi32(_mm256_set1_epi32(at[0]), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i c[8];
  if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(idx, run)) == -1) {
    const uint8_t* p = base + at[0];
    const int64_t row[4] = {0, sy, sz, sy + sz};
    for (int r = 0; r < 4; ++r) {
      c[2 * r] = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + row[r])));
      c[2 * r + 1] =
          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + row[r] + 1)));
    }
  } else {
    const __m256i rows[4] = {simd::row_pairs(base, at), simd::row_pairs(base + sy, at),
                             simd::row_pairs(base + sz, at), simd::row_pairs(base + sy + sz, at)};
    for (int r = 0; r < 4; ++r) {
      c[2 * r] = _mm256_and_si256(rows[r], low);
      c[2 * r + 1] = _mm256_srli_epi32(rows[r], 8);
    }
  }
  __m256 fx, fy, fz;
  sn_offsets_detail::offsets8(c, fx, fy, fz);
  simd::store_xyz0(out, fx, fy, fz);
}

[[gnu::target("avx2")]] void offsets_avx2(const uint8_t* base, const int32_t* offset, size_t n,
                                          int64_t sy, int64_t sz, float* f_out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) step8(base, offset + i, sy, sz, f_out + 4 * i);
  if (i == n) return;
  // The last few cells: as the last eight when there are eight (those already done are
  // done again, to the same bits), else padded with copies of the last cell.
  if (n >= 8) {
    step8(base, offset + n - 8, sy, sz, f_out + 4 * (n - 8));
    return;
  }
  int32_t at[8];
  alignas(32) float out[32];
  for (size_t k = 0; k < 8; ++k) at[k] = offset[k < n ? k : n - 1];
  step8(base, at, sy, sz, out);
  std::memcpy(f_out, out, n * 4 * sizeof(float));
}

#undef VOXKIT_AVX2

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
#endif

}  // namespace

bool sn_offsets_supported(OffsetsKernel k) {
  switch (k) {
    case OffsetsKernel::scalar:
      return true;
    case OffsetsKernel::sse2:
#if defined(__SSE2__)
      return true;
#else
      return false;
#endif
    case OffsetsKernel::avx2: {
#if VOXKIT_HAVE_AVX2_TARGET
      static const bool has = cpu_has_avx2();
      return has;
#else
      return false;
#endif
    }
  }
  return false;
}

OffsetsKernel sn_offsets_best() {
  static const OffsetsKernel best = sn_offsets_supported(OffsetsKernel::avx2)
                                        ? OffsetsKernel::avx2
                                    : sn_offsets_supported(OffsetsKernel::sse2)
                                        ? OffsetsKernel::sse2
                                        : OffsetsKernel::scalar;
  return best;
}

void sn_offsets_with(OffsetsKernel k, const uint8_t* base, const int32_t* offset, size_t n,
                     int64_t sy, int64_t sz, float* f_out) {
  assert(sn_offsets_supported(k));
  assert(reinterpret_cast<uintptr_t>(f_out) % 16 == 0);
  switch (k) {
#if VOXKIT_HAVE_AVX2_TARGET
    case OffsetsKernel::avx2:
      offsets_avx2(base, offset, n, sy, sz, f_out);
      return;
#endif
#if defined(__SSE2__)
    case OffsetsKernel::sse2:
      offsets_sse2(base, offset, n, sy, sz, f_out);
      return;
#endif
    default:
      offsets_scalar(base, offset, n, sy, sz, f_out);
      return;
  }
}

void sn_offsets(const uint8_t* base, const int32_t* offset, size_t n, int64_t sy, int64_t sz,
                float* f_out) {
  sn_offsets_with(sn_offsets_best(), base, offset, n, sy, sz, f_out);
}

}  // namespace voxkit::mesh_detail
