// Blade rotations eight or more at a time (see rotation_batch.hpp): the primitives of each
// build, then the kernel (rotation_lanes.inc) over them, then the choice at run time.

// GCC 12's AVX-512 conversion intrinsics start from a deliberately undefined register, which
// -Wuninitialized reports at every use once they are inlined here: a false report.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "lib/grass/rotation_batch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "lib/core/simd_avx2.hpp"
#include "lib/grass/grass_math.hpp"

namespace voxkit::grass::detail {

#if VOXKIT_HAVE_AVX2_TARGET
namespace {

// --- AVX2: eight double lanes as two four-lane registers --------------------------------------
namespace lanes_avx2 {

#define VX gnu::target("avx2"), gnu::always_inline
#define VXF gnu::target("avx2")

constexpr size_t kLanes = 8;
struct D {
  __m256d a, b;
};
using DM = D;
using F = __m256;
using FM = __m256;

[[VX]] inline D dv(double v) {
  const __m256d x = _mm256_set1_pd(v);
  return {x, x};
}
[[VX]] inline D add(D x, D y) { return {_mm256_add_pd(x.a, y.a), _mm256_add_pd(x.b, y.b)}; }
[[VX]] inline D sub(D x, D y) { return {_mm256_sub_pd(x.a, y.a), _mm256_sub_pd(x.b, y.b)}; }
[[VX]] inline D mul(D x, D y) { return {_mm256_mul_pd(x.a, y.a), _mm256_mul_pd(x.b, y.b)}; }
template <int P>
[[VX]] inline DM cmp(D x, D y) {
  return {_mm256_cmp_pd(x.a, y.a, P), _mm256_cmp_pd(x.b, y.b, P)};
}
[[VX]] inline DM le(D x, D y) { return cmp<_CMP_LE_OQ>(x, y); }
[[VX]] inline DM lt(D x, D y) { return cmp<_CMP_LT_OQ>(x, y); }
[[VX]] inline DM gt(D x, D y) { return cmp<_CMP_GT_OQ>(x, y); }
[[VX]] inline DM eq(D x, D y) { return cmp<_CMP_EQ_OQ>(x, y); }
[[VX]] inline DM lor(DM x, DM y) { return {_mm256_or_pd(x.a, y.a), _mm256_or_pd(x.b, y.b)}; }
[[VX]] inline D pick(DM m, D yes, D no) { return {_mm256_blendv_pd(no.a, yes.a, m.a), _mm256_blendv_pd(no.b, yes.b, m.b)}; }
[[VX]] inline D keep(DM m, D v) { return {_mm256_and_pd(m.a, v.a), _mm256_and_pd(m.b, v.b)}; }
[[VX]] inline D negate_where(DM m, D v) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  return {_mm256_xor_pd(v.a, _mm256_and_pd(m.a, sign)), _mm256_xor_pd(v.b, _mm256_and_pd(m.b, sign))};
}
[[VX]] inline D dfloor(D x) { return {_mm256_floor_pd(x.a), _mm256_floor_pd(x.b)}; }
// The largest lane (the term counts are small whole numbers).
[[VX]] inline int max_lane(D n) {
  const __m256d m = _mm256_max_pd(n.a, n.b);
  const __m128d h = _mm_max_pd(_mm256_castpd256_pd128(m), _mm256_extractf128_pd(m, 1));
  return static_cast<int>(_mm_cvtsd_f64(_mm_max_sd(h, _mm_unpackhi_pd(h, h))));
}
[[VX]] inline D widen(F f) {
  return {_mm256_cvtps_pd(_mm256_castps256_ps128(f)), _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1))};
}
[[VX]] inline F narrow(D d) { return _mm256_set_m128(_mm256_cvtpd_ps(d.b), _mm256_cvtpd_ps(d.a)); }
// Lanes of the 64-bit integers v with bit value b set, as a mask.
[[VX]] inline __m256d bit(__m256i v, int b) {
  return _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(v, _mm256_set1_epi64x(b)), _mm256_set1_epi64x(b)));
}
[[VX]] inline void quadrant(D k, DM& odd, DM& bit2, DM& next_bit2) {
  const __m256i qa = _mm256_cvtepi32_epi64(_mm256_cvttpd_epi32(k.a));
  const __m256i qb = _mm256_cvtepi32_epi64(_mm256_cvttpd_epi32(k.b));
  const __m256i one = _mm256_set1_epi64x(1);
  odd = {bit(qa, 1), bit(qb, 1)};
  bit2 = {bit(qa, 2), bit(qb, 2)};
  next_bit2 = {bit(_mm256_add_epi64(qa, one), 2), bit(_mm256_add_epi64(qb, one), 2)};
}
[[VX]] inline D rsqrt_seed(D v) {
  const __m256i bits = _mm256_castps_si256(narrow(v));
  const __m256i seed = _mm256_sub_epi32(_mm256_set1_epi32(0x5F3759DF), _mm256_srli_epi32(bits, 1));
  return widen(_mm256_castsi256_ps(seed));
}

