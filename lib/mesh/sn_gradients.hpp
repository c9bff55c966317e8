// Surface Nets vertex normals as a per-sample cache: the SDF gradient of each sample a
// surface cell touches, computed once per sample into two planes of a rolling cache, then
// blended trilinearly at each vertex (seven vector lerps), with the chunk-plane rule of
// docs/meshing.md applied on top. The mesher computes the same floats with SnNormals
// (sn_normals.hpp), which reads the samples directly and is faster; this formulation is the
// definition the tests and bench/bench_sn_normals hold it to. normalize_cell defines the
// mesher's normals (SnNormals computes them in its batches).
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/mesh/mesh_internal.hpp"

namespace voxkit::mesh_detail {

// Gradients are kept doubled, as exact small integers in floats: a central difference
// v[s+1] - v[s-1], a one-sided one 2 (v[s+1] - v[s]). A normal does not depend on the scale.
class SnGradients {
 public:
  // For the sample box clo..chi (the cells clo..chi-1 and their corners) of task t.
  void setup(const Task& t, const int64_t (&clo)[3], const int64_t (&chi)[3]) {
    const int64_t stride[3] = {1, t.sdf.sy, t.sdf.sz};
    for (int a = 0; a < 3; ++a) {
      lo_[a] = clo[a];
      const int64_t n = chi[a] - clo[a] + 1;
      // The tables depend on the box only through these (chunks of one grid mostly share
      // them), so a thread's next chunk usually reuses them.
      const std::array<int64_t, 5> key{n, stride[a], clo[a] % t.chunk_cells,
                                        chi[a] == t.n(a), t.chunk_cells};
      if (key == key_[a]) continue;
      key_[a] = key;
      auto& ax = axis_[a];
      ax.resize(size_t(n));
      for (int64_t i = 0; i < n; ++i) {
        // Neighbours clamped to the box: inside it a difference is central, and at its
        // faces it is one-sided. A face that is not a grid face is a chunk plane, whose
        // cells follow the edge rule below instead (checked against sn_cell_rule).
        const int64_t lo = i > 0 ? -1 : 0, hi = i + 1 < n ? 1 : 0;
        ax[size_t(i)] = {lo * stride[a], hi * stride[a], hi - lo == 2 ? 0 : 1};
      }
      edge_rule_[a].resize(size_t(n - 1));
      for (int64_t i = 0; i + 1 < n; ++i) {
        const std::array<Diff, 2> r = sn_cell_rule(clo[a] + i, t.n(a), t.chunk_cells);
        const bool edge = r[0].lo == 0 && r[0].hi == 1 && r[1].lo == -1 && r[1].hi == 0;
        edge_rule_[a][size_t(i)] = edge;
        // Every other cell takes the differences the clamped rule gives its corners.
        assert(edge || (r[0].lo == (i > 0 ? -1 : 0) && r[0].hi == 1 && r[1].lo == -1 &&
                        r[1].hi == (i + 2 < n ? 1 : 0)));
      }
    }
    sx_ = chi[0] - clo[0] + 1;
    plane_ = sx_ * (chi[1] - clo[1] + 1);
    store_.resize(size_t(2 * plane_ * 4));
  }

