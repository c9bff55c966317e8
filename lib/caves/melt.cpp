// The melt step: per hit, a float sphere kernel over the hit's box (split over z slabs for
// large hits), integer counters merged exactly, then the regions the hit touched open.
#include "lib/caves/melt.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit {
namespace {

// Boxes with fewer points than this are melted on the calling thread: a jet hit touches tens
// to hundreds of points, far below what a task costs.
constexpr uint64_t kParallelPoints = uint64_t(1) << 16;

// Region ids as a bit set (65536 bits).
struct IdBits {
  std::vector<uint64_t> words;
  void set(uint16_t id) {
    if (words.empty()) words.assign(1024, 0);
    words[id >> 6] |= uint64_t(1) << (id & 63);
  }
  void merge(const IdBits& o) {
    if (o.words.empty()) return;
    if (words.empty()) {
      words = o.words;
      return;
    }
    for (size_t i = 0; i < words.size(); ++i) words[i] |= o.words[i];
  }
  std::vector<uint16_t> ids() const {
    std::vector<uint16_t> out;
    for (size_t w = 0; w < words.size(); ++w)
      for (uint64_t b = words[w]; b; b &= b - 1) out.push_back(uint16_t(w * 64 + size_t(__builtin_ctzll(b))));
    return out;
  }
};

struct Partial {
  uint64_t changed = 0, bytes = 0, solid_lost = 0;
  Box3i box;
  IdBits touched;

  void merge(const Partial& o) {
    changed += o.changed;
    bytes += o.bytes;
    solid_lost += o.solid_lost;
    box.unite(o.box);
    touched.merge(o.touched);
  }
};

// v rounded half to even and clamped at 0 (v <= 255 here). For 0 < v < 2^23, adding and
// subtracting 2^23 rounds to an integer in float's default mode (to nearest, ties to even),
// as std::nearbyint does, without the library call that baseline x86-64 makes of it.
inline uint8_t round_to_byte(float v) {
  if (!(v > 0.5f)) return 0;  // 0.5 itself rounds to the even 0
  const float big = 8388608.f;
  return uint8_t((v + big) - big);  // not folded: the build keeps IEEE semantics (no -ffast-math)
}

struct Kernel {
  uint8_t* data = nullptr;
  const uint16_t* ids = nullptr;    // null: no region grid
  const uint8_t* closed = nullptr;  // 65536 flags
  int64_t sx = 0, sy = 0, sz = 0;
  float cx = 0, cy = 0, cz = 0, r = 0, amount255 = 0;
  int64_t lo[3] = {0, 0, 0}, hi[3] = {-1, -1, -1};

  void touch(uint64_t j, Partial& p) const {
    const uint16_t id = ids[j];
    if (id != 0 && closed[id]) p.touched.set(id);
  }

  // The point itself and its 6 face neighbours inside the grid.
  void touch_around(int64_t x, int64_t y, int64_t z, uint64_t i, Partial& p) const {
    touch(i, p);
    if (x > 0) touch(i - 1, p);
    if (x < sx - 1) touch(i + 1, p);
    if (y > 0) touch(i - uint64_t(sx), p);
    if (y < sy - 1) touch(i + uint64_t(sx), p);
    if (z > 0) touch(i - uint64_t(sx * sy), p);
    if (z < sz - 1) touch(i + uint64_t(sx * sy), p);
  }

