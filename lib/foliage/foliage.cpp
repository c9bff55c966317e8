// Foliage anchors: standing tests, top surfaces, the mask texels, chunks.
#include "lib/foliage/foliage.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lib/core/grid_alloc.hpp"
#include "lib/foliage/foliage_internal.hpp"

namespace voxkit::foliage {
namespace {

using detail::f32;

bool within(float s) { return s <= float(kTolerance) && s >= -float(kTolerance); }

}  // namespace

// --- Standing tests ------------------------------------------------------------------------

bool stands_between(int below, int above, float t) {
  const float s = float(below) + float(above - below) * t - 128.0f;
  return within(s);
}

bool grid_stands(const ByteGrid& g, uint32_t x, uint32_t z, float y) {
  const uint32_t ny = g.cells.ny;
  int y0 = int(y);  // truncation toward zero, as C#'s (int) cast
  if (y0 < 0) y0 = 0;
  if (y0 > int(ny) - 1) y0 = int(ny) - 1;
  const uint64_t i = g.cells.index(x, uint64_t(y0), z);
  return stands_between(g.data[i], g.data[i + g.cells.sx()], y - float(y0));
}

int cell_of(float p, uint32_t cells) {
  // C#'s (int) of a float past int's range is unspecified; the clamp makes it moot.
  int c = p < 0.0f ? 0 : (p >= float(cells) ? int(cells) : int(p));
  return c > int(cells) - 1 ? int(cells) - 1 : c;
}

float frac_of(float p, int c) {
  const float f = p - float(c);
  return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

namespace {

template <bool Editor>
bool stands_in_cell(const ByteGrid& g, const std::array<float, 3>& p) {
  const Dims& d = g.cells;
  const int x0 = cell_of(p[0], d.nx), y0 = cell_of(p[1], d.ny), z0 = cell_of(p[2], d.nz);
  const float fx = frac_of(p[0], x0), fy = frac_of(p[1], y0), fz = frac_of(p[2], z0);
  const uint64_t sx = d.sx(), sxy = d.sx() * d.sy();
  const uint64_t i = d.index(uint64_t(x0), uint64_t(y0), uint64_t(z0)), j = i + sxy;
  const int s000 = g.data[i], s100 = g.data[i + 1], s010 = g.data[i + sx], s110 = g.data[i + sx + 1];
  const int s001 = g.data[j], s101 = g.data[j + 1], s011 = g.data[j + sx], s111 = g.data[j + sx + 1];
  float s;
  if constexpr (Editor) {
    const float a = f32(double(s000) + double(s100 - s000) * double(fx));
    const float b = f32(double(s010) + double(s110 - s010) * double(fx));
    const float c = f32(double(s001) + double(s101 - s001) * double(fx));
    const float e = f32(double(s011) + double(s111 - s011) * double(fx));
    const float lo = f32(double(a) + (double(b) - double(a)) * double(fy));
    const float hi = f32(double(c) + (double(e) - double(c)) * double(fy));
    s = f32(double(lo) + (double(hi) - double(lo)) * double(fz) - 128.0);
  } else {
    const float a = float(s000) + float(s100 - s000) * fx;
    const float b = float(s010) + float(s110 - s010) * fx;
    const float c = float(s001) + float(s101 - s001) * fx;
    const float e = float(s011) + float(s111 - s011) * fx;
    const float lo = a + (b - a) * fy;
    const float hi = c + (e - c) * fy;
    s = lo + (hi - lo) * fz - 128.0f;
  }
  return within(s);
}

}  // namespace

bool point_stands(const ByteGrid& g, const std::array<float, 3>& p) { return stands_in_cell<false>(g, p); }
bool point_stands_editor(const ByteGrid& g, const std::array<float, 3>& p) { return stands_in_cell<true>(g, p); }

// --- Top surface and mask ----------------------------------------------------------------

float top_surface(const ByteGrid& g, uint32_t x, uint32_t z) {
  const uint32_t ny = g.cells.ny;
  for (int64_t y = int64_t(ny) - 1; y >= 0; --y) {
    const int b = g.at(x, uint64_t(y), z);
    if (b >= 128) continue;
    int a = g.at(x, uint64_t(y) + 1, z);
    if (a < 128) a = 255;  // only the top sample can be solid above a solid one (see header)
    return f32(double(y) + (128.0 - double(b)) / double(a - b));
  }
  return -1.0f;
}

std::vector<float> top_surfaces(const ByteGrid& g) {
  const Dims& d = g.cells;
  const uint64_t w = d.sx();
  std::vector<float> top;
  reserve_populated(top, w * d.sz());
  top.assign(w * d.sz(), -1.0f);
  // One z row at a time, scanning y downwards over the whole row: each step reads a
  // contiguous run of samples, and the scan stops once every column of the row is found.
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, d.sz(), 4), [&](const tbb::blocked_range<uint64_t>& r) {
    // found[x] is 0x80 once column x has its surface: eight columns are looked at in one
    // 64-bit step (solid samples of columns not yet found), one at a time only where some are.
    constexpr uint64_t kHigh = 0x8080808080808080ull;
    std::vector<uint8_t> found(w + 8);
    for (uint64_t z = r.begin(); z < r.end(); ++z) {
      std::fill(found.begin(), found.end(), 0);
      uint64_t left = w;
      float* out = top.data() + w * z;
      for (int64_t y = int64_t(d.ny) - 1; y >= 0 && left; --y) {
        const uint8_t* row = g.data.data() + d.index(0, uint64_t(y), z);
        const uint8_t* above = row + w;
        auto take = [&](uint64_t x) {
          found[x] = 0x80;
          --left;
          int a = above[x];
          if (a < 128) a = 255;
          out[x] = f32(double(y) + (128.0 - double(row[x])) / double(a - int(row[x])));
        };
        uint64_t x = 0;
        for (; x + 8 <= w; x += 8) {
          uint64_t v8, f8;
          std::memcpy(&v8, row + x, 8);
          std::memcpy(&f8, found.data() + x, 8);
          uint64_t hit = ~v8 & ~f8 & kHigh;  // high bit clear in the sample, not yet found
          while (hit) {
            take(x + uint64_t(__builtin_ctzll(hit) >> 3));
            hit &= hit - 1;
          }
        }
        for (; x < w; ++x)
          if (!found[x] && row[x] < 128) take(x);
      }
    }
  });
  return top;
}

