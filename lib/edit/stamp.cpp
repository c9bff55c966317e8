// Sphere stamps, bit for bit with the package: every distance is evaluated in float32 in the
// package's order (dy^2 + dz^2 first, then dx^2 added, the square root, then r subtracted),
// rounded half to even by the SSE conversion (the default rounding mode).
#include "lib/edit/stamp.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <emmintrin.h>
#include <xmmintrin.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <cmath>
#include <vector>

namespace voxkit::edit {
namespace {

// C#'s Mathf.RoundToInt on a float: round half to even.
inline int round_even(float v) { return _mm_cvtss_si32(_mm_set_ss(v)); }
inline int floor_int(float v) { return int(std::floor(v)); }
inline int ceil_int(float v) { return int(std::ceil(v)); }

struct Span3 {
  int lo[3], hi[3];
  bool empty() const { return hi[0] < lo[0] || hi[1] < lo[1] || hi[2] < lo[2]; }
  uint64_t volume() const {
    return empty() ? 0 : uint64_t(hi[0] - lo[0] + 1) * uint64_t(hi[1] - lo[1] + 1) * uint64_t(hi[2] - lo[2] + 1);
  }
};

// The edit box, made safe against a box that pokes out of the grid (the package assumes it
// does not; then this changes nothing).
Span3 clip_to_grid(const SampleBox& edit, const Dims& cells) {
  const int n[3] = {int(cells.nx), int(cells.ny), int(cells.nz)};
  Span3 s;
  for (int a = 0; a < 3; ++a) {
    s.lo[a] = std::max(edit.min[size_t(a)], 0);
    s.hi[a] = std::min(edit.max[size_t(a)], n[a]);
  }
  return s;
}

struct Partial {
  bool any = false;
  int lo[3] = {INT_MAX, INT_MAX, INT_MAX}, hi[3] = {INT_MIN, INT_MIN, INT_MIN};
  uint64_t visited = 0;
  void hit(int x, int y, int z) {
    any = true;
    lo[0] = std::min(lo[0], x), hi[0] = std::max(hi[0], x);
    lo[1] = std::min(lo[1], y), hi[1] = std::max(hi[1], y);
    lo[2] = std::min(lo[2], z), hi[2] = std::max(hi[2], z);
  }
  void merge(const Partial& o) {
    visited += o.visited;
    if (!o.any) return;
    any = true;
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], o.lo[a]), hi[a] = std::max(hi[a], o.hi[a]);
  }
};

StampResult result_of(const Partial& p) {
  StampResult r;
  r.changed = p.any;
  r.visited = p.visited;
  if (p.any) r.box = SampleBox{{p.lo[0], p.lo[1], p.lo[2]}, {p.hi[0], p.hi[1], p.hi[2]}};
  return r;
}

constexpr int kAhead = 6;  // rows

struct ShapeStamp {
  uint8_t* grid;
  uint8_t* paint;
  uint64_t sx, sxy;
  float cx, cy, cz, r;
  bool shape, dig, do_paint;
  uint8_t paint_value;
  Span3 box;

  Partial run(int z0, int z1) const {
    Partial p;
    p.visited = uint64_t(z1 - z0 + 1) * uint64_t(box.hi[1] - box.lo[1] + 1) * uint64_t(box.hi[0] - box.lo[0] + 1);
    for (int z = z0; z <= z1; ++z) {
      const float dz = float(z) - cz;
      for (int y = box.lo[1]; y <= box.hi[1]; ++y) {
        const float dy = float(y) - cy;
        const float dyz = dy * dy + dz * dz;
        const uint64_t row = sx * uint64_t(y) + sxy * uint64_t(z);
        // Rows of a box are a grid row apart: fetch a few rows ahead, since each starts a
        // new cache line the hardware prefetcher does not foresee.
        {
          int ay = y + kAhead, az = z;
          if (ay > box.hi[1]) ay -= box.hi[1] - box.lo[1] + 1, ++az;
          if (az <= z1) {
            const uint64_t ahead = sx * uint64_t(ay) + sxy * uint64_t(az) + uint64_t(box.lo[0]);
            if (shape) _mm_prefetch(reinterpret_cast<const char*>(grid + ahead), _MM_HINT_T0);
            if (do_paint) _mm_prefetch(reinterpret_cast<const char*>(paint + ahead), _MM_HINT_T0);
          }
        }
        int x = box.lo[0];
        if (box.hi[0] - box.lo[0] >= 3) x = quads(row, x, y, z, dyz, p);
        for (; x <= box.hi[0]; ++x) {
          const float dx = float(x) - cx;
          const float d = std::sqrt(dx * dx + dyz) - r;
          if (!(d < kSdfBand)) continue;
          const uint64_t i = row + uint64_t(x);
          bool hit = false;
          if (shape) {
            const int q = std::clamp(round_even(d * 64.0f), -128, 127);
            const int s = int(grid[i]) - 128;
            int ns;
            if (dig) {
              ns = std::min(std::max(-q, s), 127);
            } else {
              ns = std::min(q, s);
            }
            if (ns != s) {
              grid[i] = uint8_t(ns + 128);
              hit = true;
            }
          }
          if (do_paint && d < 0.0f && paint[i] != paint_value) {
            paint[i] = paint_value;
            hit = true;
          }
          if (hit) p.hit(x, y, z);
        }
      }
    }
    return p;
  }

