// Lightmap charts in the unit square: each chart's smallest box (its convex hull's edge
// directions tried), then the largest common scale at which a skyline packer fits the boxes
// with the padding between them (a step down from the area bound, then bisection).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "lib/core/error.hpp"
#include "lib/mesh/lightmap_internal.hpp"

namespace voxkit::lightmap::detail {
namespace {

double cross(const P2& o, const P2& a, const P2& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Andrew's monotone chain; `pts` is sorted and reused. Collinear points are dropped.
void convex_hull(std::vector<P2>& pts, std::vector<P2>& hull) {
  std::sort(pts.begin(), pts.end(), [](const P2& a, const P2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  hull.assign(2 * pts.size() + 1, P2{});
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k > 1 ? k - 1 : k);
}

// Hull edge directions tried per chart at most: a larger hull is sampled evenly.
constexpr size_t kMaxDirections = 64;
// A turned box must be this much smaller to be taken over the chart's own axes.
constexpr double kTurnGain = 0.98;

// Texels a box side of `extent` units takes at `scale`: the texels a closed span touches
// when centred in them with kBoxMargin to spare on each side.
int64_t side_texels(double extent, double scale) {
  return int64_t(std::floor(extent * scale + 2 * kBoxMargin)) + 1;
}

struct Placed {
  int64_t x = 0, y = 0;
  bool turned = false;
};

// The orders boxes are packed in, tried in turn until one fits: by the larger side, by area,
// by the smaller side (each then by the other measures and the chart's index).
constexpr int kOrders = 3;

// Bottom-left skyline packing of rectangles with `gap` texels between them in a square of
// `size` texels: each box grows by the gap on its high sides, in a bin grown by the gap.
class Skyline {
 public:
  bool pack(const std::vector<std::array<int64_t, 2>>& boxes, int64_t size, int64_t gap, int order,
            std::vector<Placed>& out) {
    const int64_t bin = size + gap;
    order_.resize(boxes.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      const int64_t ma = std::max(boxes[a][0], boxes[a][1]), mb = std::max(boxes[b][0], boxes[b][1]);
      const int64_t na = std::min(boxes[a][0], boxes[a][1]), nb = std::min(boxes[b][0], boxes[b][1]);
      if (order == 1 && ma * na != mb * nb) return ma * na > mb * nb;
      if (order == 2 && na != nb) return na > nb;
      if (ma != mb) return ma > mb;
      return na != nb ? na > nb : a < b;
    });
    sky_.assign(1, Seg{0, 0, bin});
    out.resize(boxes.size());
    for (uint32_t i : order_) {
      bool found = false;
      size_t best_seg = 0;
      int64_t best_top = 0, best_x = 0, best_w = 0;
      bool best_turned = false;
      for (int turn = 0; turn < 2; ++turn) {
        if (turn && boxes[i][0] == boxes[i][1]) break;
        const int64_t w = boxes[i][turn] + gap, h = boxes[i][1 - turn] + gap;
        if (w > bin || h > bin) continue;
        for (size_t s = 0; s < sky_.size(); ++s) {
          const int64_t x = sky_[s].x;
          if (x + w > bin) break;
          int64_t y = 0;
          for (size_t j = s; j < sky_.size() && sky_[j].x < x + w; ++j) y = std::max(y, sky_[j].y);
          if (y + h > bin) continue;
          if (!found || y + h < best_top || (y + h == best_top && x < best_x)) {
            found = true;
            best_seg = s, best_top = y + h, best_x = x, best_w = w, best_turned = turn;
          }
        }
      }
      if (!found) return false;
      const int64_t h = boxes[i][best_turned ? 0 : 1] + gap;
      out[i] = Placed{best_x, best_top - h, best_turned};
      add(best_seg, best_x, best_top, best_w);
    }
    return true;
  }

 private:
  struct Seg {
    int64_t x, y, w;
  };

  // Raises the skyline to `top` over [x, x + w), x being the start of segment s.
  void add(size_t s, int64_t x, int64_t top, int64_t w) {
    const int64_t end = x + w;
    size_t j = s;
    while (j < sky_.size() && sky_[j].x + sky_[j].w <= end) ++j;
    if (j < sky_.size() && sky_[j].x < end) {
      sky_[j].w -= end - sky_[j].x;
      sky_[j].x = end;
    }
    sky_.erase(sky_.begin() + std::ptrdiff_t(s), sky_.begin() + std::ptrdiff_t(j));
    sky_.insert(sky_.begin() + std::ptrdiff_t(s), Seg{x, top, w});
    // Merge equal neighbours.
    size_t k = s > 0 ? s - 1 : 0;
    while (k + 1 < sky_.size() && k <= s + 1) {
      if (sky_[k].y == sky_[k + 1].y) {
        sky_[k].w += sky_[k + 1].w;
        sky_.erase(sky_.begin() + std::ptrdiff_t(k + 1));
      } else {
        ++k;
      }
    }
  }

  std::vector<uint32_t> order_;
  std::vector<Seg> sky_;
};

[[noreturn]] void throw_no_room(size_t charts, uint32_t size, uint32_t gap) {
  throw_usage("lightmap: the " + std::to_string(charts) + " charts do not fit in a " + std::to_string(size) + " x " +
              std::to_string(size) + " lightmap with " + std::to_string(gap) +
              " texels between charts, even at one texel each");
}

}  // namespace

void fit_boxes(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> start,
               std::span<const uint32_t> vertices, std::vector<Chart>& charts) {
  std::vector<P2> pts, hull;
  for (size_t c = 0; c < charts.size(); ++c) {
    Chart& ch = charts[c];
    const auto verts = vertices.subspan(start[c], start[c + 1] - start[c]);
    // The range along the chart's own axes comes with the points (the same values in the same
    // order as below); it is measured again only if the axes turn.
    pts.clear();
    for (int k = 0; k < 2; ++k) ch.lo[k] = INFINITY, ch.hi[k] = -INFINITY;
    for (uint32_t v : verts) {
      const P2 p{along(ch.axis[0], positions[v]), along(ch.axis[1], positions[v])};
      pts.push_back(p);
      ch.lo[0] = std::min(ch.lo[0], p.x), ch.hi[0] = std::max(ch.hi[0], p.x);
      ch.lo[1] = std::min(ch.lo[1], p.y), ch.hi[1] = std::max(ch.hi[1], p.y);
    }
    if (verts.empty()) ch.lo[0] = ch.hi[0] = ch.lo[1] = ch.hi[1] = 0;
    bool turned = false;
    if (pts.size() >= 3) {
      convex_hull(pts, hull);
      // The chart's own axes first; then each sampled hull edge's direction.
      auto box_area = [&](double dx, double dy) {
        double u0 = INFINITY, u1 = -INFINITY, v0 = INFINITY, v1 = -INFINITY;
        for (const P2& p : hull) {
          const double u = p.x * dx + p.y * dy, v = p.y * dx - p.x * dy;
          u0 = std::min(u0, u), u1 = std::max(u1, u), v0 = std::min(v0, v), v1 = std::max(v1, v);
        }
        return (u1 - u0) * (v1 - v0);
      };
      const double own = box_area(1, 0);
      double best = own * kTurnGain, bx = 1, by = 0;
      const size_t n = hull.size(), step = (n + kMaxDirections - 1) / kMaxDirections;
      for (size_t i = 0; n >= 3 && i < n; i += step) {
        const P2 &a = hull[i], &b = hull[(i + 1) % n];
        const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
        if (!(len > 0)) continue;
        const double area = box_area(dx / len, dy / len);
        if (area < best) best = area, bx = dx / len, by = dy / len;
      }
      if (bx != 1 || by != 0) {
        turned = true;
        const Vec3 e1 = ch.axis[0], e2 = ch.axis[1];
        for (int k = 0; k < 3; ++k) {
          ch.axis[0][k] = bx * e1[k] + by * e2[k];
          ch.axis[1][k] = bx * e2[k] - by * e1[k];
        }
      }
    }
    for (int k = 0; k < 2 && turned; ++k) {
      ch.lo[k] = INFINITY, ch.hi[k] = -INFINITY;
      for (uint32_t v : verts) {
        const double a = along(ch.axis[k], positions[v]);
        ch.lo[k] = std::min(ch.lo[k], a), ch.hi[k] = std::max(ch.hi[k], a);
      }
      if (verts.empty()) ch.lo[k] = ch.hi[k] = 0;
    }
  }
}

double pack_charts(std::vector<Chart>& charts, uint32_t size, uint32_t gap) {
  if (charts.empty()) return 0;
  // At one texel each the boxes pack in rows: more charts than that never fit.
  const uint64_t per_row = (uint64_t(size) + gap) / (uint64_t(gap) + 1);
  if (charts.size() > per_row * per_row) throw_no_room(charts.size(), size, gap);
  double max_extent = 0, area = 0;
  for (const Chart& c : charts) {
    max_extent = std::max({max_extent, c.hi[0] - c.lo[0], c.hi[1] - c.lo[1]});
    area += (c.hi[0] - c.lo[0]) * (c.hi[1] - c.lo[1]);
  }
  std::vector<std::array<int64_t, 2>> boxes(charts.size());
  std::vector<Placed> placed, best;
  Skyline sky;
  auto fits = [&](double scale) {
    for (size_t i = 0; i < charts.size(); ++i)
      for (int k = 0; k < 2; ++k) boxes[i][size_t(k)] = side_texels(charts[i].hi[k] - charts[i].lo[k], scale);
    for (int order = 0; order < kOrders; ++order)
      if (sky.pack(boxes, size, gap, order, placed)) {
        best = placed;
        return true;
      }
    return false;
  };
  // Upper bounds: the largest chart spans the lightmap less half a texel, and the boxes'
  // area cannot exceed the (padded) lightmap's.
  double scale = 0;
  if (max_extent > 0) {
    double hi = (double(size) - 0.5) / max_extent;
    if (area > 0) hi = std::min(hi, (double(size) + double(gap)) / std::sqrt(area));
    double lo = -1;
    // Down in steps of 20% until a scale fits (0.8^60 is below 1e-5), then by bisection.
    if (fits(hi)) {
      lo = hi;
    } else {
      for (int i = 0; i < 60 && lo < 0; ++i) {
        const double s = hi * 0.8;
        if (fits(s)) lo = s; else hi = s;
      }
    }
    if (lo < 0 && fits(0)) lo = 0;
    for (int i = 0; lo >= 0 && i < 40 && hi - lo > hi * 1e-4; ++i) {
      const double mid = 0.5 * (lo + hi);
      if (fits(mid)) lo = mid; else hi = mid;
    }
    scale = lo;
  }
  if (scale <= 0 && !fits(0)) throw_no_room(charts.size(), size, gap);
  for (size_t i = 0; i < charts.size(); ++i) {
    Chart& c = charts[i];
    if (best[i].turned) {
      // A quarter turn in the plane: (a0, a1) -> (a1, -a0), which keeps the winding.
      const Vec3 a0 = c.axis[0];
      c.axis[0] = c.axis[1];
      for (int k = 0; k < 3; ++k) c.axis[1][k] = -a0[k];
      const double lo0 = c.lo[0], hi0 = c.hi[0];
      c.lo[0] = c.lo[1], c.hi[0] = c.hi[1];
      c.lo[1] = -hi0, c.hi[1] = -lo0;
    }
    c.cell[0] = best[i].x, c.cell[1] = best[i].y;
    for (int k = 0; k < 2; ++k) {
      const double extent = c.hi[k] - c.lo[k];
      c.texels[k] = side_texels(extent, scale);
      c.origin[k] = double(c.cell[k]) + 0.5 * (double(c.texels[k]) - extent * scale);
    }
  }
  return scale;
}

}  // namespace voxkit::lightmap::detail
