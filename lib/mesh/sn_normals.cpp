// Surface Nets vertex gradients from the samples: the per-axis tables, the clamped rule cell
// by cell (plain C++), and one cell at a time with SSE2. The AVX2 path is sn_normals_avx2.cpp.
#include "lib/mesh/sn_normals.hpp"

#include <climits>

#include "lib/mesh/sn_gradients.hpp"
#include "lib/mesh/sn_offsets.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <cstring>
#endif

namespace voxkit::mesh_detail {

namespace {

inline float lerp(float a, float b, float t) { return a + (b - a) * t; }

}  // namespace

SnNormals::Path SnNormals::best_path() { return simd::best_path<Path>(); }

void SnNormals::setup(const Task& t, const int64_t (&clo)[3], const int64_t (&chi)[3]) {
  v_ = t.sdf;
  for (int a = 0; a < 3; ++a) {
    clo_[a] = clo[a];
    chi_[a] = chi[a];
    const int64_t n = chi[a] - clo[a] + 1;
    // The tables depend only on these: the tasks of one grid mostly share them along x.
    const std::array<int64_t, 6> key{clo[a], n, t.chunk_cells, t.n(a),
                                     a == 0 ? v_.lo[0] : 0, a == 0 ? v_.hi[0] : 0};
    if (key == key_[a] && !sample_[a].empty()) continue;
    key_[a] = key;
    // Samples: the differences SnGradients caches, neighbours clamped to the box.
    sample_[a].resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
      const int lo = i > 0 ? -1 : 0, hi = i + 1 < n ? 1 : 0;
      sample_[a][size_t(i)] = {int8_t(lo), int8_t(hi), int8_t(hi - lo == 2 ? 1 : 2)};
    }
    // Cells: the edge rule (sn_cell_rule's chunk planes) replaces the blend along the axis.
    // The SSE2 path blends central differences only, reads the rows next to the cell only
    // along axes without the edge rule (it clamps them to the cell's own along the others),
    // and always reads the four samples x - 1 .. x + 2 of each row. The AVX2 path also
    // takes one-sided differences at the grid's faces along x and z, and reads four samples
    // along x chosen by the cell's mode.
    cls_[a].resize(size_t(n - 1));
    int64_t in_chunk = (clo[a] + 1) % t.chunk_cells;  // (c + 1) mod the chunk size
    for (int64_t i = 0; i + 1 < n; ++i, in_chunk = in_chunk + 1 == t.chunk_cells ? 0 : in_chunk + 1) {
      const int64_t c = clo[a] + i;
      const bool edge = in_chunk == 0 && c + 1 < t.n(a);
      const bool central = i > 0 && i + 2 < n;
      bool slow = !edge && !central;
      // Whether the four samples c + from .. c + from + 3 along x are in the view.
      auto readable = [&](int64_t from) {
        return c + from >= v_.lo[0] && c + from + 3 <= v_.hi[0];
      };
      if (a == 0 && !readable(-1)) slow = true;
      int32_t cls = (edge ? kEdge : 0) | (slow ? kSlow | kWideSlow : 0);
      if (a == 0) {
        // The AVX2 path's mode: the differences, and the four samples it reads. A box one
        // cell wide has both faces: the one-sided difference of the edge rule, twice.
        const bool lo = !edge && i == 0, hi = !edge && i + 2 >= n;
        int32_t mode = -1;
        if (edge || (lo && hi))
          mode = readable(-1) ? kEdgeMid : readable(0) ? kEdgeRight : readable(-2) ? kEdgeLeft : -1;
        else if (lo)
          mode = readable(0) ? kFaceLo : -1;
        else if (hi)
          mode = readable(-2) ? kFaceHi : -1;
        else
          mode = readable(-1) ? kCentral : -1;
        cls = (cls & ~kWideSlow) | (mode < 0 ? kWideSlow : mode << kModeShift);
      }
      cls_[a][size_t(i)] = cls;
    }
  }
  // The AVX2 path addresses a plane with 32-bit offsets from sample (lo[0], lo[1]).
  const int64_t span = (v_.hi[0] - v_.lo[0] + 4) + v_.sy * (v_.hi[1] - v_.lo[1] + 3);
  wide_ok_ = span < INT32_MAX && v_.sy < INT32_MAX;
}

