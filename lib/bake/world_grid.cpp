// World grids and their tiles: layout, the terrain checks and the tile bake.
#include "lib/bake/world_grid.hpp"

#include <algorithm>
#include <cmath>

#include "lib/bake/plan_text.hpp"
#include "lib/core/error.hpp"

namespace voxkit {
namespace {

using bake_detail::cells_for;
using bake_detail::metres;

std::string tile_name(const TileBox& t) { return "tile " + std::to_string(t.i) + "," + std::to_string(t.j); }

}  // namespace

WorldGrid plan_world(const WorldSpec& s) {
  const double v = s.voxel_size;
  if (!(v > 0) || !std::isfinite(v)) throw_usage("voxel size must be positive, got " + metres(v));
  if (s.chunk_cells < 1 || s.chunk_cells > 256) {
    throw_usage("chunk cells must be 1..256, got " + std::to_string(s.chunk_cells));
  }
  if (s.tile_chunks < 1 || s.tile_chunks > 4096) {
    throw_usage("tile size must be 1..4096 chunks, got " + std::to_string(s.tile_chunks));
  }
  if (s.halo_chunks < 1 || s.halo_chunks > 16) {
    throw_usage("the tile halo must be 1..16 chunks (the mesher reads one), got " + std::to_string(s.halo_chunks));
  }
  if (!(s.headroom_voxels >= 0)) throw_usage("headroom must be zero or more voxels");
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(s.min[a]) || !std::isfinite(s.max[a])) throw_usage("world box must be finite");
    if (!(s.max[a] > s.min[a])) {
      throw_usage(std::string("world box is empty along ") + "xyz"[a] + ": min " + metres(s.min[a]) +
                  " >= max " + metres(s.max[a]));
    }
  }
  WorldGrid w;
  w.spec = s;
  w.origin = s.min;
  const double cx = cells_for(s.max[0] - s.min[0], v), cy = cells_for(s.max[1] - s.min[1], v),
               cz = cells_for(s.max[2] - s.min[2], v);
  if (cx > 4e9 || cy > 65535 || cz > 4e9) {
    throw_usage("world of " + metres(cx) + "x" + metres(cy) + "x" + metres(cz) +
                " cells is too large (65535 cells up at most): use a larger voxel size");
  }
  w.cells = Dims{uint32_t(cx), uint32_t(std::max(cy, 1.0)), uint32_t(cz)};
  const uint64_t tiles = uint64_t(w.tiles_x()) * w.tiles_z();
  if (tiles > (uint64_t(1) << 20)) {
    throw_usage("world of " + std::to_string(tiles) + " tiles is over the limit of 1048576: use larger tiles");
  }
  return w;
}

std::array<double, 4> TileBox::core_rect(const WorldGrid& w) const {
  const double v = w.spec.voxel_size;
  return {w.origin[0] + core_min[0] * v, w.origin[2] + core_min[1] * v, w.origin[0] + core_max[0] * v,
          w.origin[2] + core_max[1] * v};
}

std::array<double, 4> TileBox::zone_rect(const WorldGrid& w) const {
  const double v = w.spec.voxel_size;
  return {w.origin[0] + zone_min[0] * v, w.origin[2] + zone_min[1] * v, w.origin[0] + zone_max[0] * v,
          w.origin[2] + zone_max[1] * v};
}

std::array<uint32_t, 2> TileBox::own_chunk_first(const WorldGrid& w) const {
  const uint32_t cc = w.spec.chunk_cells;
  return {(core_min[0] - zone_min[0]) / cc, (core_min[1] - zone_min[1]) / cc};
}

std::array<uint32_t, 2> TileBox::own_chunk_count(const WorldGrid& w) const {
  const uint32_t cc = w.spec.chunk_cells;
  return {(core_max[0] - core_min[0] + cc - 1) / cc, (core_max[1] - core_min[1] + cc - 1) / cc};
}

TileBox tile_box(const WorldGrid& w, uint32_t i, uint32_t j) {
  if (i >= w.tiles_x() || j >= w.tiles_z()) {
    throw_usage("tile " + std::to_string(i) + "," + std::to_string(j) + " is outside the world of " +
                std::to_string(w.tiles_x()) + "x" + std::to_string(w.tiles_z()) + " tiles (0.." +
                std::to_string(w.tiles_x() - 1) + ", 0.." + std::to_string(w.tiles_z() - 1) + ")");
  }
  const uint32_t tc = w.tile_cells(), halo = w.spec.halo_chunks * w.spec.chunk_cells;
  TileBox t;
  t.i = i;
  t.j = j;
  const uint32_t n[2] = {w.cells.nx, w.cells.nz}, k[2] = {i, j};
  for (int a = 0; a < 2; ++a) {
    t.core_min[a] = k[a] * tc;
    t.core_max[a] = std::min(n[a], (k[a] + 1) * tc);
    t.zone_min[a] = t.core_min[a] >= halo ? t.core_min[a] - halo : 0;
    t.zone_max[a] = uint32_t(std::min<uint64_t>(n[a], uint64_t(t.core_max[a]) + halo));
  }
  return t;
}