[[VX]] inline F fv(float v) { return _mm256_set1_ps(v); }
[[VX]] inline F add(F x, F y) { return _mm256_add_ps(x, y); }
[[VX]] inline F sub(F x, F y) { return _mm256_sub_ps(x, y); }
[[VX]] inline F mul(F x, F y) { return _mm256_mul_ps(x, y); }
[[VX]] inline F fdiv(F x, F y) { return _mm256_div_ps(x, y); }
[[VX]] inline F fsqrt(F x) { return _mm256_sqrt_ps(x); }
[[VX]] inline FM lt(F x, F y) { return _mm256_cmp_ps(x, y, _CMP_LT_OQ); }
[[VX]] inline FM le(F x, F y) { return _mm256_cmp_ps(x, y, _CMP_LE_OQ); }
[[VX]] inline FM gt(F x, F y) { return _mm256_cmp_ps(x, y, _CMP_GT_OQ); }
[[VX]] inline FM ge(F x, F y) { return _mm256_cmp_ps(x, y, _CMP_GE_OQ); }
[[VX]] inline FM eq(F x, F y) { return _mm256_cmp_ps(x, y, _CMP_EQ_OQ); }
[[VX]] inline FM land(FM x, FM y) { return _mm256_and_ps(x, y); }
[[VX]] inline F pick(FM m, F yes, F no) { return _mm256_blendv_ps(no, yes, m); }
[[VX]] inline F zero_where(FM m, F v) { return _mm256_andnot_ps(m, v); }
[[VX]] inline F negate_where(FM m, F v) { return _mm256_xor_ps(v, _mm256_and_ps(m, _mm256_set1_ps(-0.0f))); }
[[VX]] inline F load(const float* p) { return _mm256_loadu_ps(p); }
// (x, y, z, w) of the eight lanes to rot[4i .. 4i + 3]: 4x4 transposes in each 128-bit half
// (lanes i and i + 4 side by side), then the halves paired.
[[VX]] inline void store_quats(float* rot, F x, F y, F z, F w) {
  const __m256 t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y);
  const __m256 t2 = _mm256_unpacklo_ps(z, w), t3 = _mm256_unpackhi_ps(z, w);
  const __m256 r0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));  // lanes 0, 4
  const __m256 r1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));  // lanes 1, 5
  const __m256 r2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));  // lanes 2, 6
  const __m256 r3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));  // lanes 3, 7
  _mm256_storeu_ps(rot, _mm256_permute2f128_ps(r0, r1, 0x20));
  _mm256_storeu_ps(rot + 8, _mm256_permute2f128_ps(r2, r3, 0x20));
  _mm256_storeu_ps(rot + 16, _mm256_permute2f128_ps(r0, r1, 0x31));
  _mm256_storeu_ps(rot + 24, _mm256_permute2f128_ps(r2, r3, 0x31));
}

#include "lib/grass/rotation_lanes.inc"

#undef VX
#undef VXF
}  // namespace lanes_avx2

