// Lightmap UVs: charts grown by flood fill under a hard-angle and a cone test, each
// projected onto its axis plane with a refusal of overlapping triangles (separating-axis
// tests against candidates from a spatial hash) and moved to its mean plane where that stays
// free of overlap; then packed (lightmap_pack.cpp), the vertices split along chart borders,
// the stats measured.
#include "lib/mesh/lightmap_uv.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
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
// A point is taken as on a line when the sine of its angle to it is within this.
constexpr double kOnLine = 1e-12;
// A triangle over more hash cells than this is checked against in a list of its own.
constexpr int64_t kMaxCells = 16;

struct P2 {
  double x, y;
};

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

// Welded ids: per vertex, the lowest used vertex at the same position (bitwise, -0 as +0);
// unused vertices keep their own.
std::vector<uint32_t> weld(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices) {
  std::vector<uint32_t> id(positions.size());
  std::iota(id.begin(), id.end(), 0u);
  std::vector<uint8_t> used(positions.size(), 0);
  for (uint32_t i : indices) used[i] = 1;
  std::vector<uint32_t> order;
  for (uint32_t v = 0; v < positions.size(); ++v)
    if (used[v]) order.push_back(v);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const auto &p = positions[a], &q = positions[b];
    if (p[0] != q[0]) return p[0] < q[0];
    if (p[1] != q[1]) return p[1] < q[1];
    if (p[2] != q[2]) return p[2] < q[2];
    return a < b;
  });
  for (size_t i = 1; i < order.size(); ++i)
    if (positions[order[i]] == positions[order[i - 1]]) id[order[i]] = id[order[i - 1]];
  return id;
}