  // Four samples at a time from `x` while four fit in the row; returns where it stopped. The
  // same float32 operations per lane as the scalar loop (sqrtps and cvtps2dq round as sqrtss
  // and cvtss2si do), so the bytes are identical.
  int quads(uint64_t row, int x, int y, int z, float dyz, Partial& p) const {
    const __m128 vcx = _mm_set1_ps(cx), vdyz = _mm_set1_ps(dyz), vr = _mm_set1_ps(r);
    const __m128 vband = _mm_set1_ps(kSdfBand), v64 = _mm_set1_ps(64.0f), vzero = _mm_setzero_ps();
    const __m128i lanes = _mm_setr_epi32(0, 1, 2, 3);
    const __m128i lo = _mm_set1_epi16(-128), hi = _mm_set1_epi16(127), bias = _mm_set1_epi16(128);
    const __m128i pv = _mm_set1_epi8(char(paint_value));
    bool any = false;
    int first = INT_MAX, last = INT_MIN;
    for (; x + 3 <= box.hi[0]; x += 4) {
      const __m128 xf = _mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(x), lanes));
      const __m128 dx = _mm_sub_ps(xf, vcx);
      const __m128 d = _mm_sub_ps(_mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), vdyz)), vr);
      const __m128 in_band = _mm_cmplt_ps(d, vband);
      if (_mm_movemask_ps(in_band) == 0) continue;
      const uint64_t i = row + uint64_t(x);
      // Lane masks as 16-bit words (low four words) and as bytes (low four bytes).
      const __m128i band16 = _mm_packs_epi32(_mm_castps_si128(in_band), _mm_setzero_si128());
      int hits = 0;
      if (shape) {
        const __m128i q16 = _mm_min_epi16(_mm_max_epi16(_mm_packs_epi32(_mm_cvtps_epi32(_mm_mul_ps(d, v64)),
                                                                        _mm_setzero_si128()),
                                                        lo),
                                          hi);
        int32_t g4;
        std::memcpy(&g4, grid + i, 4);
        const __m128i g16 = _mm_unpacklo_epi8(_mm_cvtsi32_si128(g4), _mm_setzero_si128());
        const __m128i s16 = _mm_sub_epi16(g16, bias);
        const __m128i ns16 = dig ? _mm_min_epi16(_mm_max_epi16(_mm_sub_epi16(_mm_setzero_si128(), q16), s16), hi)
                                 : _mm_min_epi16(q16, s16);
        const __m128i changed = _mm_andnot_si128(_mm_cmpeq_epi16(ns16, s16), band16);
        const int m = _mm_movemask_epi8(_mm_packs_epi16(changed, _mm_setzero_si128())) & 0xf;
        if (m) {
          const __m128i nb = _mm_packus_epi16(_mm_add_epi16(ns16, bias), _mm_setzero_si128());
          const __m128i ob = _mm_cvtsi32_si128(g4);
          const __m128i cm = _mm_packs_epi16(changed, _mm_setzero_si128());
          const int32_t out = _mm_cvtsi128_si32(_mm_or_si128(_mm_and_si128(cm, nb), _mm_andnot_si128(cm, ob)));
          std::memcpy(grid + i, &out, 4);
          hits |= m;
        }
      }
      if (do_paint) {
        const __m128i inside = _mm_castps_si128(_mm_cmplt_ps(d, vzero));
        int32_t p4;
        std::memcpy(&p4, paint + i, 4);
        const __m128i pb = _mm_cvtsi32_si128(p4);
        const __m128i inside8 = _mm_packs_epi16(_mm_packs_epi32(inside, _mm_setzero_si128()), _mm_setzero_si128());
        const __m128i differs = _mm_andnot_si128(_mm_cmpeq_epi8(pb, pv), inside8);
        const int m = _mm_movemask_epi8(differs) & 0xf;
        if (m) {
          const int32_t out = _mm_cvtsi128_si32(_mm_or_si128(_mm_and_si128(differs, pv), _mm_andnot_si128(differs, pb)));
          std::memcpy(paint + i, &out, 4);
          hits |= m;
        }
      }
      if (hits) {
        any = true;
        first = std::min(first, x + __builtin_ctz(unsigned(hits)));
        last = std::max(last, x + 31 - __builtin_clz(unsigned(hits)));
      }
    }
    if (any) {
      p.hit(first, y, z);
      p.hit(last, y, z);
    }
    return x;
  }
};

