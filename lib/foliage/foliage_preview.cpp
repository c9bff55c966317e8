// The foliage view: mask states per column, trees and surface details as points.
#include "lib/foliage/foliage_preview.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "lib/core/error.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit::foliage {
namespace {

constexpr Colour kNoSurface{0, 0, 0}, kFallen{230, 130, 30}, kErased{140, 80, 200};
constexpr Colour kTreeStanding{255, 255, 255}, kTreeFallen{230, 30, 30}, kTreeErased{255, 0, 255};
constexpr Colour kSurfaceStanding{0, 230, 230}, kSurfaceFallen{40, 60, 230};

void put(RgbImage& img, uint32_t x, uint32_t y, Colour c) {
  uint8_t* p = &img.rgb[(size_t(y) * img.width + x) * 3];
  p[0] = c[0], p[1] = c[1], p[2] = c[2];
}

// Column (x, z) of a grid point, clamped, and its picture row (north up).
std::pair<uint32_t, uint32_t> pixel(const Dims& d, float gx, float gz) {
  const uint32_t x = uint32_t(std::clamp(int64_t(std::lround(gx)), int64_t(0), int64_t(d.nx)));
  const uint32_t z = uint32_t(std::clamp(int64_t(std::lround(gz)), int64_t(0), int64_t(d.nz)));
  return {x, d.nz - z};
}

Colour standing_colour(float h) {
  return {uint8_t(40 + 60 * h), uint8_t(110 + 120 * h), uint8_t(40 + 50 * h)};
}

}  // namespace

View preview(const Zone& zone) {
  const ZoneFoliage& f = zone.foliage;
  if (f.empty()) throw_usage("the zone holds no baked foliage (bake it first)");
  const Dims& d = zone.meta.cells;
  View view;
  RgbImage& img = view.img;
  img.width = uint32_t(d.sx());
  img.height = uint32_t(d.sz());
  img.rgb.assign(size_t(img.width) * img.height * 3, 0);
  const float ny = float(std::max<uint32_t>(d.ny, 1));
  for (uint32_t z = 0; z <= d.nz; ++z)
    for (uint32_t x = 0; x <= d.nx; ++x) {
      const uint64_t i = x + d.sx() * z;
      const uint8_t* t = f.mask.data() + 4 * i;
      const uint8_t* b = f.baked_mask.data() + 4 * i;
      Colour c = kNoSurface;
      if (b[3] != 0) {
        if (t[3] == 0) {
          c = kErased;
        } else if (t[0] == kStanding) {
          const float h = std::clamp(texel_anchor(t) / ny, 0.0f, 1.0f);
          c = standing_colour(h);
        } else {
          c = kFallen;
        }
      }
      put(img, x, d.nz - z, c);
    }
  const uint64_t t0 = d.sx() * d.sz();
  for (size_t k = 0; k < f.surface.size(); ++k) {
    const uint8_t* t = f.mask.data() + 4 * (t0 + k);
    const auto [x, y] = pixel(d, f.surface[k].anchor[0], f.surface[k].anchor[2]);
    put(img, x, y, t[3] == 0 ? kTreeErased : t[0] == kStanding ? kSurfaceStanding : kSurfaceFallen);
  }
  for (const FoliageTree& t : f.trees) {
    const auto [x, y] = pixel(d, t.anchor[0], t.anchor[2]);
    put(img, x, y, t.state == TreeState::Standing ? kTreeStanding : t.state == TreeState::Fallen ? kTreeFallen : kTreeErased);
  }
  const ZoneMeta& m = zone.meta;
  const double v = m.voxel_size;
  MapFrame& fr = view.frame;
  fr.title = "FOLIAGE";
  fr.across = {'x', m.origin[0] - 0.5 * v, v};
  fr.down = {'z', m.origin[2] + (double(d.nz) + 0.5) * v, -v};
  fr.compass = Compass::NorthUp;
  ColourBar bar;
  for (int k = 0; k < 64; ++k) bar.ramp.push_back(standing_colour(float(k) / 63));
  char lo[32], hi[32];
  std::snprintf(lo, sizeof lo, "%.1f M", m.origin[1]);
  std::snprintf(hi, sizeof hi, "%.1f M", m.origin[1] + ny * v);
  bar.low = lo;
  bar.high = hi;
  bar.caption = "STANDING COLUMNS: ANCHOR HEIGHT (WORLD Y, METRES)";
  fr.bars.push_back(bar);
  fr.legend = legend(zone);
  return view;
}

std::vector<LegendEntry> legend(const Zone& zone) {
  const Counts c = counts(zone.foliage, zone.meta.cells);
  const uint64_t none = zone.meta.cells.sx() * zone.meta.cells.sz() - c.columns_surface;
  auto n = [](uint64_t v) { return std::to_string(v); };
  std::vector<LegendEntry> out{{{70, 170, 65}, "standing " + n(c.columns_standing)},
                               {kFallen, "fallen " + n(c.columns_fallen)},
                               {kErased, "erased " + n(c.columns_erased)},
                               {kNoSurface, "no surface " + n(none)},
                               {kTreeStanding, "tree " + n(c.trees_standing)},
                               {kTreeFallen, "tree fallen " + n(c.trees_fallen)},
                               {kTreeErased, "tree erased " + n(c.trees_erased + c.surface_erased)}};
  if (!zone.foliage.surface.empty()) {
    out.push_back({kSurfaceStanding, "surface detail " + n(c.surface_standing)});
    out.push_back({kSurfaceFallen, "surface fallen " + n(c.surface_fallen)});
  }
  return out;
}

}  // namespace voxkit::foliage
