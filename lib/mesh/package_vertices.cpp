// The package mesher's vertices: one cell a step in plain C++, eight with AVX2 (one lane a
// cell, every expression the same operation in the same order as the plain path).
#include "lib/mesh/package_vertices.hpp"

#include <cassert>
#include <cmath>
#include <cstring>
#include <vector>

#include "lib/core/simd_avx2.hpp"

namespace voxkit::package_detail {
namespace {

// t of an edge from byte a to byte b, as SurfaceNets computes it ((a - 128) / (float)(a - b)),
// when the edge crosses the surface (one byte below 128, the other not); +0 otherwise. Each
// entry is that same float division, done once.
const float* crossing_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536, 0.0f);
    for (int a = 0; a < 256; ++a)
      for (int b = 0; b < 256; ++b)
        if ((a < 128) != (b < 128)) t[size_t(a) << 8 | size_t(b)] = float(a - 128) / float(a - b);
    return t;
  }();
  return table.data();
}

void vertices_scalar(const CellBatch& b, size_t n, float* pos, float* nrm, int32_t* mask_out) {
  const float* crossing = crossing_table();
  const int64_t sy = b.sy, sz = b.sz;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = b.base + b.offset[i];
    const uint8_t u0 = p[0], u1 = p[1], u2 = p[sy], u3 = p[1 + sy], u4 = p[sz], u5 = p[1 + sz], u6 = p[sy + sz],
                  u7 = p[1 + sy + sz];
    const int s0 = u0 - 128, s1 = u1 - 128, s2 = u2 - 128, s3 = u3 - 128, s4 = u4 - 128, s5 = u5 - 128,
              s6 = u6 - 128, s7 = u7 - 128;
    mask_out[i] = (s0 < 0 ? 1 : 0) | (s1 < 0 ? 2 : 0) | (s2 < 0 ? 4 : 0) | (s3 < 0 ? 8 : 0) | (s4 < 0 ? 16 : 0) |
                  (s5 < 0 ? 32 : 0) | (s6 < 0 ? 64 : 0) | (s7 < 0 ? 128 : 0);
    float px = 0, py = 0, pz = 0;
    // The twelve edges in the package's order, each adding its crossing t to its own axis
    // and its fixed offsets (0 or 1) to the other two. Done without branches: an edge that
    // does not cross adds +0 (t from the table, offsets times a 0 flag), which leaves every
    // sum as it was, so the sums are the package's, addition for addition.
    auto crosses = [](uint8_t a, uint8_t c) { return int((a ^ c) >> 7); };
    auto t_of = [&](uint8_t a, uint8_t c) { return crossing[size_t(a) << 8 | c]; };
    int cnt = 0;
    {  // x edges: 0-1, 2-3 (y1), 4-5 (z1), 6-7 (y1 z1)
      const int c0 = crosses(u0, u1), c1 = crosses(u2, u3), c2 = crosses(u4, u5), c3 = crosses(u6, u7);
      px += t_of(u0, u1);
      py += float(c1), px += t_of(u2, u3);
      pz += float(c2), px += t_of(u4, u5);
      py += float(c3), pz += float(c3), px += t_of(u6, u7);
      cnt += c0 + c1 + c2 + c3;
    }
    {  // y edges: 0-2, 1-3 (x1), 4-6 (z1), 5-7 (x1 z1)
      const int c0 = crosses(u0, u2), c1 = crosses(u1, u3), c2 = crosses(u4, u6), c3 = crosses(u5, u7);
      py += t_of(u0, u2);
      px += float(c1), py += t_of(u1, u3);
      pz += float(c2), py += t_of(u4, u6);
      px += float(c3), pz += float(c3), py += t_of(u5, u7);
      cnt += c0 + c1 + c2 + c3;
    }
    {  // z edges: 0-4, 1-5 (x1), 2-6 (y1), 3-7 (x1 y1)
      const int c0 = crosses(u0, u4), c1 = crosses(u1, u5), c2 = crosses(u2, u6), c3 = crosses(u3, u7);
      pz += t_of(u0, u4);
      px += float(c1), pz += t_of(u1, u5);
      py += float(c2), pz += t_of(u2, u6);
      px += float(c3), py += float(c3), pz += t_of(u3, u7);
      cnt += c0 + c1 + c2 + c3;
    }
    const float inv = 1.0f / float(cnt), voxel = b.voxel;
    const int lx = cell_x(b.cell[i]), ly = cell_y(b.cell[i]), lz = cell_z(b.cell[i]);
    float* P = pos + 3 * i;
    if (b.editor) {
      P[0] = float((double(lx) + double(px) * inv) * voxel);
      P[1] = float((double(ly) + double(py) * inv) * voxel);
      P[2] = float((double(lz) + double(pz) * inv) * voxel);
    } else {
      P[0] = (float(lx) + px * inv) * voxel;
      P[1] = (float(ly) + py * inv) * voxel;
      P[2] = (float(lz) + pz * inv) * voxel;
    }
    // The cell's gradient (integers), normalised; straight up when it is zero.
    const int gxs = (s1 + s3 + s5 + s7) - (s0 + s2 + s4 + s6);
    const int gys = (s2 + s3 + s6 + s7) - (s0 + s1 + s4 + s5);
    const int gzs = (s4 + s5 + s6 + s7) - (s0 + s1 + s2 + s3);
    const float len = float(std::sqrt(double(int64_t(gxs) * gxs + int64_t(gys) * gys + int64_t(gzs) * gzs)));
    float* N = nrm + 3 * i;
    if (len > 0.0001f) {
      N[0] = float(gxs) / len, N[1] = float(gys) / len, N[2] = float(gzs) / len;
    } else {
      N[0] = 0, N[1] = 1, N[2] = 0;
    }
  }
}

