// Zone preview pictures: hillshaded top view, SDF slice, chunk occupancy.
#include "lib/bake/preview.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

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

Colour bytes(Rgb c) {
  return {uint8_t(std::clamp(c.r, 0.0f, 255.0f)), uint8_t(std::clamp(c.g, 0.0f, 255.0f)),
          uint8_t(std::clamp(c.b, 0.0f, 255.0f))};
}

std::string metres(double v, int decimals = 1) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f M", decimals, v);
  return buf;
}

std::string count(uint64_t n, const char* what) { return std::to_string(n) + " " + what; }

// The colour of an SDF byte in the slice: solid light tan to dark brown with depth, air
// near-white to blue with height.
Rgb slice_colour(int b) {
  const float t = float(b - 128) / 128.0f;
  return t < 0 ? lerp(Rgb{215, 175, 115}, Rgb{60, 38, 20}, -t) : lerp(Rgb{240, 248, 255}, Rgb{80, 140, 225}, t);
}

constexpr Rgb kNoSurface{20, 20, 30}, kSculpted{230, 40, 40}, kEdge{20, 20, 20};

// The surface heights smoothed by a Gaussian (sigma 1.5 columns) over the columns that have a
// surface, each pass in a fixed order (the same bytes for any thread count).
std::vector<float> smoothed(const std::vector<float>& h, uint32_t w, uint32_t d) {
  constexpr int R = 4;
  float k[2 * R + 1];
  for (int i = -R; i <= R; ++i) k[i + R] = std::exp(-float(i * i) / (2 * 1.5f * 1.5f));
  const size_t n = size_t(w) * d;
  std::vector<float> num(n), den(n), out(n);
  tbb::parallel_for(uint32_t(0), d, [&](uint32_t z) {
    for (uint32_t x = 0; x < w; ++x) {
      float a = 0, b = 0;
      for (int i = -R; i <= R; ++i) {
        const int64_t xi = int64_t(x) + i;
        if (xi < 0 || xi >= int64_t(w)) continue;
        const float v = h[size_t(xi) + size_t(w) * z];
        if (v >= 0) a += k[i + R] * v, b += k[i + R];
      }
      num[x + size_t(w) * z] = a, den[x + size_t(w) * z] = b;
    }
  });
  tbb::parallel_for(uint32_t(0), d, [&](uint32_t z) {
    for (uint32_t x = 0; x < w; ++x) {
      float a = 0, b = 0;
      for (int i = -R; i <= R; ++i) {
        const int64_t zi = int64_t(z) + i;
        if (zi < 0 || zi >= int64_t(d)) continue;
        a += k[i + R] * num[x + size_t(w) * size_t(zi)], b += k[i + R] * den[x + size_t(w) * size_t(zi)];
      }
      out[x + size_t(w) * z] = b > 0 ? a / b : 0;
    }
  });
  return out;
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

View view_top(const Zone& zone, const std::vector<uint8_t>* filled) {
  const Dims c = zone.grid.cells;
  const uint32_t w = uint32_t(c.sx()), d = uint32_t(c.sz());
  const double v = zone.meta.voxel_size;
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
  if (filled && filled->size() != size_t(w) * d) filled = nullptr;
  float lo = INFINITY, hi = -INFINITY;
  for (float s : h)
    if (s >= 0) lo = std::min(lo, s), hi = std::max(hi, s);
  const float span = hi > lo ? hi - lo : 1.0f;
  // Normals from the smoothed surface: a heightmap a few voxels per sample is flat triangles,
  // and differences of neighbouring columns shade each triangle apart (a fine checkerboard
  // along every slope); smoothing over about one heightmap cell keeps the relief only.
  const std::vector<float> hs = smoothed(h, w, d);
  // Light from the north-west (x -, z +), 45 degrees up.
  const float lx = -0.5f, ly = 0.7071f, lz = 0.5f;
  View out;
  RgbImage& img = out.img;
  img = blank(w, d);
  uint64_t n_sculpted = 0, n_filled = 0, n_none = 0;
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t x = 0; x < w; ++x) {
      const size_t i = x + size_t(w) * z;
      const float s = h[i];
      const uint32_t row = d - 1 - z;
      Rgb col = kNoSurface;
      if (s < 0) {
        ++n_none;
      } else {
        const uint32_t xa = x > 0 ? x - 1 : x, xb = x + 1 < w ? x + 1 : x;
        const uint32_t za = z > 0 ? z - 1 : z, zb = z + 1 < d ? z + 1 : z;
        const float gx = xb > xa ? (hs[xb + size_t(w) * z] - hs[xa + size_t(w) * z]) / float(xb - xa) : 0.0f;
        const float gz = zb > za ? (hs[x + size_t(w) * zb] - hs[x + size_t(w) * za]) / float(zb - za) : 0.0f;
        const float len = std::sqrt(gx * gx + 1 + gz * gz);
        const float shade = std::max(0.0f, (-gx * lx + ly - gz * lz) / len);
        col = height_colour((s - lo) / span);
        const float k = 0.3f + 0.8f * shade;
        col = {col.r * k, col.g * k, col.b * k};
        if (filled && (*filled)[i]) {
          // Filled NoData: the shade in grey, hatched.
          ++n_filled;
          const float g = 0.3f * col.r + 0.59f * col.g + 0.11f * col.b;
          col = {g, g, g};
          if (hatch_at(x, row)) col = {float(kHatchColour[0]), float(kHatchColour[1]), float(kHatchColour[2])};
        }
        if (sculpted[i]) ++n_sculpted, col = lerp(col, kSculpted, 0.6f);
      }
      put(img, x, row, col);
    }
  MapFrame& f = out.frame;
  f.title = "TOP VIEW";
  f.across = {'x', zone.meta.origin[0] - 0.5 * v, v};
  f.down = {'z', zone.meta.origin[2] + (double(c.nz) + 0.5) * v, -v};
  f.compass = Compass::NorthUp;
  ColourBar bar;
  for (int k = 0; k < 64; ++k) bar.ramp.push_back(bytes(height_colour(float(k) / 63)));
  const bool any = hi >= lo;
  bar.low = metres(any ? zone.meta.origin[1] + lo * v : zone.meta.origin[1]);
  bar.high = metres(any ? zone.meta.origin[1] + hi * v : zone.meta.origin[1]);
  bar.caption = "SURFACE HEIGHT (WORLD Y, METRES), SHADED FROM THE NORTH-WEST";
  f.bars.push_back(bar);
  f.legend.push_back({bytes(kNoSurface), count(n_none, "NO SURFACE")});
  f.legend.push_back({bytes(lerp(height_colour(0.5f), kSculpted, 0.6f)), count(n_sculpted, "SCULPTED")});
  if (filled) f.legend.push_back({{128, 128, 128}, count(n_filled, "FILLED NODATA"), true});
  return out;
}

