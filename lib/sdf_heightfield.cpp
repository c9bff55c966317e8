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
#include "lib/sdf_cells.hpp"

namespace voxkit {
namespace {

using namespace sdf;
static_assert(sdf::kBand == float(kBandVoxels));

// The heightmap window a zone reads, in zone voxel units.
struct Window {
  int32_t i0 = 0, j0 = 0, w = 0, d = 0;  // first heightmap sample, window size
  std::vector<double> vx, vz;            // voxel x of window column i, voxel z of row j
  std::vector<float> h;                  // voxel y (relative to the zone origin), NaN = none
  std::vector<float> dx, dz;             // cell sizes in voxels (the last entry 0)
  float at(int32_t i, int32_t j) const { return h[size_t(i) + size_t(w) * j]; }
};

struct Column {
  int32_t ilo, ihi;  // window vertex range within the band horizontally
  int32_t cell;      // window cell holding the column (for the sign)
  float frac;        // position inside that cell
};

struct Scratch {
  std::vector<float> d2, y;
  std::vector<float> lx, lz;
  struct Todo {
    int32_t a, b;  // a cell whose faces are in and whose edges may still count
    float g2;
    bool far_edges;
  };
  std::vector<Todo> todo;
  std::vector<float> cg2, clo, chi;  // candidate cells: distance^2, height range
  std::vector<I4> cmask;             // candidate cells that can still count
};

// A triangle and a segment given by their corners in column-local coordinates (the cells
// with a corner without data, which have no precomputed data).
void face_at(float ax, float ay, float az, float bx, float by, float bz, float cx, float cy,
             float cz, const Band& s) {
  face(make_tri(ax, ay, az, bx, by, bz, cx, cy, cz), 0, 0, s);
}
void edge_at(float ax, float ay, float az, float bx, float by, float bz, const Band& s) {
  const float ex = bx - ax, ey = by - ay, ez = bz - az;
  const float h2 = ex * ex + ez * ez;
  edge(ax, ay, az, ex, ey, ez, h2 > 0 ? 1.0f / h2 : 0.0f, 1.0f / (h2 + ey * ey), s, kBand2);
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
  w.dx.assign(w.w, 0.0f);
  w.dz.assign(w.d, 0.0f);
  for (int32_t i = 0; i + 1 < w.w; ++i) w.dx[i] = float(w.vx[i + 1] - w.vx[i]);
  for (int32_t j = 0; j + 1 < w.d; ++j) w.dz[j] = float(w.vz[j + 1] - w.vz[j]);
  return w;
}

// Cell and vertex-edge data of window rows, computed when a slab first needs a row and kept
// in a ring: the slabs of one task run in order of z and share most of their rows.
class RowCache {
 public:
  RowCache(const Window& w, int32_t slots)
      : w_(w), slots_(slots), tag_(size_t(slots), -1), cells_(size_t(slots) * w.w),
        edges_(size_t(slots) * w.w) {}
  // Rows j0..j1 must fit in the ring together.
  void need(int32_t j0, int32_t j1) {
    for (int32_t j = j0; j <= j1; ++j)
      if (tag_[size_t(j % slots_)] != j) fill(j);
  }
  // Row j, with its first entry at window column 0.
  const Cell* cells(int32_t j) const { return &cells_[size_t(j % slots_) * w_.w]; }
  const VertexEdges* edges(int32_t j) const { return &edges_[size_t(j % slots_) * w_.w]; }