// --- AVX-512: kLanes lanes, the doubles in kRegs registers, masks as bits ------------------------
// (Sixteen or more lanes: two registers' chains side by side or more; the rotation is long
// chains of dependent double operations, and more of them in flight keeps the units busy.)
namespace lanes_avx512 {

#define VX gnu::target("avx512f,avx512dq,avx512vl,avx512bw"), gnu::always_inline
#define VXF gnu::target("avx512f,avx512dq,avx512vl,avx512bw")

constexpr int kRegs = 4;                       // double registers (eight lanes each)
constexpr size_t kLanes = size_t(8) * kRegs;   // lane l is lane l % 8 of double register l / 8
constexpr int kFloatRegs = kRegs / 2;          // float registers: lane l is lane l % 16 of l / 16
struct D {
  __m512d r[kRegs];
};
struct F {
  __m512 r[kFloatRegs];
};
using DM = uint64_t;  // bit l: lane l
using FM = uint64_t;

[[VX]] inline __mmask8 dbits(DM m, int i) { return static_cast<__mmask8>(m >> (8 * i)); }
[[VX]] inline __mmask16 fbits(FM m, int j) { return static_cast<__mmask16>(m >> (16 * j)); }

[[VX]] inline D dv(double v) {
  D d;
  for (int i = 0; i < kRegs; ++i) d.r[i] = _mm512_set1_pd(v);
  return d;
}
#define VOXKIT_D_OP(name, expr)              \
  [[VX]] inline D name(D x, D y) {           \
    D d;                                     \
    for (int i = 0; i < kRegs; ++i) d.r[i] = expr; \
    return d;                                \
  }
VOXKIT_D_OP(add, _mm512_add_pd(x.r[i], y.r[i]))
VOXKIT_D_OP(sub, _mm512_sub_pd(x.r[i], y.r[i]))
VOXKIT_D_OP(mul, _mm512_mul_pd(x.r[i], y.r[i]))
#undef VOXKIT_D_OP
template <int P>
[[VX]] inline DM cmp(D x, D y) {
  DM m = 0;
  for (int i = 0; i < kRegs; ++i) m |= DM(_mm512_cmp_pd_mask(x.r[i], y.r[i], P)) << (8 * i);
  return m;
}
[[VX]] inline DM le(D x, D y) { return cmp<_CMP_LE_OQ>(x, y); }
[[VX]] inline DM lt(D x, D y) { return cmp<_CMP_LT_OQ>(x, y); }
[[VX]] inline DM gt(D x, D y) { return cmp<_CMP_GT_OQ>(x, y); }
[[VX]] inline DM eq(D x, D y) { return cmp<_CMP_EQ_OQ>(x, y); }
[[VX]] inline DM lor(DM x, DM y) { return x | y; }
[[VX]] inline D pick(DM m, D yes, D no) {
  D d;
  for (int i = 0; i < kRegs; ++i) d.r[i] = _mm512_mask_blend_pd(dbits(m, i), no.r[i], yes.r[i]);
  return d;
}
[[VX]] inline D keep(DM m, D v) {
  for (int i = 0; i < kRegs; ++i) v.r[i] = _mm512_maskz_mov_pd(dbits(m, i), v.r[i]);
  return v;
}
[[VX]] inline D negate_where(DM m, D v) {
  for (int i = 0; i < kRegs; ++i) v.r[i] = _mm512_mask_xor_pd(v.r[i], dbits(m, i), v.r[i], _mm512_set1_pd(-0.0));
  return v;
}
[[VX]] inline D dfloor(D x) {
  for (int i = 0; i < kRegs; ++i) x.r[i] = _mm512_roundscale_pd(x.r[i], _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  return x;
}
[[VX]] inline int max_lane(D n) {
  __m512d m = n.r[0];
  for (int i = 1; i < kRegs; ++i) m = _mm512_max_pd(m, n.r[i]);
  return static_cast<int>(_mm512_reduce_max_pd(m));
}
[[VX]] inline D widen(F f) {
  D d;
  for (int j = 0; j < kFloatRegs; ++j) {
    d.r[2 * j] = _mm512_cvtps_pd(_mm512_castps512_ps256(f.r[j]));
    d.r[2 * j + 1] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(f.r[j], 1));
  }
  return d;
}
[[VX]] inline F narrow(D d) {
  F f;
  for (int j = 0; j < kFloatRegs; ++j)
    f.r[j] = _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(d.r[2 * j])), _mm512_cvtpd_ps(d.r[2 * j + 1]), 1);
  return f;
}
[[VX]] inline void quadrant(D k, DM& odd, DM& bit2, DM& next_bit2) {
  const __m256i one = _mm256_set1_epi32(1), two = _mm256_set1_epi32(2);
  odd = bit2 = next_bit2 = 0;
  for (int i = 0; i < kRegs; ++i) {
    const __m256i q = _mm512_cvttpd_epi32(k.r[i]);
    odd |= DM(_mm256_test_epi32_mask(q, one)) << (8 * i);
    bit2 |= DM(_mm256_test_epi32_mask(q, two)) << (8 * i);
    next_bit2 |= DM(_mm256_test_epi32_mask(_mm256_add_epi32(q, one), two)) << (8 * i);
  }
}
[[VX]] inline D rsqrt_seed(D v) {
  F f = narrow(v);
  for (int j = 0; j < kFloatRegs; ++j) {
    const __m512i bits = _mm512_castps_si512(f.r[j]);
    f.r[j] = _mm512_castsi512_ps(_mm512_sub_epi32(_mm512_set1_epi32(0x5F3759DF), _mm512_srli_epi32(bits, 1)));
  }
  return widen(f);
}