// Below this many samples in the box a stamp runs on the calling thread.
constexpr uint64_t kParallelSamples = 1u << 16;

}  // namespace

StampResult stamp(ByteGrid& grid, ByteGrid* paint, const SampleBox& edit_box, float cx, float cy, float cz,
                  float r, uint32_t op, uint32_t layer) {
  const bool dig = op == 0, add = op == 1, paint_op = op == 3;
  const bool shape = dig || add;
  const bool add_paint = add && layer > 0;
  if (!shape && !paint_op) return {};
  if ((paint_op || add_paint) && (paint == nullptr || paint->data.size() != grid.data.size())) return {};

  const float reach = r + kSdfBand;
  const Span3 edit = clip_to_grid(edit_box, grid.cells);
  Span3 box;
  box.lo[0] = std::max(edit.lo[0], floor_int(cx - reach));
  box.lo[1] = std::max(edit.lo[1], floor_int(cy - reach));
  box.lo[2] = std::max(edit.lo[2], floor_int(cz - reach));
  box.hi[0] = std::min(edit.hi[0], ceil_int(cx + reach));
  box.hi[1] = std::min(edit.hi[1], ceil_int(cy + reach));
  box.hi[2] = std::min(edit.hi[2], ceil_int(cz + reach));
  if (box.empty()) return {};

  const ShapeStamp s{grid.data.data(),
                     paint ? paint->data.data() : nullptr,
                     grid.cells.sx(),
                     grid.cells.sx() * grid.cells.sy(),
                     cx,
                     cy,
                     cz,
                     r,
                     shape,
                     dig,
                     paint_op || add_paint,
                     uint8_t(layer),
                     box};
  if (box.volume() < kParallelSamples) return result_of(s.run(box.lo[2], box.hi[2]));

  // Slabs of z write disjoint samples; the partial boxes are merged in slab order.
  const int slabs = box.hi[2] - box.lo[2] + 1;
  std::vector<Partial> parts;
  parts.resize(size_t(slabs));
  tbb::parallel_for(tbb::blocked_range<int>(0, slabs), [&](const tbb::blocked_range<int>& rg) {
    for (int k = rg.begin(); k != rg.end(); ++k) parts[size_t(k)] = s.run(box.lo[2] + k, box.lo[2] + k);
  });
  Partial all;
  for (const Partial& p : parts) all.merge(p);
  return result_of(all);
}

