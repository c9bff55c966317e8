// Surface Nets vertex gradients (or normals) eight cells at a time with AVX2: each cell a
// lane, its sample rows loaded as 32-bit words (samples x - 1 .. x + 2, or one sample over at
// the view's ends). Compiled for AVX2 function by function and chosen at run time; no FMA,
// so every operation rounds as on the other paths.
#include "lib/mesh/sn_normals.hpp"

#if VOXKIT_HAVE_AVX2_TARGET

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "lib/mesh/sn_gradients.hpp"
#include "lib/mesh/sn_offsets.hpp"
#include "lib/mesh/sn_offsets_avx2.hpp"

#define VOXKIT_AVX2 __attribute__((target("avx2")))

namespace voxkit::mesh_detail {

namespace {

// What the cells of one slab share.
struct Slab {
  // Planes z, z + 1, z - 1, z + 2 at sample (lo[0], lo[1]) of the view; z - 1 is z where the
  // corners on plane z take a one-sided difference along z (the edge rule, or a low grid
  // face), z + 2 is z + 1 where those on plane z + 1 do (the edge rule, or a high face).
  const uint8_t *pz, *pz1, *pzm, *pzp;
  const int32_t *clsx, *clsy;  // cell classes from cell clo[0], clo[1]
  int32_t clo0, clo1, sy;
  int64_t sz;
  int32_t org;  // offset of row word (x - 1, y) = x + sy * y + org
};

VOXKIT_AVX2 inline __m256 lerp8(__m256 a, __m256 b, __m256 t) {
  return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t));
}

// A lane's two signed 16-bit differences (corners dx = 0 and 1) lerped over x, as
// a + (b - a) t with b - a taken in integers (exact, as it is in floats).
VOXKIT_AVX2 inline __m256 lerp_pair(__m256i d, __m256 fx) {
  const __m256 a = _mm256_cvtepi32_ps(_mm256_madd_epi16(d, _mm256_set1_epi32(0x00000001)));
  const __m256 ba = _mm256_cvtepi32_ps(_mm256_madd_epi16(d, _mm256_set1_epi32(0x0001ffff)));
  return _mm256_add_ps(a, _mm256_mul_ps(ba, fx));
}

// One axis' blend from its corner difference pairs of rows (dy, dz): over x, then y, then z.
VOXKIT_AVX2 inline __m256 blend(__m256i d00, __m256i d10, __m256i d01, __m256i d11, __m256 fx,
                                __m256 fy, __m256 fz) {
  return lerp8(lerp8(lerp_pair(d00, fx), lerp_pair(d10, fx), fy),
               lerp8(lerp_pair(d01, fx), lerp_pair(d11, fx), fy), fz);
}

// The classes of eight cells at coordinates v from one axis' table (which starts at lo).
VOXKIT_AVX2 inline __m256i classes(const int32_t* table, int32_t lo, const int32_t* v) {
  auto c = [&](int i) { return table[v[i] - lo]; };
  return _mm256_setr_epi32(c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7));
}

// Slot K of row words From .. To - 1 of the twelve of one lane: its cell's rows y, y + 1 of
// planes z, z + 1, rows y - 1, y + 2 (moved in by dm on edge lanes) of both, and rows y, y + 1
// of z - 1, z + 2 (which a slab clamped along z at that side does not need).
template <int K, int From, int To, bool ZLo, bool ZHi>
VOXKIT_AVX2 inline void lane(const Slab& s, int32_t idx, int32_t dm, __m128i (&w)[12]) {
  const int64_t sy = s.sy, sz = s.sz;
  const uint8_t* q = s.pz + idx;
  const uint8_t* qm = q - dm;
  const uint8_t* qp = q + sy + dm;
  const uint8_t* qzm = s.pzm + idx;
  const uint8_t* qzp = s.pzp + idx;
  const uint8_t* at[12] = {q,  q + sy,      q + sz,  q + sz + sy,   qm,  qp,
                           qm + sz, qp + sz, qzm, qzm + sy, qzp, qzp + sy};
  for (int k = From; k < To; ++k) {
    if ((ZLo && (k == 8 || k == 9)) || (ZHi && k >= 10)) continue;
    int32_t v;
    std::memcpy(&v, at[k], 4);
    if constexpr (K == 0)
      w[k] = _mm_cvtsi32_si128(v);
    else
      w[k] = _mm_insert_epi32(w[k], v, K);
  }
}

