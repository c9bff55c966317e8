// The band-SDF kernels: a heightmap row's triangles and edges in SIMD-friendly arrays
// (computed once per row, shared by every column near it), the per-column preparation of
// four primitives at a time, and the per-sample minimum over them (lib/bake/sdf_heightfield.cpp
// drives them; rules in docs/bake.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace voxkit::sdf {

inline constexpr float kBand = 2.0f;
inline constexpr float kBand2 = kBand * kBand;

// Four lanes of single precision (GCC/Clang vector extensions: SSE2 on baseline x86-64, the
// same IEEE arithmetic lane by lane as scalar code, so results do not depend on the machine).
inline constexpr int32_t kLanes = 4;
typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));

inline F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline F4 splat4(float x) { return F4{x, x, x, x}; }
inline F4 select4(I4 m, F4 a, F4 b) { return F4(I4((m & I4(a)) | (~m & I4(b)))); }
// a < b ? a : b and a > b ? a : b, lane by lane (exactly what minps / maxps compute).
#if defined(__SSE2__)
inline F4 sqrt4(F4 a) { return F4(_mm_sqrt_ps(__m128(a))); }
inline F4 min4(F4 a, F4 b) { return F4(_mm_min_ps(__m128(a), __m128(b))); }
inline F4 max4(F4 a, F4 b) { return F4(_mm_max_ps(__m128(a), __m128(b))); }
inline bool any4(I4 m) { return _mm_movemask_ps(__m128(m)) != 0; }
#else
inline F4 sqrt4(F4 a) { return F4{std::sqrt(a[0]), std::sqrt(a[1]), std::sqrt(a[2]), std::sqrt(a[3])}; }
inline F4 min4(F4 a, F4 b) { return select4(a < b, a, b); }
inline F4 max4(F4 a, F4 b) { return select4(a > b, a, b); }
inline bool any4(I4 m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }
#endif
inline float hmin4(F4 a) { return std::min(std::min(a[0], a[1]), std::min(a[2], a[3])); }

// Height of a primitive that must never be nearest (a missing corner, padding): its
// distance overflows to infinity.
inline constexpr float kFar = 1e30f;

// One heightmap row j over window columns i, padded by kLanes entries that hold nothing.
// Cell (i, j) has triangles A = 00 10 11 and B = 00 11 01; each is given relative to vertex
// (i, j) at x = z = 0: unit normal (ny >= 0), plane offset c (n . p + c = 0), and for its
// sides k the foot-inside test alpha * s + beta0 + ux * x0 + uz * z0 >= 0 (s the signed
// plane distance, (x0, z0) the vertex from the column). Vertex (i, j) starts three segments:
// to (i+1, j), (i, j+1) and (i+1, j+1), with start height ay, rise ey and 1 / length^2.
struct RowData {
  std::vector<float> nx[2], ny[2], nz[2], c[2], m2[2];  // m2: squared gradient
  std::vector<float> alpha[2][3], beta0[2][3], ux[2][3], uz[2][3];
  std::vector<float> ay[3], ey[3], inv_len2[3];
  std::vector<float> lo, hi;  // cell height range over its corners with data

  void resize(size_t n) {
    for (int t = 0; t < 2; ++t) {
      for (auto* v : {&nx[t], &ny[t], &nz[t], &c[t], &m2[t]}) v->resize(n);
      for (int k = 0; k < 3; ++k)
        for (auto* v : {&alpha[t][k], &beta0[t][k], &ux[t][k], &uz[t][k]}) v->resize(n);
    }
    for (int k = 0; k < 3; ++k)
      for (auto* v : {&ay[k], &ey[k], &inv_len2[k]}) v->resize(n);
    lo.resize(n);
    hi.resize(n);
  }

  // Triangle t of a cell from its corners relative to the vertex; `ok` false stores one that
  // is never nearest.
  void set_tri(int t, size_t i, bool ok, float ax, float ay_, float az, float bx, float by,
               float bz, float cx, float cy, float cz) {
    if (!ok) {
      nx[t][i] = nz[t][i] = 0;
      ny[t][i] = 0;
      c[t][i] = kFar;
      m2[t][i] = 0;
      for (int k = 0; k < 3; ++k) alpha[t][k][i] = beta0[t][k][i] = ux[t][k][i] = uz[t][k][i] = 0;
      return;
    }
    const float e1x = bx - ax, e1y = by - ay_, e1z = bz - az;
    const float e2x = cx - ax, e2y = cy - ay_, e2z = cz - az;
    float mx = e1y * e2z - e1z * e2y, my = e1z * e2x - e1x * e2z, mz = e1x * e2y - e1y * e2x;
    if (my < 0) {
      mx = -mx;
      my = -my;
      mz = -mz;
    }
    const float inv = 1.0f / std::sqrt(mx * mx + my * my + mz * mz);
    mx *= inv;
    my *= inv;
    mz *= inv;
    nx[t][i] = mx;
    ny[t][i] = my;
    nz[t][i] = mz;
    c[t][i] = -(mx * ax + my * ay_ + mz * az);
    m2[t][i] = (mx * mx + mz * mz) / (my * my);
    const float sigma = e1x * e2z - e1z * e2x >= 0 ? 1.0f : -1.0f;
    const float px[3] = {ax, bx, cx}, pz[3] = {az, bz, cz};
    for (int k = 0; k < 3; ++k) {
      const float Px = px[k], Pz = pz[k], Qx = px[(k + 1) % 3], Qz = pz[(k + 1) % 3];
      alpha[t][k][i] = sigma * ((Qz - Pz) * mx - (Qx - Px) * mz);
      ux[t][k][i] = sigma * (Qz - Pz);
      uz[t][k][i] = -sigma * (Qx - Px);
      beta0[t][k][i] = ux[t][k][i] * Px + uz[t][k][i] * Pz;
    }
  }

