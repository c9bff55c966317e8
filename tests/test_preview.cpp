// Preview pictures: north up, the hatch of filled NoData, smooth hillshade on faceted
// surfaces, the margin around the picture, the octree map's orientation (docs/preview.md).
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "formats/stationeers/octree_map.hpp"
#include "lib/bake/preview.hpp"
#include "lib/bake/preview_text.hpp"

using namespace voxkit;

namespace {

// A zone whose top surface is y = h(x, z) voxels (vertical distance as the SDF).
Zone surface_zone(uint32_t nx, uint32_t ny, uint32_t nz, const std::function<float(uint32_t, uint32_t)>& h) {
  Zone z;
  z.meta.cells = {nx, ny, nz};
  z.meta.voxel_size = 2;
  z.meta.origin = {100, -10, 300};
  z.grid = ByteGrid(z.meta.cells, 0);
  for (uint32_t k = 0; k <= nz; ++k)
    for (uint32_t y = 0; y <= ny; ++y)
      for (uint32_t x = 0; x <= nx; ++x) z.grid.at(x, y, k) = quantize_sdf(float(y) - h(x, k));
  z.baked = z.grid;
  return z;
}

Colour pixel(const RgbImage& img, uint32_t x, uint32_t y) {
  const uint8_t* p = &img.rgb[(size_t(y) * img.width + x) * 3];
  return {p[0], p[1], p[2]};
}

// Mean |4 c - its 4 neighbours| over r + g + b: high for a checkerboard.
double roughness(const RgbImage& img, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h) {
  auto lum = [&](uint32_t x, uint32_t y) {
    const Colour c = pixel(img, x, y);
    return double(c[0]) + c[1] + c[2];
  };
  double sum = 0;
  uint64_t n = 0;
  for (uint32_t y = y0 + 1; y + 1 < y0 + h; ++y)
    for (uint32_t x = x0 + 1; x + 1 < x0 + w; ++x, ++n)
      sum += std::abs(4 * lum(x, y) - lum(x - 1, y) - lum(x + 1, y) - lum(x, y - 1) - lum(x, y + 1));
  return n ? sum / double(n) : 0;
}

}  // namespace

TEST_CASE("preview top view: north (max z) up, east right, axes in world metres") {
  // High in the north-east quarter.
  const Zone z = surface_zone(32, 20, 24, [](uint32_t x, uint32_t k) { return x > 16 && k > 12 ? 14.0f : 4.0f; });
  const View v = view_top(z);
  REQUIRE(v.img.width == 33);
  REQUIRE(v.img.height == 25);
  // Row 0 is z = nz: the north-east corner is the top right pixel, pale (high), the
  // south-west the bottom left, green (low).
  const Colour ne = pixel(v.img, 30, 2), sw = pixel(v.img, 2, 22), nw = pixel(v.img, 2, 2), se = pixel(v.img, 30, 22);
  CHECK(ne[0] > sw[0] + 60);
  CHECK(ne[0] > nw[0] + 60);
  CHECK(ne[0] > se[0] + 60);
  // Pixel centres at the samples: the left edge half a voxel west of the origin, the top
  // edge half a voxel north of sample row nz.
  CHECK(v.frame.across.name == 'x');
  CHECK(v.frame.across.start == Approx(99));
  CHECK(v.frame.across.per_pixel == Approx(2));
  CHECK(v.frame.down.name == 'z');
  CHECK(v.frame.down.start == Approx(300 + 24.5 * 2));
  CHECK(v.frame.down.per_pixel == Approx(-2));
  CHECK(v.frame.compass == Compass::NorthUp);
  REQUIRE(v.frame.bars.size() == 1);
  CHECK(v.frame.bars[0].low.substr(0, 3) == "-2.");  // -10 + ~4 voxels * 2 m
  CHECK(v.frame.bars[0].high.substr(0, 2) == "18");  // -10 + ~14 voxels * 2 m

  View big = v;
  enlarge(big, 3);
  CHECK(big.img.width == 99);
  CHECK(big.frame.across.per_pixel == Approx(2.0 / 3));
  CHECK(big.frame.down.start == Approx(v.frame.down.start));
}