 private:
  void fill(int32_t j) {
    const size_t at = size_t(j % slots_) * w_.w;
    tag_[size_t(j % slots_)] = j;
    const float dz = w_.dz[j];
    const bool up = j + 1 < w_.d;
    for (int32_t i = 0; i < w_.w; ++i) {
      const float dx = w_.dx[i];
      const bool right = i + 1 < w_.w;
      const float h00 = w_.at(i, j);
      const float h10 = right ? w_.at(i + 1, j) : h00, h01 = up ? w_.at(i, j + 1) : h00;
      const float h11 = right && up ? w_.at(i + 1, j + 1) : h00;
      VertexEdges& e = edges_[at + i];
      const float ey[3] = {h10 - h00, h01 - h00, h11 - h00};
      const float h2[3] = {dx * dx, dz * dz, dx * dx + dz * dz};
      for (int k = 0; k < 3; ++k) {
        e.ey[k] = ey[k];
        e.inv_h2[k] = h2[k] > 0 ? 1.0f / h2[k] : 0.0f;
        e.inv_len2[k] = 1.0f / (h2[k] + ey[k] * ey[k]);
      }
      Cell& c = cells_[at + i];
      if (!right || !up) continue;
      // NaN corners fail both comparisons and are left out of the range.
      c.lo = INFINITY;
      c.hi = -INFINITY;
      for (float h : {h00, h10, h01, h11}) {
        if (h < c.lo) c.lo = h;
        if (h > c.hi) c.hi = h;
      }
      c.complete = !(std::isnan(h00) || std::isnan(h10) || std::isnan(h01) || std::isnan(h11));
      if (!c.complete) continue;
      c.tri[0] = make_tri(0, h00, 0, dx, h10, 0, dx, h11, dz);
      c.tri[1] = make_tri(0, h00, 0, dx, h11, dz, 0, h01, dz);
    }
  }

