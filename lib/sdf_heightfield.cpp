// The exact band SDF of a triangulated heightfield, in zone voxels.
//
// Per column, only the heightmap cells within the band horizontally can be nearer than the
// band, so the column's samples below (lowest such height - band) are deep solid and those
// above (highest + band) open air. For the samples between, the distance is the minimum over
// those cells' faces (plane distance where the foot point lies inside the triangle; that is
// an interval of y, found in closed form) and edges (point-segment distance; vertices are the
// segment ends). The sign is the side of the surface: above it (y > h(x, z)) is air.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "lib/bake.hpp"
#include "lib/error.hpp"
#include "lib/grid_alloc.hpp"

namespace voxkit {
namespace {

constexpr float kBand = float(kBandVoxels);
constexpr float kBand2 = kBand * kBand;

// The heightmap window a zone reads, in zone voxel units.
struct Window {
  int32_t i0 = 0, j0 = 0, w = 0, d = 0;  // first heightmap sample, window size
  std::vector<double> vx, vz;            // voxel x of window column i, voxel z of row j
  std::vector<float> h;                  // voxel y (relative to the zone origin), NaN = none
  float at(int32_t i, int32_t j) const { return h[size_t(i) + size_t(w) * j]; }
};

struct Column {
  int32_t ilo, ihi;  // window vertex range within the band horizontally
  int32_t cell;      // window cell holding the column (for the sign)
  float frac;        // position inside that cell
};

// Band samples are handled in blocks of kLanes: every loop over a block is branch-free and
// fixed-length, so the compiler turns it into SIMD. Lanes past the column's last sample
// hold d2 = 0, which no primitive can improve and no bound can beat.
constexpr int32_t kLanes = 8;

struct Scratch {
  std::vector<float> d2, y;
  std::vector<float> lx, lz;
};

// First and last band index at or above / below y, clamped to [0, n-1] (an empty range for
// NaN); safe for any float, as heights and steep planes can put y far outside the zone.
inline int32_t first_index(float y, int32_t ylo) {
  const float v = std::ceil(y) - float(ylo);
  if (!(v >= 0)) return 0;
  return v > 1e9f ? 1000000000 : int32_t(v);
}
inline int32_t last_index(float y, int32_t ylo, int32_t n) {
  const float v = std::floor(y) - float(ylo);
  if (!(v >= -1)) return -1;
  return v > float(n - 1) ? n - 1 : int32_t(v);
}

// The samples of one column: y[k] = ylo + k, d2[k] the best squared distance so far.
struct Band {
  const float* y;
  float* d2;
  int32_t ylo, n;
};

void face(float ax, float ay, float az, float bx, float by, float bz, float cx, float cy,
          float cz, const Band& s) {
  const float e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const float e2x = cx - ax, e2y = cy - ay, e2z = cz - az;
  float nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  if (ny < 0) {
    nx = -nx;
    ny = -ny;
    nz = -nz;
  }
  const float inv = 1.0f / std::sqrt(nx * nx + ny * ny + nz * nz);
  nx *= inv;
  ny *= inv;
  nz *= inv;
  const float c0 = -(nx * ax + ny * ay + nz * az);
  const float area = e1x * e2z - e1z * e2x;
  const float sigma = area >= 0 ? 1.0f : -1.0f;
  float smin = -kBand, smax = kBand;
  const float px[3] = {ax, bx, cx}, pz[3] = {az, bz, cz};
  for (int k = 0; k < 3; ++k) {
    const float Px = px[k], Pz = pz[k], Qx = px[(k + 1) % 3], Qz = pz[(k + 1) % 3];
    const float alpha = sigma * ((Qz - Pz) * nx - (Qx - Px) * nz);
    const float beta = sigma * ((Qz - Pz) * Px - (Qx - Px) * Pz);
    if (alpha > 1e-12f) {
      smin = std::max(smin, -beta / alpha);
    } else if (alpha < -1e-12f) {
      smax = std::min(smax, -beta / alpha);
    } else if (beta < 0) {
      return;
    }
  }
  if (!(smin <= smax)) return;
  const int32_t k0 = first_index((smin - c0) / ny, s.ylo);
  const int32_t k1 = last_index((smax - c0) / ny, s.ylo, s.n);
  if (k0 > k1) return;
  const float y0 = float(s.ylo + k0), y1 = float(s.ylo + k1);
  for (int32_t b = k0 / kLanes * kLanes; b <= k1; b += kLanes) {
    const float* y = s.y + b;
    float* d2 = s.d2 + b;
    for (int32_t l = 0; l < kLanes; ++l) {
      const float t = ny * y[l] + c0;
      const float v = t * t;
      const bool in = y[l] >= y0 && y[l] <= y1 && v < d2[l];
      d2[l] = in ? v : d2[l];
    }
  }
}

void edge(float ax, float ay, float az, float bx, float by, float bz, const Band& s,
          float maxd2 = kBand2) {
  const float ex = bx - ax, ey = by - ay, ez = bz - az;
  // Horizontal distance from the column to the segment's projection.
  const float h2 = ex * ex + ez * ez;
  float th = h2 > 0 ? std::clamp(-(ax * ex + az * ez) / h2, 0.0f, 1.0f) : 0.0f;
  const float hx = ax + th * ex, hz = az + th * ez;
  const float dh2 = hx * hx + hz * hz;
  if (dh2 >= maxd2) return;
  const float r = std::sqrt(maxd2 - dh2);
  const int32_t k0 = first_index(std::min(ay, by) - r, s.ylo);
  const int32_t k1 = last_index(std::max(ay, by) + r, s.ylo, s.n);
  if (k0 > k1) return;
  const float invL = 1.0f / (h2 + ey * ey);
  const float base = -(ax * ex + az * ez);
  for (int32_t b = k0 / kLanes * kLanes; b <= k1; b += kLanes) {
    const float* y = s.y + b;
    float* d2 = s.d2 + b;
    for (int32_t l = 0; l < kLanes; ++l) {
      const float wy = y[l] - ay;
      const float t = std::min(std::max((base + wy * ey) * invL, 0.0f), 1.0f);
      const float dx = -ax - t * ex, dy = wy - t * ey, dz = -az - t * ez;
      const float v = dx * dx + dy * dy + dz * dz;
      d2[l] = v < d2[l] ? v : d2[l];
    }
  }
}

// Index range of window vertices whose cells meet [c - band, c + band] on one axis.
void vertex_range(const std::vector<double>& pos, double c, int32_t& lo, int32_t& hi) {
  const int32_t n = int32_t(pos.size());
  auto it = std::upper_bound(pos.begin(), pos.end(), c - kBandVoxels);
  lo = std::max<int32_t>(0, int32_t(it - pos.begin()) - 1);
  auto jt = std::lower_bound(pos.begin(), pos.end(), c + kBandVoxels);
  hi = std::min<int32_t>(n - 1, int32_t(jt - pos.begin()));
  lo = std::min(lo, n - 2);
  hi = std::max(hi, lo + 1);
}

void cell_of(const std::vector<double>& pos, double c, int32_t& cell, float& frac) {
  const int32_t n = int32_t(pos.size());
  auto it = std::upper_bound(pos.begin(), pos.end(), c);
  cell = std::clamp<int32_t>(int32_t(it - pos.begin()) - 1, 0, n - 2);
  frac = float(std::clamp((c - pos[cell]) / (pos[cell + 1] - pos[cell]), 0.0, 1.0));
}

Window make_window(const Heightfield& hf, const ZoneMeta& m) {
  const double v = m.voxel_size;
  auto range = [&](double o, uint32_t cells, double horigin, double hd, uint32_t count,
                   int32_t& first, int32_t& size) {
    double a = std::floor((o - kBandVoxels * v - horigin) / hd) - 1;
    double b = std::ceil((o + (cells + kBandVoxels) * v - horigin) / hd) + 1;
    a = std::clamp(a, 0.0, double(count - 1));
    b = std::clamp(b, 0.0, double(count - 1));
    first = int32_t(a);
    size = std::max<int32_t>(2, int32_t(b) - first + 1);
    if (first + size > int32_t(count)) first = int32_t(count) - size;
  };
  Window w;
  range(m.origin[0], m.cells.nx, hf.origin_x, hf.dx, hf.width, w.i0, w.w);
  range(m.origin[2], m.cells.nz, hf.origin_z, hf.dz, hf.depth, w.j0, w.d);
  w.vx.resize(w.w);
  w.vz.resize(w.d);
  for (int32_t i = 0; i < w.w; ++i) w.vx[i] = (hf.x_of(w.i0 + i) - m.origin[0]) / v;
  for (int32_t j = 0; j < w.d; ++j) w.vz[j] = (hf.z_of(w.j0 + j) - m.origin[2]) / v;
  w.h.resize(size_t(w.w) * w.d);
  for (int32_t j = 0; j < w.d; ++j)
    for (int32_t i = 0; i < w.w; ++i)
      w.h[size_t(i) + size_t(w.w) * j] = float((hf.at(w.i0 + i, w.j0 + j) - m.origin[1]) / v);
  return w;
}

// Computes the band bytes of one column; returns ylo (bytes for ylo..yhi go to `out`).
void bake_column(const Window& w, const Column& cx, const Column& cz, double X, double Z,
                 int32_t ny, Scratch& s, int32_t& ylo, int32_t& yhi, uint8_t* out) {
  const int32_t nI = cx.ihi - cx.ilo + 1, nJ = cz.ihi - cz.ilo + 1;
  s.lx.resize(nI);
  s.lz.resize(nJ);
  for (int32_t a = 0; a < nI; ++a) s.lx[a] = float(w.vx[cx.ilo + a] - X);
  for (int32_t b = 0; b < nJ; ++b) s.lz[b] = float(w.vz[cz.ilo + b] - Z);
  // The band's y-range: each cell within the band horizontally (at distance g) reaches
  // sqrt(band^2 - g^2) above its highest and below its lowest corner.
  float ymin = INFINITY, ymax = -INFINITY;
  for (int32_t b = 0; b + 1 < nJ; ++b) {
    const float gz = std::max({s.lz[b], 0.0f, -s.lz[b + 1]});
    if (gz >= kBand) continue;
    const float* row = &w.h[size_t(cx.ilo) + size_t(w.w) * (cz.ilo + b)];
    const float* up = row + w.w;
    for (int32_t a = 0; a + 1 < nI; ++a) {
      const float gx = std::max({s.lx[a], 0.0f, -s.lx[a + 1]});
      const float g2 = gx * gx + gz * gz;
      if (g2 >= kBand2) continue;
      const float r = std::sqrt(kBand2 - g2);
      // NaN corners fail both comparisons and are skipped.
      float lo = INFINITY, hi = -INFINITY;
      for (float h : {row[a], row[a + 1], up[a], up[a + 1]}) {
        if (h < lo) lo = h;
        if (h > hi) hi = h;
      }
      if (lo - r < ymin) ymin = lo - r;
      if (hi + r > ymax) ymax = hi + r;
    }
  }
  if (!(ymin <= ymax)) {
    ylo = 0;
    yhi = -1;
    return;
  }
  // Clamped before the conversion: heights far outside the zone are legal input.
  ylo = int32_t(std::ceil(std::clamp(ymin, -1.0f, float(ny) + 1)));
  yhi = int32_t(std::floor(std::clamp(ymax, -1.0f, float(ny) + 1)));
  ylo = std::max(ylo, 0);
  yhi = std::min(yhi, ny);
  const int32_t n = yhi - ylo + 1;
  if (n <= 0) return;
  // The sign: the surface height at the column, on the same triangles.
  const float fu = cx.frac, fv = cz.frac;
  const float g00 = w.at(cx.cell, cz.cell), g10 = w.at(cx.cell + 1, cz.cell);
  const float g01 = w.at(cx.cell, cz.cell + 1), g11 = w.at(cx.cell + 1, cz.cell + 1);
  const float hc = fu >= fv ? g00 + fu * (g10 - g00) + fv * (g11 - g10)
                            : g00 + fv * (g01 - g00) + fu * (g11 - g01);
  // The vertical distance bounds the true one; the column's own cell then tightens it, so
  // most other cells and edges can be skipped by their lower bound.
  const int32_t padded = (n + kLanes - 1) / kLanes * kLanes;
  s.d2.resize(size_t(padded));
  s.y.resize(size_t(padded));
  float* d2 = s.d2.data();
  float* ys = s.y.data();
  for (int32_t k = 0; k < padded; ++k) {
    ys[k] = float(ylo + k);
    const float t = ys[k] - hc;
    d2[k] = k < n ? std::min(kBand2, t * t) : 0.0f;
  }
  const Band band{ys, d2, ylo, n};
  const float* lx = s.lx.data();
  const float* lz = s.lz.data();
  auto H = [&](int32_t a, int32_t b) { return w.h[size_t(cx.ilo + a) + size_t(w.w) * (cz.ilo + b)]; };
  // Whether anything at horizontal distance^2 g2 and heights [lo, hi] could beat a sample.
  auto useful = [&](float g2, float lo, float hi) {
    const float r = std::sqrt(kBand2 - g2);
    const int32_t k0 = first_index(lo - r, ylo);
    const int32_t k1 = last_index(hi + r, ylo, n);
    if (k0 > k1) return false;
    bool any = false;
    for (int32_t b = k0 / kLanes * kLanes; b <= k1; b += kLanes) {
      for (int32_t l = 0; l < kLanes; ++l) {
        const float y = ys[b + l];
        const float gap = std::max(std::max(0.0f, lo - y), y - hi);
        any |= g2 + gap * gap < d2[b + l];
      }
    }
    return any;
  };
  float maxd2 = kBand2 * 1.0001f;  // until the own cell has been done: no face skipped
  auto do_cell = [&](int32_t a, int32_t b, bool far_edges) {
    const float idx = 1.0f / (lx[a + 1] - lx[a]), idz = 1.0f / (lz[b + 1] - lz[b]);
    const float h00 = H(a, b), h10 = H(a + 1, b), h01 = H(a, b + 1), h11 = H(a + 1, b + 1);
    const float x0 = lx[a], x1 = lx[a + 1], z0 = lz[b], z1 = lz[b + 1];
    const float gx = std::max({x0, 0.0f, -x1});
    const float gz = std::max({z0, 0.0f, -z1});
    const float g2 = gx * gx + gz * gz;
    if (g2 >= maxd2) return;
    const bool n00 = std::isnan(h00), n10 = std::isnan(h10), n01 = std::isnan(h01),
               n11 = std::isnan(h11);
    if (n00 || n10 || n01 || n11) {
      // A corner without data: only the triangles and edges that have all their corners.
      if (!n00 && !n11) {
        edge(x0, h00, z0, x1, h11, z1, band);
        if (!n10) face(x0, h00, z0, x1, h10, z0, x1, h11, z1, band);
        if (!n01) face(x0, h00, z0, x1, h11, z1, x0, h01, z1, band);
      }
      if (!n00 && !n10) edge(x0, h00, z0, x1, h10, z0, band);
      if (!n00 && !n01) edge(x0, h00, z0, x0, h01, z1, band);
      if (far_edges && !n10 && !n11) edge(x1, h10, z0, x1, h11, z1, band);
      if (far_edges && !n01 && !n11) edge(x0, h01, z1, x1, h11, z1, band);
      return;
    }
    const float lo = std::min({h00, h10, h01, h11}), hi = std::max({h00, h10, h01, h11});
    if (!useful(g2, lo, hi)) return;
    // A face can only be nearest through its interior, where the foot point lies inside it;
    // the foot is |s| * |n_xz| from the column horizontally, |s| below sqrt(maxd2).
    const float ax = (h10 - h00) * idx, az = (h11 - h10) * idz;  // triangle A's gradient
    const float bx = (h11 - h01) * idx, bz = (h01 - h00) * idz;  // triangle B's gradient
    const float ma = ax * ax + az * az, mb = bx * bx + bz * bz;
    if (g2 * (1 + ma) <= maxd2 * ma) face(x0, h00, z0, x1, h10, z0, x1, h11, z1, band);
    if (g2 * (1 + mb) <= maxd2 * mb) face(x0, h00, z0, x1, h11, z1, x0, h01, z1, band);
    edge(x0, h00, z0, x1, h11, z1, band, maxd2);
    edge(x0, h00, z0, x1, h10, z0, band, maxd2);
    edge(x0, h00, z0, x0, h01, z1, band, maxd2);
    if (far_edges) {
      edge(x1, h10, z0, x1, h11, z1, band, maxd2);
      edge(x0, h01, z1, x1, h11, z1, band, maxd2);
    }
  };
  // Each cell owns its near edges (bottom, left, diagonal); the far edges (right, top) are
  // the next cells' near edges, so only the last row and column and the own cell (taken
  // first, out of order) add them.
  const int32_t own_a = cx.cell - cx.ilo, own_b = cz.cell - cz.ilo;
  do_cell(own_a, own_b, true);
  maxd2 = 0;
  for (int32_t k = 0; k < padded; ++k) maxd2 = std::max(maxd2, d2[k]);
  for (int32_t b = 0; b + 1 < nJ; ++b)
    for (int32_t a = 0; a + 1 < nI; ++a) {
      if (a == own_a && b == own_b) continue;
      do_cell(a, b, a + 2 == nI || b + 2 == nJ);
    }
  for (int32_t k = 0; k < n; ++k) {
    const float d = std::sqrt(d2[k]);
    out[k] = quantize_sdf(ys[k] > hc ? d : -d);
  }
}

}  // namespace

void bake_sdf(const Heightfield& hf, const ZoneMeta& m, ByteGrid& grid, const Progress& progress,
              ByteGrid* copy) {
  check_heightfield(hf);
  check_dims(m.cells);
  const Window w = make_window(hf, m);
  const Dims dims = m.cells;
  size_grid_for_overwrite(grid, dims);
  if (copy) size_grid_for_overwrite(*copy, dims);
  const int32_t sx = int32_t(dims.sx()), sy = int32_t(dims.sy()), sz = int32_t(dims.sz());
  std::vector<Column> cols(sx), rows(sz);
  for (int32_t x = 0; x < sx; ++x) {
    vertex_range(w.vx, x, cols[x].ilo, cols[x].ihi);
    cell_of(w.vx, x, cols[x].cell, cols[x].frac);
  }
  for (int32_t z = 0; z < sz; ++z) {
    vertex_range(w.vz, z, rows[z].ilo, rows[z].ihi);
    cell_of(w.vz, z, rows[z].cell, rows[z].frac);
  }
  std::atomic<uint64_t> done{0};
  uint8_t* base = grid.data.data();
  uint8_t* copy_base = copy ? copy->data.data() : nullptr;
  const size_t slab_bytes = size_t(sx) * size_t(sy);
  tbb::parallel_for(tbb::blocked_range<int32_t>(0, sz, 1), [&](const tbb::blocked_range<int32_t>& r) {
    Scratch s;
    std::vector<int32_t> ylo(sx), yhi(sx);
    std::vector<uint8_t> band;
    std::vector<uint32_t> at(sx);
    std::vector<uint8_t> colbuf(size_t(sy) + 1);
    for (int32_t z = r.begin(); z != r.end(); ++z) {
      band.clear();
      int32_t lowest = sy, highest = -1;  // the rows where columns differ
      for (int32_t x = 0; x < sx; ++x) {
        int32_t lo, hi;
        uint8_t* out = colbuf.data();
        bake_column(w, cols[x], rows[z], double(x), double(z), sy - 1, s, lo, hi, out);
        ylo[x] = lo;
        yhi[x] = hi;
        lowest = std::min(lowest, lo);
        highest = std::max(highest, std::max(lo, hi));
        at[x] = uint32_t(band.size());
        if (hi >= lo) band.insert(band.end(), out, out + (hi - lo + 1));
      }
      // Below every column's band: solid; above: air; between: per column, then the band.
      uint8_t* slab = base + slab_bytes * size_t(z);
      const int32_t y0 = std::clamp(lowest, 0, sy), y1 = std::clamp(highest + 1, y0, sy);
      std::memset(slab, 0, size_t(sx) * size_t(y0));
      std::memset(slab + size_t(sx) * y1, 255, size_t(sx) * size_t(sy - y1));
      const int32_t* lo_of = ylo.data();
      for (int32_t y = y0; y < y1; ++y) {
        uint8_t* row = slab + size_t(sx) * y;
        for (int32_t x = 0; x < sx; ++x) row[x] = uint8_t(-int32_t(y >= lo_of[x]));
      }
      for (int32_t x = 0; x < sx; ++x) {
        const uint8_t* src = band.data() + at[x];
        for (int32_t y = ylo[x]; y <= yhi[x]; ++y) slab[x + size_t(sx) * y] = *src++;
      }
      if (copy_base) std::memcpy(copy_base + slab_bytes * size_t(z), slab, slab_bytes);
      uint64_t finished = done.fetch_add(1) + 1;
      if (progress) progress(finished, uint64_t(sz));
    }
  });
}

}  // namespace voxkit
