// The exact band SDF of a triangulated heightfield, in zone voxels.
//
// Per column, only the heightmap cells within the band horizontally can be nearer than the
// band, so the column's samples below (lowest such height - band) are deep solid and those
// above (highest + band) open air. For the samples between, the distance is the minimum over
// those cells' faces (plane distance where the foot point lies inside the triangle) and
// edges (point-segment distance; vertices are the segment ends), four primitives at a time
// in SIMD lanes, from row data computed once per heightmap row. The sign is the side of the
// surface: above it (y > h(x, z)) is air.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid_alloc.hpp"
#include "lib/bake/sdf_cells.hpp"

namespace voxkit {
namespace {

using namespace sdf;
static_assert(sdf::kBand == float(kBandVoxels));

// The heightmap window a zone reads, in zone voxel units.
struct Window {
  int32_t i0 = 0, j0 = 0, w = 0, d = 0;  // first heightmap sample, window size
  std::vector<double> vx, vz;            // voxel x of window column i, voxel z of row j
  std::vector<float> h;                  // voxel y (relative to the zone origin), NaN = none
  std::vector<float> dx, dz;             // cell sizes in voxels (0 past the last cell)
  float at(int32_t i, int32_t j) const { return h[size_t(i) + size_t(w) * j]; }
};

struct Column {
  int32_t ilo, ihi;  // window vertex range within the band horizontally
  int32_t cell;      // window cell holding the column (for the sign)
  float frac;        // position inside that cell
};

struct Scratch {
  std::vector<float> cg2, clo, chi;  // candidate cells: distance^2, height range
  std::vector<FaceGroup> faces;
  std::vector<AxisGroup> axes;
  std::vector<EdgeGroup> edges;
};

// quantize_sdf for a finite distance, inline: the conversion rounds half to even in the
// default rounding mode, as nearbyint does.
inline uint8_t quantize(float d) {
#if defined(__SSE2__)
  const float q = std::clamp(d * float(kSdfScale), -128.0f, 127.0f);
  return uint8_t(_mm_cvtss_si32(_mm_set_ss(q)) + 128);
#else
  return quantize_sdf(d);
#endif
}

// One row of a slab around the bands: 0 (solid) below a column's band, 255 (air) above it,
// the band byte already written inside it.
void fill_row(uint8_t* row, const int32_t* lo, const int32_t* hi, int32_t sx, int32_t y) {
  int32_t x = 0;
#if defined(__SSE2__)
  const __m128i vy = _mm_set1_epi32(y);
  auto at = [](const int32_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  for (; x + 16 <= sx; x += 16) {
    __m128i solid[4], air[4];
    for (int q = 0; q < 4; ++q) {
      solid[q] = _mm_cmpgt_epi32(at(lo + x + 4 * q), vy);
      air[q] = _mm_cmpgt_epi32(vy, at(hi + x + 4 * q));
    }
    const __m128i s = _mm_packs_epi16(_mm_packs_epi32(solid[0], solid[1]), _mm_packs_epi32(solid[2], solid[3]));
    const __m128i a = _mm_packs_epi16(_mm_packs_epi32(air[0], air[1]), _mm_packs_epi32(air[2], air[3]));
    __m128i* p = reinterpret_cast<__m128i*>(row + x);
    _mm_storeu_si128(p, _mm_or_si128(_mm_andnot_si128(_mm_or_si128(s, a), _mm_loadu_si128(p)), a));
  }
#endif
  for (; x < sx; ++x) row[x] = y < lo[x] ? 0 : y > hi[x] ? 255 : row[x];
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

// The window of `hf` the zone reads, in voxels of the frame's grid: positions relative to the
// frame's origin, so the zone's columns (frame indices) find the same numbers as in a bake of
// the whole frame.
Window make_window(const Heightfield& hf, const ZoneMeta& m, const GridFrame& f) {
  const double v = m.voxel_size;
  // The stored samples within the band (and one more) of the zone's columns; `o` is the
  // zone's first column, `horigin` the first stored sample.
  auto range = [&](double o, uint32_t cells, double horigin, double hd, uint32_t count, int32_t& first,
                   int32_t& size) {
    double a = std::floor((o - kBandVoxels * v - horigin) / hd) - 1;
    double b = std::ceil((o + (cells + kBandVoxels) * v - horigin) / hd) + 1;
    a = std::clamp(a, 0.0, double(count - 1));
    b = std::clamp(b, 0.0, double(count - 1));
    first = int32_t(a);
    size = std::max<int32_t>(2, int32_t(b) - first + 1);
    if (first + size > int32_t(count)) first = int32_t(count) - size;
  };
  const double zx = f.origin[0] + double(f.offset[0]) * v, zz = f.origin[2] + double(f.offset[2]) * v;
  Window w;
  range(zx, m.cells.nx, hf.x_of(0), hf.dx, hf.width, w.i0, w.w);
  range(zz, m.cells.nz, hf.z_of(0), hf.dz, hf.depth, w.j0, w.d);
  w.vx.resize(w.w);
  w.vz.resize(w.d);
  for (int32_t i = 0; i < w.w; ++i) w.vx[i] = (hf.x_of(w.i0 + i) - f.origin[0]) / v;
  for (int32_t j = 0; j < w.d; ++j) w.vz[j] = (hf.z_of(w.j0 + j) - f.origin[2]) / v;
  const double y0 = f.origin[1] + double(f.offset[1]) * v;
  w.h.resize(size_t(w.w) * w.d);
  tbb::parallel_for(int32_t(0), w.d, [&](int32_t j) {
    for (int32_t i = 0; i < w.w; ++i)
      w.h[size_t(i) + size_t(w.w) * j] = float((hf.at(w.i0 + i, w.j0 + j) - y0) / v);
  });
  w.dx.assign(size_t(w.w) + kLanes, 0.0f);
  w.dz.assign(w.d, 0.0f);
  for (int32_t i = 0; i + 1 < w.w; ++i) w.dx[i] = float(w.vx[i + 1] - w.vx[i]);
  for (int32_t j = 0; j + 1 < w.d; ++j) w.dz[j] = float(w.vz[j + 1] - w.vz[j]);
  return w;
}

// Row data of window rows, computed when a slab first needs a row and kept in a ring: the
// slabs of one task run in order of z and share most of their rows.
class RowCache {
 public:
  RowCache(const Window& w, int32_t slots) : w_(w), slots_(slots), tag_(size_t(slots), -1), rows_(size_t(slots)) {
    for (RowData& r : rows_) r.resize(size_t(w.w) + kLanes);
  }
  // Rows j0..j1 must fit in the ring together.
  void need(int32_t j0, int32_t j1) {
    for (int32_t j = j0; j <= j1; ++j)
      if (tag_[size_t(j % slots_)] != j) fill(j);
  }
  const RowData& row(int32_t j) const { return rows_[size_t(j % slots_)]; }

 private:
  void fill(int32_t j) {
    RowData& r = rows_[size_t(j % slots_)];
    tag_[size_t(j % slots_)] = j;
    const float dz = w_.dz[j];
    const bool up = j + 1 < w_.d;
    for (int32_t i = 0; i < w_.w + kLanes; ++i) {
      const size_t k = size_t(i);
      const float dx = w_.dx[k];
      const bool here = i < w_.w, right = i + 1 < w_.w;
      const float h00 = here ? w_.at(i, j) : NAN, h10 = right ? w_.at(i + 1, j) : NAN;
      const float h01 = here && up ? w_.at(i, j + 1) : NAN;
      const float h11 = right && up ? w_.at(i + 1, j + 1) : NAN;
      const bool v00 = !std::isnan(h00), v10 = !std::isnan(h10), v01 = !std::isnan(h01),
                 v11 = !std::isnan(h11);
      // A triangle or segment counts only with all its corners (NoData leaves holes).
      r.set_tri(0, k, v00 && v10 && v11, 0, h00, 0, dx, h10, 0, dx, h11, dz);
      r.set_tri(1, k, v00 && v11 && v01, 0, h00, 0, dx, h11, dz, 0, h01, dz);
      r.set_edge(0, k, v00 && v10, h00, h10 - h00, dx, 0);
      r.set_edge(1, k, v00 && v01, h00, h01 - h00, 0, dz);
      r.set_edge(2, k, v00 && v11, h00, h11 - h00, dx, dz);
      if (right && up) {
        // NaN corners fail both comparisons and are left out of the range.
        r.lo[k] = INFINITY;
        r.hi[k] = -INFINITY;
        for (float h : {h00, h10, h01, h11}) {
          if (h < r.lo[k]) r.lo[k] = h;
          if (h > r.hi[k]) r.hi[k] = h;
        }
      } else {
        r.lo[k] = -INFINITY;  // padding: never ruled out by height (it holds nothing)
        r.hi[k] = INFINITY;
      }
    }
  }

  const Window& w_;
  int32_t slots_;
  std::vector<int32_t> tag_;
  std::vector<RowData> rows_;
};

// The cached rows a slab reads: entry b is window row cz.ilo + b.
struct SlabRows {
  std::vector<const RowData*> rows;
};

// Positions of window vertices from a column or slab, in float: lx (padded to whole groups
// plus one, 0 past the window) and, per cell, the squared horizontal gap g2 to the column.
struct Axis {
  int32_t stride = 0;
  std::vector<float> pos, g2;
};

// `first`: the frame index of column 0.
Axis axis_offsets(const std::vector<double>& v, const std::vector<Column>& cols, int64_t first) {
  Axis ax;
  for (const Column& c : cols) {
    const int32_t n = c.ihi - c.ilo + 1;
    ax.stride = std::max(ax.stride, (n + kLanes - 1) / kLanes * kLanes + kLanes);
  }
  ax.pos.assign(size_t(ax.stride) * cols.size(), 0.0f);
  ax.g2.assign(size_t(ax.stride) * cols.size(), 0.0f);
  const int32_t count = int32_t(v.size());
  for (size_t x = 0; x < cols.size(); ++x) {
    float* p = &ax.pos[x * size_t(ax.stride)];
    float* g = &ax.g2[x * size_t(ax.stride)];
    for (int32_t a = 0; a < ax.stride; ++a)
      p[a] = cols[x].ilo + a < count ? float(v[size_t(cols[x].ilo + a)] - double(first + int64_t(x))) : 0.0f;
    for (int32_t a = 0; a + 1 < ax.stride; ++a) {
      const float gap = std::max({p[a], 0.0f, -p[a + 1]});
      g[a] = gap * gap;
    }
  }
  return ax;
}

void bake_column(const Window& w, const SlabRows& rc, const Column& cx, const Column& cz,
                 const float* lx, const float* gx2, const float* lz, const float* gz2, int32_t ny,
                 Scratch& s, int32_t& ylo, int32_t& yhi, uint8_t* out) {
  const int32_t nI = cx.ihi - cx.ilo + 1, nJ = cz.ihi - cz.ilo + 1;
  const int32_t cw = nI - 1;
  // Vertex groups of kLanes (cells use the same groups, one lane short at the end).
  const int32_t groups = (nI + kLanes - 1) / kLanes, cell_groups = (cw + kLanes - 1) / kLanes;
  // The candidate cells, kLanes at a time: horizontal distance^2 from the column and the
  // height range (padding: never within reach).
  const int32_t nc = cw * (nJ - 1), ncp = (nc + kLanes - 1) / kLanes * kLanes;
  s.cg2.resize(size_t(ncp));
  s.clo.resize(size_t(ncp));
  s.chi.resize(size_t(ncp));
  for (int32_t b = 0; b + 1 < nJ; ++b) {
    const RowData& row = *rc.rows[size_t(b)];
    for (int32_t a = 0; a < cw; ++a) {
      s.cg2[size_t(a + cw * b)] = gx2[a] + gz2[b];
      s.clo[size_t(a + cw * b)] = row.lo[size_t(cx.ilo + a)];
      s.chi[size_t(a + cw * b)] = row.hi[size_t(cx.ilo + a)];
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
  // The vertical distance bounds the true one (and the band clamps it): a group of cells
  // whose lower bound (horizontal distance^2 plus the vertical gap to the band's samples)
  // reaches no sample's bound holds nothing nearer and is left out.
  float bound = 0;
  for (int32_t k = 0; k < n; ++k) {
    const float t = float(ylo + k) - hc;
    bound = std::max(bound, std::min(kBand2, t * t));
  }
  // At most: per cell row and group two faces, three axis segments, one diagonal.
  const size_t most = size_t(nJ) * size_t(groups);
  if (s.faces.size() < 2 * most) s.faces.resize(2 * most);
  if (s.axes.size() < 3 * most) s.axes.resize(3 * most);
  if (s.edges.size() < most) s.edges.resize(most);
  size_t nf = 0, na = 0, ne = 0;
  const F4 zero = splat4(0.0f), one = splat4(1.0f), vbound = splat4(bound);
  const F4 y0 = splat4(float(ylo)), y1 = splat4(float(yhi));
  for (int32_t b = 0; b + 1 < nJ; ++b) {
    const RowData& row = *rc.rows[size_t(b)];
    const float z0 = lz[b], z1 = lz[b + 1];
    const F4 vgz2 = splat4(gz2[b]), dz = splat4(w.dz[size_t(cz.ilo + b)]);
    for (int32_t g = 0; g < groups; ++g) {
      const size_t i = size_t(cx.ilo + g * kLanes);
      const F4 x0 = load4(lx + g * kLanes), gxx = load4(gx2 + g * kLanes);
      const F4 gap = max4(max4(zero, load4(&row.lo[i]) - y1), y0 - load4(&row.hi[i]));
      const F4 gap2 = gap * gap, g2 = gxx + vgz2;
      if (!any4(g2 + gap2 < vbound)) continue;
      const F4 dx = load4(&w.dx[i]);
      // Lower bounds per segment: its own horizontal distance (sides of the cell) or the
      // cell's (diagonal), plus the cell's vertical gap.
      const F4 vz0 = splat4(z0);
      if (any4(x0 * x0 + vgz2 + gap2 < vbound)) s.axes[na++] = axis_group(row, 1, i, vz0, x0, dz);
      if (g >= cell_groups) continue;
      // A face can only be nearest through its interior, where the foot point lies inside
      // it: |s| |grad| / sqrt(1 + grad^2) from the column horizontally, |s| below the bound.
      for (int t = 0; t < 2; ++t) {
        const F4 m2 = load4(&row.m2[t][i]);
        if (any4(g2 * (one + m2) <= vbound * m2)) s.faces[nf++] = face_group(row, t, i, x0, z0);
      }
      if (any4(gxx + vz0 * vz0 + gap2 < vbound)) s.axes[na++] = axis_group(row, 0, i, x0, vz0, dx);
      {
        // The diagonal's own horizontal distance (nearest point of its projection).
        const F4 vz0d = splat4(z0);
        const F4 t = min4(max4(-(x0 * dx + vz0d * dz) / (dx * dx + dz * dz), zero), one);
        const F4 hx = x0 + t * dx, hz = vz0d + t * dz;
        if (any4(hx * hx + hz * hz + gap2 < vbound)) s.edges[ne++] = edge_group(row, 2, i, x0, z0, dx, dz);
      }
      // The last row's top sides are the first segments of the next vertex row.
      const F4 vz1 = splat4(z1);
      if (b + 2 == nJ && any4(gxx + vz1 * vz1 + gap2 < vbound))
        s.axes[na++] = axis_group(*rc.rows[size_t(b + 1)], 0, i, x0, vz1, dx);
    }
  }
  for (int32_t k = 0; k < n; ++k) {
    const float y = float(ylo + k), t = y - hc;
    const float d = std::sqrt(nearest2(y, std::min(kBand2, t * t), s.faces.data(), nf, s.axes.data(), na,
                                       s.edges.data(), ne));
    out[k] = quantize(y > hc ? d : -d);
  }
}

}  // namespace

void bake_sdf(const Heightfield& hf, const ZoneMeta& m, ByteGrid& grid, const Progress& progress,
              ByteGrid* copy, const GridFrame* frame) {
  check_heightfield(hf);
  check_dims(m.cells);
  const GridFrame f = frame ? *frame : own_frame(m);
  if (f.offset[1] != 0) throw_usage("a zone cut out of a larger grid must keep its full height");
  const Window w = make_window(hf, m, f);
  const int64_t ox = f.offset[0], oz = f.offset[2];
  const Dims dims = m.cells;
  size_grid_for_overwrite(grid, dims);
  if (copy) size_grid_for_overwrite(*copy, dims);
  const int32_t sx = int32_t(dims.sx()), sy = int32_t(dims.sy()), sz = int32_t(dims.sz());
  std::vector<Column> cols(sx), rows(sz);
  for (int32_t x = 0; x < sx; ++x) {
    vertex_range(w.vx, double(ox + x), cols[x].ilo, cols[x].ihi);
    cell_of(w.vx, double(ox + x), cols[x].cell, cols[x].frac);
  }
  for (int32_t z = 0; z < sz; ++z) {
    vertex_range(w.vz, double(oz + z), rows[z].ilo, rows[z].ihi);
    cell_of(w.vz, double(oz + z), rows[z].cell, rows[z].frac);
  }
  std::atomic<uint64_t> done{0};
  uint8_t* base = grid.data.data();
  uint8_t* copy_base = copy ? copy->data.data() : nullptr;
  const size_t slab_bytes = size_t(sx) * size_t(sy);
  const Axis ax = axis_offsets(w.vx, cols, ox), az = axis_offsets(w.vz, rows, oz);
  int32_t slots = 1;
  for (const Column& c : rows) slots = std::max(slots, c.ihi - c.ilo + 2);
  // Chunks of slabs share most of their cached rows; 16 keep the row work near once per row
  // and the last chunk short.
  tbb::parallel_for(tbb::blocked_range<int32_t>(0, sz, 16), [&](const tbb::blocked_range<int32_t>& r) {
    Scratch s;
    RowCache rc(w, slots);
    SlabRows sr;
    std::vector<int32_t> ylo(sx), yhi(sx);
    std::vector<uint8_t> colbuf(size_t(sy) + 1);
    for (int32_t z = r.begin(); z != r.end(); ++z) {
      int32_t lowest = sy, highest = -1;  // the rows where columns differ
      rc.need(rows[z].ilo, rows[z].ihi);
      sr.rows.clear();
      for (int32_t j = rows[z].ilo; j <= rows[z].ihi; ++j) sr.rows.push_back(&rc.row(j));
      // Each column's band goes straight into the slab (in cache); the rows around the bands
      // are filled after, keeping the band bytes.
      uint8_t* slab = base + slab_bytes * size_t(z);
      for (int32_t x = 0; x < sx; ++x) {
        int32_t lo, hi;
        uint8_t* out = colbuf.data();
        bake_column(w, sr, cols[x], rows[z], &ax.pos[size_t(x) * ax.stride], &ax.g2[size_t(x) * ax.stride],
                    &az.pos[size_t(z) * az.stride], &az.g2[size_t(z) * az.stride], sy - 1, s, lo, hi, out);
        ylo[x] = lo;
        yhi[x] = hi;
        lowest = std::min(lowest, lo);
        highest = std::max(highest, std::max(lo, hi));
        for (int32_t y = lo; y <= hi; ++y) slab[x + size_t(sx) * y] = out[y - lo];
      }
      // Below every column's band: solid; above: air; between: per column.
      const int32_t y0 = std::clamp(lowest, 0, sy), y1 = std::clamp(highest + 1, y0, sy);
      std::memset(slab, 0, size_t(sx) * size_t(y0));
      std::memset(slab + size_t(sx) * y1, 255, size_t(sx) * size_t(sy - y1));
      for (int32_t y = y0; y < y1; ++y) fill_row(slab + size_t(sx) * y, ylo.data(), yhi.data(), sx, y);
      if (copy_base) std::memcpy(copy_base + slab_bytes * size_t(z), slab, slab_bytes);
      uint64_t finished = done.fetch_add(1) + 1;
      if (progress) progress(finished, uint64_t(sz));
    }
  });
}

}  // namespace voxkit
