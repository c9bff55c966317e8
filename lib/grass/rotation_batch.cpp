// Blade rotations four at a time (see rotation_batch.hpp). Floats in the four lanes of SSE
// vectors, doubles in the four lanes of AVX vectors; every step below is the step of
// scatter.cpp's from_axis_angle, from_up_to, slerp, concat and normalize, or of
// grass_math.hpp's sine, cosine and arc cosine, for each lane. Branches become blends: each
// lane computes every side and keeps the one the scalar code would have taken.
#include "lib/grass/rotation_batch.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "lib/core/simd_avx2.hpp"
#include "lib/grass/grass_math.hpp"

namespace voxkit::grass::detail {

#if VOXKIT_HAVE_AVX2_TARGET
namespace {

#define VX gnu::target("avx2"), gnu::always_inline
using D = __m256d;
using F = __m128;

[[VX]] inline D dv(double v) { return _mm256_set1_pd(v); }
[[VX]] inline F fv(float v) { return _mm_set1_ps(v); }
[[VX]] inline F pick(F mask, F yes, F no) { return _mm_blendv_ps(no, yes, mask); }
[[VX]] inline D pick(D mask, D yes, D no) { return _mm256_blendv_pd(no, yes, mask); }

// The largest lane (the term counts are small whole numbers).
[[VX]] inline int max_lane(D n) {
  alignas(32) double v[4];
  _mm256_store_pd(v, n);
  return int(std::max(std::max(v[0], v[1]), std::max(v[2], v[3])));
}

// sin_cos_terms and asin_terms per lane (a NaN z takes the full count, as the scalar tests do).
[[VX]] inline D sin_cos_terms4(D z, double full) {
  D n = dv(full);
  n = pick(_mm256_cmp_pd(z, dv(0x1p-4), _CMP_LE_OQ), dv(7), n);
  n = pick(_mm256_cmp_pd(z, dv(0x1p-6), _CMP_LE_OQ), dv(6), n);
  return pick(_mm256_cmp_pd(z, dv(0x1p-8), _CMP_LE_OQ), dv(5), n);
}
[[VX]] inline D asin_terms4(D z) {
  D n = dv(24);
  n = pick(_mm256_cmp_pd(z, dv(0x1p-4), _CMP_LE_OQ), dv(15), n);
  n = pick(_mm256_cmp_pd(z, dv(0x1p-6), _CMP_LE_OQ), dv(10), n);
  return pick(_mm256_cmp_pd(z, dv(0x1p-8), _CMP_LE_OQ), dv(7), n);
}

// detail::alternating with n terms per lane: from the longest lane's last term, a lane's
// coefficients past its own count taken as zero (its sum stays +0 until its first term,
// which then is exactly the scalar chain's start).
[[VX]] inline D alternating4(const double* k, D n, D z) {
  const int top = max_lane(n);
  D q = _mm256_setzero_pd();
  for (int i = top - 1; i >= 0; --i) {
    const D c = _mm256_and_pd(_mm256_cmp_pd(n, dv(i), _CMP_GT_OQ), dv(k[i]));
    q = _mm256_mul_pd(q, z);
    q = (i & 1) ? _mm256_sub_pd(q, c) : _mm256_add_pd(q, c);
  }
  return q;
}

[[VX]] inline D sin_poly4(D r) {
  const D z = _mm256_mul_pd(r, r);
  const D q = alternating4(kSin, sin_cos_terms4(z, 8), z);
  const D rz = _mm256_mul_pd(r, z);
  return _mm256_sub_pd(r, _mm256_mul_pd(rz, q));
}
[[VX]] inline D cos_poly4(D r) {
  const D z = _mm256_mul_pd(r, r);
  const D c = alternating4(kCos, sin_cos_terms4(z, 9), z);
  return _mm256_sub_pd(dv(1.0), _mm256_mul_pd(z, c));
}

// Lanes of v with bit b set, as a mask.
[[VX]] inline __m256i bit(__m256i v, int b) {
  return _mm256_cmpeq_epi64(_mm256_and_si256(v, _mm256_set1_epi64x(b)), _mm256_set1_epi64x(b));
}

// sin and cos of four floats: the reduction, both polynomials, the quadrant's choice.
[[VX]] inline void sincos4(F x, F& s_out, F& c_out) {
  const D xd = _mm256_cvtps_pd(x);
  const D k = _mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(xd, dv(kTwoOverPiD)), dv(0.5)));
  const D a = _mm256_sub_pd(xd, _mm256_mul_pd(k, dv(kPiO2Hi)));
  const D r = _mm256_sub_pd(a, _mm256_mul_pd(k, dv(kPiO2Lo)));
  const D sp = sin_poly4(r), cp = cos_poly4(r);
  // Quadrant k & 3: odd ones swap sine and cosine; the sine is negated in 2 and 3, the cosine
  // in 1 and 2.
  const __m256i q = _mm256_cvtepi32_epi64(_mm256_cvttpd_epi32(k));
  const D swap = _mm256_castsi256_pd(bit(q, 1));
  const D neg_s = _mm256_castsi256_pd(bit(q, 2));
  const D neg_c = _mm256_castsi256_pd(bit(_mm256_add_epi64(q, _mm256_set1_epi64x(1)), 2));
  const D sign = dv(-0.0);
  const D s = _mm256_xor_pd(pick(swap, cp, sp), _mm256_and_pd(neg_s, sign));
  const D c = _mm256_xor_pd(pick(swap, sp, cp), _mm256_and_pd(neg_c, sign));
  s_out = _mm256_cvtpd_ps(s);
  c_out = _mm256_cvtpd_ps(c);
}
// sin alone: per lane one polynomial, the sine's or (in odd quadrants) the cosine's, run as
// one chain with each lane's own coefficients: sin_poly is r - (r z) q over kSin, cos_poly
// 1 - z q over kCos.
[[VX]] inline F sin4(F x) {
  const D xd = _mm256_cvtps_pd(x);
  const D k = _mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(xd, dv(kTwoOverPiD)), dv(0.5)));
  const D a = _mm256_sub_pd(xd, _mm256_mul_pd(k, dv(kPiO2Hi)));
  const D r = _mm256_sub_pd(a, _mm256_mul_pd(k, dv(kPiO2Lo)));
  const __m256i q = _mm256_cvtepi32_epi64(_mm256_cvttpd_epi32(k));
  const D use_cos = _mm256_castsi256_pd(bit(q, 1)), negate = _mm256_castsi256_pd(bit(q, 2));
  const D z = _mm256_mul_pd(r, r);
  const D n = sin_cos_terms4(z, 0.0);
  const D full = pick(use_cos, dv(9), dv(8));
  const D terms = pick(_mm256_cmp_pd(n, dv(0.0), _CMP_EQ_OQ), full, n);
  const int top = max_lane(terms);
  D p = _mm256_setzero_pd();
  for (int i = top - 1; i >= 0; --i) {
    const D coef = pick(use_cos, dv(kCos[i]), dv(i < 8 ? kSin[i] : 0.0));
    const D c = _mm256_and_pd(_mm256_cmp_pd(terms, dv(i), _CMP_GT_OQ), coef);
    p = _mm256_mul_pd(p, z);
    p = (i & 1) ? _mm256_sub_pd(p, c) : _mm256_add_pd(p, c);
  }
  const D v = _mm256_sub_pd(pick(use_cos, dv(1.0), r), _mm256_mul_pd(pick(use_cos, z, _mm256_mul_pd(r, z)), p));
  return _mm256_cvtpd_ps(_mm256_xor_pd(v, _mm256_and_pd(negate, dv(-0.0))));
}