[[VX]] inline F fv(float v) {
  F f;
  for (int j = 0; j < kFloatRegs; ++j) f.r[j] = _mm512_set1_ps(v);
  return f;
}
#define VOXKIT_F_OP(name, expr)                      \
  [[VX]] inline F name(F x, F y) {                   \
    F f;                                             \
    for (int j = 0; j < kFloatRegs; ++j) f.r[j] = expr; \
    return f;                                        \
  }
VOXKIT_F_OP(add, _mm512_add_ps(x.r[j], y.r[j]))
VOXKIT_F_OP(sub, _mm512_sub_ps(x.r[j], y.r[j]))
VOXKIT_F_OP(mul, _mm512_mul_ps(x.r[j], y.r[j]))
VOXKIT_F_OP(fdiv, _mm512_div_ps(x.r[j], y.r[j]))
#undef VOXKIT_F_OP
[[VX]] inline F fsqrt(F x) {
  for (int j = 0; j < kFloatRegs; ++j) x.r[j] = _mm512_sqrt_ps(x.r[j]);
  return x;
}
template <int P>
[[VX]] inline FM cmp(F x, F y) {
  FM m = 0;
  for (int j = 0; j < kFloatRegs; ++j) m |= FM(_mm512_cmp_ps_mask(x.r[j], y.r[j], P)) << (16 * j);
  return m;
}
[[VX]] inline FM lt(F x, F y) { return cmp<_CMP_LT_OQ>(x, y); }
[[VX]] inline FM le(F x, F y) { return cmp<_CMP_LE_OQ>(x, y); }
[[VX]] inline FM gt(F x, F y) { return cmp<_CMP_GT_OQ>(x, y); }
[[VX]] inline FM ge(F x, F y) { return cmp<_CMP_GE_OQ>(x, y); }
[[VX]] inline FM eq(F x, F y) { return cmp<_CMP_EQ_OQ>(x, y); }
[[VX]] inline FM land(FM x, FM y) { return x & y; }
[[VX]] inline F pick(FM m, F yes, F no) {
  F f;
  for (int j = 0; j < kFloatRegs; ++j) f.r[j] = _mm512_mask_blend_ps(fbits(m, j), no.r[j], yes.r[j]);
  return f;
}
[[VX]] inline F zero_where(FM m, F v) {
  for (int j = 0; j < kFloatRegs; ++j) v.r[j] = _mm512_maskz_mov_ps(static_cast<__mmask16>(~fbits(m, j)), v.r[j]);
  return v;
}
[[VX]] inline F negate_where(FM m, F v) {
  for (int j = 0; j < kFloatRegs; ++j) v.r[j] = _mm512_mask_xor_ps(v.r[j], fbits(m, j), v.r[j], _mm512_set1_ps(-0.0f));
  return v;
}
[[VX]] inline F load(const float* p) {
  F f;
  for (int j = 0; j < kFloatRegs; ++j) f.r[j] = _mm512_loadu_ps(p + 16 * j);
  return f;
}
// (x, y, z, w) of sixteen lanes to rot[4i .. 4i + 3]: each 128-bit quarter transposed (lanes
// i, i + 4, i + 8, i + 12 side by side), then the quarters gathered in lane order.
[[VX]] inline void store_quats16(float* rot, __m512 x, __m512 y, __m512 z, __m512 w) {
  const __m512 t0 = _mm512_unpacklo_ps(x, y), t1 = _mm512_unpackhi_ps(x, y);
  const __m512 t2 = _mm512_unpacklo_ps(z, w), t3 = _mm512_unpackhi_ps(z, w);
  const __m512 r0 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));  // lanes 0, 4, 8, 12
  const __m512 r1 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));  // lanes 1, 5, 9, 13
  const __m512 r2 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));  // lanes 2, 6, 10, 14
  const __m512 r3 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));  // lanes 3, 7, 11, 15
  // Quarter q of r_j is lane 4q + j: lanes 4q .. 4q + 3 are quarter q of r0, r1, r2, r3.
  const __m512 a = _mm512_shuffle_f32x4(r0, r1, _MM_SHUFFLE(2, 0, 2, 0));  // r0.q0 r0.q2 r1.q0 r1.q2
  const __m512 b = _mm512_shuffle_f32x4(r2, r3, _MM_SHUFFLE(2, 0, 2, 0));  // r2.q0 r2.q2 r3.q0 r3.q2
  const __m512 c = _mm512_shuffle_f32x4(r0, r1, _MM_SHUFFLE(3, 1, 3, 1));  // r0.q1 r0.q3 r1.q1 r1.q3
  const __m512 d = _mm512_shuffle_f32x4(r2, r3, _MM_SHUFFLE(3, 1, 3, 1));  // r2.q1 r2.q3 r3.q1 r3.q3
  _mm512_storeu_ps(rot, _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(2, 0, 2, 0)));       // lanes 0-3
  _mm512_storeu_ps(rot + 16, _mm512_shuffle_f32x4(c, d, _MM_SHUFFLE(2, 0, 2, 0)));  // lanes 4-7
  _mm512_storeu_ps(rot + 32, _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 1, 3, 1)));  // lanes 8-11
  _mm512_storeu_ps(rot + 48, _mm512_shuffle_f32x4(c, d, _MM_SHUFFLE(3, 1, 3, 1)));  // lanes 12-15
}
[[VX]] inline void store_quats(float* rot, F x, F y, F z, F w) {
  for (int j = 0; j < kFloatRegs; ++j) store_quats16(rot + 64 * j, x.r[j], y.r[j], z.r[j], w.r[j]);
}

