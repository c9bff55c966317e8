// What the AVX2 batch kernels share: whether this compiler can build AVX2 functions in a
// baseline x86 build (GCC or Clang function targets; the CPU is asked at run time), whether
// this CPU runs them, the choice of a kernel's path, and the store of eight cells'
// (x, y, z, 0) from three vectors of eight lanes.
#pragma once

#if defined(__SSE2__) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VOXKIT_HAVE_AVX2_TARGET 1
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#else
#define VOXKIT_HAVE_AVX2_TARGET 0
#endif

#if VOXKIT_HAVE_AVX2_TARGET
namespace voxkit::simd {

// Whether this CPU runs AVX2 (asked once).
inline bool has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

// Whether this CPU runs the AVX-512 kernels: foundation, doubleword and quadword, vector length
// and byte and word instructions (asked once).
inline bool has_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  return yes;
}

// Writes (x[i], y[i], z[i], 0) to out[4i .. 4i + 3] for the eight lanes i: 4x4 transposes
// in each 128-bit half, then the halves paired so that each store writes two consecutive
// cells.
[[gnu::target("avx2"), gnu::always_inline]] inline void store_xyz0(float* out, __m256 x,
                                                                   __m256 y, __m256 z) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y);
  const __m256 t2 = _mm256_unpacklo_ps(z, zero), t3 = _mm256_unpackhi_ps(z, zero);
  const __m256 r0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));  // cells 0, 4
  const __m256 r1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));  // cells 1, 5
  const __m256 r2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));  // cells 2, 6
  const __m256 r3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));  // cells 3, 7
  _mm256_storeu_ps(out, _mm256_permute2f128_ps(r0, r1, 0x20));
  _mm256_storeu_ps(out + 8, _mm256_permute2f128_ps(r2, r3, 0x20));
  _mm256_storeu_ps(out + 16, _mm256_permute2f128_ps(r0, r1, 0x31));
  _mm256_storeu_ps(out + 24, _mm256_permute2f128_ps(r2, r3, 0x31));
}

// The byte pairs (x, x + 1) at row + at[0..7] (eight cells' corner pairs in one sample row),
// as 32-bit lanes holding the pair's first byte in bits 0-7 and its second in bits 8-15.
// Loaded a pair at a time (gathers are slower on some CPUs, and a pair reads no byte past
// the cell).
[[gnu::target("avx2"), gnu::always_inline]] inline __m256i row_pairs(const uint8_t* row, const int32_t* at) {
  auto pair = [row, at](int k) {
    uint16_t w;
    std::memcpy(&w, row + at[k], 2);
    return int(w);
  };
  __m128i r = _mm_cvtsi32_si128(pair(0));
  r = _mm_insert_epi16(r, pair(1), 1);
  r = _mm_insert_epi16(r, pair(2), 2);
  r = _mm_insert_epi16(r, pair(3), 3);
  r = _mm_insert_epi16(r, pair(4), 4);
  r = _mm_insert_epi16(r, pair(5), 5);
  r = _mm_insert_epi16(r, pair(6), 6);
  r = _mm_insert_epi16(r, pair(7), 7);
  return _mm256_cvtepu16_epi32(r);
}

}  // namespace voxkit::simd
#endif

namespace voxkit::simd {

// The fastest of a kernel's paths this machine runs, for a Path enum with Scalar, Sse2 and
// Avx2: AVX2 where the CPU has it (asked once), else SSE2 where the build has it.
template <class Path>
Path best_path() {
#if VOXKIT_HAVE_AVX2_TARGET
  return has_avx2() ? Path::Avx2 : Path::Sse2;
#elif defined(__SSE2__)
  return Path::Sse2;
#else
  return Path::Scalar;
#endif
}

}  // namespace voxkit::simd