// normalize_cell on eight lanes: the same operations in the same order, so the same bits.
VOXKIT_AVX2 inline void normalize8(__m256& x, __m256& y, __m256& z) {
  const __m256 len2 =
      _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z));
  const __m256 ok = _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ);
  const __m256 len = _mm256_sqrt_ps(len2);
  x = _mm256_and_ps(ok, _mm256_div_ps(x, len));
  y = _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_div_ps(y, len), ok);
  z = _mm256_and_ps(ok, _mm256_div_ps(z, len));
}

// Eight cells from xs, ys, f to g, clamped along z at the low side (ZLo) or high side (ZHi),
// as gradients or (Unit) normals; with Offsets the vertex offsets are not read from f but
// computed from the corner samples in the rows loaded and written to f_out. Returns the lanes
// whose cells the vector cannot take (they read stand-in samples, and their output is to be
// replaced).
template <bool ZLo, bool ZHi, bool Unit, bool Offsets>
VOXKIT_AVX2 unsigned batch(const Slab& s, const int32_t* xs, const int32_t* ys, const float* f,
                           float* f_out, float* g) {
  const __m256i X = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xs));
  const __m256i Y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ys));
  const __m256i one = _mm256_set1_epi32(SnNormals::kEdge);
  const __m256i wide_slow = _mm256_set1_epi32(SnNormals::kWideSlow);
  // Table look-ups by scalar loads: gathers are no faster here.
  const __m256i cx = classes(s.clsx, s.clo0, xs), cy = classes(s.clsy, s.clo1, ys);
  const __m256i slow =
      _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_or_si256(cx, cy), wide_slow), wide_slow);
  const unsigned slow_lanes = unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(slow)));
  // Without a fast lane the view may be too narrow for the stand-in reads below.
  if (slow_lanes == 0xffu) return slow_lanes;
  const __m256i fast = _mm256_xor_si256(slow, _mm256_set1_epi32(-1));
  const __m256i mode = _mm256_srli_epi32(cx, SnNormals::kModeShift);
  const __m256i ey = _mm256_cmpeq_epi32(_mm256_and_si256(cy, one), one);

  // Row words (x - 1 .. x + 2, or from x or x - 2 by the lane's mode) of rows y, y + 1 and
  // of y - 1, y + 2 (y, y + 1 on edge lanes).
  const __m256i sy = _mm256_set1_epi32(s.sy);
  const __m256i shift =
      _mm256_permutevar8x32_epi32(_mm256_setr_epi32(0, 0, 1, -1, 1, -1, 0, 0), mode);
  const __m256i i0 = _mm256_add_epi32(_mm256_add_epi32(X, _mm256_mullo_epi32(Y, sy)),
                                      _mm256_add_epi32(_mm256_set1_epi32(s.org), shift));
  const __m256i dym = _mm256_andnot_si256(ey, sy);
  // The twelve row words of each lane by scalar loads (cheaper here than gathers): slow
  // lanes read those of sample (lo[0], lo[1]), which a fast lane's view always holds.
  alignas(32) int32_t idx[8], dm[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(idx), _mm256_and_si256(i0, fast));
  _mm256_store_si256(reinterpret_cast<__m256i*>(dm), _mm256_and_si256(dym, fast));
  // The cell's own rows first: the offsets computed from them (long divisions) overlap the
  // loads of the other rows.
  __m128i lo4[12], hi4[12];
  auto load = [&]<int From, int To>() VOXKIT_AVX2 {
    lane<0, From, To, ZLo, ZHi>(s, idx[0], dm[0], lo4);
    lane<1, From, To, ZLo, ZHi>(s, idx[1], dm[1], lo4);
    lane<2, From, To, ZLo, ZHi>(s, idx[2], dm[2], lo4);
    lane<3, From, To, ZLo, ZHi>(s, idx[3], dm[3], lo4);
    lane<0, From, To, ZLo, ZHi>(s, idx[4], dm[4], hi4);
    lane<1, From, To, ZLo, ZHi>(s, idx[5], dm[5], hi4);
    lane<2, From, To, ZLo, ZHi>(s, idx[6], dm[6], hi4);
    lane<3, From, To, ZLo, ZHi>(s, idx[7], dm[7], hi4);
  };
  auto join = [&](int k) VOXKIT_AVX2 {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo4[k]), hi4[k], 1);
  };
  load.template operator()<0, 4>();
  // r<dy><dz>: rows y + dy of plane z + dz; m, p: rows y - 1, y + 2; zm, zp: planes z - 1, z + 2.
  const __m256i r00 = join(0), r10 = join(1), r01 = join(2), r11 = join(3);
  // Byte shuffles by mode, for the lane's word at bytes 0 .. 3 (adding `at` moves them to
  // the lane's own word of its 128-bit half); 0x80 clears a byte.
  const __m256i at = _mm256_setr_epi32(0, 0x04040404, 0x08080808, 0x0c0c0c0c, 0, 0x04040404,
                                       0x08080808, 0x0c0c0c0c);
  auto by_mode = [&](__m256i table) VOXKIT_AVX2 {
    return _mm256_add_epi8(_mm256_permutevar8x32_epi32(table, mode), at);
  };
  // y and z: the cell's samples x, x + 1 (bytes 1, 2 of the word, or 0, 1 when it starts at
  // x, or 2, 3 when it starts at x - 2) of a low row to bytes 0, 2 and of a high row to 1, 3.
  const __m256i ctrl_lo = by_mode(_mm256_setr_epi32(0x80028001, 0x80028001, 0x80018000,
                                                    0x80038002, 0x80018000, 0x80038002, 0, 0));
  const __m256i ctrl_hi = by_mode(_mm256_setr_epi32(0x02800180, 0x02800180, 0x01800080,
                                                    0x03800280, 0x01800080, 0x03800280, 0, 0));
  auto lo = [&](__m256i w) VOXKIT_AVX2 { return _mm256_shuffle_epi8(w, ctrl_lo); };
  auto hi = [&](__m256i w) VOXKIT_AVX2 { return _mm256_shuffle_epi8(w, ctrl_hi); };
  const __m256i lo00 = lo(r00), lo10 = lo(r10), lo01 = lo(r01);
  __m256 fx, fy, fz;
  if constexpr (Offsets) {
    // The cell's corners (x, x + 1) of rows y, y + 1 of planes z, z + 1 are lo() of r00,
    // r10, r01, r11 (first in bits 0-7, second in bits 16-23): corner k = dx + 2 dy + 4 dz.
    const __m256i low = _mm256_set1_epi32(0xffff), lo11 = lo(r11);
    const __m256i c[8] = {_mm256_and_si256(lo00, low), _mm256_srli_epi32(lo00, 16),
                          _mm256_and_si256(lo10, low), _mm256_srli_epi32(lo10, 16),
                          _mm256_and_si256(lo01, low), _mm256_srli_epi32(lo01, 16),
                          _mm256_and_si256(lo11, low), _mm256_srli_epi32(lo11, 16)};
    sn_offsets_detail::offsets8(c, fx, fy, fz);
    simd::store_xyz0(f_out, fx, fy, fz);
  } else {
    // f from (fx, fy, fz, -) per cell to a vector per component (lane = cell).
    auto f2 = [&](int i) VOXKIT_AVX2 {
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(f + 4 * i)),
                                  _mm_loadu_ps(f + 4 * i + 16), 1);
    };
    const __m256 a0 = f2(0), a1 = f2(1), a2 = f2(2), a3 = f2(3);
    const __m256 t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpacklo_ps(a2, a3);
    const __m256 t2 = _mm256_unpackhi_ps(a0, a1), t3 = _mm256_unpackhi_ps(a2, a3);
    fx = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    fy = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    fz = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
  }

  load.template operator()<4, 12>();
  const __m256i m0 = join(4), p0 = join(5), m1 = join(6), p1 = join(7);
  __m256i zm0 = r00, zm1 = r10, zp0 = r01, zp1 = r11;
  if constexpr (!ZLo) zm0 = join(8), zm1 = join(9);
  if constexpr (!ZHi) zp0 = join(10), zp1 = join(11);

  // Differences as 16-bit pairs (dx = 0, 1) per lane by multiply-add of byte pairs: central
  // (-1, 1) or doubled one-sided (-2, 2). On an edge lane both corners get the cell's own
  // edge difference, so the lerp over that axis returns it unchanged (exact for finite f) and
  // the remaining lerps are the edge rule's.
  const __m256i coef_c = _mm256_set1_epi32(0x01ff01ff), coef_e = _mm256_set1_epi32(0x02fe02fe);
  // x: the two corners' pairs (low, high) and their coefficients: central (x - 1, x + 1),
  // (x, x + 2); edge (x, x + 1) twice, doubled; a low face (x, x + 1) doubled, then
  // (x, x + 2); a high face (x - 1, x + 1), then (x, x + 1) doubled. By kCentral, kEdgeMid,
  // kEdgeRight, kEdgeLeft, kFaceLo, kFaceHi.
  const __m256i ctrl_x = by_mode(_mm256_setr_epi32(0x03010200, 0x02010201, 0x01000100,
                                                   0x03020302, 0x02000100, 0x03020301, 0, 0));
  const __m256i coef_x = _mm256_permutevar8x32_epi32(
      _mm256_setr_epi32(0x01ff01ff, 0x02fe02fe, 0x02fe02fe, 0x02fe02fe, 0x01ff02fe, 0x02fe01ff,
                        0, 0),
      mode);
  auto dx = [&](__m256i w) VOXKIT_AVX2 {
    return _mm256_maddubs_epi16(_mm256_shuffle_epi8(w, ctrl_x), coef_x);
  };
  const __m256i coef_y = _mm256_blendv_epi8(coef_c, coef_e, ey);
  const __m256i coef_z0 = ZLo ? coef_e : coef_c, coef_z1 = ZHi ? coef_e : coef_c;
  // A pair of differences high - low from two rows' bytes (lo() of the low row, hi() of the high).
  auto pair = [&](__m256i low, __m256i high, __m256i coef) VOXKIT_AVX2 {
    return _mm256_maddubs_epi16(_mm256_or_si256(low, high), coef);
  };
  const __m256i hi10 = hi(r10), hi01 = hi(r01), hi11 = hi(r11);

  __m256 gx = blend(dx(r00), dx(r10), dx(r01), dx(r11), fx, fy, fz);
  __m256 gy = blend(pair(lo(m0), hi10, coef_y), pair(lo00, hi(p0), coef_y),
                    pair(lo(m1), hi11, coef_y), pair(lo01, hi(p1), coef_y), fx, fy, fz);
  __m256 gz = blend(pair(lo(zm0), hi01, coef_z0), pair(lo(zm1), hi11, coef_z0),
                    pair(lo00, hi(zp0), coef_z1), pair(lo10, hi(zp1), coef_z1), fx, fy, fz);
  if constexpr (Unit) normalize8(gx, gy, gz);

  simd::store_xyz0(g, gx, gy, gz);  // back to (gx, gy, gz, 0) per cell
  return slow_lanes;
}

}  // namespace