// SnGradients::edge_rule: along an axis with the rule, the cell's four edge differences
// (doubled) blended over the other two axes.
void SnNormals::edge_rule(const uint8_t* p, const int32_t (&cls)[3], const float* f,
                          float* g) const {
  const int64_t sy = v_.sy, sz = v_.sz;
  auto e = [&](int64_t lo, int64_t step) { return float(2 * (int(p[lo + step]) - int(p[lo]))); };
  auto bl = [](float e00, float e10, float e01, float e11, float s, float t) {
    const float a = e00 + (e10 - e00) * s, b = e01 + (e11 - e01) * s;
    return a + (b - a) * t;
  };
  if (cls[0] & kEdge) g[0] = bl(e(0, 1), e(sy, 1), e(sz, 1), e(sy + sz, 1), f[1], f[2]);
  if (cls[1] & kEdge) g[1] = bl(e(0, sy), e(1, sy), e(sz, sy), e(1 + sz, sy), f[0], f[2]);
  if (cls[2] & kEdge) g[2] = bl(e(0, sz), e(1, sz), e(sy, sz), e(1 + sy, sz), f[0], f[1]);
}

// One cell by the clamped rule: along each axis without the edge rule, the trilinear blend
// of the corners' differences (lerps over x, then y, then z, as SnGradients::gradient).
void SnNormals::cell_scalar(int64_t x, int64_t y, int64_t z, const float* f, float* g) const {
  const int64_t i[3] = {x - clo_[0], y - clo_[1], z - clo_[2]};
  const int32_t cls[3] = {cls_[0][size_t(i[0])], cls_[1][size_t(i[1])], cls_[2][size_t(i[2])]};
  const uint8_t* p = v_.ptr(x, y, z);
  const int64_t step[3] = {1, v_.sy, v_.sz};
  for (int a = 0; a < 3; ++a) {
    if (cls[a] & kEdge) continue;
    float c[8];
    for (int k = 0; k < 8; ++k) {
      const int d[3] = {k & 1, (k >> 1) & 1, k >> 2};
      const Sample& s = sample_[a][size_t(i[a] + d[a])];
      const uint8_t* q = p + d[0] + d[1] * v_.sy + d[2] * v_.sz;
      c[k] = float((int(q[s.hi * step[a]]) - int(q[s.lo * step[a]])) * s.mul);
    }
    g[a] = lerp(lerp(lerp(c[0], c[1], f[0]), lerp(c[2], c[3], f[0]), f[1]),
                lerp(lerp(c[4], c[5], f[0]), lerp(c[6], c[7], f[0]), f[1]), f[2]);
  }
  g[3] = 0.0f;
  edge_rule(p, cls, f, g);
}

void SnNormals::slab(int64_t z, size_t n, const int32_t* x, const int32_t* y, const float* f,
                     float* g, Output out) const {
#if VOXKIT_HAVE_AVX2_TARGET
  // The eight-cell path takes slabs on the grid's z faces too, and normalises in registers.
  if (path_ == Path::Avx2 && wide_ok_) {
    slab_avx2(z, n, x, y, f, nullptr, g, out);
    return;
  }
#endif
  const bool slow_z = (cls_[2][size_t(z - clo_[2])] & kSlow) != 0;
#if defined(__SSE2__)
  if (!slow_z && path_ != Path::Scalar) {
    slab_sse2(z, n, x, y, f, g);
    if (out == Output::Normals) normalize_cells(g, n);  // while the slab is in cache
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i) {
    cell_scalar(x[i], y[i], z, f + 4 * i, g + 4 * i);
    if (out == Output::Normals) normalize_cell(g + 4 * i);
  }
}

void SnNormals::slab_with_offsets(int64_t z, size_t n, const int32_t* x, const int32_t* y,
                                  const uint8_t* base, const int32_t* at, float* f, float* g,
                                  Output out) const {
#if VOXKIT_HAVE_AVX2_TARGET
  if (path_ == Path::Avx2 && wide_ok_) {
    slab_avx2(z, n, x, y, f, f, g, out);
    return;
  }
#endif
  sn_offsets(base, at, n, v_.sy, v_.sz, f);
  slab(z, n, x, y, f, g, out);
}

#if defined(__SSE2__)
namespace {

inline __m128i word(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return _mm_cvtsi32_si128(v);
}
// Four 4-byte rows in one register.
inline __m128i rows4(const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d) {
  return _mm_unpacklo_epi64(_mm_unpacklo_epi32(word(a), word(b)),
                            _mm_unpacklo_epi32(word(c), word(d)));
}
inline __m128 lerp4(__m128 a, __m128 b, __m128 t) {
  return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), t));
}
// Signed 16-bit words 0..3 and 4..7 as floats.
inline __m128 lo4(__m128i v) { return _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16)); }
inline __m128 hi4(__m128i v) { return _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpackhi_epi16(v, v), 16)); }

}  // namespace