  const Window& w_;
  int32_t slots_;
  std::vector<int32_t> tag_;
  std::vector<Cell> cells_;
  std::vector<VertexEdges> edges_;
};

// Computes the band bytes of one column; returns ylo (bytes for ylo..yhi go to `out`).
// The cached rows a slab reads: entry b is window row cz.ilo + b.
struct SlabRows {
  std::vector<const Cell*> cells;
  std::vector<const VertexEdges*> edges;
};

void bake_column(const Window& w, const SlabRows& rc, const Column& cx, const Column& cz,
                 double X, double Z, int32_t ny, Scratch& s, int32_t& ylo, int32_t& yhi,
                 uint8_t* out) {
  const int32_t nI = cx.ihi - cx.ilo + 1, nJ = cz.ihi - cz.ilo + 1;
  s.lx.resize(nI);
  s.lz.resize(nJ);
  for (int32_t a = 0; a < nI; ++a) s.lx[a] = float(w.vx[cx.ilo + a] - X);
  for (int32_t b = 0; b < nJ; ++b) s.lz[b] = float(w.vz[cz.ilo + b] - Z);
  // The candidate cells, kLanes at a time: horizontal distance^2 from the column and the
  // height range (padding: never within reach).
  const int32_t cw = nI - 1, nc = cw * (nJ - 1), ncp = (nc + kLanes - 1) / kLanes * kLanes;
  s.cg2.resize(size_t(ncp));
  s.clo.resize(size_t(ncp));
  s.chi.resize(size_t(ncp));
  for (int32_t b = 0; b + 1 < nJ; ++b) {
    const float gz = std::max({s.lz[b], 0.0f, -s.lz[b + 1]});
    const Cell* row = rc.cells[b] + cx.ilo;
    for (int32_t a = 0; a < cw; ++a) {
      const float gx = std::max({s.lx[a], 0.0f, -s.lx[a + 1]});
      s.cg2[size_t(a + cw * b)] = gx * gx + gz * gz;
      s.clo[size_t(a + cw * b)] = row[a].lo;
      s.chi[size_t(a + cw * b)] = row[a].hi;
    }
  }
  for (int32_t c = nc; c < ncp; ++c) {
    s.cg2[size_t(c)] = INFINITY;
    s.clo[size_t(c)] = INFINITY;
    s.chi[size_t(c)] = -INFINITY;
  }
  // The band's y-range: each cell within the band horizontally (at distance g) reaches
  // sqrt(band^2 - g^2) above its highest and below its lowest corner.
  float ymin = INFINITY, ymax = -INFINITY;
  {
    F4 vmin = splat4(INFINITY), vmax = splat4(-INFINITY);
    const F4 band2 = splat4(kBand2), zero = splat4(0.0f);
    for (int32_t c = 0; c < ncp; c += kLanes) {
      const F4 g2 = load4(&s.cg2[size_t(c)]);
      const I4 near = g2 < band2;
      const F4 r = sqrt4(max4(band2 - g2, zero));
      vmin = min4(vmin, select4(near, load4(&s.clo[size_t(c)]) - r, splat4(INFINITY)));
      vmax = max4(vmax, select4(near, load4(&s.chi[size_t(c)]) + r, splat4(-INFINITY)));
    }
    for (int32_t l = 0; l < kLanes; ++l) {
      ymin = std::min(ymin, vmin[l]);
      ymax = std::max(ymax, vmax[l]);
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
  // Whether anything at horizontal distance^2 g2 and heights [lo, hi] could beat a sample.
  auto useful = [&](float g2, float lo, float hi) { return any_below(g2, lo, hi, band); };
  float maxd2 = kBand2 * 1.0001f;  // until the own cell's faces are in: no face skipped
  auto refresh_maxd2 = [&] {
    maxd2 = 0;
    for (int32_t k = 0; k < padded; ++k) maxd2 = std::max(maxd2, d2[k]);
  };
  // Faces first (cheap, and usually the answer), then the edges of the cells still useful:
  // the tighter distances by then skip most edges. A cell's bound holds for its edges too.
  auto faces = [&](int32_t a, int32_t b, bool far_edges) {
    const float x0 = lx[a], x1 = lx[a + 1], z0 = lz[b], z1 = lz[b + 1];
    const float gx = std::max({x0, 0.0f, -x1});
    const float gz = std::max({z0, 0.0f, -z1});
    const float g2 = gx * gx + gz * gz;
    if (g2 >= maxd2) return;
    const int32_t i = cx.ilo + a, j = cz.ilo + b;
    const Cell& cell = rc.cells[b][i];
    if (!cell.complete) {
      // A corner without data: only the triangles and edges that have all their corners.
      const float h00 = w.at(i, j), h10 = w.at(i + 1, j), h01 = w.at(i, j + 1), h11 = w.at(i + 1, j + 1);
      const bool n00 = std::isnan(h00), n10 = std::isnan(h10), n01 = std::isnan(h01),
                 n11 = std::isnan(h11);
      if (!n00 && !n11) {
        edge_at(x0, h00, z0, x1, h11, z1, band);
        if (!n10) face_at(x0, h00, z0, x1, h10, z0, x1, h11, z1, band);
        if (!n01) face_at(x0, h00, z0, x1, h11, z1, x0, h01, z1, band);
      }
      if (!n00 && !n10) edge_at(x0, h00, z0, x1, h10, z0, band);
      if (!n00 && !n01) edge_at(x0, h00, z0, x0, h01, z1, band);
      if (far_edges && !n10 && !n11) edge_at(x1, h10, z0, x1, h11, z1, band);
      if (far_edges && !n01 && !n11) edge_at(x0, h01, z1, x1, h11, z1, band);
      return;
    }
    if (!useful(g2, cell.lo, cell.hi)) return;
    // A face can only be nearest through its interior, where the foot point lies inside it;
    // the foot is |s| * |n_xz| from the column horizontally, |s| below sqrt(maxd2).
    for (const Tri& t : cell.tri)
      if (g2 * (1 + t.m2) <= maxd2 * t.m2) face(t, x0, z0, band);
    s.todo.push_back({a, b, g2, far_edges});
  };
  auto edges = [&](const Scratch::Todo& c) {
    const int32_t a = c.a, b = c.b;
    if (c.g2 >= maxd2) return;
    const int32_t i = cx.ilo + a, j = cz.ilo + b;
    const float x0 = lx[a], x1 = lx[a + 1], z0 = lz[b], z1 = lz[b + 1];
    const float h00 = w.at(i, j), h10 = w.at(i + 1, j), h01 = w.at(i, j + 1);
    const float dx = w.dx[i], dz = w.dz[j];
    const VertexEdges& e = rc.edges[b][i];
    edge(x0, h00, z0, dx, e.ey[2], dz, e.inv_h2[2], e.inv_len2[2], band, maxd2);
    edge(x0, h00, z0, dx, e.ey[0], 0, e.inv_h2[0], e.inv_len2[0], band, maxd2);
    edge(x0, h00, z0, 0, e.ey[1], dz, e.inv_h2[1], e.inv_len2[1], band, maxd2);
    if (c.far_edges) {
      const VertexEdges& r = rc.edges[b][i + 1];
      edge(x1, h10, z0, 0, r.ey[1], dz, r.inv_h2[1], r.inv_len2[1], band, maxd2);
      const VertexEdges& u = rc.edges[b + 1][i];
      edge(x0, h01, z1, dx, u.ey[0], 0, u.inv_h2[0], u.inv_len2[0], band, maxd2);
    }
  };
  // Each cell owns its near edges (bottom, left, diagonal); the far edges (right, top) are
  // the next cells' near edges, so only the last row and column and the own cell (taken
  // first, out of order) add them.
  const int32_t own_a = cx.cell - cx.ilo, own_b = cz.cell - cz.ilo;
  s.todo.clear();
  faces(own_a, own_b, true);
  refresh_maxd2();
  // The other cells that could beat a sample (g2 + vertical gap^2 below its distance^2),
  // tested kLanes cells at a time; distances only shrink from here, so a cell left out
  // stays useless.
  s.cmask.assign(size_t(ncp / kLanes), I4{0, 0, 0, 0});
  {
    const F4 zero = splat4(0.0f);
    for (int32_t k = 0; k < n; ++k) {
      const F4 y = splat4(ys[k]), dk = splat4(d2[k]);
      for (int32_t c = 0; c < ncp; c += kLanes) {
        const F4 gap = max4(max4(zero, load4(&s.clo[size_t(c)]) - y), y - load4(&s.chi[size_t(c)]));
        s.cmask[size_t(c / kLanes)] |= load4(&s.cg2[size_t(c)]) + gap * gap < dk;
      }
    }
  }
  for (int32_t c = 0; c < nc; ++c) {
    if (!s.cmask[size_t(c / kLanes)][c % kLanes]) continue;
    const int32_t a = c % cw, b = c / cw;
    if (a == own_a && b == own_b) continue;
    faces(a, b, a + 2 == nI || b + 2 == nJ);
  }
  refresh_maxd2();
  for (const Scratch::Todo& c : s.todo) edges(c);
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
  int32_t slots = 1;
  for (const Column& c : rows) slots = std::max(slots, c.ihi - c.ilo + 2);
  // Chunks of slabs share most of their cached rows; 16 keep the row work near once per row.
  tbb::parallel_for(tbb::blocked_range<int32_t>(0, sz, 16), [&](const tbb::blocked_range<int32_t>& r) {
    Scratch s;
    RowCache rc(w, slots);
    SlabRows sr;
    std::vector<int32_t> ylo(sx), yhi(sx);
    std::vector<uint8_t> band;
    std::vector<uint32_t> at(sx);
    std::vector<uint8_t> colbuf(size_t(sy) + 1);
    for (int32_t z = r.begin(); z != r.end(); ++z) {
      band.clear();
      int32_t lowest = sy, highest = -1;  // the rows where columns differ
      rc.need(rows[z].ilo, rows[z].ihi);
      sr.cells.clear();
      sr.edges.clear();
      for (int32_t j = rows[z].ilo; j <= rows[z].ihi; ++j) {
        sr.cells.push_back(rc.cells(j));
        sr.edges.push_back(rc.edges(j));
      }
      for (int32_t x = 0; x < sx; ++x) {
        int32_t lo, hi;
        uint8_t* out = colbuf.data();
        bake_column(w, sr, cols[x], rows[z], double(x), double(z), sy - 1, s, lo, hi, out);
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