uint32_t mask_height(const Dims& c, uint64_t s) { return uint32_t(c.nz + 1 + (s + c.nx) / (uint64_t(c.nx) + 1)); }

std::array<uint8_t, 4> column_texel(float anchor) {
  if (anchor < 0.0f) return {kRemoved, 0, 0, 0};
  // anchor * 16 is exact; nearbyint rounds half to even (Mathf.RoundToInt).
  const double v = std::nearbyint(double(anchor) * 16.0);
  const uint32_t a = v <= 0 ? 0u : v >= 65535 ? 65535u : uint32_t(v);
  return {kStanding, uint8_t(a >> 8), uint8_t(a & 255), 255};
}

float texel_anchor(const uint8_t* t) {
  if (t[3] == 0) return -1.0f;
  return float((uint32_t(t[1]) << 8) | t[2]) / kAnchorScale;
}

// --- Chunks ----------------------------------------------------------------------------------

Chunks chunks_of(const Dims& c, uint32_t cc) {
  Chunks ch;
  ch.cc = cc ? cc : 16;
  ch.cx = (c.nx + ch.cc - 1) / ch.cc;
  ch.cy = (c.ny + ch.cc - 1) / ch.cc;
  ch.cz = (c.nz + ch.cc - 1) / ch.cc;
  return ch;
}

uint32_t anchor_chunk(const Dims& c, const Chunks& ch, const std::array<float, 3>& a) {
  const uint32_t x = uint32_t(cell_of(a[0], c.nx)), y = uint32_t(cell_of(a[1], c.ny)), z = uint32_t(cell_of(a[2], c.nz));
  return ch.index(std::min(x / ch.cc, ch.cx - 1), std::min(y / ch.cc, ch.cy - 1), std::min(z / ch.cc, ch.cz - 1));
}

uint32_t column_chunk(const Dims& c, const Chunks& ch, uint32_t x, uint32_t z, float y) {
  const uint32_t ay = std::min(uint32_t(std::max(0, int(y))), c.ny - 1);
  return ch.index(std::min(x / ch.cc, ch.cx - 1), std::min(ay / ch.cc, ch.cy - 1), std::min(z / ch.cc, ch.cz - 1));
}

uint32_t detail_chunk_column(const Chunks& ch, uint32_t x, uint32_t z) {
  return std::min(x / ch.cc, ch.cx - 1) + ch.cx * std::min(z / ch.cc, ch.cz - 1);
}

}  // namespace voxkit::foliage
