// Heightfield surface evaluation, height ranges and NoData filling.
#include "lib/bake/heightfield.hpp"

#include <algorithm>
#include <limits>

#include "lib/core/error.hpp"

namespace voxkit {

void check_heightfield(const Heightfield& hf) {
  if (hf.width < 2 || hf.depth < 2) {
    throw_usage("a heightmap needs at least 2x2 samples, got " + std::to_string(hf.width) + "x" +
                std::to_string(hf.depth));
  }
  if (!(hf.dx > 0) || !(hf.dz > 0) || !std::isfinite(hf.dx) || !std::isfinite(hf.dz)) {
    throw_usage("heightmap sample spacing must be positive, got " + std::to_string(hf.dx) + " x " +
                std::to_string(hf.dz) + " m");
  }
  if (hf.heights.size() != size_t(hf.width) * hf.depth) {
    throw_usage("heightmap holds " + std::to_string(hf.heights.size()) + " heights, expected " +
                std::to_string(size_t(hf.width) * hf.depth));
  }
  if (!hf.filled.empty() && hf.filled.size() != hf.heights.size()) {
    throw_usage("heightmap NoData mask holds " + std::to_string(hf.filled.size()) + " samples, expected " +
                std::to_string(hf.heights.size()));
  }
}

double surface_height(const Heightfield& hf, double x, double z) {
  double u = std::clamp(hf.u_of(x), 0.0, double(hf.width - 1));
  double v = std::clamp(hf.v_of(z), 0.0, double(hf.depth - 1));
  uint32_t i = std::min(uint32_t(u), hf.width - 2);
  uint32_t j = std::min(uint32_t(v), hf.depth - 2);
  double fu = u - i, fv = v - j;
  double h00 = hf.at(i, j), h10 = hf.at(i + 1, j), h01 = hf.at(i, j + 1), h11 = hf.at(i + 1, j + 1);
  if (fu >= fv) return h00 + fu * (h10 - h00) + fv * (h11 - h10);
  return h00 + fv * (h01 - h00) + fu * (h11 - h01);
}

bool surface_uses_filled(const Heightfield& hf, double x, double z) {
  if (hf.filled.empty()) return false;
  // The same cell and fractions as surface_height.
  double u = std::clamp(hf.u_of(x), 0.0, double(hf.width - 1));
  double v = std::clamp(hf.v_of(z), 0.0, double(hf.depth - 1));
  uint32_t i = std::min(uint32_t(u), hf.width - 2);
  uint32_t j = std::min(uint32_t(v), hf.depth - 2);
  double fu = u - i, fv = v - j;
  auto marked = [&](uint32_t a, uint32_t b) { return hf.filled[size_t(a) + size_t(hf.width) * b] != 0; };
  // Triangle A: h00 (1 - fu) + h10 (fu - fv) + h11 fv; triangle B: h00 (1 - fv) + h01 (fv - fu) + h11 fu.
  if (fu >= fv) {
    return (fu < 1 && marked(i, j)) || (fu > fv && marked(i + 1, j)) || (fv > 0 && marked(i + 1, j + 1));
  }
  return (fv < 1 && marked(i, j)) || (fv > fu && marked(i, j + 1)) || (fu > 0 && marked(i + 1, j + 1));
}

HeightRange height_range(const Heightfield& hf, double x0, double z0, double x1, double z1) {
  auto index_range = [](double ua, double ub, uint32_t n) {
    ua = std::clamp(std::floor(ua), 0.0, double(n - 1));
    ub = std::clamp(std::ceil(ub), 0.0, double(n - 1));
    return std::pair<uint32_t, uint32_t>(uint32_t(ua), uint32_t(ub));
  };
  auto [i0, i1] = index_range(hf.u_of(x0), hf.u_of(x1), hf.width);
  auto [j0, j1] = index_range(hf.v_of(z0), hf.v_of(z1), hf.depth);
  HeightRange r;
  r.min = std::numeric_limits<double>::infinity();
  r.max = -r.min;
  for (uint32_t j = j0; j <= j1; ++j) {
    for (uint32_t i = i0; i <= i1; ++i) {
      float h = hf.at(i, j);
      if (std::isnan(h)) {
        if (r.nodata++ == 0) {
          r.nodata_x = hf.x_of(i);
          r.nodata_z = hf.z_of(j);
        }
        continue;
      }
      r.min = std::min(r.min, double(h));
      r.max = std::max(r.max, double(h));
    }
  }
  return r;
}

namespace {

void fill_nearest(Heightfield& hf) {
  const int64_t w = hf.width, d = hf.depth;
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> dist(hf.heights.size(), inf);
  std::vector<int64_t> src(hf.heights.size(), -1);
  for (size_t k = 0; k < hf.heights.size(); ++k) {
    if (!std::isnan(hf.heights[k])) {
      dist[k] = 0;
      src[k] = int64_t(k);
    }
  }
  const float diag = std::sqrt(2.0f);
  auto relax = [&](int64_t k, int64_t i, int64_t j, float step) {
    if (i < 0 || j < 0 || i >= w || j >= d) return;
    int64_t n = i + w * j;
    if (src[n] >= 0 && dist[n] + step < dist[k]) {
      dist[k] = dist[n] + step;
      src[k] = src[n];
    }
  };
  // Two chamfer passes (forward, backward) propagate the nearest valid sample.
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < w; ++i) {
      int64_t k = i + w * j;
      relax(k, i - 1, j, 1.0f);
      relax(k, i - 1, j - 1, diag);
      relax(k, i, j - 1, 1.0f);
      relax(k, i + 1, j - 1, diag);
    }
  for (int64_t j = d - 1; j >= 0; --j)
    for (int64_t i = w - 1; i >= 0; --i) {
      int64_t k = i + w * j;
      relax(k, i + 1, j, 1.0f);
      relax(k, i + 1, j + 1, diag);
      relax(k, i, j + 1, 1.0f);
      relax(k, i - 1, j + 1, diag);
    }
  for (size_t k = 0; k < hf.heights.size(); ++k) {
    if (std::isnan(hf.heights[k])) hf.heights[k] = hf.heights[size_t(src[k])];
  }
}

}  // namespace

uint64_t fill_nodata(Heightfield& hf, const NodataFill& fill) {
  uint64_t missing = 0;
  float lo = std::numeric_limits<float>::infinity();
  for (float h : hf.heights) {
    if (std::isnan(h)) {
      ++missing;
    } else {
      lo = std::min(lo, h);
    }
  }
  if (missing == 0 || fill.kind == NodataFill::Kind::Refuse) return 0;
  if (missing == hf.heights.size()) {
    throw_data("the heightmap has no valid sample: every one is NoData");
  }
  hf.filled.assign(hf.heights.size(), 0);
  for (size_t k = 0; k < hf.heights.size(); ++k) hf.filled[k] = std::isnan(hf.heights[k]) ? 1 : 0;
  switch (fill.kind) {
    case NodataFill::Kind::Min:
      for (float& h : hf.heights) if (std::isnan(h)) h = lo;
      break;
    case NodataFill::Kind::Value:
      for (float& h : hf.heights) if (std::isnan(h)) h = float(fill.value);
      break;
    case NodataFill::Kind::Nearest:
      fill_nearest(hf);
      break;
    case NodataFill::Kind::Refuse:
      break;
  }
  return missing;
}

}  // namespace voxkit