// Edge neighbours of the non-degenerate triangles over welded ids, as lists (CSR). Two
// triangles on an edge are neighbours; three or more are chained in triangle order.
void adjacency(std::span<const uint32_t> indices, const std::vector<uint32_t>& wid, const std::vector<Tri>& tris,
               std::vector<uint32_t>& start, std::vector<uint32_t>& nbr) {
  const size_t nv = wid.size(), nt = tris.size();
  struct Edge {
    uint32_t b, t;
  };
  std::vector<uint32_t> first(nv + 1, 0);
  for (size_t t = 0; t < nt; ++t)
    if (tris[t].area > 0)
      for (int k = 0; k < 3; ++k)
        ++first[std::min(wid[indices[3 * t + k]], wid[indices[3 * t + (k + 1) % 3]]) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<Edge> edges(first[nv]);
  std::vector<uint32_t> fill(first.begin(), first.end() - 1);
  for (size_t t = 0; t < nt; ++t)
    if (tris[t].area > 0)
      for (int k = 0; k < 3; ++k) {
        const uint32_t a = wid[indices[3 * t + k]], b = wid[indices[3 * t + (k + 1) % 3]];
        edges[fill[std::min(a, b)]++] = Edge{std::max(a, b), uint32_t(t)};
      }
  std::vector<std::array<uint32_t, 2>> pairs;
  for (size_t a = 0; a < nv; ++a) {
    const auto lo = edges.begin() + first[a], hi = edges.begin() + first[a + 1];
    std::sort(lo, hi, [](const Edge& x, const Edge& y) { return x.b != y.b ? x.b < y.b : x.t < y.t; });
    for (auto i = lo; i + 1 < hi; ++i)
      if (i->b == (i + 1)->b && i->t != (i + 1)->t) pairs.push_back({i->t, (i + 1)->t});
  }
  start.assign(nt + 1, 0);
  for (const auto& p : pairs) ++start[p[0] + 1], ++start[p[1] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  nbr.resize(start[nt]);
  std::vector<uint32_t> at(start.begin(), start.end() - 1);
  for (const auto& p : pairs) nbr[at[p[0]]++] = p[1], nbr[at[p[1]]++] = p[0];
}

// Whether every point of q lies on or to the right of the line a -> b.
bool right_of(const P2& a, const P2& b, const P2* q) {
  const double ex = b.x - a.x, ey = b.y - a.y, el = std::fabs(ex) + std::fabs(ey);
  for (int i = 0; i < 3; ++i) {
    const double dx = q[i].x - a.x, dy = q[i].y - a.y;
    if (ex * dy - ey * dx > kOnLine * el * (std::fabs(dx) + std::fabs(dy))) return false;
  }
  return true;
}

// Whether the interiors of two counter-clockwise triangles meet: no edge of either separates
// them (touching along an edge or at a point is not overlap).
bool overlap(const P2* a, const P2* b) {
  for (int i = 0; i < 3; ++i)
    if (right_of(a[i], a[(i + 1) % 3], b) || right_of(b[i], b[(i + 1) % 3], a)) return false;
  return true;
}

// The projected triangles of the chart being grown, by hash cells of their bounding boxes.
class ChartIndex {
 public:
  ChartIndex(size_t triangles, double cell) : inv_(1 / cell), stamp_(triangles, 0), bounds_(triangles) {
    slots_.resize(256);
  }

  void clear() {
    if (++gen_ == 0) {
      for (Slot& s : slots_) s.gen = 0;
      gen_ = 1;
    }
    used_ = 0;
    entries_.clear(), big_.clear(), members_.clear();
  }

  // Whether triangle `p` overlaps one of the chart's; `proj` holds every member's projection.
  bool overlaps(const P2* p, const std::vector<std::array<P2, 3>>& proj) {
    if (++query_ == 0) {
      std::fill(stamp_.begin(), stamp_.end(), 0);
      query_ = 1;
    }
    const Box b = box(p);
    auto hit = [&](uint32_t u) {
      if (stamp_[u] == query_) return false;
      stamp_[u] = query_;
      const auto& c = bounds_[u];
      if (b.x1 <= c[0] || c[2] <= b.x0 || b.y1 <= c[1] || c[3] <= b.y0) return false;
      return overlap(p, proj[u].data());
    };
    if (!b.small()) {
      for (uint32_t u : members_)
        if (hit(u)) return true;
      return false;
    }
    for (uint32_t u : big_)
      if (hit(u)) return true;
    for (int64_t y = b.cy0; y <= b.cy1; ++y)
      for (int64_t x = b.cx0; x <= b.cx1; ++x)
        for (uint32_t e = head(x, y); e != kNone; e = entries_[e][1])
          if (hit(entries_[e][0])) return true;
    return false;
  }

  void insert(uint32_t t, const P2* p) {
    members_.push_back(t);
    const Box b = box(p);
    bounds_[t] = {b.x0, b.y0, b.x1, b.y1};
    if (!b.small()) {
      big_.push_back(t);
      return;
    }
    for (int64_t y = b.cy0; y <= b.cy1; ++y)
      for (int64_t x = b.cx0; x <= b.cx1; ++x) {
        uint32_t& h = slot(x, y).head;
        entries_.push_back({t, h});
        h = uint32_t(entries_.size() - 1);
      }
  }

 private:
  struct Slot {
    int64_t x = 0, y = 0;
    uint32_t head = kNone, gen = 0;
  };
  struct Box {
    double x0, y0, x1, y1;
    int64_t cx0, cy0, cx1, cy1;
    bool small() const { return (cx1 - cx0 + 1) * (cy1 - cy0 + 1) <= kMaxCells; }
  };

  int64_t cell(double v) const { return int64_t(std::clamp(std::floor(v * inv_), -1e12, 1e12)); }
  Box box(const P2* p) const {
    Box b{std::min({p[0].x, p[1].x, p[2].x}), std::min({p[0].y, p[1].y, p[2].y}), std::max({p[0].x, p[1].x, p[2].x}),
          std::max({p[0].y, p[1].y, p[2].y}), 0, 0, 0, 0};
    b.cx0 = cell(b.x0), b.cy0 = cell(b.y0), b.cx1 = cell(b.x1), b.cy1 = cell(b.y1);
    if (b.cx1 - b.cx0 >= kMaxCells || b.cy1 - b.cy0 >= kMaxCells) b.cx1 = b.cx0 + kMaxCells;  // not small
    return b;
  }
  size_t hash(int64_t x, int64_t y) const {
    uint64_t h = uint64_t(x) * 0x9E3779B97F4A7C15ull ^ uint64_t(y) * 0xC2B2AE3D27D4EB4Full;
    return size_t(h ^ (h >> 29)) & (slots_.size() - 1);
  }
  uint32_t head(int64_t x, int64_t y) const {
    for (size_t i = hash(x, y);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.gen != gen_) return kNone;
      if (s.x == x && s.y == y) return s.head;
    }
  }
  Slot& slot(int64_t x, int64_t y) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    for (size_t i = hash(x, y);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& s = slots_[i];
      if (s.gen != gen_) {
        ++used_;
        s = Slot{x, y, kNone, gen_};
        return s;
      }
      if (s.x == x && s.y == y) return s;
    }
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.gen == gen_)
        for (size_t i = hash(s.x, s.y);; i = (i + 1) & (slots_.size() - 1))
          if (slots_[i].gen != gen_) {
            slots_[i] = s;
            break;
          }
  }

  double inv_;
  std::vector<Slot> slots_;
  std::vector<std::array<uint32_t, 2>> entries_;  // triangle, next entry of the cell
  std::vector<uint32_t> big_, members_, stamp_;
  std::vector<std::array<double, 4>> bounds_;  // per member: x0, y0, x1, y1
  uint32_t gen_ = 1, query_ = 0;  // slots of another generation are empty
  size_t used_ = 0;
};

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
// of a triangle it shares a position with (or the point chart). Returns each triangle's
// chart; `planes` gets each chart's plane (zero axes for the point chart).
std::vector<uint32_t> grow_charts(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices,
                                  const std::vector<Tri>& tris, const std::vector<uint32_t>& wid, double hard_cos,
                                  std::vector<std::array<Vec3, 2>>& planes) {
  const size_t nt = tris.size();
  std::vector<uint32_t> of(nt, kNone);
  // Seeds: the triangles nearest an axis first (in 256 steps of alignment), then by index.
  std::vector<uint32_t> count(257, 0), seeds;
  std::vector<double> extents;
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
      extents.push_back(e);
    }
  if (!extents.empty()) {
    std::partial_sum(count.begin(), count.end(), count.begin());
    seeds.resize(count[256]);
    for (size_t t = 0; t < nt; ++t)
      if (tris[t].area > 0) seeds[count[bin(tris[t].n)]++] = uint32_t(t);
    // Hash cells of about the median triangle's size.
    std::nth_element(extents.begin(), extents.begin() + std::ptrdiff_t(extents.size() / 2), extents.end());
    const double cell = std::max(extents[extents.size() / 2], 1e-30);

    std::vector<uint32_t> start, nbr, tried(nt, kNone), queue;
    adjacency(indices, wid, tris, start, nbr);
    std::vector<std::array<P2, 3>> proj(nt);
    ChartIndex index(nt, cell);
    for (uint32_t seed : seeds) {
      if (of[seed] != kNone) continue;
      const uint32_t c = uint32_t(planes.size());
      const int a = dominant_axis(tris[seed].n);
      const double sign = a < 3 ? 1 : -1;
      planes.push_back(plane_of(a));
      std::array<Vec3, 2> plane = planes.back();
      auto project = [&](uint32_t t) {
        for (size_t k = 0; k < 3; ++k) {
          const auto& p = positions[indices[3 * t + k]];
          proj[t][k] = P2{detail::along(plane[0], p), detail::along(plane[1], p)};
        }
      };
      index.clear();
      project(seed);
      index.insert(seed, proj[seed].data());
      of[seed] = c;
      queue.assign(1, seed);
      for (size_t q = 0; q < queue.size(); ++q) {
        const uint32_t t = queue[q];
        const Vec3& n = tris[t].n;
        for (uint32_t i = start[t]; i < start[t + 1]; ++i) {
          const uint32_t u = nbr[i];
          if (of[u] != kNone || tried[u] == c) continue;
          const Vec3& m = tris[u].n;
          if (dot(n, m) < hard_cos) continue;
          tried[u] = c;
          if (sign * m[size_t(a % 3)] < kConeCos) continue;
          project(u);
          if (index.overlaps(proj[u].data(), proj)) continue;
          index.insert(u, proj[u].data());
          of[u] = c;
          queue.push_back(u);
        }
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
      plane = plane_across(mean);
      index.clear();
      for (size_t i = 0; i < queue.size() && ok; ++i) {
        project(queue[i]);
        ok = !index.overlaps(proj[queue[i]].data(), proj);
        index.insert(queue[i], proj[queue[i]].data());
      }
      if (ok) planes[c] = plane;
    }
  }
  // Degenerate triangles, in order: the chart of the first triangle that uses one of their
  // positions, or else the point chart.
  std::vector<uint32_t> at(wid.size(), kNone);
  for (size_t t = 0; t < nt; ++t)
    if (of[t] != kNone)
      for (size_t k = 0; k < 3; ++k)
        if (at[wid[indices[3 * t + k]]] == kNone) at[wid[indices[3 * t + k]]] = of[t];
  uint32_t point = kNone;
  for (size_t t = 0; t < nt; ++t) {
    if (of[t] != kNone) continue;
    for (size_t k = 0; k < 3 && of[t] == kNone; ++k) of[t] = at[wid[indices[3 * t + k]]];
    if (of[t] == kNone) {
      if (point == kNone) point = uint32_t(planes.size()), planes.push_back({});
      of[t] = point;
    }
    for (size_t k = 0; k < 3; ++k)
      if (at[wid[indices[3 * t + k]]] == kNone) at[wid[indices[3 * t + k]]] = of[t];
  }
  return of;
}

}  // namespace