// One cell at a time: the sample rows round the cell as 16-bit words (row r of a register at
// words 4r .. 4r + 3, samples x - 1 .. x + 2), differenced per axis, interleaved into the
// eight corners' (gx, gy, gz, 0) and blended as SnGradients blends its cache.
void SnNormals::slab_sse2(int64_t z, size_t n, const int32_t* x, const int32_t* y,
                          const float* f, float* g) const {
  const int64_t sy = v_.sy, sz = v_.sz;
  const int32_t cz = cls_[2][size_t(z - clo_[2])];
  // Planes z - 1 and z + 2, clamped to z and z + 1 where the edge rule replaces gz.
  const int64_t zm = cz & kEdge ? 0 : -sz, zp = cz & kEdge ? sz : 2 * sz;
  const __m128i zero = _mm_setzero_si128();
  for (size_t i = 0; i < n; ++i) {
    const float* fi = f + 4 * i;
    float* gi = g + 4 * i;
    const int32_t cls[3] = {cls_[0][size_t(x[i] - clo_[0])], cls_[1][size_t(y[i] - clo_[1])], cz};
    if ((cls[0] | cls[1]) & kSlow) {
      cell_scalar(x[i], y[i], z, fi, gi);
      continue;
    }
    const uint8_t* p = v_.ptr(x[i], y[i], z);
    const uint8_t* q = p - 1;
    const int64_t ym = cls[1] & kEdge ? 0 : -sy, yp = cls[1] & kEdge ? sy : 2 * sy;
    const __m128i r = rows4(q, q + sy, q + sz, q + sy + sz);
    const __m128i m = rows4(q + ym, q + yp, q + sz + ym, q + sz + yp);
    const __m128i zz = rows4(q + zm, q + zm + sy, q + zp, q + zp + sy);
    // Rows (y, y + 1) of plane z and z + 1; (y - 1, y + 2) of both; (y, y + 1) of z - 1, z + 2.
    const __m128i r0 = _mm_unpacklo_epi8(r, zero), r1 = _mm_unpackhi_epi8(r, zero);
    const __m128i m0 = _mm_unpacklo_epi8(m, zero), m1 = _mm_unpackhi_epi8(m, zero);
    const __m128i zl = _mm_unpacklo_epi8(zz, zero), zh = _mm_unpackhi_epi8(zz, zero);
    __m128 c[8];  // corner dx + 2 dy + 4 dz
    for (int dz = 0; dz < 2; ++dz) {
      const __m128i rd = dz ? r1 : r0, md = dz ? m1 : m0;
      // Each at words (dx, dy) -> dx + 4 dy.
      const __m128i gx = _mm_sub_epi16(_mm_srli_si128(rd, 4), rd);
      const __m128i rs = _mm_shuffle_epi32(rd, _MM_SHUFFLE(1, 0, 3, 2));
      const __m128i gy = _mm_srli_si128(
          _mm_castpd_si128(_mm_move_sd(_mm_castsi128_pd(_mm_sub_epi16(md, rs)),
                                       _mm_castsi128_pd(_mm_sub_epi16(rs, md)))),
          2);
      const __m128i gz = _mm_srli_si128(dz ? _mm_sub_epi16(zh, r0) : _mm_sub_epi16(r1, zl), 2);
      const __m128i c0 = _mm_unpacklo_epi32(_mm_unpacklo_epi16(gx, gy), _mm_unpacklo_epi16(gz, zero));
      const __m128i c1 = _mm_unpacklo_epi32(_mm_unpackhi_epi16(gx, gy), _mm_unpackhi_epi16(gz, zero));
      c[4 * dz + 0] = lo4(c0);
      c[4 * dz + 1] = hi4(c0);
      c[4 * dz + 2] = lo4(c1);
      c[4 * dz + 3] = hi4(c1);
    }
    const __m128 fv = _mm_loadu_ps(fi);
    const __m128 fx = _mm_shuffle_ps(fv, fv, _MM_SHUFFLE(0, 0, 0, 0));
    const __m128 fy = _mm_shuffle_ps(fv, fv, _MM_SHUFFLE(1, 1, 1, 1));
    const __m128 fz = _mm_shuffle_ps(fv, fv, _MM_SHUFFLE(2, 2, 2, 2));
    const __m128 gv = lerp4(lerp4(lerp4(c[0], c[1], fx), lerp4(c[2], c[3], fx), fy),
                            lerp4(lerp4(c[4], c[5], fx), lerp4(c[6], c[7], fx), fy), fz);
    _mm_storeu_ps(gi, gv);
    if ((cls[0] | cls[1] | cls[2]) & kEdge) edge_rule(p, cls, fi, gi);
  }
}
#endif

}  // namespace voxkit::mesh_detail
