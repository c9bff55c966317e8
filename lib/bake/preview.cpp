// Zone preview pictures: hillshaded top view, SDF slice, chunk occupancy.
#include "lib/bake/preview.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "lib/core/error.hpp"

namespace voxkit {
namespace {

struct Rgb {
  float r, g, b;
};
Rgb lerp(Rgb a, Rgb b, float t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }

void put(RgbImage& img, uint32_t x, uint32_t y, Rgb c) {
  uint8_t* p = &img.rgb[(size_t(y) * img.width + x) * 3];
  p[0] = uint8_t(std::clamp(c.r, 0.0f, 255.0f));
  p[1] = uint8_t(std::clamp(c.g, 0.0f, 255.0f));
  p[2] = uint8_t(std::clamp(c.b, 0.0f, 255.0f));
}

RgbImage blank(uint32_t w, uint32_t h) {
  RgbImage img;
  img.width = w;
  img.height = h;
  img.rgb.assign(size_t(w) * h * 3, 0);
  return img;
}

// Low to high: green lowland, ochre, brown, pale rock.
Rgb height_colour(float t) {
  static const Rgb stops[] = {{70, 120, 60}, {150, 160, 80}, {160, 120, 70}, {225, 220, 210}};
  t = std::clamp(t, 0.0f, 1.0f) * 3;
  int i = std::min(int(t), 2);
  return lerp(stops[i], stops[i + 1], t - float(i));
}

}  // namespace

std::vector<float> top_surface(const ByteGrid& g) {
  const Dims c = g.cells;
  std::vector<float> h(size_t(c.sx()) * c.sz(), -1.0f);
  tbb::parallel_for(uint64_t(0), c.sz(), [&](uint64_t z) {
    for (uint64_t x = 0; x < c.sx(); ++x) {
      for (int64_t y = int64_t(c.ny); y >= 0; --y) {
        const uint8_t a = g.at(x, uint64_t(y), z);
        if (a >= 128) continue;
        float top = float(y);
        if (uint64_t(y) < c.ny) {
          const uint8_t b = g.at(x, uint64_t(y) + 1, z);
          top += float(128 - a) / float(b - a);
        }
        h[x + c.sx() * z] = top;
        break;
      }
    }
  });
  return h;
}

RgbImage preview_top(const Zone& zone) {
  const Dims c = zone.grid.cells;
  const uint32_t w = uint32_t(c.sx()), d = uint32_t(c.sz());
  std::vector<float> h = top_surface(zone.grid);
  std::vector<uint8_t> sculpted(size_t(w) * d, 0);
  if (zone.baked.data.size() == zone.grid.data.size()) {
    tbb::parallel_for(uint32_t(0), d, [&](uint32_t z) {
      for (uint64_t y = 0; y < c.sy(); ++y)
        for (uint32_t x = 0; x < w; ++x) {
          const uint64_t i = c.index(x, y, z);
          if (zone.grid.data[i] != zone.baked.data[i]) sculpted[x + size_t(w) * z] = 1;
        }
    });
  }
  float lo = INFINITY, hi = -INFINITY;
  for (float v : h)
    if (v >= 0) lo = std::min(lo, v), hi = std::max(hi, v);
  const float span = hi > lo ? hi - lo : 1.0f;
  // Light from the north-west (x -, z +), 45 degrees up.
  const float lx = -0.5f, ly = 0.7071f, lz = 0.5f;
  RgbImage img = blank(w, d);
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t x = 0; x < w; ++x) {
      const float v = h[x + size_t(w) * z];
      Rgb col{20, 20, 30};
      if (v >= 0) {
        auto at = [&](int64_t xi, int64_t zi) {
          xi = std::clamp<int64_t>(xi, 0, w - 1);
          zi = std::clamp<int64_t>(zi, 0, d - 1);
          float s = h[size_t(xi) + size_t(w) * size_t(zi)];
          return s >= 0 ? s : v;
        };
        const float gx = (at(x + 1, z) - at(int64_t(x) - 1, z)) * 0.5f;
        const float gz = (at(x, z + 1) - at(x, int64_t(z) - 1)) * 0.5f;
        const float len = std::sqrt(gx * gx + 1 + gz * gz);
        const float shade = std::max(0.0f, (-gx * lx + ly - gz * lz) / len);
        col = height_colour((v - lo) / span);
        const float k = 0.3f + 0.8f * shade;
        col = {col.r * k, col.g * k, col.b * k};
        if (sculpted[x + size_t(w) * z]) col = lerp(col, Rgb{230, 40, 40}, 0.6f);
      }
      put(img, x, d - 1 - z, col);
    }
  return img;
}