  // Fills the gradients of the samples of plane z whose bits are set in `need` (one row of
  // words per y, from clo[1]; bit i is sample clo[0] + i).
  // The bits are consumed.
  void fill_plane(const View& v, int64_t z, uint64_t* need, int64_t rows, int64_t words) {
    float* plane = plane_at(z);
    const Axis& az = axis_[2][size_t(z - lo_[2])];
    const int64_t sx = sx_;
    const uint8_t* row = v.ptr(lo_[0], lo_[1], z);
    for (int64_t r = 0; r < rows; ++r, row += v.sy) {
      uint64_t* nr = need + r * words;
      uint64_t any = 0;
      for (int64_t k = 0; k < words; ++k) any |= nr[k];
      if (any == 0) continue;
      const Axis& ay = axis_[1][size_t(r)];
      float* out = plane + 4 * sx * r;
#if defined(__SSE2__)
      // Samples 1 .. sx - 2 have both x neighbours: sixteen at a time where any is needed.
      for (int64_t i0 = 1; i0 + 16 <= sx - 1; i0 += 16) {
        const int64_t k = i0 / 64, off = i0 % 64;
        uint64_t block = nr[k] >> off;
        if (off > 48) block |= nr[k + 1] << (64 - off);
        if ((block & 0xffffu) == 0) continue;
        block16(row + i0, ay, az, out + 4 * i0);
        nr[k] &= ~(uint64_t(0xffffu) << off);
        if (off > 48) nr[k + 1] &= ~(uint64_t(0xffffu) >> (64 - off));
      }
#endif
      for (int64_t k = 0; k < words; ++k)
        for (uint64_t m = nr[k]; m; m &= m - 1) {
          const int64_t i = 64 * k + std::countr_zero(m);
          const Axis& ax = axis_[0][size_t(i)];
          const uint8_t* p = row + i;
          const int gx = (int(p[ax.hi]) - int(p[ax.lo])) << ax.shift;
          const int gy = (int(p[ay.hi]) - int(p[ay.lo])) << ay.shift;
          const int gz = (int(p[az.hi]) - int(p[az.lo])) << az.shift;
#if defined(__SSE2__)
          _mm_storeu_ps(out + 4 * i, _mm_cvtepi32_ps(_mm_setr_epi32(gx, gy, gz, 0)));
#else
          float* o = out + 4 * i;
          o[0] = float(gx), o[1] = float(gy), o[2] = float(gz), o[3] = 0.0f;
#endif
        }
    }
  }

  // What the cells of one row (y, z) share: their corner gradients start at c0 (plane z)
  // and c1 (plane z + 1), cell x at 4 * (x - clo[0]) floats from there.
  struct Row {
    const float* c0;
    const float* c1;
    int64_t iy, iz;
    bool edge_yz;  // the chunk-plane rule applies along y or z
  };
  Row row(int64_t y, int64_t z) const {
    const int64_t iy = y - lo_[1], iz = z - lo_[2];
    return {plane_at(z) + 4 * sx_ * iy, plane_at(z + 1) + 4 * sx_ * iy, iy, iz,
            (edge_rule_[1][size_t(iy)] | edge_rule_[2][size_t(iz)]) != 0};
  }

