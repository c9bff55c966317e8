// The lightmap unwrap's internals: the overlap test and the grid of projected triangles the
// charts are grown with (lightmap_uv.cpp), and what the charts hand lightmap_pack.cpp (boxes,
// scale, packing): each chart's frame, and how a vertex of a chart lands in the lightmap.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace voxkit::lightmap::detail {

using Vec3 = std::array<double, 3>;

// A vertex along an axis of a chart. Boxes and uvs both come through here, so that a
// vertex lands in the box it was measured in, bit for bit.
inline double along(const Vec3& e, const std::array<float, 3>& p) {
  return e[0] * double(p[0]) + e[1] * double(p[1]) + e[2] * double(p[2]);
}

struct P2 {
  double x, y;
};

// A point is taken as on a line when the sine of its angle to it is within this.
inline constexpr double kOnLine = 1e-12;
// A triangle whose box touches more grid cells than this is tested against in a list of its own.
inline constexpr int64_t kMaxCells = 16;
// Pairs gathered before they are tested, at most (unless one entry's row is longer).
inline constexpr size_t kBatch = 4096;

// Whether every point of q lies on or to the right of the line a -> b.
inline bool right_of(const P2& a, const P2& b, const P2* q) {
  const double ex = b.x - a.x, ey = b.y - a.y, el = std::fabs(ex) + std::fabs(ey);
  for (int i = 0; i < 3; ++i) {
    const double dx = q[i].x - a.x, dy = q[i].y - a.y;
    if (ex * dy - ey * dx > kOnLine * el * (std::fabs(dx) + std::fabs(dy))) return false;
  }
  return true;
}

// Whether the interiors of two counter-clockwise triangles meet: no edge of either separates
// them (touching along an edge or at a point is not overlap).
inline bool overlap(const P2* a, const P2* b) {
  for (int i = 0; i < 3; ++i)
    if (right_of(a[i], a[(i + 1) % 3], b) || right_of(b[i], b[(i + 1) % 3], a)) return false;
  return true;
}

// Triangles of one chart projected onto a plane, bucketed by the cells of a uniform grid
// that their bounding boxes touch. Built at once over a known set of triangles, so that the
// cells are a flat array and each cell's entries, boxes included, lie together. A pair of
// triangles whose boxes meet is tested in one cell only: the cell of the low corner of the
// boxes' intersection (cells are monotone in the coordinates, so it is the larger of the two
// low cells, on each axis). So a cell lists its entries in four runs: boxes that start in its
// column and row (A), in its column only (B: they start lower), in its row only (C: they
// start to the left), in neither (D); there a pair is tested when one of it is in A, or one
// in B and one in C.
class PlaneGrid {
 public:
  void reserve(size_t triangles) {
    if (proj_.size() < triangles) proj_.resize(triangles), box_.resize(triangles);
  }

  // Projects triangles `tris` onto `plane` and buckets them in cells of `cell` units or more
  // (more when the triangles spread over many more cells than there are triangles).
  void build(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices,
             std::span<const uint32_t> wid, const std::array<Vec3, 2>& plane, std::span<const uint32_t> tris,
             double cell) {
    tris_.assign(tris.begin(), tris.end());
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (uint32_t t : tris) {
      auto& p = proj_[t];
      for (size_t k = 0; k < 3; ++k) {
        const auto& v = positions[indices[3 * t + k]];
        p[k] = P2{along(plane[0], v), along(plane[1], v)};
        box_[t].v[k] = wid[indices[3 * t + k]];
      }
      Box& b = box_[t];
      b.x0 = std::min({p[0].x, p[1].x, p[2].x}), b.y0 = std::min({p[0].y, p[1].y, p[2].y});
      b.x1 = std::max({p[0].x, p[1].x, p[2].x}), b.y1 = std::max({p[0].y, p[1].y, p[2].y});
      x0 = std::min(x0, b.x0), y0 = std::min(y0, b.y0), x1 = std::max(x1, b.x1), y1 = std::max(y1, b.y1);
    }
    // Some four cells per triangle at most: the extent of the whole over the root of that.
    const double limit = 4.0 * double(tris.size()) + 16;
    const double size = std::max({cell, ((x1 - x0) + (y1 - y0)) / std::sqrt(limit), 1e-30});
    inv_ = 1 / size, ox_ = x0, oy_ = y0;
    gx_ = int32_t(std::min(std::floor((x1 - x0) * inv_), 1e6)) + 1;
    gy_ = int32_t(std::min(std::floor((y1 - y0) * inv_), 1e6)) + 1;
    start_.assign(4 * size_t(gx_) * size_t(gy_) + 1, 0);
    big_.clear();
    for (uint32_t t : tris) {
      Box& b = box_[t];
      b.cx0 = cell_of(b.x0, ox_, gx_), b.cx1 = cell_of(b.x1, ox_, gx_);
      b.cy0 = cell_of(b.y0, oy_, gy_), b.cy1 = cell_of(b.y1, oy_, gy_);
      b.big = int64_t(b.cx1 - b.cx0 + 1) * int64_t(b.cy1 - b.cy0 + 1) > kMaxCells;
      if (b.big) big_.push_back(t);
      else each_cell(b, [&](size_t at) { ++start_[at + 1]; });
    }
    std::partial_sum(start_.begin(), start_.end(), start_.begin());
    entries_.resize(start_.back());
    fill_.assign(start_.begin(), start_.end() - 1);
    for (uint32_t t : tris) {
      const Box& b = box_[t];
      if (!b.big) each_cell(b, [&](size_t at) { entries_[fill_[at]++] = Entry{b.x0, b.y0, b.x1, b.y1, t}; });
    }
  }