View view_slice(const Zone& zone, char axis, uint32_t index) {
  const Dims c = zone.grid.cells;
  const uint64_t limit = axis == 'x' ? c.nx : c.nz;
  if ((axis != 'x' && axis != 'z') || index > limit) {
    throw_usage(std::string("slice ") + axis + "=" + std::to_string(index) +
                " is outside the zone (0.." + std::to_string(limit) + ")");
  }
  const uint32_t w = uint32_t(axis == 'x' ? c.sz() : c.sx()), hgt = uint32_t(c.sy());
  View out;
  RgbImage& img = out.img;
  img = blank(w, hgt);
  auto sample = [&](uint32_t u, uint64_t y) {
    return axis == 'x' ? zone.grid.at(index, y, u) : zone.grid.at(u, y, index);
  };
  for (uint32_t u = 0; u < w; ++u)
    for (uint64_t y = 0; y < c.sy(); ++y) {
      const uint8_t b = sample(u, y);
      Rgb col = slice_colour(b);
      const bool edge = y < c.ny && (b < 128) != (sample(u, y + 1) < 128);
      if (edge) col = kEdge;
      put(img, u, uint32_t(c.ny - y), col);
    }
  const ZoneMeta& m = zone.meta;
  const double v = m.voxel_size;
  MapFrame& f = out.frame;
  const int a = axis == 'x' ? 0 : 2;
  char at[64];
  std::snprintf(at, sizeof at, " (WORLD %c %.1f M)", axis == 'x' ? 'X' : 'Z', m.origin[a] + index * v);
  f.title = std::string("SLICE ") + char(axis == 'x' ? 'X' : 'Z') + "=" + std::to_string(index) + at;
  if (axis == 'x') {
    f.across = {'z', m.origin[2] - 0.5 * v, v};
    f.compass = Compass::NorthRight;
  } else {
    f.across = {'x', m.origin[0] - 0.5 * v, v};
    f.compass = Compass::EastRight;
  }
  f.down = {'y', m.origin[1] + (double(c.ny) + 0.5) * v, -v};
  ColourBar bar;
  for (int k = 0; k < 256; k += 4) bar.ramp.push_back(bytes(slice_colour(k)));
  // A byte b is (b - 128) / 64 voxels from the surface (docs/bake.md).
  bar.low = metres(-2 * v);
  bar.high = "+" + metres(127.0 / 64 * v);
  bar.caption = "SIGNED DISTANCE TO THE SURFACE (METRES), SOLID NEGATIVE, AIR POSITIVE";
  f.bars.push_back(bar);
  f.legend.push_back({bytes(kEdge), "SURFACE (SOLID TO AIR)"});
  return out;
}