#if VOXKIT_HAVE_AVX2_TARGET
#define VOXKIT_AVX2 gnu::target("avx2"), gnu::always_inline

// float((double(l) + double(p) * double(inv)) * voxel) for eight lanes, as two halves of four.
[[VOXKIT_AVX2]] inline __m128 place4(__m128 p, __m128 inv, __m128i l, __m256d vox) {
  return _mm256_cvtpd_ps(
      _mm256_mul_pd(_mm256_add_pd(_mm256_cvtepi32_pd(l), _mm256_mul_pd(_mm256_cvtps_pd(p), _mm256_cvtps_pd(inv))), vox));
}
[[VOXKIT_AVX2]] inline __m256 place_editor(__m256 p, __m256 inv, __m256i l, __m256d vox) {
  const __m128 lo = place4(_mm256_castps256_ps128(p), _mm256_castps256_ps128(inv), _mm256_castsi256_si128(l), vox);
  const __m128 hi = place4(_mm256_extractf128_ps(p, 1), _mm256_extractf128_ps(inv, 1), _mm256_extracti128_si256(l, 1), vox);
  return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}
// (float(l) + p * inv) * voxel in float32.
[[VOXKIT_AVX2]] inline __m256 place_player(__m256 p, __m256 inv, __m256i l, __m256 vox) {
  return _mm256_mul_ps(_mm256_add_ps(_mm256_cvtepi32_ps(l), _mm256_mul_ps(p, inv)), vox);
}

// The crossing flag (0 or 1 per lane) of the edge from byte vector a to byte vector c.
[[VOXKIT_AVX2]] inline __m256i flag8(__m256i a, __m256i c) { return _mm256_srli_epi32(_mm256_xor_si256(a, c), 7); }
// Its t, (a - 128) / (a - c) where it crosses, +0 where not (the other lanes divide by 1).
[[VOXKIT_AVX2]] inline __m256 t8(__m256i a, __m256i c, __m256i f) {
  const __m256 m = _mm256_castsi256_ps(_mm256_cmpeq_epi32(f, _mm256_set1_epi32(1)));
  const __m256 num = _mm256_cvtepi32_ps(_mm256_sub_epi32(a, _mm256_set1_epi32(128)));
  const __m256 den = _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_cvtepi32_ps(_mm256_sub_epi32(a, c)), m);
  return _mm256_and_ps(m, _mm256_div_ps(num, den));
}
[[VOXKIT_AVX2]] inline void add8(__m256& s, __m256 v) { s = _mm256_add_ps(s, v); }
[[VOXKIT_AVX2]] inline void add8(__m256& s, __m256i flag) { s = _mm256_add_ps(s, _mm256_cvtepi32_ps(flag)); }
[[VOXKIT_AVX2]] inline __m256i sum4(__m256i a, __m256i c, __m256i d, __m256i e) {
  return _mm256_add_epi32(_mm256_add_epi32(a, c), _mm256_add_epi32(d, e));
}

// Eight cells (offsets at[0..7], places cells[0..7]): positions and normals
// as x, y, z vectors of eight lanes, masks as eight 32-bit lanes.
struct Out8 {
  float* pos;  // 24 floats: x, y, z of each cell in turn
  float* nrm;  // 24 floats
  int32_t* mask;
};

