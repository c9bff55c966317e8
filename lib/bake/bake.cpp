// Baking and re-baking zones: the SDF grids, the height raster and the splat rasters.
#include "lib/bake/bake.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lib/core/error.hpp"

namespace voxkit {

namespace {

// World position of zone sample (x, 0, z) through the frame (or the zone's own origin).
struct Placer {
  GridFrame f;
  double v;
  Placer(const ZoneMeta& m, const GridFrame* frame) : f(frame ? *frame : own_frame(m)), v(m.voxel_size) {}
  std::array<double, 2> xz(uint32_t x, uint32_t z) const {
    return {f.origin[0] + double(int64_t(x) + f.offset[0]) * v, f.origin[2] + double(int64_t(z) + f.offset[2]) * v};
  }
};

}  // namespace

ColumnRaster<float> bake_height_raster(const Heightfield& hf, const ZoneMeta& m, const GridFrame* frame) {
  const Placer place(m, frame);
  ColumnRaster<float> r;
  r.width = uint32_t(m.cells.sx());
  r.depth = uint32_t(m.cells.sz());
  r.values.resize(size_t(r.width) * r.depth);
  for (uint32_t z = 0; z < r.depth; ++z)
    for (uint32_t x = 0; x < r.width; ++x) {
      auto p = place.xz(x, z);
      r.values[x + size_t(r.width) * z] = float(surface_height(hf, p[0], p[1]));
    }
  return r;
}

ColumnRaster<uint8_t> bake_filled_raster(const Heightfield& hf, const ZoneMeta& m, const GridFrame* frame) {
  ColumnRaster<uint8_t> r;
  if (hf.filled.empty()) return r;
  const Placer place(m, frame);
  r.width = uint32_t(m.cells.sx());
  r.depth = uint32_t(m.cells.sz());
  r.values.resize(size_t(r.width) * r.depth);
  bool any = false;
  for (uint32_t z = 0; z < r.depth; ++z)
    for (uint32_t x = 0; x < r.width; ++x) {
      auto p = place.xz(x, z);
      const bool f = surface_uses_filled(hf, p[0], p[1]);
      r.values[x + size_t(r.width) * z] = f ? 1 : 0;
      any = any || f;
    }
  if (!any) r = {};
  return r;
}

std::vector<ColumnRaster<uint8_t>> resample_splat(const std::vector<SplatImage>& images,
                                                  uint32_t layers, const ZoneMeta& m,
                                                  double x0, double z0, double x1, double z1,
                                                  const GridFrame* frame) {
  const Placer place(m, frame);
  if (layers > 16 || layers > 4 * images.size()) {
    throw_usage("splat maps: " + std::to_string(layers) + " layers need " +
                std::to_string((layers + 3) / 4) + " control images (at most 4, 16 layers), got " +
                std::to_string(images.size()));
  }
  if (!(x1 > x0) || !(z1 > z0)) throw_usage("splat maps need a terrain extent of positive size");
  for (const auto& img : images) {
    if (img.width == 0 || img.height == 0 || img.rgba.size() != size_t(img.width) * img.height * 4) {
      throw_usage("a splat control image is empty or has the wrong size");
    }
  }
  std::vector<ColumnRaster<uint8_t>> out(layers);
  const uint32_t w = uint32_t(m.cells.sx()), d = uint32_t(m.cells.sz());
  for (auto& r : out) {
    r.width = w;
    r.depth = d;
    r.values.assign(size_t(w) * d, 0);
  }
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t x = 0; x < w; ++x) {
      const auto q = place.xz(x, z);
      const std::array<double, 3> p{q[0], 0.0, q[1]};
      for (size_t im = 0; im * 4 < layers; ++im) {
        const SplatImage& img = images[im];
        // Texel centres at (i + 0.5) / width of the extent; image row 0 is the far (max z) edge.
        double u = (p[0] - x0) / (x1 - x0) * img.width - 0.5;
        double v = (z1 - p[2]) / (z1 - z0) * img.height - 0.5;
        u = std::clamp(u, 0.0, double(img.width - 1));
        v = std::clamp(v, 0.0, double(img.height - 1));
        const uint32_t i0 = std::min(uint32_t(u), img.width - 1), j0 = std::min(uint32_t(v), img.height - 1);
        const uint32_t i1 = std::min(i0 + 1, img.width - 1), j1 = std::min(j0 + 1, img.height - 1);
        const double fu = u - i0, fv = v - j0;
        for (uint32_t c = 0; c < 4 && im * 4 + c < layers; ++c) {
          auto t = [&](uint32_t i, uint32_t j) {
            return double(img.rgba[(size_t(i) + size_t(img.width) * j) * 4 + c]);
          };
          double val = (t(i0, j0) * (1 - fu) + t(i1, j0) * fu) * (1 - fv) +
                       (t(i0, j1) * (1 - fu) + t(i1, j1) * fu) * fv;
          out[im * 4 + c].values[x + size_t(w) * z] = uint8_t(std::clamp(std::floor(val + 0.5), 0.0, 255.0));
        }
      }
    }
  return out;
}