View view_chunks(const Zone& zone, uint32_t cell) {
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
  View out;
  RgbImage& img = out.img;
  img = blank(ncx * cell, ncz * cell);
  const Rgb kSolid{90, 80, 70}, kUniform{170, 170, 175}, kChunkSculpted{220, 50, 50};
  auto surface_colour = [](uint32_t n) { return lerp(Rgb{60, 130, 60}, Rgb{170, 240, 120}, std::min(1.0f, float(n - 1) / 3.0f)); };
  uint64_t n_solid = 0, n_uniform = 0, n_surface = 0, n_sculpted = 0;
  for (uint32_t kz = 0; kz < ncz; ++kz)
    for (uint32_t kx = 0; kx < ncx; ++kx) {
      const Column& col = cols[kx + size_t(ncx) * kz];
      Rgb fill = col.solid_only ? kSolid : kUniform;
      if (col.surface) fill = surface_colour(col.surface);
      if (col.sculpted) fill = kChunkSculpted;
      (col.sculpted ? n_sculpted : col.surface ? n_surface : col.solid_only ? n_solid : n_uniform) += 1;
      for (uint32_t py = 0; py < cell; ++py)
        for (uint32_t px = 0; px < cell; ++px) {
          const bool line = px == 0 || py == 0;
          put(img, kx * cell + px, (ncz - 1 - kz) * cell + py, line ? Rgb{30, 30, 30} : fill);
        }
    }
  const ZoneMeta& m = zone.meta;
  const double per = double(cc) * m.voxel_size / double(cell);
  MapFrame& f = out.frame;
  f.title = "CHUNKS (" + std::to_string(cc) + " CELLS, " + metres(cc * m.voxel_size, 0) + " A SIDE)";
  f.across = {'x', m.origin[0], per};
  f.down = {'z', m.origin[2] + double(ncz) * cc * m.voxel_size, -per};
  f.compass = Compass::NorthUp;
  ColourBar bar;
  for (uint32_t n = 1; n <= 4; ++n) bar.ramp.push_back(bytes(surface_colour(n)));
  bar.low = "1";
  bar.high = "4+";
  bar.caption = "CHUNKS HOLDING SURFACE IN THE COLUMN (OF " + std::to_string(ncy) + ")";
  f.bars.push_back(bar);
  f.legend.push_back({bytes(kChunkSculpted), count(n_sculpted, "SCULPTED")});
  f.legend.push_back({bytes(surface_colour(1)), count(n_surface, "WITH SURFACE")});
  f.legend.push_back({bytes(kUniform), count(n_uniform, "UNIFORM, SOME AIR")});
  f.legend.push_back({bytes(kSolid), count(n_solid, "ALL SOLID")});
  return out;
}

RgbImage upscale(const RgbImage& img, uint32_t f) {
  if (f <= 1) return img;
  RgbImage out = blank(img.width * f, img.height * f);
  for (uint32_t y = 0; y < out.height; ++y)
    for (uint32_t x = 0; x < out.width; ++x)
      std::copy_n(&img.rgb[(size_t(y / f) * img.width + x / f) * 3], 3, &out.rgb[(size_t(y) * out.width + x) * 3]);
  return out;
}

void enlarge(View& v, uint32_t f) {
  if (f <= 1) return;
  v.img = upscale(v.img, f);
  v.frame.across.per_pixel /= f;
  v.frame.down.per_pixel /= f;
}

}  // namespace voxkit