// Writes (x[i], y[i], z[i]) for the eight lanes i to out[0..23]: each of the three stores
// gathers its lanes from x, y and z with one permute each and blends them.
#define P8(v, ...) _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(__VA_ARGS__))
[[VOXKIT_AVX2]] inline void store_xyz(float* out, __m256 x, __m256 y, __m256 z) {
  // out0 = x0 y0 z0 x1 y1 z1 x2 y2, out1 = z2 x3 y3 z3 x4 y4 z4 x5, out2 = y5 z5 x6 y6 z6 x7 y7 z7
  const __m256 o0 = _mm256_blend_ps(_mm256_blend_ps(P8(x, 0, 0, 0, 1, 0, 0, 2, 0), P8(y, 0, 0, 0, 0, 1, 0, 0, 2), 0x92),
                                    P8(z, 0, 0, 0, 0, 0, 1, 0, 0), 0x24);
  const __m256 o1 = _mm256_blend_ps(_mm256_blend_ps(P8(z, 2, 0, 0, 3, 0, 0, 4, 0), P8(x, 0, 3, 0, 0, 4, 0, 0, 5), 0x92),
                                    P8(y, 0, 0, 3, 0, 0, 4, 0, 0), 0x24);
  const __m256 o2 = _mm256_blend_ps(_mm256_blend_ps(P8(y, 5, 0, 0, 6, 0, 0, 7, 0), P8(z, 0, 5, 0, 0, 6, 0, 0, 7), 0x92),
                                    P8(x, 0, 0, 6, 0, 0, 7, 0, 0), 0x24);
  _mm256_storeu_ps(out, o0);
  _mm256_storeu_ps(out + 8, o1);
  _mm256_storeu_ps(out + 16, o2);
}
#undef P8

[[VOXKIT_AVX2]] inline void step8(const CellBatch& b, const int32_t* at, const int32_t* cells, const Out8& o) {
  const __m256i low = _mm256_set1_epi32(0xff), k128 = _mm256_set1_epi32(128);
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256i rows[4] = {simd::row_pairs(b.base, at), simd::row_pairs(b.base + b.sy, at),
                           simd::row_pairs(b.base + b.sz, at), simd::row_pairs(b.base + b.sy + b.sz, at)};
  __m256i u[8];
  for (int r = 0; r < 4; ++r) {
    u[2 * r] = _mm256_and_si256(rows[r], low);
    u[2 * r + 1] = _mm256_srli_epi32(rows[r], 8);
  }
  // The twelve edges in the plain path's order.
  __m256 px = _mm256_setzero_ps(), py = px, pz = px;
  const __m256i x0 = flag8(u[0], u[1]), x1 = flag8(u[2], u[3]), x2 = flag8(u[4], u[5]), x3 = flag8(u[6], u[7]);
  add8(px, t8(u[0], u[1], x0));
  add8(py, x1), add8(px, t8(u[2], u[3], x1));
  add8(pz, x2), add8(px, t8(u[4], u[5], x2));
  add8(py, x3), add8(pz, x3), add8(px, t8(u[6], u[7], x3));
  const __m256i y0 = flag8(u[0], u[2]), y1 = flag8(u[1], u[3]), y2 = flag8(u[4], u[6]), y3 = flag8(u[5], u[7]);
  add8(py, t8(u[0], u[2], y0));
  add8(px, y1), add8(py, t8(u[1], u[3], y1));
  add8(pz, y2), add8(py, t8(u[4], u[6], y2));
  add8(px, y3), add8(pz, y3), add8(py, t8(u[5], u[7], y3));
  const __m256i z0 = flag8(u[0], u[4]), z1 = flag8(u[1], u[5]), z2 = flag8(u[2], u[6]), z3 = flag8(u[3], u[7]);
  add8(pz, t8(u[0], u[4], z0));
  add8(px, z1), add8(pz, t8(u[1], u[5], z1));
  add8(py, z2), add8(pz, t8(u[2], u[6], z2));
  add8(px, z3), add8(py, z3), add8(pz, t8(u[3], u[7], z3));
  const __m256i cnt = _mm256_add_epi32(_mm256_add_epi32(sum4(x0, x1, x2, x3), sum4(y0, y1, y2, y3)), sum4(z0, z1, z2, z3));
  const __m256 inv = _mm256_div_ps(one, _mm256_cvtepi32_ps(cnt));
  const __m256i packed = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cells));
  const __m256i field = _mm256_set1_epi32(1023), one_i = _mm256_set1_epi32(1);
  const __m256i lx = _mm256_sub_epi32(_mm256_and_si256(packed, field), one_i),
                ly = _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(packed, kCellBits), field), one_i),
                lz = _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(packed, 2 * kCellBits), field), one_i);
  if (b.editor) {
    const __m256d vox = _mm256_set1_pd(double(b.voxel));
    store_xyz(o.pos, place_editor(px, inv, lx, vox), place_editor(py, inv, ly, vox), place_editor(pz, inv, lz, vox));
  } else {
    const __m256 vox = _mm256_set1_ps(b.voxel);
    store_xyz(o.pos, place_player(px, inv, lx, vox), place_player(py, inv, ly, vox), place_player(pz, inv, lz, vox));
  }
  // The gradient in integers (the 128s cancel), its length as float(sqrt(double(sum))).
  const __m256i gx = _mm256_sub_epi32(sum4(u[1], u[3], u[5], u[7]), sum4(u[0], u[2], u[4], u[6]));
  const __m256i gy = _mm256_sub_epi32(sum4(u[2], u[3], u[6], u[7]), sum4(u[0], u[1], u[4], u[5]));
  const __m256i gz = _mm256_sub_epi32(sum4(u[4], u[5], u[6], u[7]), sum4(u[0], u[1], u[2], u[3]));
  // At most 3 * 1020^2: exact in 32-bit integers and in double.
  const __m256i sq = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(gx, gx), _mm256_mullo_epi32(gy, gy)),
                                      _mm256_mullo_epi32(gz, gz));
  const __m128 len_lo = _mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(sq))));
  const __m128 len_hi = _mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(sq, 1))));
  const __m256 len = _mm256_insertf128_ps(_mm256_castps128_ps256(len_lo), len_hi, 1);
  const __m256 ok = _mm256_cmp_ps(len, _mm256_set1_ps(0.0001f), _CMP_GT_OQ);
  const __m256 den = _mm256_blendv_ps(one, len, ok);
  const __m256 zero = _mm256_setzero_ps();
  store_xyz(o.nrm, _mm256_blendv_ps(zero, _mm256_div_ps(_mm256_cvtepi32_ps(gx), den), ok),
            _mm256_blendv_ps(one, _mm256_div_ps(_mm256_cvtepi32_ps(gy), den), ok),
            _mm256_blendv_ps(zero, _mm256_div_ps(_mm256_cvtepi32_ps(gz), den), ok));
  __m256i mask = _mm256_setzero_si256();
  for (int c = 0; c < 8; ++c)
    mask = _mm256_or_si256(mask, _mm256_and_si256(_mm256_cmpgt_epi32(k128, u[c]), _mm256_set1_epi32(1 << c)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o.mask), mask);
}