  // Whether some two of the triangles overlap.
  bool any_overlap() {
    // Each big triangle against every small one and every later big one.
    for (size_t k = 0; k < big_.size(); ++k) {
      const uint32_t u = big_[k];
      for (uint32_t t : tris_)
        if (!box_[t].big && test(u, t)) return true;
      for (size_t j = k + 1; j < big_.size(); ++j)
        if (test(u, big_[j])) return true;
    }
    // The pairs whose boxes meet, gathered without a branch per pair, then tested; in batches,
    // so that a crowded cell (tiny triangles where most are large) needs no more memory.
    if (hits_.size() < kBatch) hits_.resize(kBatch);
    const Entry* e = entries_.data();
    size_t n = 0;
    auto tested = [&] {
      for (size_t k = 0; k < n; ++k)
        if (pair_overlaps(hits_[k][0], hits_[k][1])) return true;
      n = 0;
      return false;
    };
    auto gather = [&](uint32_t i, uint32_t j0, uint32_t j1) {
      if (n + (j1 - j0) > hits_.size()) {
        if (tested()) return true;
        if (j1 - j0 > hits_.size()) hits_.resize(j1 - j0);
      }
      for (uint32_t j = j0; j < j1; ++j) hits_[n] = {e[i].t, e[j].t}, n += meet(e[i], e[j]);
      return false;
    };
    for (size_t c = 0; c + 1 < start_.size(); c += 4) {
      const uint32_t a = start_[c], b = start_[c + 1], cc = start_[c + 2], d = start_[c + 3], end = start_[c + 4];
      for (uint32_t i = a; i < b; ++i)
        if (gather(i, i + 1, end)) return true;
      for (uint32_t i = b; i < cc; ++i)
        if (gather(i, cc, d)) return true;
    }
    return tested();
  }

  // Whether triangle u (one of the grid's) overlaps one of the grid's for which member(t) holds.
  template <class Member>
  bool overlaps(uint32_t u, Member&& member) const {
    const Box& b = box_[u];
    if (b.big) {
      for (uint32_t t : tris_)
        if (t != u && member(t) && test(u, t)) return true;
      return false;
    }
    for (uint32_t t : big_)
      if (member(t) && test(u, t)) return true;
    // Pairs met in several cells are tested again: rare (a chart grown a second time).
    const Entry q{b.x0, b.y0, b.x1, b.y1, u};
    bool hit = false;
    each_cell(b, [&](size_t at) {
      for (uint32_t i = start_[at - at % 4]; i < start_[at - at % 4 + 4] && !hit; ++i)
        hit = meet(q, entries_[i]) && member(entries_[i].t) && pair_overlaps(u, entries_[i].t);
    });
    return hit;
  }

 private:
  struct Box {
    double x0, y0, x1, y1;
    int32_t cx0, cy0, cx1, cy1;
    std::array<uint32_t, 3> v;  // the corners' welded ids
    bool big;
  };
  struct Entry {
    double x0, y0, x1, y1;
    uint32_t t;
  };