TEST_CASE("preview top view: filled NoData columns hatched and in the legend") {
  const Zone z = surface_zone(20, 12, 20, [](uint32_t x, uint32_t k) { return 4.0f + 0.2f * float(x + k); });
  std::vector<uint8_t> filled(21 * 21, 0);
  for (uint32_t k = 0; k <= 20; ++k)
    for (uint32_t x = 0; x < 6; ++x) filled[x + 21 * k] = 1;
  const View v = view_top(z, &filled);
  uint64_t hatch = 0, grey = 0, outside = 0;
  for (uint32_t row = 0; row < 21; ++row)
    for (uint32_t x = 0; x <= 20; ++x) {
      const Colour c = pixel(v.img, x, row);
      if (x < 6) {
        hatch += c == kHatchColour;
        grey += c[0] == c[1] && c[1] == c[2];
        CHECK((c == kHatchColour) == hatch_at(x, row));
      } else {
        outside += c == kHatchColour;
      }
    }
  CHECK(hatch > 0);
  CHECK(hatch + grey == 6 * 21);
  CHECK(outside == 0);
  bool listed = false;
  for (const LegendEntry& e : v.frame.legend)
    if (e.label == "126 FILLED NODATA") listed = e.hatched;
  CHECK(listed);
  // Without a mask, no hatch and no legend entry.
  const View plain = view_top(z);
  for (const LegendEntry& e : plain.frame.legend) CHECK(e.label.find("NODATA") == std::string::npos);
}

TEST_CASE("preview top view: flat triangles of a coarse heightmap are not a checkerboard") {
  // The bake's surface: two triangles per heightmap cell (split from (i, j) to (i+1, j+1)),
  // here cells of 3 voxels with random heights, as the demo's 75 m samples at 25 m voxels.
  const uint32_t n = 60, cell = 3, cells = n / cell;
  std::vector<float> g((cells + 1) * (cells + 1));
  uint32_t seed = 7;
  for (size_t k = 0; k < g.size(); ++k) {
    seed = seed * 1103515245u + 12345u;  // a gentle slope to the east, bumps of up to 2 voxels
    g[k] = 10.0f + 0.4f * float(k % (cells + 1) * cell) + float((seed >> 16) % 1000) / 500.0f;
  }
  auto at = [&](uint32_t i, uint32_t j) { return g[i + (cells + 1) * j]; };
  const Zone z = surface_zone(n, 48, n, [&](uint32_t x, uint32_t k) {
    const uint32_t i = std::min(x / cell, cells - 1), j = std::min(k / cell, cells - 1);
    const float u = float(x) / cell - float(i), w = float(k) / cell - float(j);
    if (u >= w) return at(i, j) + u * (at(i + 1, j) - at(i, j)) + w * (at(i + 1, j + 1) - at(i + 1, j));
    return at(i, j) + w * (at(i, j + 1) - at(i, j)) + u * (at(i + 1, j + 1) - at(i, j + 1));
  });
  const View v = view_top(z);
  // The same light on normals from differences of neighbouring columns (as the top view
  // shaded before): each triangle gets its own shade.
  const std::vector<float> h = top_surface(z.grid);
  RgbImage naive;
  naive.width = naive.height = n + 1;
  naive.rgb.resize(size_t(n + 1) * (n + 1) * 3);
  for (uint32_t k = 1; k < n; ++k)
    for (uint32_t x = 1; x < n; ++x) {
      const float gx = (h[x + 1 + (n + 1) * k] - h[x - 1 + (n + 1) * k]) / 2;
      const float gz = (h[x + (n + 1) * (k + 1)] - h[x + (n + 1) * (k - 1)]) / 2;
      const float shade = std::max(0.0f, (0.5f * gx + 0.7071f - 0.5f * gz) / std::sqrt(gx * gx + 1 + gz * gz));
      std::fill_n(&naive.rgb[(size_t(n - k) * (n + 1) + x) * 3], 3, uint8_t(255 * shade));
    }
  const double before = roughness(naive, 2, 2, n - 3, n - 3), after = roughness(v.img, 2, 2, n - 3, n - 3);
  // Measured: about 139 for the grey naive shade, 12 for the coloured top view.
  CHECK(after < before / 4);
}