  void run(int64_t z0, int64_t z1, Partial& p) const {
    // Locals: a store through the uint8_t pointer may alias anything, so fields read in the
    // loop would be loaded again after every write.
    uint8_t* const grid = data;
    const float rr = r, fx = cx, fy = cy, fz = cz, a255 = amount255;
    const int64_t bx0 = lo[0], bx1 = hi[0], by0 = lo[1], by1 = hi[1];
    uint64_t changed = 0, bytes = 0, solid_lost = 0;
    int64_t mn[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, mx[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    for (int64_t z = z0; z < z1; ++z) {
      const float dz = float(z) - fz;
      const float dz2 = dz * dz;
      for (int64_t y = by0; y <= by1; ++y) {
        const float dy = float(y) - fy;
        const float dyz = dy * dy + dz2;
        // dx^2 + dyz >= dyz in float, and sqrt is monotonic: no point of this row is inside.
        if (!(std::sqrt(dyz) < rr)) continue;
        // Only the row's chord can be inside; two cells of margin on each side cover any
        // rounding, and the float test below decides. (The ends are clamped to the box,
        // which starts at 0 or more, before they are truncated.)
        const double half = std::sqrt(std::max(0.0, double(rr) * double(rr) - double(dyz)));
        const int64_t x0 = std::max(bx0, int64_t(std::max(double(fx) - half, double(bx0))) - 2);
        const int64_t x1 = std::min(bx1, int64_t(std::min(double(fx) + half, double(bx1))) + 2);
        const uint64_t row = uint64_t(sx) * (uint64_t(y) + uint64_t(sy) * uint64_t(z));
        for (int64_t x = x0; x <= x1; ++x) {
          const float dx = float(x) - fx;
          const float d = std::sqrt(dx * dx + dyz);
          if (!(d < rr)) continue;
          const float removal = a255 * melt_falloff(d / rr);
          const uint64_t i = row + uint64_t(x);
          const uint8_t old = grid[i];
          const uint8_t now = round_to_byte(float(old) - removal);
          if (now == old) continue;
          grid[i] = now;
          ++changed;
          bytes += uint64_t(old - now);
          solid_lost += melt_solid(old) && !melt_solid(now);
          mn[0] = std::min(mn[0], x), mx[0] = std::max(mx[0], x);
          mn[1] = std::min(mn[1], y), mx[1] = std::max(mx[1], y);
          mn[2] = std::min(mn[2], z), mx[2] = std::max(mx[2], z);
          if (ids) touch_around(x, y, z, i, p);
        }
      }
    }
    p.changed += changed;
    p.bytes += bytes;
    p.solid_lost += solid_lost;
    if (changed) p.box.unite(Box3i{{mn[0], mn[1], mn[2]}, {mx[0], mx[1], mx[2]}});
  }
};

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void check_hit(const MeltHit& h, uint64_t n) {
  auto bad = [&](const std::string& what, const std::string& expected, double found) {
    throw_data("hit " + std::to_string(n) + ": " + what, std::nullopt, expected, num(found));
  };
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(h.centre[size_t(a)])) bad(std::string("centre ") + "xyz"[a], "a finite number", h.centre[size_t(a)]);
  if (!(h.radius > 0) || !std::isfinite(h.radius)) bad("radius", "a finite number > 0", h.radius);
  const bool formula = h.power || h.temperature || h.dt || h.brake;
  if (h.amount && formula)
    throw_data("hit " + std::to_string(n) + ": both an amount and the intensity formula's inputs", std::nullopt,
               "amount, or power, temperature, dt (and brake)", "both");
  if (h.amount) {
    if (!(*h.amount >= 0) || !std::isfinite(*h.amount)) bad("amount", "a finite number >= 0", *h.amount);
    return;
  }
  if (!h.power || !h.temperature || !h.dt)
    throw_data("hit " + std::to_string(n) + ": no amount", std::nullopt,
               "amount, or all of power, temperature and dt", "neither");
  if (!(*h.power >= 0) || !std::isfinite(*h.power)) bad("power", "a finite number >= 0", *h.power);
  if (!(*h.temperature >= 0) || !std::isfinite(*h.temperature)) bad("temperature", "a finite number >= 0", *h.temperature);
  if (!(*h.dt >= 0) || !std::isfinite(*h.dt)) bad("dt", "a finite number >= 0", *h.dt);
  if (h.brake && (!(*h.brake > 0) || !std::isfinite(*h.brake))) bad("brake", "a finite number > 0", *h.brake);
}

void check_options(const MeltOptions& o) {
  auto positive = [](double v) { return v > 0 && std::isfinite(v); };
  if (!positive(o.voxel_size)) throw_usage("melt: the voxel size must be a finite number > 0");
  if (!positive(o.brake)) throw_usage("melt: the brake must be a finite number > 0");
  if (o.hardness_step && !positive(*o.hardness_step)) throw_usage("melt: the hardness step must be a finite number > 0");
  for (size_t i = 0; i < o.hardness.size(); ++i)
    if (!positive(o.hardness[i]))
      throw_usage("melt: hardness sample " + std::to_string(i + 1) + " is " + num(o.hardness[i]) +
                  " (expected a finite number > 0)");
  if (!(o.highlight >= 0 && o.highlight <= 1)) throw_usage("melt: the highlight threshold must be in [0, 1]");
  if (o.chunk_cells == 0) throw_usage("melt: chunks need at least one cell");
}

// Chunk range along one axis touched by samples mn..mx (the dirty-chunk rule of edits: a
// chunk's samples reach one beyond its cells on each side).
void chunk_span(int64_t mn, int64_t mx, uint32_t cc, uint32_t chunks, uint32_t& c0, uint32_t& c1) {
  c0 = mn - 1 < 0 ? 0 : uint32_t((mn - 1) / cc);
  c1 = std::min<uint32_t>(uint32_t((mx + 1) / cc), chunks - 1);
}

}  // namespace

float melt_falloff(float t) { return 1.f - t * t * (3.f - 2.f * t); }

double melt_litres(uint64_t bytes, double voxel_size) {
  return double(bytes) / 255.0 * (voxel_size * voxel_size * voxel_size) * 1000.0;
}

double MeltResult::litres(double voxel_size) const { return melt_litres(bytes_removed, voxel_size); }

uint64_t count_solid(std::span<const uint8_t> density) {
  return tbb::parallel_reduce(
      tbb::blocked_range<size_t>(0, density.size(), size_t(1) << 16), uint64_t(0),
      [&](const tbb::blocked_range<size_t>& r, uint64_t n) {
        for (size_t i = r.begin(); i < r.end(); ++i) n += melt_solid(density[i]);
        return n;
      },
      [](uint64_t a, uint64_t b) { return a + b; });
}

double hardness_at(const MeltOptions& opts, double depth_m, double height_m) {
  const auto& s = opts.hardness;
  if (s.empty()) return 1.0;
  if (s.size() == 1) return s[0];
  const double step = opts.hardness_step ? *opts.hardness_step : height_m / double(s.size() - 1);
  const double u = step > 0 ? depth_m / step : 0.0;
  if (!(u > 0)) return s.front();
  if (u >= double(s.size() - 1)) return s.back();
  const size_t i = size_t(u);
  const double f = u - double(i);
  return s[i] + (s[i + 1] - s[i]) * f;
}

MeltResult melt(ByteGrid& density, std::span<const MeltHit> hits, const MeltOptions& opts,
                const MeltRegions& regions, const Progress& progress) {
  const Dims& d = density.cells;
  check_dims(d);
  if (density.data.size() != d.samples())
    throw_usage("density grid holds " + std::to_string(density.data.size()) + " points, its dimensions need " +
                std::to_string(d.samples()));
  check_options(opts);
  if (regions.grid && (!(regions.grid->cells == d) || regions.grid->ids.size() != density.data.size()))
    throw_usage("the region grid's dimensions differ from the density grid's");
  for (size_t i = 0; i < hits.size(); ++i) check_hit(hits[i], i + 1);

  MeltResult out;
  out.solid_before = count_solid(density.data);
  if (opts.start_solid && *opts.start_solid < out.solid_before)
    throw_usage("melt: the start solid count " + std::to_string(*opts.start_solid) +
                " is below the module's own count " + std::to_string(out.solid_before));
  out.solid_start = opts.start_solid.value_or(out.solid_before);
  uint64_t solid = out.solid_before;
  auto at_or_below = [&](uint64_t n) { return double(n) <= opts.highlight * double(out.solid_start); };
  out.highlight_at_start = at_or_below(solid);
  out.completed_at_start = solid == 0;

  std::vector<uint8_t> closed(65536, 0), opened_flag(65536, 0);
  for (uint16_t id : regions.closed)
    if (id != 0) closed[id] = 1;

  const uint32_t cc = opts.chunk_cells;
  const std::array<uint32_t, 3> n{d.nx, d.ny, d.nz};
  for (int a = 0; a < 3; ++a) out.chunk_grid[size_t(a)] = (n[size_t(a)] + cc - 1) / cc;
  std::vector<uint8_t> dirty(size_t(out.chunk_grid[0]) * out.chunk_grid[1] * out.chunk_grid[2], 0);
  auto mark = [&](uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint32_t z0, uint32_t z1) {
    for (uint32_t z = z0; z <= z1; ++z)
      for (uint32_t y = y0; y <= y1; ++y)
        for (uint32_t x = x0; x <= x1; ++x)
          dirty[x + size_t(out.chunk_grid[0]) * (y + size_t(out.chunk_grid[1]) * z)] = 1;
  };

  Kernel k;
  k.data = density.data.data();
  k.ids = regions.grid ? regions.grid->ids.data() : nullptr;
  k.closed = closed.data();
  k.sx = int64_t(d.sx());
  k.sy = int64_t(d.sy());
  k.sz = int64_t(d.sz());
  const int64_t border = opts.keep_border ? 1 : 0;
  const double height_m = double(d.ny) * opts.voxel_size;

  out.hits.reserve(hits.size());
  for (size_t h = 0; h < hits.size(); ++h) {
    const MeltHit& hit = hits[h];
    MeltHitResult hr;
    hr.hit = h + 1;
    hr.depth = (double(d.ny) - hit.centre[1]) * opts.voxel_size;
    if (hit.amount) {
      hr.amount = *hit.amount;
    } else {
      hr.hardness = hardness_at(opts, hr.depth, height_m);
      const double p = *hit.power, t = *hit.temperature, dt = *hit.dt;
      // 0 times a product that overflowed to infinity would be NaN: any zero input melts nothing.
      hr.amount = p == 0 || t == 0 || dt == 0 ? 0.0 : p * t * dt / (*hr.hardness * hit.brake.value_or(opts.brake));
    }
    const double amount = std::min(hr.amount, kMaxMeltAmount);

    // The box floor(c - r) .. ceil(c + r), clipped in double before it becomes an index.
    bool empty = amount == 0;
    for (int a = 0; a < 3; ++a) {
      const double lim_hi = double((a == 0 ? k.sx : a == 1 ? k.sy : k.sz) - 1 - border);
      const double lo = std::max(std::floor(hit.centre[size_t(a)] - hit.radius), double(border));
      const double hi = std::min(std::ceil(hit.centre[size_t(a)] + hit.radius), lim_hi);
      if (!(lo <= hi)) {
        empty = true;
        break;
      }
      k.lo[a] = int64_t(lo);
      k.hi[a] = int64_t(hi);
    }
    Partial p;
    if (!empty) {
      k.cx = float(hit.centre[0]);
      k.cy = float(hit.centre[1]);
      k.cz = float(hit.centre[2]);
      k.r = float(hit.radius);
      k.amount255 = float(amount) * 255.f;
      const uint64_t points = uint64_t(k.hi[0] - k.lo[0] + 1) * uint64_t(k.hi[1] - k.lo[1] + 1) *
                              uint64_t(k.hi[2] - k.lo[2] + 1);
      if (points < kParallelPoints || k.hi[2] == k.lo[2]) {
        k.run(k.lo[2], k.hi[2] + 1, p);
      } else {
        p = tbb::parallel_reduce(
            tbb::blocked_range<int64_t>(k.lo[2], k.hi[2] + 1), Partial{},
            [&](const tbb::blocked_range<int64_t>& r, Partial acc) {
              k.run(r.begin(), r.end(), acc);
              return acc;
            },
            [](Partial a, const Partial& b) {
              a.merge(b);
              return a;
            });
      }
    }
    // The regions a carved point touched open when the hit is done.
    hr.opened = p.touched.ids();
    for (uint16_t id : hr.opened) {
      closed[id] = 0;
      opened_flag[id] = 1;
      out.opened.push_back({id, hr.hit});
    }
    hr.points_changed = p.changed;
    hr.bytes_removed = p.bytes;
    solid -= p.solid_lost;
    hr.solid_after = solid;
    hr.changed = p.box;
    out.points_changed += p.changed;
    out.bytes_removed += p.bytes;
    out.changed.unite(p.box);
    if (!p.box.empty()) {
      uint32_t c0[3], c1[3];
      for (int a = 0; a < 3; ++a) chunk_span(p.box.min[a], p.box.max[a], cc, out.chunk_grid[size_t(a)], c0[a], c1[a]);
      mark(c0[0], c1[0], c0[1], c1[1], c0[2], c1[2]);
    }
    if (!out.highlight_at_start && !out.highlight_hit && at_or_below(solid)) out.highlight_hit = hr.hit;
    if (!out.completed_at_start && !out.completed_hit && solid == 0) out.completed_hit = hr.hit;
    out.hits.push_back(std::move(hr));
    if (progress && ((h + 1) % 1024 == 0 || h + 1 == hits.size())) progress(h + 1, hits.size());
  }
  out.solid_after = solid;
  out.completed = solid == 0;
  out.remaining = out.solid_start == 0 ? 0.0 : double(solid) / double(out.solid_start);

  // An opened region becomes visible: every chunk holding one of its points is remeshed.
  if (!out.opened.empty()) {
    std::array<std::vector<std::array<uint32_t, 2>>, 3> spans;
    for (int a = 0; a < 3; ++a) {
      const int64_t s = a == 0 ? k.sx : a == 1 ? k.sy : k.sz;
      spans[size_t(a)].resize(size_t(s));
      for (int64_t i = 0; i < s; ++i)
        chunk_span(i, i, cc, out.chunk_grid[size_t(a)], spans[size_t(a)][size_t(i)][0], spans[size_t(a)][size_t(i)][1]);
    }
    const uint16_t* ids = regions.grid->ids.data();
    uint64_t i = 0;
    for (int64_t z = 0; z < k.sz; ++z)
      for (int64_t y = 0; y < k.sy; ++y)
        for (int64_t x = 0; x < k.sx; ++x, ++i)
          if (ids[i] != 0 && opened_flag[ids[i]]) {
            const auto &sx = spans[0][size_t(x)], &sy = spans[1][size_t(y)], &sz = spans[2][size_t(z)];
            mark(sx[0], sx[1], sy[0], sy[1], sz[0], sz[1]);
          }
  }
  for (uint32_t z = 0; z < out.chunk_grid[2]; ++z)
    for (uint32_t y = 0; y < out.chunk_grid[1]; ++y)
      for (uint32_t x = 0; x < out.chunk_grid[0]; ++x)
        if (dirty[x + size_t(out.chunk_grid[0]) * (y + size_t(out.chunk_grid[1]) * z)]) out.remesh.push_back({x, y, z});
  for (uint32_t id = 1; id < 65536; ++id)
    if (closed[id]) out.closed_after.push_back(uint16_t(id));
  return out;
}

}  // namespace voxkit