[[gnu::target("avx2")]] void vertices_avx2(const CellBatch& b, size_t n, float* pos, float* nrm, int32_t* mask) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) step8(b, b.offset + i, b.cell + i, Out8{pos + 3 * i, nrm + 3 * i, mask + i});
  if (i == n) return;
  // The last few cells, padded with copies of the last one, through scratch.
  int32_t at[8], cells[8], m[8];
  float p[24], q[24];
  for (size_t k = 0; k < 8; ++k) {
    const size_t j = i + k < n ? i + k : n - 1;
    at[k] = b.offset[j], cells[k] = b.cell[j];
  }
  step8(b, at, cells, Out8{p, q, m});
  std::memcpy(pos + 3 * i, p, (n - i) * 3 * sizeof(float));
  std::memcpy(nrm + 3 * i, q, (n - i) * 3 * sizeof(float));
  std::memcpy(mask + i, m, (n - i) * sizeof(int32_t));
}

#undef VOXKIT_AVX2
#endif

}  // namespace

bool vertex_kernel_supported(VertexKernel k) {
  switch (k) {
    case VertexKernel::scalar:
      return true;
    case VertexKernel::avx2:
#if VOXKIT_HAVE_AVX2_TARGET
      return simd::has_avx2();
#else
      return false;
#endif
  }
  return false;
}

VertexKernel vertex_kernel_best() {
  static const VertexKernel best =
      vertex_kernel_supported(VertexKernel::avx2) ? VertexKernel::avx2 : VertexKernel::scalar;
  return best;
}

void package_vertices_with(VertexKernel k, const CellBatch& cells, size_t n, float* pos, float* nrm,
                           int32_t* mask) {
  assert(vertex_kernel_supported(k));
#if VOXKIT_HAVE_AVX2_TARGET
  if (k == VertexKernel::avx2) return vertices_avx2(cells, n, pos, nrm, mask);
#endif
  vertices_scalar(cells, n, pos, nrm, mask);
}

void package_vertices(const CellBatch& cells, size_t n, float* pos, float* nrm, int32_t* mask) {
  package_vertices_with(vertex_kernel_best(), cells, n, pos, nrm, mask);
}

}  // namespace voxkit::package_detail