  // Writes the gradient at offsets f in cell x of row r, whose corner sample is at p, to
  // out[0..2] (normalised later, many at a time, by normalize_cells). With SSE2 f is a vector
  // (fx, fy, fz, -) and out gets 16 bytes.
#if defined(__SSE2__)
  void gradient(const Row& r, int64_t x, const uint8_t* p, int64_t sy, int64_t sz, __m128 f,
                float* out) const {
#else
  void gradient(const Row& r, int64_t x, const uint8_t* p, int64_t sy, int64_t sz,
                const float (&f)[3], float* out) const {
#endif
    const int64_t ix = x - lo_[0];
    const float* c0 = r.c0 + 4 * ix;
    const float* c1 = r.c1 + 4 * ix;
    const int64_t dy = 4 * sx_;
    const bool edges = r.edge_yz | (edge_rule_[0][size_t(ix)] != 0);
#if defined(__SSE2__)
    const __m128 fx = _mm_shuffle_ps(f, f, _MM_SHUFFLE(0, 0, 0, 0));
    const __m128 fy = _mm_shuffle_ps(f, f, _MM_SHUFFLE(1, 1, 1, 1));
    const __m128 fz = _mm_shuffle_ps(f, f, _MM_SHUFFLE(2, 2, 2, 2));
    auto lerp = [](__m128 a, __m128 b, __m128 t) {
      return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), t));
    };
    auto lx = [&](const float* c) { return lerp(_mm_loadu_ps(c), _mm_loadu_ps(c + 4), fx); };
    const __m128 g = lerp(lerp(lx(c0), lx(c0 + dy), fy), lerp(lx(c1), lx(c1 + dy), fy), fz);
    _mm_storeu_ps(out, g);
    if (edges) {
      // Scalars from here: reloading a vector over scalar stores would stall the store buffer.
      alignas(16) float fs[4];
      _mm_store_ps(fs, f);
      const float f3[3] = {fs[0], fs[1], fs[2]};
      edge_rule(out, ix, r.iy, r.iz, p, sy, sz, f3);
    }
#else
    auto lerp = [](float a, float b, float t) { return a + (b - a) * t; };
    for (int k = 0; k < 3; ++k) {
      auto lx = [&](const float* c) { return lerp(c[k], c[4 + k], f[0]); };
      out[k] = lerp(lerp(lx(c0), lx(c0 + dy), f[1]), lerp(lx(c1), lx(c1 + dy), f[1]), f[2]);
    }
    if (edges) edge_rule(out, ix, r.iy, r.iz, p, sy, sz, f);
#endif
  }

 private:
  struct Axis {
    int64_t lo, hi;  // byte offsets of the difference's ends
    int shift;       // 1 for a one-sided difference (doubled), 0 for a central one
  };
  // A cell straddling a chunk plane along an axis takes that axis' difference from its own
  // edges at both corners (doubled like the cache), blended over the other two axes.
  void edge_rule(float* g, int64_t ix, int64_t iy, int64_t iz, const uint8_t* p, int64_t sy,
                 int64_t sz, const float (&f)[3]) const {
    auto e = [&](int64_t lo, int64_t step) { return float(2 * (int(p[lo + step]) - int(p[lo]))); };
    auto bl = [](float e00, float e10, float e01, float e11, float s, float t) {
      const float a = e00 + (e10 - e00) * s, b = e01 + (e11 - e01) * s;
      return a + (b - a) * t;
    };
    if (edge_rule_[0][size_t(ix)]) g[0] = bl(e(0, 1), e(sy, 1), e(sz, 1), e(sy + sz, 1), f[1], f[2]);
    if (edge_rule_[1][size_t(iy)]) g[1] = bl(e(0, sy), e(1, sy), e(sz, sy), e(1 + sz, sy), f[0], f[2]);
    if (edge_rule_[2][size_t(iz)]) g[2] = bl(e(0, sz), e(1, sz), e(sy, sz), e(1 + sy, sz), f[0], f[1]);
  }
#if defined(__SSE2__)
  // The gradients of the sixteen samples from p (each with both x neighbours) to out.
  static void block16(const uint8_t* p, const Axis& ay, const Axis& az, float* out) {
    const __m128i zero = _mm_setzero_si128();
    auto diff = [&](int64_t lo, int64_t hi, int shift, __m128i& d0, __m128i& d1) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + lo));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + hi));
      const __m128i count = _mm_cvtsi32_si128(shift);
      d0 = _mm_sll_epi16(_mm_sub_epi16(_mm_unpacklo_epi8(b, zero), _mm_unpacklo_epi8(a, zero)),
                         count);
      d1 = _mm_sll_epi16(_mm_sub_epi16(_mm_unpackhi_epi8(b, zero), _mm_unpackhi_epi8(a, zero)),
                         count);
    };
    __m128i x0, x1, y0, y1, z0, z1;
    diff(-1, 1, 0, x0, x1);
    diff(ay.lo, ay.hi, ay.shift, y0, y1);
    diff(az.lo, az.hi, az.shift, z0, z1);
    // Signed 16-bit lanes to floats, four at a time.
    auto lo4 = [](__m128i d) { return _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpacklo_epi16(d, d), 16)); };
    auto hi4 = [](__m128i d) { return _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpackhi_epi16(d, d), 16)); };
    // Four samples' (gx, gy, gz) lanes to four (gx, gy, gz, 0) vectors.
    auto put4 = [](float* o, __m128 gx, __m128 gy, __m128 gz) {
      const __m128 t0 = _mm_unpacklo_ps(gx, gy), t1 = _mm_unpackhi_ps(gx, gy);
      const __m128 t2 = _mm_unpacklo_ps(gz, _mm_setzero_ps());
      const __m128 t3 = _mm_unpackhi_ps(gz, _mm_setzero_ps());
      _mm_storeu_ps(o, _mm_movelh_ps(t0, t2));
      _mm_storeu_ps(o + 4, _mm_movehl_ps(t2, t0));
      _mm_storeu_ps(o + 8, _mm_movelh_ps(t1, t3));
      _mm_storeu_ps(o + 12, _mm_movehl_ps(t3, t1));
    };
    put4(out, lo4(x0), lo4(y0), lo4(z0));
    put4(out + 16, hi4(x0), hi4(y0), hi4(z0));
    put4(out + 32, lo4(x1), lo4(y1), lo4(z1));
    put4(out + 48, hi4(x1), hi4(y1), hi4(z1));
  }