Zone bake_zone(const Heightfield& hf, const ZoneBoxSpec& spec, const Progress& progress) {
  Zone z;
  z.meta = plan_zone(hf, spec);
  bake_sdf(hf, z.meta, z.grid, progress, &z.baked);
  z.height = bake_height_raster(hf, z.meta);
  z.filled = bake_filled_raster(hf, z.meta);
  return z;
}

namespace {

// Adds air (255 for SDF grids, `fill` in general) rows at the top of a grid.
void grow_top(ByteGrid& g, uint32_t ny, uint8_t fill) {
  if (g.data.empty()) {
    g.cells.ny = ny;
    return;
  }
  Dims nd = g.cells;
  nd.ny = ny;
  ByteGrid out(nd, fill);
  const uint64_t row = g.cells.sx();
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y < g.cells.sy(); ++y)
      std::memcpy(&out.data[nd.index(0, y, z)], &g.data[g.cells.index(0, y, z)], row);
  g = std::move(out);
}

}  // namespace

RebakeStats rebake_zone(Zone& zone, const Heightfield& hf, double headroom_voxels,
                        uint64_t max_samples, const Progress& progress) {
  check_heightfield(hf);
  ZoneMeta& m = zone.meta;
  check_dims(m.cells);
  const uint64_t n = m.cells.samples();
  if (zone.grid.data.size() != n || zone.baked.data.size() != n ||
      (!zone.paint.data.empty() && zone.paint.data.size() != n)) {
    throw_data("zone grids do not match its cells", std::nullopt, std::to_string(n) + " samples",
               std::to_string(zone.grid.data.size()) + " / " + std::to_string(zone.baked.data.size()));
  }
  const double v = m.voxel_size;
  const double x1 = m.origin[0] + m.cells.nx * v, z1 = m.origin[2] + m.cells.nz * v;
  const double eps = 1e-6 * v;
  if (m.origin[0] < hf.x_of(0) - eps || x1 > hf.max_x() + eps || m.origin[2] < hf.z_of(0) - eps ||
      z1 > hf.max_z() + eps) {
    throw_usage("the new terrain does not cover the zone (x " + std::to_string(m.origin[0]) + ".." +
                std::to_string(x1) + ", z " + std::to_string(m.origin[2]) + ".." +
                std::to_string(z1) + " m)");
  }
  HeightRange under = height_range(hf, m.origin[0], m.origin[2], x1, z1);
  if (under.nodata > 0) {
    throw Error(ErrorKind::Data, "the zone covers " + std::to_string(under.nodata) +
                                     " heightmap samples without data (first at world x " +
                                     std::to_string(under.nodata_x) + ", z " +
                                     std::to_string(under.nodata_z) + "): give a NoData fill policy")
        .set_hint("nodata-fill");
  }
  HeightRange near = height_range(hf, m.origin[0] - kBandVoxels * v, m.origin[2] - kBandVoxels * v,
                                  x1 + kBandVoxels * v, z1 + kBandVoxels * v);
  if (near.nodata > 0) near = under;

  RebakeStats st;
  const double need_top = near.max + (kBandVoxels + headroom_voxels) * v;
  if (m.origin[1] + m.cells.ny * v < need_top) {
    const uint32_t ny = uint32_t(std::ceil((need_top - m.origin[1]) / v - 1e-9));
    Dims nd = m.cells;
    nd.ny = ny;
    if (nd.samples() > max_samples) {
      throw_usage("the new terrain needs the zone to grow to " + std::to_string(ny) + " cells up, " +
                      std::to_string(nd.samples()) + " samples, over the limit of " +
                      std::to_string(max_samples) + ": bake a new zone with a larger voxel size",
                  {{"voxel-size", "voxel size"}});
    }
    st.grown_cells = ny - m.cells.ny;
    grow_top(zone.grid, ny, 255);
    grow_top(zone.baked, ny, 255);
    grow_top(zone.paint, ny, 0);
    m.cells = nd;
    m.edit_box.max[1] = int32_t(ny) - int32_t(m.border_voxels);
  }

  ByteGrid fresh;
  bake_sdf(hf, m, fresh, progress);
  uint8_t* cur = zone.grid.data.data();
  const uint8_t* old = zone.baked.data.data();
  const uint8_t* nw = fresh.data.data();
  using Pair = std::pair<uint64_t, uint64_t>;
  Pair counts = tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, fresh.data.size(), 1 << 20), Pair{0, 0},
      [&](const tbb::blocked_range<uint64_t>& r, Pair acc) {
        for (uint64_t i = r.begin(); i != r.end(); ++i) {
          if (cur[i] != old[i]) {
            ++acc.first;
          } else {
            acc.second += cur[i] != nw[i];
            cur[i] = nw[i];
          }
        }
        return acc;
      },
      [](Pair a, Pair b) { return Pair{a.first + b.first, a.second + b.second}; });
  st.kept = counts.first;
  st.changed = counts.second;
  st.samples = fresh.data.size();
  zone.baked = std::move(fresh);
  zone.height = bake_height_raster(hf, m);
  zone.filled = bake_filled_raster(hf, m);
  m.height_min = under.min;
  m.height_max = under.max;
  m.grid_version += 1;
  return st;
}

}  // namespace voxkit