[[VX]] inline D asin_poly4(D u) {
  const D z = _mm256_mul_pd(u, u);
  const D n = asin_terms4(z);
  const int top = max_lane(n);
  D p = _mm256_setzero_pd();
  for (int i = top - 1; i >= 0; --i)
    p = _mm256_add_pd(_mm256_mul_pd(p, z), _mm256_and_pd(_mm256_cmp_pd(n, dv(i), _CMP_GT_OQ), dv(kAsin[i])));
  const D uz = _mm256_mul_pd(u, z);
  return _mm256_add_pd(u, _mm256_mul_pd(uz, p));
}

// sqrt_newton per lane (v a float value, 0 -> 0).
[[VX]] inline D sqrt_newton4(D v) {
  const __m128i bits = _mm_castps_si128(_mm256_cvtpd_ps(v));
  const __m128i seed = _mm_sub_epi32(_mm_set1_epi32(0x5F3759DF), _mm_srli_epi32(bits, 1));
  D y = _mm256_cvtps_pd(_mm_castsi128_ps(seed));
  for (int i = 0; i < 5; ++i) {
    D t = _mm256_mul_pd(v, y);
    t = _mm256_mul_pd(t, y);
    t = _mm256_mul_pd(dv(0.5), t);
    t = _mm256_sub_pd(dv(1.5), t);
    y = _mm256_mul_pd(y, t);
  }
  return pick(_mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_EQ_OQ), _mm256_setzero_pd(), _mm256_mul_pd(v, y));
}

