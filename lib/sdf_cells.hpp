// The band-SDF kernels: per-cell triangle and edge data computed once per heightmap row and
// shared by every column near it, and the updates of a column's band samples by a face or
// an edge (lib/sdf_heightfield.cpp drives them; rules in docs/bake.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace voxkit::sdf {

inline constexpr float kBand = 2.0f;
inline constexpr float kBand2 = kBand * kBand;

// Band samples are updated in blocks of kLanes, as SIMD vectors (GCC/Clang vector
// extensions: SSE2 on baseline x86-64, the same IEEE arithmetic lane by lane as scalar
// code). Lanes past the column's last sample hold d2 = 0, which no face or edge can improve
// and no lower bound can beat.
inline constexpr int32_t kLanes = 4;
typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));

inline F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, F4 v) { std::memcpy(p, &v, sizeof v); }
inline F4 splat4(float x) { return F4{x, x, x, x}; }
inline F4 select4(I4 m, F4 a, F4 b) { return F4(I4((m & I4(a)) | (~m & I4(b)))); }
#if defined(__SSE2__)
inline F4 sqrt4(F4 a) { return F4(_mm_sqrt_ps(__m128(a))); }
#else
inline F4 sqrt4(F4 a) { return F4{std::sqrt(a[0]), std::sqrt(a[1]), std::sqrt(a[2]), std::sqrt(a[3])}; }
#endif
// a < b ? a : b and a > b ? a : b, lane by lane (exactly what minps / maxps compute).
#if defined(__SSE2__)
inline F4 min4(F4 a, F4 b) { return F4(_mm_min_ps(__m128(a), __m128(b))); }
inline F4 max4(F4 a, F4 b) { return F4(_mm_max_ps(__m128(a), __m128(b))); }
#else
inline F4 min4(F4 a, F4 b) { return select4(a < b, a, b); }
inline F4 max4(F4 a, F4 b) { return select4(a > b, a, b); }
#endif

// A column's band: y[k] = ylo + k (voxels), d2[k] the best squared distance so far.
struct Band {
  const float* y;
  float* d2;
  int32_t ylo, n;
};

// The samples with y in [ya, yb], widened to whole blocks: first block start b0 and last
// sample b1 (false when none, or for NaN). Lanes outside [ya, yb] are harmless to every
// kernel below (each is exact for any y, faces test the interval lane by lane); safe for
// any float, as heights and steep planes can put y far outside the zone.
inline bool blocks(float ya, float yb, const Band& s, int32_t& b0, int32_t& b1) {
  const float fa = ya - float(s.ylo), fb = yb - float(s.ylo), last = float(s.n - 1);
  if (!(fb >= 0.0f) || !(fa <= last)) return false;
  b0 = fa > 0.0f ? int32_t(fa) / kLanes * kLanes : 0;
  b1 = fb < last ? int32_t(fb) : s.n - 1;
  return true;
}

inline bool any4(I4 m) {
#if defined(__SSE2__)
  return _mm_movemask_ps(__m128(m)) != 0;
#else
  return (m[0] | m[1] | m[2] | m[3]) != 0;
#endif
}

// Samples with y in [ya, yb] take the squared plane distance (ny * y + c0)^2 where smaller.
inline void face_lanes(float ny, float c0, float ya, float yb, int32_t b0, int32_t b1,
                       const Band& s) {
  const F4 y0 = splat4(ya), y1 = splat4(yb);
  const F4 vny = splat4(ny), vc0 = splat4(c0);
  for (int32_t b = b0; b <= b1; b += kLanes) {
    const F4 y = load4(s.y + b), d2 = load4(s.d2 + b);
    const F4 t = vny * y + vc0;
    const F4 v = t * t;
    store4(s.d2 + b, select4((y >= y0) & (y <= y1) & (v < d2), v, d2));
  }
}

// Samples take the squared distance to the segment from (ax, ay, az) along (ex, ey, ez)
// where it is smaller; base = -(ax ex + az ez), inv_len2 = 1 / |e|^2.
inline void edge_lanes(float ax, float ay, float az, float ex, float ey, float ez, float base,
                       float inv_len2, int32_t b0, int32_t b1, const Band& s) {
  const F4 vay = splat4(ay), vey = splat4(ey), vbase = splat4(base), vinv = splat4(inv_len2);
  const F4 vex = splat4(ex), vez = splat4(ez), nax = splat4(-ax), naz = splat4(-az);
  const F4 zero = splat4(0.0f), one = splat4(1.0f);
  for (int32_t b = b0; b <= b1; b += kLanes) {
    const F4 wy = load4(s.y + b) - vay;
    const F4 t = min4(max4((vbase + wy * vey) * vinv, zero), one);
    const F4 dx = nax - t * vex, dy = wy - t * vey, dz = naz - t * vez;
    const F4 v = dx * dx + dy * dy + dz * dz;
    store4(s.d2 + b, min4(v, load4(s.d2 + b)));
  }
}

// Whether something at horizontal distance^2 g2 with heights [lo, hi] could beat one of
// the samples (its lower bound g2 + vertical gap^2 below their distance^2).
inline bool any_below(float g2, float lo, float hi, const Band& s) {
  int32_t b0, b1;
  if (!blocks(lo - kBand, hi + kBand, s, b0, b1)) return false;
  const F4 vg2 = splat4(g2), vlo = splat4(lo), vhi = splat4(hi), zero = splat4(0.0f);
  I4 any = I4{0, 0, 0, 0};
  for (int32_t b = b0; b <= b1; b += kLanes) {
    const F4 y = load4(s.y + b);
    const F4 gap = max4(max4(zero, vlo - y), y - vhi);
    any |= vg2 + gap * gap < load4(s.d2 + b);
  }
  return any4(any);
}