TEST_CASE("preview pictures: the same bytes for any thread count") {
  const Zone z = surface_zone(40, 16, 30, [](uint32_t x, uint32_t k) { return 5.0f + 3.0f * std::sin(float(x) * 0.4f) + 0.1f * float(k); });
  std::vector<uint8_t> a, b, c, d;
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    a = view_top(z).img.rgb;
    c = view_chunks(z, 4).img.rgb;
  }
  {
    tbb::global_control many(tbb::global_control::max_allowed_parallelism, 4);
    b = view_top(z).img.rgb;
    d = view_chunks(z, 4).img.rgb;
  }
  CHECK(a == b);
  CHECK(c == d);
}

TEST_CASE("preview slice: world axes, compass and the SDF bar") {
  const Zone z = surface_zone(10, 8, 12, [](uint32_t, uint32_t) { return 3.5f; });
  const View sx = view_slice(z, 'x', 4);
  CHECK(sx.img.width == 13);
  CHECK(sx.img.height == 9);
  CHECK(sx.frame.across.name == 'z');
  CHECK(sx.frame.compass == Compass::NorthRight);
  CHECK(sx.frame.down.name == 'y');
  CHECK(sx.frame.down.start == Approx(-10 + 8.5 * 2));
  CHECK(sx.frame.bars.at(0).low == "-4.0 M");  // -2 voxels of 2 m
  const View sz = view_slice(z, 'z', 4);
  CHECK(sz.frame.across.name == 'x');
  CHECK(sz.frame.compass == Compass::EastRight);
  CHECK_THROWS(view_slice(z, 'x', 11));
}

TEST_CASE("preview frame: the picture unchanged at (58 s, 30 s), margin around it") {
  RgbImage img;
  img.width = 40;
  img.height = 30;
  img.rgb.resize(40 * 30 * 3);
  for (size_t i = 0; i < img.rgb.size(); ++i) img.rgb[i] = uint8_t(i * 7);
  MapFrame f;
  f.title = "T.VXZ - TOP VIEW";
  f.across = {'x', 1000, 25};
  f.down = {'z', 5000, -25};
  f.bars.push_back({{{0, 0, 0}, {255, 255, 255}}, "0 M", "9 M", "HEIGHT"});
  f.legend.push_back({{255, 0, 0}, "SCULPTED"});
  const Framed out = frame_picture(img, f);
  CHECK(out.x == 58);
  CHECK(out.y == 30);
  CHECK(out.img.width >= 58 + 40 + 28);
  CHECK(out.img.height > 30 + 30 + 40);
  for (uint32_t y = 0; y < img.height; ++y)
    for (uint32_t x = 0; x < img.width; ++x) REQUIRE(pixel(out.img, out.x + x, out.y + y) == pixel(img, x, y));
  CHECK(pixel(out.img, out.x - 1, out.y - 1) == Colour{150, 150, 150});
  CHECK(pixel(out.img, out.img.width - 1, out.img.height - 1) == Colour{32, 32, 32});
  // Wide pictures get text twice the size and margins to match.
  img.width = 600;
  img.rgb.assign(600 * 30 * 3, 9);
  const Framed wide = frame_picture(img, f);
  CHECK(wide.x == 116);
  CHECK(wide.y == 60);
  CHECK(pixel(wide.img, 116, 60) == Colour{9, 9, 9});

  CHECK(round_length(4999) == 2000);
  CHECK(round_length(5000) == 5000);
  CHECK(round_length(0.7) == Approx(0.5));
  CHECK(round_length(1) == 1);
}

TEST_CASE("octree map: north (max z) up like the zone previews") {
  octree::TopMap m;
  m.width = 8;
  m.height = 4;
  m.cell = 2;
  m.modified.assign(32, 0);
  m.modified[1 + 8 * 3] = 5;  // x = 1, z = 3: the highest z
  const std::vector<uint8_t> rgb = octree_map::render_rgb(m);
  CHECK(rgb[(0 * 8 + 1) * 3] != 28);  // row 0, column 1
  CHECK(rgb[(3 * 8 + 1) * 3] == 28);
  const Framed f = octree_map::render(m, "t.dat");
  CHECK(f.x == 58);
  CHECK(f.y == 30);
  CHECK(pixel(f.img, f.x + 1, f.y)[0] == rgb[3]);
}