// acos_f of four floats.
[[VX]] inline F acos4(F xf) {
  const D x = _mm256_cvtps_pd(xf);
  const D hi = _mm256_cmp_pd(x, dv(0.5), _CMP_GT_OQ), lo = _mm256_cmp_pd(x, dv(-0.5), _CMP_LT_OQ);
  const D v = pick(hi, _mm256_mul_pd(_mm256_sub_pd(dv(1.0), x), dv(0.5)), _mm256_mul_pd(_mm256_add_pd(dv(1.0), x), dv(0.5)));
  const D u = pick(_mm256_or_pd(hi, lo), sqrt_newton4(v), x);
  const D p = asin_poly4(u);
  const D two_p = _mm256_mul_pd(dv(2.0), p);
  const D r = pick(hi, two_p, pick(lo, _mm256_sub_pd(dv(kPiD), two_p), _mm256_sub_pd(dv(kPiO2D), p)));
  const F valid = _mm_and_ps(_mm_cmpge_ps(xf, fv(-1.0f)), _mm_cmple_ps(xf, fv(1.0f)));
  return pick(valid, _mm256_cvtpd_ps(r), fv(std::nanf("")));
}

struct V4 {
  F x, y, z;
};
struct Q4 {
  F x, y, z, w;
};

[[VX]] inline F add(F a, F b) { return _mm_add_ps(a, b); }
[[VX]] inline F sub(F a, F b) { return _mm_sub_ps(a, b); }
[[VX]] inline F mul(F a, F b) { return _mm_mul_ps(a, b); }

constexpr float kZeroTol2 = 1e-6f * 1e-6f;

// Vector3.Normalize per lane.
[[VX]] inline V4 normalize(V4 v) {
  const F ls = add(add(mul(v.x, v.x), mul(v.y, v.y)), mul(v.z, v.z));
  const F inv = _mm_div_ps(fv(1.0f), _mm_sqrt_ps(ls));
  const F small = _mm_cmplt_ps(ls, fv(kZeroTol2));
  return {_mm_andnot_ps(small, mul(v.x, inv)), _mm_andnot_ps(small, mul(v.y, inv)), _mm_andnot_ps(small, mul(v.z, inv))};
}
[[VX]] inline F is_zero(V4 v) {
  const F z = _mm_setzero_ps();
  return _mm_and_ps(_mm_and_ps(_mm_cmpeq_ps(v.x, z), _mm_cmpeq_ps(v.y, z)), _mm_cmpeq_ps(v.z, z));
}
[[VX]] inline Q4 pick(F m, Q4 a, Q4 b) { return {pick(m, a.x, b.x), pick(m, a.y, b.y), pick(m, a.z, b.z), pick(m, a.w, b.w)}; }
[[VX]] inline Q4 identity() { return {fv(0.0f), fv(0.0f), fv(0.0f), fv(1.0f)}; }