GridFrame tile_frame(const WorldGrid& w, const TileBox& t) {
  return GridFrame{w.origin, {int64_t(t.zone_min[0]), 0, int64_t(t.zone_min[1])}};
}

ZoneMeta tile_meta(const WorldGrid& w, const TileBox& t) {
  const double v = w.spec.voxel_size;
  ZoneMeta m;
  m.cells = Dims{t.zone_max[0] - t.zone_min[0], w.cells.ny, t.zone_max[1] - t.zone_min[1]};
  m.voxel_size = v;
  m.origin = {w.origin[0] + t.zone_min[0] * v, w.origin[1], w.origin[2] + t.zone_min[1] * v};
  m.chunk_cells = w.spec.chunk_cells;
  m.border_voxels = w.spec.border_voxels;
  const int32_t b = int32_t(w.spec.border_voxels);
  const int64_t nx = m.cells.nx, ny = m.cells.ny, nz = m.cells.nz;
  if (nx < 4 * int64_t(b) + 1 || nz < 4 * int64_t(b) + 1 || ny < 2 * int64_t(b) + 1) {
    throw_usage(tile_name(t) + "'s zone of " + std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                std::to_string(nz) + " cells is too small for a border of " + std::to_string(b) +
                " voxels: use larger tiles or a smaller border");
  }
  m.hole = HoleRect{m.origin[0] + b * v, m.origin[2] + b * v, m.origin[0] + (nx - b) * v, m.origin[2] + (nz - b) * v};
  m.edit_box.min = {2 * b, b, 2 * b};
  m.edit_box.max = {int32_t(nx) - 2 * b, int32_t(ny) - b, int32_t(nz) - 2 * b};
  return m;
}

std::array<double, 4> tile_read_rect(const WorldGrid& w, const TileBox& t) {
  auto r = t.zone_rect(w);
  const double grow = (kBandVoxels + 1) * w.spec.voxel_size;
  return {r[0] - grow, r[1] - grow, r[2] + grow, r[3] + grow};
}

void check_tile_terrain(const WorldGrid& w, const TileBox& t, const Heightfield& hf) {
  check_heightfield(hf);
  const double v = w.spec.voxel_size, band = kBandVoxels, eps = 1e-6 * v;
  const auto r = t.zone_rect(w);
  if (r[0] < hf.x_of(0) - eps || r[2] > hf.max_x() + eps || r[1] < hf.z_of(0) - eps || r[3] > hf.max_z() + eps) {
    throw_usage(tile_name(t) + " (x " + metres(r[0]) + ".." + metres(r[2]) + ", z " + metres(r[1]) + ".." +
                metres(r[3]) + " m) is not inside the terrain: shrink the world box to the heightmap");
  }
  const HeightRange under = height_range(hf, r[0], r[1], r[2], r[3]);
  if (under.nodata > 0) {
    throw Error(ErrorKind::Data, tile_name(t) + " covers " + std::to_string(under.nodata) +
                                     " heightmap samples without data (first at world x " + metres(under.nodata_x) +
                                     ", z " + metres(under.nodata_z) + "): fill them with a value or move the box");
  }
  HeightRange near = height_range(hf, r[0] - band * v, r[1] - band * v, r[2] + band * v, r[3] + band * v);
  if (near.nodata > 0) near = under;
  const double y0 = w.origin[1], y1 = w.origin[1] + double(w.cells.ny) * v;
  const double need_bottom = near.min - (band + 1) * v;
  const double need_top = near.max + (band + w.spec.headroom_voxels) * v;
  if (y0 > need_bottom) {
    throw_usage(tile_name(t) + ": the terrain reaches down to y " + metres(near.min) +
                " m; the world box bottom (" + metres(y0) + " m) must lie at or below " + metres(need_bottom) +
                " m (one voxel of solid below the SDF band): lower it");
  }
  if (y1 < need_top) {
    throw_usage(tile_name(t) + ": the terrain reaches up to y " + metres(near.max) + " m; the world grid's top (" +
                metres(y1) + " m) must clear " + metres(need_top) + " m (the SDF band and the headroom): raise it");
  }
}

Zone bake_tile(const WorldGrid& w, const TileBox& t, const Heightfield& hf, const Progress& progress) {
  check_tile_terrain(w, t, hf);
  Zone z;
  z.meta = tile_meta(w, t);
  const GridFrame f = tile_frame(w, t);
  bake_sdf(hf, z.meta, z.grid, progress, &z.baked, &f);
  z.height = bake_height_raster(hf, z.meta, &f);
  z.filled = bake_filled_raster(hf, z.meta, &f);
  const auto r = t.zone_rect(w);
  const HeightRange under = height_range(hf, r[0], r[1], r[2], r[3]);
  z.meta.height_min = under.min;
  z.meta.height_max = under.max;
  return z;
}

}  // namespace voxkit