  // Segment k from the vertex: dx, dz its horizontal run; `ok` false: never nearest.
  void set_edge(int k, size_t i, bool ok, float h, float rise, float dx, float dz) {
    ay[k][i] = ok ? h : kFar;
    ey[k][i] = ok ? rise : 0.0f;
    inv_len2[k][i] = ok ? 1.0f / (dx * dx + dz * dz + rise * rise) : 0.0f;
  }
};

// Four triangles ready for one column: plane distance s = ny * y + c0, foot inside where
// all three alpha * s + beta >= 0.
struct FaceGroup {
  F4 ny, c0, alpha[3], beta[3];
};
// Four diagonal segments ready for one column: from (ax, ay, az) along (ex, ey, ez);
// base = -(ax ex + az ez).
struct EdgeGroup {
  F4 nax, ay, naz, ex, ey, ez, base, inv_len2;
};
// Four axis-parallel segments: along their run from -na over e, at squared horizontal
// offset q2 across it; base = na e.
struct AxisGroup {
  F4 na, ay, e, ey, q2, base, inv_len2;
};

// Triangle t of cells i..i+3 of `r`, their vertices at (x0, z0) from the column.
inline FaceGroup face_group(const RowData& r, int t, size_t i, F4 x0, float z0) {
  FaceGroup g;
  const F4 vz0 = splat4(z0);
  g.ny = load4(&r.ny[t][i]);
  g.c0 = load4(&r.c[t][i]) - (load4(&r.nx[t][i]) * x0 + load4(&r.nz[t][i]) * vz0);
  for (int k = 0; k < 3; ++k) {
    g.alpha[k] = load4(&r.alpha[t][k][i]);
    g.beta[k] = load4(&r.beta0[t][k][i]) + load4(&r.ux[t][k][i]) * x0 + load4(&r.uz[t][k][i]) * vz0;
  }
  return g;
}

// Segment k of vertices i..i+3 of `r` at (x0, z0) from the column, runs (ex, ez).
inline EdgeGroup edge_group(const RowData& r, int k, size_t i, F4 x0, float z0, F4 ex, F4 ez) {
  EdgeGroup g;
  const F4 vz0 = splat4(z0);
  g.nax = -x0;
  g.naz = -vz0;
  g.ay = load4(&r.ay[k][i]);
  g.ex = ex;
  g.ey = load4(&r.ey[k][i]);
  g.ez = ez;
  g.base = -(x0 * ex + vz0 * ez);
  g.inv_len2 = load4(&r.inv_len2[k][i]);
  return g;
}

// Segments k = 0 (along x, q = z0) or 1 (along z, q = x0) of vertices i..i+3 of `r`.
inline AxisGroup axis_group(const RowData& r, int k, size_t i, F4 along, F4 across, F4 run) {
  AxisGroup g;
  g.na = -along;
  g.ay = load4(&r.ay[k][i]);
  g.e = run;
  g.ey = load4(&r.ey[k][i]);
  g.q2 = across * across;
  g.base = g.na * run;
  g.inv_len2 = load4(&r.inv_len2[k][i]);
  return g;
}

// The squared distance from the column's sample at height y to the nearest of the groups'
// primitives, at most `start`. (Candidates come first in min4, so a NaN from overflowing
// extreme heights is passed over rather than kept.)
inline float nearest2(float y, float start, const FaceGroup* faces, size_t nf, const AxisGroup* axes,
                      size_t na, const EdgeGroup* edges, size_t ne) {
  const F4 vy = splat4(y), zero = splat4(0.0f), one = splat4(1.0f), inf = splat4(INFINITY);
  F4 acc = splat4(start);
  for (const FaceGroup& g : std::span(faces, nf)) {
    const F4 s = g.ny * vy + g.c0;
    const I4 in = (g.alpha[0] * s + g.beta[0] >= zero) & (g.alpha[1] * s + g.beta[1] >= zero) &
                  (g.alpha[2] * s + g.beta[2] >= zero);
    acc = min4(max4(s * s, F4(~in & I4(inf))), acc);  // outside: infinity
  }
  for (const AxisGroup& g : std::span(axes, na)) {
    const F4 wy = vy - g.ay;
    const F4 t = min4(max4((g.base + wy * g.ey) * g.inv_len2, zero), one);
    const F4 da = g.na - t * g.e, dy = wy - t * g.ey;
    acc = min4(da * da + dy * dy + g.q2, acc);
  }
  for (const EdgeGroup& g : std::span(edges, ne)) {
    const F4 wy = vy - g.ay;
    const F4 t = min4(max4((g.base + wy * g.ey) * g.inv_len2, zero), one);
    const F4 dx = g.nax - t * g.ex, dy = wy - t * g.ey, dz = g.naz - t * g.ez;
    acc = min4(dx * dx + dy * dy + dz * dz, acc);
  }
  return hmin4(acc);
}

}  // namespace voxkit::sdf