StampResult smooth(ByteGrid& grid, const SampleBox& edit_box, float cx, float cy, float cz, float r,
                   float strength) {
  if (!(r > 0.0f) || !(strength > 0.0f)) return {};
  const Dims& c = grid.cells;
  const Span3 edit = clip_to_grid(edit_box, c);
  Span3 box;
  box.lo[0] = std::max(std::max(edit.lo[0], 1), floor_int(cx - r));
  box.lo[1] = std::max(std::max(edit.lo[1], 1), floor_int(cy - r));
  box.lo[2] = std::max(std::max(edit.lo[2], 1), floor_int(cz - r));
  box.hi[0] = std::min(std::min(edit.hi[0], int(c.nx) - 1), ceil_int(cx + r));
  box.hi[1] = std::min(std::min(edit.hi[1], int(c.ny) - 1), ceil_int(cy + r));
  box.hi[2] = std::min(std::min(edit.hi[2], int(c.nz) - 1), ceil_int(cz + r));
  if (box.empty()) return {};

  const uint64_t sx = c.sx(), sxy = c.sx() * c.sy();
  const int w = box.hi[0] - box.lo[0] + 1, h = box.hi[1] - box.lo[1] + 1, depth = box.hi[2] - box.lo[2] + 1;
  std::vector<uint8_t> result(size_t(w) * size_t(h) * size_t(depth));
  const uint8_t* g = grid.data.data();
  auto compute = [&](int z) {
    for (int y = box.lo[1]; y <= box.hi[1]; ++y)
      for (int x = box.lo[0]; x <= box.hi[0]; ++x) {
        const uint64_t i = uint64_t(x) + sx * uint64_t(y) + sxy * uint64_t(z);
        // Vector3.Distance: ((dx^2 + dy^2) + dz^2), then the square root.
        const float dx = float(x) - cx, dy = float(y) - cy, dz = float(z) - cz;
        const float dist = std::sqrt(dx * dx + dy * dy + dz * dz);
        const float k = std::clamp(1.0f - dist / r, 0.0f, 1.0f) * strength;
        const int sum = int(g[i - 1]) + int(g[i + 1]) + int(g[i - sx]) + int(g[i + sx]) + int(g[i - sxy]) +
                        int(g[i + sxy]);
        const float avg = float(sum) / 6.0f;
        const float a = float(g[i]);
        const float v = a + (avg - a) * std::clamp(k, 0.0f, 1.0f);
        result[size_t(x - box.lo[0]) + size_t(w) * (size_t(y - box.lo[1]) + size_t(h) * size_t(z - box.lo[2]))] =
            uint8_t(std::clamp(round_even(v), 0, 255));
      }
  };
  if (box.volume() < kParallelSamples) {
    for (int z = box.lo[2]; z <= box.hi[2]; ++z) compute(z);
  } else {
    tbb::parallel_for(tbb::blocked_range<int>(box.lo[2], box.hi[2] + 1), [&](const tbb::blocked_range<int>& rg) {
      for (int z = rg.begin(); z != rg.end(); ++z) compute(z);
    });
  }

  Partial p;
  p.visited = box.volume();
  uint8_t* out = grid.data.data();
  for (int z = box.lo[2]; z <= box.hi[2]; ++z)
    for (int y = box.lo[1]; y <= box.hi[1]; ++y)
      for (int x = box.lo[0]; x <= box.hi[0]; ++x) {
        const uint64_t i = uint64_t(x) + sx * uint64_t(y) + sxy * uint64_t(z);
        const uint8_t b =
            result[size_t(x - box.lo[0]) + size_t(w) * (size_t(y - box.lo[1]) + size_t(h) * size_t(z - box.lo[2]))];
        if (b == out[i]) continue;
        out[i] = b;
        p.hit(x, y, z);
      }
  return result_of(p);
}

ChunkRange affected_chunks(const SampleBox& box, const Dims& cells, uint32_t cc) {
  ChunkRange r;
  const uint32_t n[3] = {cells.nx, cells.ny, cells.nz};
  for (size_t a = 0; a < 3; ++a) {
    const uint32_t chunks = (n[a] + cc - 1) / cc;
    const int64_t lo = box.min[a], hi = box.max[a];
    r.lo[a] = lo - 1 < 0 ? 0 : uint32_t((lo - 1) / cc);
    r.hi[a] = uint32_t(std::min<int64_t>((hi + 1) / cc, int64_t(chunks) - 1));
  }
  return r;
}

SampleBox default_edit_box(const Dims& cells) {
  return SampleBox{{0, 0, 0}, {int32_t(cells.nx), int32_t(cells.ny) - 1, int32_t(cells.nz)}};
}

void unite(SampleBox& into, bool& into_set, const SampleBox& box) {
  if (!into_set) {
    into = box;
    into_set = true;
    return;
  }
  for (size_t a = 0; a < 3; ++a) {
    into.min[a] = std::min(into.min[a], box.min[a]);
    into.max[a] = std::max(into.max[a], box.max[a]);
  }
}

}  // namespace voxkit::edit