Unwrap unwrap(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices, const Options& opts) {
  check_input(positions, indices, opts);
  const size_t nv = positions.size(), nt = indices.size() / 3;
  Unwrap out;
  out.source_vertex.resize(nv);
  std::iota(out.source_vertex.begin(), out.source_vertex.end(), 0u);
  out.uv.assign(nv, {0.0f, 0.0f});
  out.stats.vertices_in = out.stats.vertices_out = uint32_t(nv);
  if (nt == 0) return out;

  std::vector<Tri> tris(nt);
  for (size_t t = 0; t < nt; ++t)
    tris[t] = make_tri(positions[indices[3 * t]], positions[indices[3 * t + 1]], positions[indices[3 * t + 2]]);
  const std::vector<uint32_t> wid = weld(positions, indices);
  const double hard_cos = opts.hard_angle_deg >= 180 ? -2.0 : std::cos(opts.hard_angle_deg * (std::numbers::pi / 180));
  std::vector<std::array<Vec3, 2>> planes;
  out.chart = grow_charts(positions, indices, tris, wid, hard_cos, planes);
  const size_t nc = planes.size();

  // Each chart's vertices, in order of first use by its triangles, and per corner the first
  // corner of its chart that uses its vertex.
  std::vector<uint32_t> tri_start(nc + 1, 0), chart_tris(nt), vert_start(nc + 1, 0), verts, mark(nv, kNone),
      slot(nv), first_corner(indices.size());
  for (uint32_t c : out.chart) ++tri_start[c + 1];
  std::partial_sum(tri_start.begin(), tri_start.end(), tri_start.begin());
  {
    std::vector<uint32_t> fill(tri_start.begin(), tri_start.end() - 1);
    for (size_t t = 0; t < nt; ++t) chart_tris[fill[out.chart[t]]++] = uint32_t(t);
  }
  for (size_t c = 0; c < nc; ++c) {
    for (uint32_t i = tri_start[c]; i < tri_start[c + 1]; ++i)
      for (size_t k = 0; k < 3; ++k) {
        const uint32_t corner = 3 * chart_tris[i] + uint32_t(k), v = indices[corner];
        if (mark[v] != c) mark[v] = uint32_t(c), slot[v] = corner, verts.push_back(v);
        first_corner[corner] = slot[v];
      }
    vert_start[c + 1] = uint32_t(verts.size());
  }
  std::vector<Chart> charts(nc);
  for (size_t c = 0; c < nc; ++c) charts[c].axis = planes[c];
  detail::fit_boxes(positions, vert_start, verts, charts);
  const uint32_t gap = uint32_t(std::ceil(opts.padding_texels));
  const double scale = detail::pack_charts(charts, opts.size, gap);

  // The vertices: the input's first, then a copy per further chart, in order of first use.
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
  for (size_t i = 0; i < indices.size(); ++i) {
    const uint32_t v = indices[i], c = out.chart[i / 3];
    if (first_corner[i] != i) {
      out.indices[i] = out.indices[first_corner[i]];
    } else if (mark[v] == kNone) {
      mark[v] = c;
      out.indices[i] = v;
      out.uv[v] = to_uv(texel(charts[c], v));
    } else {
      out.indices[i] = uint32_t(out.source_vertex.size());
      out.source_vertex.push_back(v);
      out.uv.push_back(to_uv(texel(charts[c], v)));
    }
  }

  // Stats, from the layout before rounding to float.
  Stats& st = out.stats;
  st.charts = uint32_t(nc);
  st.vertices_out = uint32_t(out.source_vertex.size());
  st.texels_per_metre = scale;
  std::vector<double> uv_area(nt, 0);
  double uv_sum = 0, area_sum = 0;
  for (size_t t = 0; t < nt; ++t) {
    if (!(tris[t].area > 0)) continue;
    const Chart& ch = charts[out.chart[t]];
    const P2 a = texel(ch, indices[3 * t]), b = texel(ch, indices[3 * t + 1]), c = texel(ch, indices[3 * t + 2]);
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