RgbImage preview_slice(const Zone& zone, char axis, uint32_t index) {
  const Dims c = zone.grid.cells;
  const uint64_t limit = axis == 'x' ? c.nx : c.nz;
  if ((axis != 'x' && axis != 'z') || index > limit) {
    throw_usage(std::string("slice ") + axis + "=" + std::to_string(index) +
                " is outside the zone (0.." + std::to_string(limit) + ")");
  }
  const uint32_t w = uint32_t(axis == 'x' ? c.sz() : c.sx()), hgt = uint32_t(c.sy());
  RgbImage img = blank(w, hgt);
  auto sample = [&](uint32_t u, uint64_t y) {
    return axis == 'x' ? zone.grid.at(index, y, u) : zone.grid.at(u, y, index);
  };
  for (uint32_t u = 0; u < w; ++u)
    for (uint64_t y = 0; y < c.sy(); ++y) {
      const uint8_t b = sample(u, y);
      const float t = float(int(b) - 128) / 128.0f;
      Rgb col = t < 0 ? lerp(Rgb{215, 175, 115}, Rgb{60, 38, 20}, -t)
                      : lerp(Rgb{240, 248, 255}, Rgb{80, 140, 225}, t);
      const bool edge = y < c.ny && (b < 128) != (sample(u, y + 1) < 128);
      if (edge) col = {20, 20, 20};
      put(img, u, uint32_t(c.ny - y), col);
    }
  return img;
}

RgbImage preview_chunks(const Zone& zone, uint32_t cell) {
  const Dims c = zone.grid.cells;
  const uint32_t cc = std::max<uint32_t>(1, zone.meta.chunk_cells);
  const uint32_t ncx = (c.nx + cc - 1) / cc, ncy = (c.ny + cc - 1) / cc, ncz = (c.nz + cc - 1) / cc;
  struct Column {
    uint32_t surface = 0, sculpted = 0;
    bool solid_only = true;
  };
  std::vector<Column> cols(size_t(ncx) * ncz);
  const bool has_baked = zone.baked.data.size() == zone.grid.data.size();
  tbb::parallel_for(uint32_t(0), ncz, [&](uint32_t kz) {
    for (uint32_t kx = 0; kx < ncx; ++kx) {
      Column& col = cols[kx + size_t(ncx) * kz];
      for (uint32_t ky = 0; ky < ncy; ++ky) {
        // The chunk's samples plus one on every side, as the chunk packer stores them.
        auto lo = [&](uint32_t k) { return k * cc == 0 ? 0u : k * cc - 1; };
        auto hi = [&](uint32_t k, uint32_t n) { return std::min(n, k * cc + cc); };
        bool solid = false, air = false, carved = false;
        for (uint32_t z = lo(kz); z <= hi(kz, c.nz); ++z)
          for (uint32_t y = lo(ky); y <= hi(ky, c.ny); ++y)
            for (uint32_t x = lo(kx); x <= hi(kx, c.nx); ++x) {
              const uint64_t i = c.index(x, y, z);
              (zone.grid.data[i] < 128 ? solid : air) = true;
              if (has_baked && zone.grid.data[i] != zone.baked.data[i]) carved = true;
            }
        col.surface += solid && air;
        col.sculpted += carved;
        if (air) col.solid_only = false;
      }
    }
  });
  RgbImage img = blank(ncx * cell, ncz * cell);
  for (uint32_t kz = 0; kz < ncz; ++kz)
    for (uint32_t kx = 0; kx < ncx; ++kx) {
      const Column& col = cols[kx + size_t(ncx) * kz];
      Rgb fill = col.solid_only ? Rgb{90, 80, 70} : Rgb{170, 170, 175};
      if (col.surface) fill = lerp(Rgb{60, 130, 60}, Rgb{170, 240, 120}, std::min(1.0f, float(col.surface - 1) / 3.0f));
      if (col.sculpted) fill = Rgb{220, 50, 50};
      for (uint32_t py = 0; py < cell; ++py)
        for (uint32_t px = 0; px < cell; ++px) {
          const bool line = px == 0 || py == 0;
          put(img, kx * cell + px, (ncz - 1 - kz) * cell + py, line ? Rgb{30, 30, 30} : fill);
        }
    }
  return img;
}

RgbImage upscale(const RgbImage& img, uint32_t f) {
  if (f <= 1) return img;
  RgbImage out = blank(img.width * f, img.height * f);
  for (uint32_t y = 0; y < out.height; ++y)
    for (uint32_t x = 0; x < out.width; ++x)
      std::copy_n(&img.rgb[(size_t(y / f) * img.width + x / f) * 3], 3, &out.rgb[(size_t(y) * out.width + x) * 3]);
  return out;
}

}  // namespace voxkit