#include "lib/grass/rotation_lanes.inc"

#undef VX
#undef VXF
}  // namespace lanes_avx512

using simd::has_avx512;

}  // namespace

bool rotation_lanes_supported(RotationLanes lanes) {
  return lanes == RotationLanes::Avx512 ? has_avx512() : simd::has_avx2();
}
bool rotations_batch_supported() { return simd::has_avx2(); }

void rotations_with(RotationLanes lanes, const float* yaw, const float* nx, const float* ny, const float* nz, size_t n,
                    float align, float* rot) {
  if (lanes == RotationLanes::Avx512)
    lanes_avx512::run(yaw, nx, ny, nz, n, align, rot);
  else
    lanes_avx2::run(yaw, nx, ny, nz, n, align, rot);
}

void rotations_batch(const float* yaw, const float* nx, const float* ny, const float* nz, size_t n, float align,
                     float* rot) {
  rotations_with(has_avx512() ? RotationLanes::Avx512 : RotationLanes::Avx2, yaw, nx, ny, nz, n, align, rot);
}

#else

bool rotation_lanes_supported(RotationLanes) { return false; }
bool rotations_batch_supported() { return false; }
void rotations_with(RotationLanes, const float*, const float*, const float*, const float*, size_t, float, float*) {}
void rotations_batch(const float*, const float*, const float*, const float*, size_t, float, float*) {}

#endif

}  // namespace voxkit::grass::detail