void SnNormals::slab_avx2(int64_t z, size_t n, const int32_t* x, const int32_t* y,
                          const float* f, float* f_out, float* g, Output out) const {
  const int64_t iz = z - clo_[2];
  const int32_t cz = cls_[2][size_t(iz)];
  // One-sided along z at plane z and at plane z + 1: both on a chunk plane (the edge rule),
  // one at a grid face (the box's first or last cell).
  const bool edge = (cz & kEdge) != 0, slow = (cz & kSlow) != 0;
  const bool zlo = edge || (slow && iz == 0);
  const bool zhi = edge || (slow && iz + 2 >= chi_[2] - clo_[2] + 1);
  const bool unit = out == Output::Normals;
  const bool offsets = f_out != nullptr;
  Slab s;
  const uint8_t* plane = v_.data + v_.sz * (z - v_.lo[2]);
  s.pz = plane;
  s.pz1 = plane + v_.sz;
  s.pzm = zlo ? s.pz : plane - v_.sz;
  s.pzp = zhi ? s.pz1 : plane + 2 * v_.sz;
  using Run = unsigned (*)(const Slab&, const int32_t*, const int32_t*, const float*, float*,
                           float*);
  static constexpr Run runs[16] = {
      batch<false, false, false, false>, batch<true, false, false, false>,
      batch<false, true, false, false>,  batch<true, true, false, false>,
      batch<false, false, true, false>,  batch<true, false, true, false>,
      batch<false, true, true, false>,   batch<true, true, true, false>,
      batch<false, false, false, true>,  batch<true, false, false, true>,
      batch<false, true, false, true>,   batch<true, true, false, true>,
      batch<false, false, true, true>,   batch<true, false, true, true>,
      batch<false, true, true, true>,    batch<true, true, true, true>};
  const Run run = runs[int(zlo) | int(zhi) << 1 | int(unit) << 2 | int(offsets) << 3];
  s.clsx = cls_[0].data();
  s.clsy = cls_[1].data();
  s.clo0 = int32_t(clo_[0]);
  s.clo1 = int32_t(clo_[1]);
  s.sy = int32_t(v_.sy);
  s.sz = v_.sz;
  // Wraps in 32 bits like the lanes; only the sum x + sy * y + org need be in range.
  s.org = int32_t(uint32_t(-(v_.lo[0] + 1) - v_.sy * v_.lo[1]));
  // A lane the vector cannot take, by the clamped rule, normalised like the rest; its
  // offsets first (the vector's are of stand-in samples), by the one-cell SSE2 kernel.
  static constexpr int32_t kHere = 0;
  auto scalar = [&](size_t k) {
    if (offsets)
      sn_offsets_with(OffsetsKernel::sse2, v_.ptr(x[k], y[k], z), &kHere, 1, v_.sy, v_.sz,
                      f_out + 4 * k);
    cell_scalar(x[k], y[k], z, f + 4 * k, g + 4 * k);
    if (unit) normalize_cell(g + 4 * k);
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const unsigned slow_lanes =
        run(s, x + i, y + i, f + 4 * i, offsets ? f_out + 4 * i : nullptr, g + 4 * i);
    for (unsigned m = slow_lanes; m; m &= m - 1) scalar(i + size_t(std::countr_zero(m)));
  }
  if (i < n) {
    // The last few cells, padded with copies of the first of them.
    alignas(32) int32_t xs[8], ys[8];
    alignas(32) float fs[32], gs[32];
    const size_t m = n - i;
    for (size_t k = 0; k < 8; ++k) {
      const size_t from = i + (k < m ? k : 0);
      xs[k] = x[from];
      ys[k] = y[from];
      if (!offsets) std::memcpy(fs + 4 * k, f + 4 * from, 4 * sizeof(float));
    }
    const unsigned slow_lanes = run(s, xs, ys, fs, fs, gs);
    if (offsets) std::memcpy(f_out + 4 * i, fs, m * 4 * sizeof(float));
    std::memcpy(g + 4 * i, gs, m * 4 * sizeof(float));
    for (unsigned b = slow_lanes & ((1u << m) - 1); b; b &= b - 1)
      scalar(i + size_t(std::countr_zero(b)));
  }
}

}  // namespace voxkit::mesh_detail

#endif