  // v is at least o, and (v - o) * inv_ at most about the root of 4 triangles: truncation
  // is the floor, and it does not overflow.
  int32_t cell_of(double v, double o, int32_t n) const { return std::min(int32_t((v - o) * inv_), n - 1); }
  // f(4 * cell + run) for each cell box b touches.
  template <class F>
  void each_cell(const Box& b, F&& f) const {
    if (b.cx1 - b.cx0 <= 1 && b.cy1 - b.cy0 <= 1) {  // most boxes: one to four cells, unrolled
      const size_t at = 4 * (size_t(b.cy0) * size_t(gx_) + size_t(b.cx0)), up = 4 * size_t(gx_);
      const bool wide = b.cx1 > b.cx0, tall = b.cy1 > b.cy0;
      f(at);
      if (wide) f(at + 4 + 2);
      if (tall) f(at + up + 1);
      if (wide && tall) f(at + up + 4 + 3);
      return;
    }
    for (int32_t y = b.cy0; y <= b.cy1; ++y)
      for (int32_t x = b.cx0; x <= b.cx1; ++x)
        f(4 * (size_t(y) * size_t(gx_) + size_t(x)) + size_t(x > b.cx0) * 2 + size_t(y > b.cy0));
  }
  // Whether two boxes overlap (touching is not overlap).
  static bool meet(const Entry& a, const Entry& b) {
    return (a.x0 < b.x1) & (b.x0 < a.x1) & (a.y0 < b.y1) & (b.y0 < a.y1);
  }
  bool test(uint32_t u, uint32_t t) const {
    const Box &a = box_[u], &b = box_[t];
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 && pair_overlaps(u, t);
  }
  // overlap() of triangles t and u. An edge they share is tried first: it separates them
  // unless they fold onto each other (the answer does not depend on the order of the tests).
  bool pair_overlaps(uint32_t t, uint32_t u) const {
    const auto &a = box_[t].v, &b = box_[u].v;
    int shared = 0;
    for (int k = 0; k < 3; ++k) shared |= int((a[k] == b[0]) | (a[k] == b[1]) | (a[k] == b[2])) << k;
    // The edge of t from corner i to corner i + 1 for the corners shared: {0, 1}, {1, 2}, {2, 0}.
    static constexpr int kEdge[8] = {-1, -1, -1, 0, -1, 2, 1, 0};
    const P2 *p = proj_[t].data(), *q = proj_[u].data();
    if (const int i = kEdge[shared]; i >= 0 && right_of(p[i], p[(i + 1) % 3], q)) return false;
    return overlap(p, q);
  }

  std::vector<std::array<P2, 3>> proj_;  // per triangle of the mesh, for those of the grid
  std::vector<Box> box_;                 // likewise
  std::vector<uint32_t> tris_, big_, start_, fill_;
  std::vector<Entry> entries_;
  std::vector<std::array<uint32_t, 2>> hits_;
  double inv_ = 1, ox_ = 0, oy_ = 0;
  int32_t gx_ = 1, gy_ = 1;
};

// A chart in the lightmap: texel coordinate k (0: u, 1: v) of vertex p is
// origin[k] + scale * (along(axis[k], p) - lo[k]).
struct Chart {
  std::array<Vec3, 2> axis{};  // in the chart's plane, axis[0] x axis[1] its normal; zero for the point chart
  double lo[2] = {0, 0}, hi[2] = {0, 0};  // the range of the chart's vertices along each axis
  // Set by pack_charts: the texels the chart's box holds (from `cell`, `texels` per side), and
  // where `lo` lands (the box's texels are centred on the chart).
  int64_t cell[2] = {0, 0}, texels[2] = {0, 0};
  double origin[2] = {0, 0};
};

// The margin, in texels, kept on each side between a chart's vertices and the border of its
// box, so that rounding a uv to float never reaches a texel outside the box.
inline constexpr double kBoxMargin = 1.0 / 64;

// Turns each chart's axes in its plane to the smallest-area box of its vertices (a chart's
// vertices are vertices[start[c]..start[c+1]) of `positions`) and sets lo and hi.
void fit_boxes(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> start,
               std::span<const uint32_t> vertices, std::vector<Chart>& charts);

// Finds the largest scale (texels per unit) at which every chart's box, turned by 90 degrees
// where that packs better, fits a size x size lightmap with `gap` empty texels between boxes;
// sets each chart's cell, texels and origin (and turns its axes) and returns the scale.
// Throws a usage error when the charts do not fit even at one texel each.
double pack_charts(std::vector<Chart>& charts, uint32_t size, uint32_t gap);

}  // namespace voxkit::lightmap::detail
