// Lightmap UVs: charts grown by flood fill under a hard-angle and a cone test, each
// projected onto its axis plane with a refusal of overlapping triangles (separating-axis
// tests against the triangles whose boxes meet in a grid: lightmap_internal.hpp) and moved
// to its mean plane where that stays free of overlap; then packed (lightmap_pack.cpp), the
// vertices split along chart borders, the stats measured.
#include "lib/mesh/lightmap_uv.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>
#include <numbers>
#include <numeric>
#include <string>

#include "lib/core/error.hpp"
#include "lib/mesh/lightmap_internal.hpp"

namespace voxkit::lightmap {
namespace {

using detail::Chart;
using detail::P2;
using detail::PlaneGrid;
using detail::Vec3;

constexpr uint32_t kNone = 0xffffffffu;
// A chart takes triangles whose normals lie within 60 degrees of its axis.
constexpr double kConeCos = 0.5;
// A chart is projected onto the plane of its mean normal when that leans off its axis by
// more than 3 degrees.
constexpr double kRefitCos = 0.99863;
// A triangle is degenerate when its doubled area is below this fraction of its longest edge
// squared (the sine of its largest angle, roughly).
constexpr double kDegenerate = 1e-10;

struct Tri {
  Vec3 n{};          // unit normal; zero for a degenerate triangle
  double area = 0;   // zero for a degenerate triangle
};

void check_input(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices,
                 const Options& opts) {
  if (opts.size < 1 || opts.size > 65536)
    throw_usage("lightmap size " + std::to_string(opts.size) + " is out of range (1 to 65536 texels)");
  if (!(opts.padding_texels >= 0 && opts.padding_texels <= double(opts.size)))
    throw_usage("lightmap padding " + std::to_string(opts.padding_texels) + " is out of range (0 to the size)");
  if (!(opts.hard_angle_deg >= 0 && opts.hard_angle_deg <= 180))
    throw_usage("lightmap hard angle " + std::to_string(opts.hard_angle_deg) + " is out of range (0 to 180 degrees)");
  if (indices.size() % 3 != 0)
    throw_usage("lightmap: index count " + std::to_string(indices.size()) + " is not a multiple of 3");
  if (positions.size() > size_t(kNone) - indices.size())
    throw_usage("lightmap: " + std::to_string(positions.size()) + " vertices and " + std::to_string(indices.size()) +
                " indices are more than 32-bit indices can address once split");
  for (uint32_t i : indices) {
    if (i >= positions.size())
      throw_usage("lightmap: index " + std::to_string(i) + " out of range (" + std::to_string(positions.size()) +
                  " vertices)");
    const auto& p = positions[i];
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
      throw_data("lightmap: vertex " + std::to_string(i) + " has a coordinate that is not finite");
  }
}

Tri make_tri(const std::array<float, 3>& a, const std::array<float, 3>& b, const std::array<float, 3>& c) {
  const Vec3 u{double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
  const Vec3 v{double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
  const Vec3 w{double(c[0]) - b[0], double(c[1]) - b[1], double(c[2]) - b[2]};
  const Vec3 x{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const double len = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  auto sq = [](const Vec3& e) { return e[0] * e[0] + e[1] * e[1] + e[2] * e[2]; };
  const double longest = std::max({sq(u), sq(v), sq(w)});
  Tri t;
  if (!(len > kDegenerate * longest) || !std::isfinite(len)) return t;
  t.n = {x[0] / len, x[1] / len, x[2] / len};
  t.area = 0.5 * len;
  return t;
}

struct Edge {
  uint32_t b, t;  // the edge's higher welded id, its triangle
};

// Buffers a thread keeps from mesh to mesh: an unwrap allocates little besides its outputs
// (fresh pages are dear, and the meshes come by the thousand). A large mesh's are let go.
struct Scratch {
  std::vector<Tri> tris;
  std::vector<uint8_t> used;
  std::vector<uint32_t> wid, order, first, fill, start, nbr, count, seeds, tried, queue, at;
  std::vector<Edge> edges;
  std::vector<std::array<uint32_t, 2>> pairs;
  std::vector<double> extents;
  std::vector<std::array<Vec3, 2>> planes;
  std::vector<uint32_t> tri_start, chart_tris, vert_start, verts, mark, slot, first_corner;
  std::vector<Chart> charts;
  std::vector<double> uv_area;
  std::vector<P2> tex;
  PlaneGrid grid;
};
// Meshes of more triangles than this free their scratch buffers after use.
constexpr size_t kScratchKeep = size_t(1) << 16;

// Welded ids (s.wid): per vertex, the lowest used vertex at the same position (-0 as +0);
// unused vertices keep their own. The used vertices go through a hash table in order, so
// the first of a position to arrive is its lowest.
void weld(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices, Scratch& s) {
  std::vector<uint32_t>& id = s.wid;
  id.resize(positions.size());
  std::iota(id.begin(), id.end(), 0u);
  s.used.assign(positions.size(), 0);
  size_t used = 0;
  for (uint32_t i : indices) used += s.used[i] == 0, s.used[i] = 1;
  size_t size = 16;
  while (size < 2 * used) size *= 2;
  std::vector<uint32_t>& table = s.order;  // vertex + 1; 0 = empty
  table.assign(size, 0);
  for (uint32_t v = 0; v < positions.size(); ++v) {
    if (!s.used[v]) continue;
    const auto& p = positions[v];
    uint64_t h = 0;
    for (float c : p) h = (h ^ std::bit_cast<uint32_t>(c + 0.0f)) * 0x9E3779B97F4A7C15ull;  // -0 + 0 is +0
    for (size_t i = size_t(h ^ (h >> 31)) & (size - 1);; i = (i + 1) & (size - 1)) {
      if (table[i] == 0) {
        table[i] = v + 1;
        break;
      }
      if (positions[table[i] - 1] == p) {
        id[v] = table[i] - 1;
        break;
      }
    }
  }
}

// Edge neighbours of the non-degenerate triangles over welded ids, as lists (CSR: s.start,
// s.nbr). Two triangles on an edge are neighbours; three or more are chained in triangle order.
void adjacency(std::span<const uint32_t> indices, Scratch& s) {
  const std::vector<uint32_t>& wid = s.wid;
  const std::vector<Tri>& tris = s.tris;
  const size_t nv = wid.size(), nt = tris.size();
  std::vector<uint32_t>& first = s.first;
  first.assign(nv + 1, 0);
  for (size_t t = 0; t < nt; ++t)
    if (tris[t].area > 0)
      for (int k = 0; k < 3; ++k)
        ++first[std::min(wid[indices[3 * t + k]], wid[indices[3 * t + (k + 1) % 3]]) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<Edge>& edges = s.edges;
  edges.resize(first[nv]);
  s.fill.assign(first.begin(), first.end() - 1);
  for (size_t t = 0; t < nt; ++t)
    if (tris[t].area > 0)
      for (int k = 0; k < 3; ++k) {
        const uint32_t a = wid[indices[3 * t + k]], b = wid[indices[3 * t + (k + 1) % 3]];
        edges[s.fill[std::min(a, b)]++] = Edge{std::max(a, b), uint32_t(t)};
      }
  s.pairs.clear();
  for (size_t a = 0; a < nv; ++a) {
    const auto lo = edges.begin() + first[a], hi = edges.begin() + first[a + 1];
    // Few edges share a vertex: insertion sort (no two edges of a bucket are equal).
    auto less = [](const Edge& x, const Edge& y) { return x.b != y.b ? x.b < y.b : x.t < y.t; };
    if (hi - lo > 16) std::sort(lo, hi, less);
    for (auto i = lo + 1; i < hi && hi - lo <= 16; ++i)
      for (auto j = i; j > lo && less(*j, *(j - 1)); --j) std::swap(*j, *(j - 1));
    for (auto i = lo; i + 1 < hi; ++i)
      if (i->b == (i + 1)->b && i->t != (i + 1)->t) s.pairs.push_back({i->t, (i + 1)->t});
  }
  std::vector<uint32_t>& start = s.start;
  start.assign(nt + 1, 0);
  for (const auto& p : s.pairs) ++start[p[0] + 1], ++start[p[1] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  s.nbr.resize(start[nt]);
  s.fill.assign(start.begin(), start.end() - 1);
  for (const auto& p : s.pairs) s.nbr[s.fill[p[0]]++] = p[1], s.nbr[s.fill[p[1]]++] = p[0];
}

// The axis plane of axis `a` (0..5: +x, +y, +z, -x, -y, -z): two unit vectors whose cross
// product is the axis, so that triangles facing it are counter-clockwise.
std::array<Vec3, 2> plane_of(int a) {
  const int i = a % 3, j = (i + 1) % 3, k = (i + 2) % 3;
  std::array<Vec3, 2> e{};
  e[0][size_t(a < 3 ? j : k)] = 1;
  e[1][size_t(a < 3 ? k : j)] = 1;
  return e;
}

// A plane across unit vector n: two unit vectors whose cross product is n.
std::array<Vec3, 2> plane_across(const Vec3& n) {
  size_t h = 0;  // the axis least along n
  for (size_t k = 1; k < 3; ++k)
    if (std::fabs(n[k]) < std::fabs(n[h])) h = k;
  Vec3 e1{0, 0, 0};  // axis h x n, normalised
  const size_t i = (h + 1) % 3, j = (h + 2) % 3;
  e1[i] = -n[j], e1[j] = n[i];
  const double l = std::sqrt(e1[i] * e1[i] + e1[j] * e1[j]);
  e1[i] /= l, e1[j] /= l;
  return {e1, Vec3{n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]}};
}

double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int dominant_axis(const Vec3& n) {
  int i = 0;
  for (int k = 1; k < 3; ++k)
    if (std::fabs(n[size_t(k)]) > std::fabs(n[size_t(i)])) i = k;
  return n[size_t(i)] >= 0 ? i : i + 3;
}

// Grows the charts of the non-degenerate triangles, then gives each degenerate one the chart
// of a triangle it shares a position with (or the point chart). Sets `of`, each triangle's
// chart, and s.planes, each chart's plane (zero axes for the point chart).
void grow_charts(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices, double hard_cos,
                 Scratch& s, std::vector<uint32_t>& of) {
  const std::vector<Tri>& tris = s.tris;
  const std::vector<uint32_t>& wid = s.wid;
  const size_t nt = tris.size();
  of.assign(nt, kNone);
  s.planes.clear();
  // Seeds: the triangles nearest an axis first (in 256 steps of alignment), then by index.
  std::vector<uint32_t>&count = s.count, &seeds = s.seeds, &queue = s.queue, &tried = s.tried;
  count.assign(257, 0);
  s.extents.clear();
  auto bin = [&](const Vec3& n) {
    const double align = std::max({std::fabs(n[0]), std::fabs(n[1]), std::fabs(n[2])});
    return size_t(std::clamp((1 - align) * 512, 0.0, 255.0));
  };
  for (size_t t = 0; t < nt; ++t)
    if (tris[t].area > 0) {
      ++count[bin(tris[t].n) + 1];
      double e = 0;
      const auto &p0 = positions[indices[3 * t]], &p1 = positions[indices[3 * t + 1]],
                 &p2 = positions[indices[3 * t + 2]];
      for (size_t k = 0; k < 3; ++k)
        e = std::max(e, double(std::max({p0[k], p1[k], p2[k]})) - std::min({p0[k], p1[k], p2[k]}));
      s.extents.push_back(e);
    }
  if (!s.extents.empty()) {
    std::partial_sum(count.begin(), count.end(), count.begin());
    seeds.resize(count[256]);
    for (size_t t = 0; t < nt; ++t)
      if (tris[t].area > 0) seeds[count[bin(tris[t].n)]++] = uint32_t(t);
    // Grid cells of about the median triangle's size.
    auto& ext = s.extents;
    std::nth_element(ext.begin(), ext.begin() + std::ptrdiff_t(ext.size() / 2), ext.end());
    const double cell = std::max(ext[ext.size() / 2], 1e-30);

    adjacency(indices, s);
    PlaneGrid& grid = s.grid;
    grid.reserve(nt);
    tried.assign(nt, 0);
    uint32_t attempt = 0;  // marks the triangles tried by one growth of a chart
    for (uint32_t seed : seeds) {
      if (of[seed] != kNone) continue;
      const uint32_t c = uint32_t(s.planes.size());
      const int a = dominant_axis(tris[seed].n);
      const double sign = a < 3 ? 1 : -1;
      s.planes.push_back(plane_of(a));
      // Flood fill; a triangle that passes the angle tests is refused if check(it) holds.
      auto grow = [&](auto&& check) {
        ++attempt;
        of[seed] = c;
        queue.assign(1, seed);
        for (size_t q = 0; q < queue.size(); ++q) {
          const uint32_t t = queue[q];
          const Vec3& n = tris[t].n;
          for (uint32_t i = s.start[t]; i < s.start[t + 1]; ++i) {
            const uint32_t u = s.nbr[i];
            if (of[u] != kNone || tried[u] == attempt) continue;
            const Vec3& m = tris[u].n;
            if (dot(n, m) < hard_cos) continue;
            tried[u] = attempt;
            if (sign * m[size_t(a % 3)] < kConeCos || check(u)) continue;
            of[u] = c;
            queue.push_back(u);
          }
        }
      };
      // Grown first without the overlap test: when no two of the triangles taken overlap,
      // no test would have refused one and the chart is the same. Otherwise it is grown again
      // with the test, whose triangles are among these (each step takes a subset of theirs).
      grow([](uint32_t) { return false; });
      grid.build(positions, indices, wid, s.planes[c], queue, cell);
      if (grid.any_overlap()) {
        for (uint32_t t : queue) of[t] = kNone;
        grow([&](uint32_t u) { return grid.overlaps(u, [&](uint32_t t) { return of[t] == c; }); });
      }
      // The plane of the chart's area-weighted mean normal instead, if it leans off the
      // axis, every member faces it within the cone and the members do not overlap there.
      Vec3 mean{0, 0, 0};
      for (uint32_t t : queue)
        for (size_t k = 0; k < 3; ++k) mean[k] += tris[t].area * tris[t].n[k];
      const double len = std::sqrt(mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]);
      if (!(len > 0) || sign * mean[size_t(a % 3)] >= kRefitCos * len) continue;
      for (double& m : mean) m /= len;
      bool ok = true;
      for (size_t i = 0; i < queue.size() && ok; ++i) ok = dot(tris[queue[i]].n, mean) >= kConeCos;
      if (!ok) continue;
      const std::array<Vec3, 2> plane = plane_across(mean);
      grid.build(positions, indices, wid, plane, queue, cell);
      if (!grid.any_overlap()) s.planes[c] = plane;
    }
  }
  // Degenerate triangles, in order: the chart of the first triangle that uses one of their
  // positions, or else the point chart.
  std::vector<uint32_t>& at = s.at;
  at.assign(wid.size(), kNone);
  for (size_t t = 0; t < nt; ++t)
    if (of[t] != kNone)
      for (size_t k = 0; k < 3; ++k)
        if (at[wid[indices[3 * t + k]]] == kNone) at[wid[indices[3 * t + k]]] = of[t];
  uint32_t point = kNone;
  for (size_t t = 0; t < nt; ++t) {
    if (of[t] != kNone) continue;
    for (size_t k = 0; k < 3 && of[t] == kNone; ++k) of[t] = at[wid[indices[3 * t + k]]];
    if (of[t] == kNone) {
      if (point == kNone) point = uint32_t(s.planes.size()), s.planes.push_back({});
      of[t] = point;
    }
    for (size_t k = 0; k < 3; ++k)
      if (at[wid[indices[3 * t + k]]] == kNone) at[wid[indices[3 * t + k]]] = of[t];
  }
}

// Lays out the uvs of a mesh whose input is checked, with s's buffers.
void unwrap_into(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices,
                 const Options& opts, Scratch& s, Unwrap& out) {
  const size_t nv = positions.size(), nt = indices.size() / 3;
  out.source_vertex.resize(nv);
  std::iota(out.source_vertex.begin(), out.source_vertex.end(), 0u);
  out.uv.assign(nv, {0.0f, 0.0f});
  out.stats.vertices_in = out.stats.vertices_out = uint32_t(nv);
  if (nt == 0) return;

  std::vector<Tri>& tris = s.tris;
  tris.resize(nt);
  for (size_t t = 0; t < nt; ++t)
    tris[t] = make_tri(positions[indices[3 * t]], positions[indices[3 * t + 1]], positions[indices[3 * t + 2]]);
  weld(positions, indices, s);
  const double hard_cos = opts.hard_angle_deg >= 180 ? -2.0 : std::cos(opts.hard_angle_deg * (std::numbers::pi / 180));
  grow_charts(positions, indices, hard_cos, s, out.chart);
  const size_t nc = s.planes.size();

  // Each chart's vertices, in order of first use by its triangles, and per corner the first
  // corner of its chart that uses its vertex.
  std::vector<uint32_t>&tri_start = s.tri_start, &chart_tris = s.chart_tris, &vert_start = s.vert_start,
  &verts = s.verts, &mark = s.mark, &slot = s.slot, &first_corner = s.first_corner;
  tri_start.assign(nc + 1, 0), chart_tris.resize(nt), vert_start.assign(nc + 1, 0), verts.clear();
  mark.assign(nv, kNone), slot.resize(nv), first_corner.resize(indices.size());
  for (uint32_t c : out.chart) ++tri_start[c + 1];
  std::partial_sum(tri_start.begin(), tri_start.end(), tri_start.begin());
  s.fill.assign(tri_start.begin(), tri_start.end() - 1);
  for (size_t t = 0; t < nt; ++t) chart_tris[s.fill[out.chart[t]]++] = uint32_t(t);
  for (size_t c = 0; c < nc; ++c) {
    for (uint32_t i = tri_start[c]; i < tri_start[c + 1]; ++i)
      for (size_t k = 0; k < 3; ++k) {
        const uint32_t corner = 3 * chart_tris[i] + uint32_t(k), v = indices[corner];
        if (mark[v] != c) mark[v] = uint32_t(c), slot[v] = corner, verts.push_back(v);
        first_corner[corner] = slot[v];
      }
    vert_start[c + 1] = uint32_t(verts.size());
  }
  std::vector<Chart>& charts = s.charts;
  charts.assign(nc, Chart{});
  for (size_t c = 0; c < nc; ++c) charts[c].axis = s.planes[c];
  detail::fit_boxes(positions, vert_start, verts, charts);
  const uint32_t gap = uint32_t(std::ceil(opts.padding_texels));
  const double scale = detail::pack_charts(charts, opts.size, gap);

  // The vertices: the input's first, then a copy per further chart, in order of first use
  // (a vertex used by k charts has k - 1 copies).
  const size_t used = size_t(std::count(s.used.begin(), s.used.end(), uint8_t(1)));
  out.source_vertex.reserve(nv + verts.size() - used), out.uv.reserve(nv + verts.size() - used);
  auto texel = [&](const Chart& ch, uint32_t v) {
    return P2{ch.origin[0] + scale * (detail::along(ch.axis[0], positions[v]) - ch.lo[0]),
              ch.origin[1] + scale * (detail::along(ch.axis[1], positions[v]) - ch.lo[1])};
  };
  auto to_uv = [&](const P2& p) {
    return std::array<float, 2>{std::clamp(float(p.x / opts.size), 0.0f, 1.0f),
                                std::clamp(float(p.y / opts.size), 0.0f, 1.0f)};
  };
  std::fill(mark.begin(), mark.end(), kNone);  // now: whether a vertex has its first uv
  out.indices.resize(indices.size());
  std::vector<P2>& tex = s.tex;  // per first corner of a vertex in a chart: its texel
  tex.resize(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) {
    const uint32_t v = indices[i], c = out.chart[i / 3];
    if (first_corner[i] != i) {
      out.indices[i] = out.indices[first_corner[i]];
      continue;
    }
    tex[i] = texel(charts[c], v);
    if (mark[v] == kNone) {
      mark[v] = c;
      out.indices[i] = v;
      out.uv[v] = to_uv(tex[i]);
    } else {
      out.indices[i] = uint32_t(out.source_vertex.size());
      out.source_vertex.push_back(v);
      out.uv.push_back(to_uv(tex[i]));
    }
  }

  // Stats, from the layout before rounding to float.
  Stats& st = out.stats;
  st.charts = uint32_t(nc);
  st.vertices_out = uint32_t(out.source_vertex.size());
  st.texels_per_metre = scale;
  std::vector<double>& uv_area = s.uv_area;
  uv_area.assign(nt, 0);
  double uv_sum = 0, area_sum = 0;
  for (size_t t = 0; t < nt; ++t) {
    if (!(tris[t].area > 0)) continue;
    const P2 &a = tex[first_corner[3 * t]], &b = tex[first_corner[3 * t + 1]], &c = tex[first_corner[3 * t + 2]];
    uv_area[t] = 0.5 * std::fabs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
    uv_sum += uv_area[t], area_sum += tris[t].area;
  }
  st.coverage = uv_sum / (double(opts.size) * double(opts.size));
  if (uv_sum > 0 && area_sum > 0) {
    const double mean = uv_sum / area_sum;
    double weighted = 0;
    for (size_t t = 0; t < nt; ++t) {
      if (!(tris[t].area > 0)) continue;
      const double r = uv_area[t] / tris[t].area / mean;
      const double d = r >= 1 ? r - 1 : (r > 1e-12 ? 1 / r - 1 : 1e12);
      st.area_distortion_max = std::max(st.area_distortion_max, d);
      weighted += d * tris[t].area;
    }
    st.area_distortion_mean = weighted / area_sum;
  }
}

}  // namespace

Unwrap unwrap(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices, const Options& opts) {
  check_input(positions, indices, opts);
  thread_local Scratch scratch;
  Unwrap out;
  struct Release {  // a large mesh's buffers are freed, also when the layout throws
    Scratch& s;
    size_t triangles;
    ~Release() {
      if (triangles > kScratchKeep) s = Scratch{};
    }
  } release{scratch, indices.size() / 3};
  unwrap_into(positions, indices, opts, scratch, out);
  return out;
}

std::vector<Unwrap> unwrap_all(std::span<const MeshRef> meshes, const Options& opts) {
  std::vector<Unwrap> out(meshes.size());
  std::vector<std::exception_ptr> errors(meshes.size());
  tbb::parallel_for(size_t(0), meshes.size(), [&](size_t i) {
    try {
      out[i] = unwrap(meshes[i].positions, meshes[i].indices, opts);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (size_t i = 0; i < errors.size(); ++i)
    if (errors[i]) {
      try {
        std::rethrow_exception(errors[i]);
      } catch (Error& e) {
        e.add_context("mesh " + std::to_string(i) + ": ");
        throw;
      }
    }
  return out;
}

}  // namespace voxkit::lightmap