#endif

  float* plane_at(int64_t z) { return store_.data() + ((z - lo_[2]) & 1) * plane_ * 4; }
  const float* plane_at(int64_t z) const {
    return store_.data() + ((z - lo_[2]) & 1) * plane_ * 4;
  }

  std::array<int64_t, 5> key_[3]{};
  int64_t lo_[3] = {0, 0, 0};
  int64_t sx_ = 0, plane_ = 0;
  std::vector<Axis> axis_[3];
  std::vector<uint8_t> edge_rule_[3];  // per cell: the chunk-plane edge rule applies
  std::vector<float> store_;            // two planes of (gx, gy, gz, 0) per sample
};

// Normalises one gradient v[0..2] in place: v / sqrt((vx * vx + vy * vy) + vz * vz), single-
// precision IEEE operations in that order (a division each, no fused multiply-add), and a
// zero vector becomes (0, 1, 0). Every batch form (normalize_cells, SnNormals' paths) gives
// these bits.
inline void normalize_cell(float* v) {
  const float len2 = (v[0] * v[0] + v[1] * v[1]) + v[2] * v[2];
  if (!(len2 > 0.0f)) {
    v[0] = 0.0f, v[1] = 1.0f, v[2] = 0.0f;
    return;
  }
  const float len = std::sqrt(len2);
  v[0] /= len, v[1] /= len, v[2] /= len;
}

// normalize_cell on the gradients g[4i .. 4i+2] of n cells (stride four floats; lane 3 is
// left as it was). Four cells at a time, transposed.
inline void normalize_cells(float* g, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  for (; i + 4 <= n; i += 4) {
    float* v = g + 4 * i;
    __m128 x = _mm_loadu_ps(v), y = _mm_loadu_ps(v + 4), z = _mm_loadu_ps(v + 8),
           w = _mm_loadu_ps(v + 12);
    _MM_TRANSPOSE4_PS(x, y, z, w);
    const __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    const __m128 ok = _mm_cmpgt_ps(len2, zero);
    const __m128 len = _mm_sqrt_ps(len2);
    x = _mm_and_ps(ok, _mm_div_ps(x, len));
    y = _mm_or_ps(_mm_and_ps(ok, _mm_div_ps(y, len)), _mm_andnot_ps(ok, one));
    z = _mm_and_ps(ok, _mm_div_ps(z, len));
    _MM_TRANSPOSE4_PS(x, y, z, w);
    _mm_storeu_ps(v, x);
    _mm_storeu_ps(v + 4, y);
    _mm_storeu_ps(v + 8, z);
    _mm_storeu_ps(v + 12, w);
  }
#endif
  for (; i < n; ++i) normalize_cell(g + 4 * i);
}

}  // namespace voxkit::mesh_detail