// One triangle, relative to its cell's corner vertex (i, j) placed at x = z = 0.
// The foot point of a sample at signed plane distance s lies inside the triangle where
// alpha[k] * s + beta[k] >= 0 for its three sides; beta[k] = beta0[k] + ux[k] x0 + uz[k] z0
// for a corner at (x0, z0) from the column.
struct Tri {
  float nx = 0, ny = 1, nz = 0, inv_ny = 1;
  float m2 = 0;  // squared gradient |dh/dx, dh/dz|^2
  float c = 0;   // plane offset: n . p + c = 0 on the plane
  float alpha[3]{}, inv_alpha[3]{}, beta0[3]{}, ux[3]{}, uz[3]{};
};

// Triangle (a, b, c) given relative to the corner (xz of a is not assumed 0).
inline Tri make_tri(float ax, float ay, float az, float bx, float by, float bz, float cx,
                    float cy, float cz) {
  Tri t;
  const float e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const float e2x = cx - ax, e2y = cy - ay, e2z = cz - az;
  float nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  if (ny < 0) {
    nx = -nx;
    ny = -ny;
    nz = -nz;
  }
  const float inv = 1.0f / std::sqrt(nx * nx + ny * ny + nz * nz);
  t.nx = nx * inv;
  t.ny = ny * inv;
  t.nz = nz * inv;
  t.inv_ny = 1.0f / t.ny;
  t.c = -(t.nx * ax + t.ny * ay + t.nz * az);
  const float gx = -t.nx * t.inv_ny, gz = -t.nz * t.inv_ny;
  t.m2 = gx * gx + gz * gz;
  const float sigma = e1x * e2z - e1z * e2x >= 0 ? 1.0f : -1.0f;
  const float px[3] = {ax, bx, cx}, pz[3] = {az, bz, cz};
  for (int k = 0; k < 3; ++k) {
    const float Px = px[k], Pz = pz[k], Qx = px[(k + 1) % 3], Qz = pz[(k + 1) % 3];
    t.alpha[k] = sigma * ((Qz - Pz) * t.nx - (Qx - Px) * t.nz);
    t.inv_alpha[k] = std::fabs(t.alpha[k]) > 1e-12f ? 1.0f / t.alpha[k] : 0.0f;
    t.ux[k] = sigma * (Qz - Pz);
    t.uz[k] = -sigma * (Qx - Px);
    t.beta0[k] = t.ux[k] * Px + t.uz[k] * Pz;
  }
  return t;
}

// The face of `t` with its corner at (x0, z0) from the column, for the samples whose foot
// point lies inside it (an interval of y in closed form).
inline void face(const Tri& t, float x0, float z0, const Band& s) {
  float smin = -kBand, smax = kBand;
  for (int k = 0; k < 3; ++k) {
    const float beta = t.beta0[k] + t.ux[k] * x0 + t.uz[k] * z0;
    if (t.alpha[k] > 1e-12f) {
      smin = std::max(smin, -beta * t.inv_alpha[k]);
    } else if (t.alpha[k] < -1e-12f) {
      smax = std::min(smax, -beta * t.inv_alpha[k]);
    } else if (beta < 0) {
      return;
    }
  }
  if (!(smin <= smax)) return;
  const float c0 = t.c - (t.nx * x0 + t.nz * z0);
  const float ya = (smin - c0) * t.inv_ny, yb = (smax - c0) * t.inv_ny;
  int32_t b0, b1;
  if (blocks(ya, yb, s, b0, b1)) face_lanes(t.ny, c0, ya, yb, b0, b1, s);
}

// The segment from (ax, ay, az) along (ex, ey, ez), for the samples it can bring below
// maxd2; inv_h2 = 1 / (ex^2 + ez^2) (> 0), inv_len2 = 1 / |e|^2.
inline void edge(float ax, float ay, float az, float ex, float ey, float ez, float inv_h2,
                 float inv_len2, const Band& s, float maxd2) {
  const float base = -(ax * ex + az * ez);
  const float th = std::clamp(base * inv_h2, 0.0f, 1.0f);
  const float hx = ax + th * ex, hz = az + th * ez;
  const float dh2 = hx * hx + hz * hz;
  if (dh2 >= maxd2) return;
  const float by = ay + ey, lo = std::min(ay, by), hi = std::max(ay, by);
  int32_t b0, b1;
  if (blocks(lo - kBand, hi + kBand, s, b0, b1) && any_below(dh2, lo, hi, s))
    edge_lanes(ax, ay, az, ex, ey, ez, base, inv_len2, b0, b1, s);
}

// A heightmap cell: its two triangles A = 00 10 11 and B = 00 11 01, and its height range.
struct Cell {
  float lo = 0, hi = 0;   // lowest / highest corner with data (+inf / -inf when none has)
  bool complete = false;  // all four corners have data (else the generic path is taken)
  Tri tri[2];
};

// The three segments leaving a vertex: to (i+1, j), (i, j+1) and (i+1, j+1).
struct VertexEdges {
  float ey[3]{}, inv_len2[3]{}, inv_h2[3]{};
};

}  // namespace voxkit::sdf