// Quaternion.Normalize per lane.
[[VX]] inline Q4 normalize(Q4 q) {
  const F ls = add(add(add(mul(q.x, q.x), mul(q.y, q.y)), mul(q.z, q.z)), mul(q.w, q.w));
  const F inv = _mm_div_ps(fv(1.0f), _mm_sqrt_ps(ls));
  return pick(_mm_cmplt_ps(ls, fv(kZeroTol2)), identity(), Q4{mul(q.x, inv), mul(q.y, inv), mul(q.z, inv), mul(q.w, inv)});
}

// Quaternion.Concatenate(first, second): second * first.
[[VX]] inline Q4 concat(Q4 first, Q4 second) {
  const F ax = second.x, ay = second.y, az = second.z, aw = second.w;
  const F bx = first.x, by = first.y, bz = first.z, bw = first.w;
  return {sub(add(add(mul(aw, bx), mul(ax, bw)), mul(ay, bz)), mul(az, by)),
          add(add(sub(mul(aw, by), mul(ax, bz)), mul(ay, bw)), mul(az, bx)),
          add(sub(add(mul(aw, bz), mul(ax, by)), mul(ay, bx)), mul(az, bw)),
          sub(sub(sub(mul(aw, bw), mul(ax, bx)), mul(ay, by)), mul(az, bz))};
}

// from_axis_angle(axis, angle) per lane.
[[VX]] inline Q4 from_axis_angle(V4 axis, F angle) {
  const V4 u = normalize(axis);
  F s, c;
  sincos4(mul(angle, fv(0.5f)), s, c);
  return pick(is_zero(u), identity(), Q4{mul(u.x, s), mul(u.y, s), mul(u.z, s), c});
}

// from_up_to(n) per lane; `flip` is from_axis_angle((1, 0, 0), pi).
[[VX]] inline Q4 from_up_to(V4 n, const Q4& flip) {
  const F zero = _mm_setzero_ps(), one = fv(1.0f);
  F dot = add(add(mul(zero, n.x), mul(one, n.y)), mul(zero, n.z));
  dot = pick(_mm_cmplt_ps(dot, fv(-1.0f)), fv(-1.0f), pick(_mm_cmpgt_ps(dot, one), one, dot));
  const V4 cross{sub(mul(one, n.z), mul(zero, n.y)), sub(mul(zero, n.x), mul(zero, n.z)), sub(mul(zero, n.y), mul(one, n.x))};
  const Q4 turned = from_axis_angle(normalize(cross), acos4(dot));
  return pick(_mm_cmpgt_ps(dot, fv(0.9999f)), identity(), pick(_mm_cmplt_ps(dot, fv(-0.9999f)), flip, turned));
}

// slerp(identity, to, t) per lane, t already clamped to [0, 1].
[[VX]] inline Q4 slerp_from_identity(Q4 to, float t_scalar) {
  const F zero = _mm_setzero_ps(), one = fv(1.0f), t = fv(t_scalar);
  const Q4 from = identity();
  F dot = add(add(add(mul(from.x, to.x), mul(from.y, to.y)), mul(from.z, to.z)), mul(from.w, to.w));
  const F neg = _mm_cmplt_ps(dot, zero);
  const F sign = _mm_and_ps(neg, fv(-0.0f));
  dot = _mm_xor_ps(dot, sign);
  const Q4 target{_mm_xor_ps(to.x, sign), _mm_xor_ps(to.y, sign), _mm_xor_ps(to.z, sign), _mm_xor_ps(to.w, sign)};
  const Q4 lerped = normalize(Q4{add(from.x, mul(sub(target.x, from.x), t)), add(from.y, mul(sub(target.y, from.y), t)),
                                 add(from.z, mul(sub(target.z, from.z), t)), add(from.w, mul(sub(target.w, from.w), t))});
  const F theta = acos4(dot);
  const F sin_theta = sin4(theta);
  const F from_scale = _mm_div_ps(sin4(mul(sub(one, t), theta)), sin_theta);
  const F to_scale = _mm_div_ps(sin4(mul(t, theta)), sin_theta);
  const Q4 slerped{add(mul(from.x, from_scale), mul(target.x, to_scale)), add(mul(from.y, from_scale), mul(target.y, to_scale)),
                   add(mul(from.z, from_scale), mul(target.z, to_scale)), add(mul(from.w, from_scale), mul(target.w, to_scale))};
  return pick(_mm_cmpgt_ps(dot, fv(1.0f - 1e-4f)), lerped, slerped);
}

[[gnu::target("avx2")]] void rotations4(const float* yaw, const float* nx, const float* ny, const float* nz, float align,
                                        const Q4& flip, float* rot) {
  const F zero = _mm_setzero_ps();
  F s, c;
  sincos4(mul(_mm_loadu_ps(yaw), fv(0.5f)), s, c);
  // from_axis_angle((0, 1, 0), yaw): the axis normalises to itself.
  const Q4 upright{mul(zero, s), mul(fv(1.0f), s), mul(zero, s), c};
  Q4 rotation = upright;
  if (align > 0.0f) {
    const V4 n = normalize(V4{_mm_loadu_ps(nx), _mm_loadu_ps(ny), _mm_loadu_ps(nz)});
    const Q4 aligned = concat(slerp_from_identity(from_up_to(n, flip), align), upright);
    rotation = pick(is_zero(n), upright, aligned);
  }
  const Q4 r = normalize(rotation);
  // Lanes to (x, y, z, w) records.
  F x = r.x, y = r.y, z = r.z, w = r.w;
  _MM_TRANSPOSE4_PS(x, y, z, w);
  _mm_storeu_ps(rot, x);
  _mm_storeu_ps(rot + 4, y);
  _mm_storeu_ps(rot + 8, z);
  _mm_storeu_ps(rot + 12, w);
}

#undef VX

}  // namespace

bool rotations_avx2_supported() { return simd::has_avx2(); }

void rotations_avx2(const float* yaw, const float* nx, const float* ny, const float* nz, size_t n, float align,
                    float* rot) {
  // from_axis_angle((1, 0, 0), pi) as place() computes it.
  float fs, fc;
  sincos_f(kPi * 0.5f, fs, fc);
  Q4 flip;
  flip.x = _mm_set1_ps(1.0f * fs), flip.y = _mm_set1_ps(0.0f * fs), flip.z = _mm_set1_ps(0.0f * fs), flip.w = _mm_set1_ps(fc);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) rotations4(yaw + i, nx + i, ny + i, nz + i, align, flip, rot + 4 * i);
  if (i == n) return;
  float y4[4], x4[4], yy4[4], z4[4], r4[16];
  for (size_t k = 0; k < 4; ++k) {
    const size_t j = i + k < n ? i + k : n - 1;
    y4[k] = yaw[j], x4[k] = nx[j], yy4[k] = ny[j], z4[k] = nz[j];
  }
  rotations4(y4, x4, yy4, z4, align, flip, r4);
  std::memcpy(rot + 4 * i, r4, (n - i) * 4 * sizeof(float));
}

#else

bool rotations_avx2_supported() { return false; }
void rotations_avx2(const float*, const float*, const float*, const float*, size_t, float, float*) {}

#endif

}  // namespace voxkit::grass::detail
