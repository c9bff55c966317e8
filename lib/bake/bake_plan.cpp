// Zone geometry for a bake: box -> cells and origin, grow-to-terrain, edit box, terrain hole.
#include <algorithm>
#include <cmath>

#include "lib/bake/bake.hpp"
#include "lib/bake/plan_text.hpp"
#include "lib/core/error.hpp"

namespace voxkit {
namespace {

using bake_detail::cells_for;
using bake_detail::metres;

}  // namespace

ZoneMeta plan_zone(const Heightfield& hf, const ZoneBoxSpec& spec) {
  check_heightfield(hf);
  const double v = spec.voxel_size;
  if (!(v > 0) || !std::isfinite(v)) throw_usage("voxel size must be positive, got " + metres(v));
  if (spec.chunk_cells < 1 || spec.chunk_cells > 256) {
    throw_usage("chunk cells must be 1..256, got " + std::to_string(spec.chunk_cells));
  }
  if (!(spec.headroom_voxels >= 0) || !(spec.depth_voxels >= 0)) {
    throw_usage("headroom and depth must be zero or more voxels");
  }
  const double band = kBandVoxels;
  const double eps = 1e-6 * v;

  std::array<double, 3> lo{}, hi{};
  switch (spec.kind) {
    case ZoneBoxSpec::Kind::Box:
      lo = spec.min;
      hi = spec.max;
      break;
    case ZoneBoxSpec::Kind::Centre:
      for (int a = 0; a < 3; ++a) {
        if (!(spec.size[a] > 0)) throw_usage("zone size must be positive on every axis");
        lo[a] = spec.centre[a] - spec.size[a] / 2;
        hi[a] = spec.centre[a] + spec.size[a] / 2;
      }
      break;
    case ZoneBoxSpec::Kind::Whole:
      lo = {hf.x_of(0), 0, hf.z_of(0)};
      hi = {hf.max_x(), 0, hf.max_z()};
      break;
  }
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(lo[a]) || !std::isfinite(hi[a])) throw_usage("zone box must be finite");
    if (spec.kind != ZoneBoxSpec::Kind::Whole || a != 1) {
      if (!(hi[a] > lo[a])) {
        throw_usage(std::string("zone box is empty along ") + "xyz"[a] + ": min " +
                    metres(lo[a]) + " >= max " + metres(hi[a]));
      }
    }
  }

  // Horizontal cells: the whole terrain takes the cells that fit inside it; a box is
  // covered (rounded up) and must lie inside the terrain.
  double cx, cz;
  if (spec.kind == ZoneBoxSpec::Kind::Whole) {
    cx = std::floor((hi[0] - lo[0]) / v + 1e-9);
    cz = std::floor((hi[2] - lo[2]) / v + 1e-9);
    if (cx < 1 || cz < 1) {
      throw_usage("the terrain (" + metres(hi[0] - lo[0]) + " x " + metres(hi[2] - lo[2]) +
                      " m) is smaller than one voxel of " + metres(v) + " m: use a smaller voxel size",
                  {{"voxel-size", "voxel size"}});
    }
  } else {
    cx = cells_for(hi[0] - lo[0], v);
    cz = cells_for(hi[2] - lo[2], v);
    const double ex = lo[0] + cx * v, ez = lo[2] + cz * v;
    if (lo[0] < hf.x_of(0) - eps || ex > hf.max_x() + eps || lo[2] < hf.z_of(0) - eps ||
        ez > hf.max_z() + eps) {
      throw_usage("zone x " + metres(lo[0]) + ".." + metres(ex) + ", z " + metres(lo[2]) + ".." +
                  metres(ez) + " m is not inside the terrain (x " + metres(hf.x_of(0)) + ".." +
                  metres(hf.max_x()) + ", z " + metres(hf.z_of(0)) + ".." + metres(hf.max_z()) +
                  " m): move or shrink the box");
    }
  }

  // Terrain under the zone footprint (exact) and within the band around it (for growth).
  const double fx1 = lo[0] + cx * v, fz1 = lo[2] + cz * v;
  HeightRange under = height_range(hf, lo[0], lo[2], fx1, fz1);
  HeightRange near = height_range(hf, lo[0] - band * v, lo[2] - band * v, fx1 + band * v,
                                  fz1 + band * v);
  if (under.nodata > 0) {
    throw Error(ErrorKind::Data, "the zone covers " + std::to_string(under.nodata) +
                                     " heightmap samples without data (first at world x " +
                                     metres(under.nodata_x) + ", z " + metres(under.nodata_z) +
                                     "): give a NoData fill policy or move the box")
        .set_hint("nodata-fill");
  }
  if (near.nodata > 0) {
    near = under;  // NoData just outside the zone: the band there uses what lies inside
  }

  // Vertical: the bottom keeps one voxel of solid below the band under the lowest terrain;
  // the top clears the band plus the headroom over the highest terrain (grow-to-terrain).
  double y0, y1;
  if (spec.kind == ZoneBoxSpec::Kind::Whole) {
    y0 = near.min - (band + spec.depth_voxels) * v;
    y1 = near.max + (band + spec.headroom_voxels) * v;
  } else {
    y0 = lo[1];
    y1 = hi[1];
  }
  const double need_bottom = near.min - (band + 1) * v;
  if (y0 > need_bottom) y0 -= std::ceil((y0 - need_bottom) / v - 1e-9) * v;
  double cy = cells_for(y1 - y0, v);
  const double need_top = near.max + (band + spec.headroom_voxels) * v;
  if (y0 + cy * v < need_top) cy = cells_for(need_top - y0, v);
  cy = std::max(cy, 1.0);

  const double samples = (cx + 1) * (cy + 1) * (cz + 1);
  if (samples > double(spec.max_samples) || cx > 65535 || cy > 65535 || cz > 65535) {
    throw_usage("zone of " + metres(cx) + "x" + metres(cy) + "x" + metres(cz) + " cells has " +
                    metres(samples) + " samples, over the limit of " +
                    std::to_string(spec.max_samples) +
                    " (and 65535 cells per axis; the terrain there spans y " + metres(near.min) +
                    ".." + metres(near.max) + " m): use a larger voxel size or a smaller box",
                {{"voxel-size", "voxel size"}});
  }

  ZoneMeta m;
  m.cells = Dims{uint32_t(cx), uint32_t(cy), uint32_t(cz)};
  m.voxel_size = v;
  m.origin = {lo[0], y0, lo[2]};
  m.chunk_cells = spec.chunk_cells;
  m.border_voxels = spec.border_voxels;
  const int32_t b = int32_t(spec.border_voxels);
  const int64_t nx = m.cells.nx, ny = m.cells.ny, nz = m.cells.nz;
  if (nx < 4 * int64_t(b) + 1 || nz < 4 * int64_t(b) + 1 || ny < 2 * int64_t(b) + 1) {
    throw_usage("zone of " + std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                    std::to_string(nz) + " cells is too small for a border of " +
                    std::to_string(b) + " voxels (needs at least " + std::to_string(4 * b + 1) +
                    " cells across and " + std::to_string(2 * b + 1) + " up): use a larger box or a smaller border",
                {{"border", "border"}});
  }
  // Hole: the zone shrunk by the border; edit box: the hole shrunk by the border again.
  m.hole = HoleRect{lo[0] + b * v, lo[2] + b * v, lo[0] + (nx - b) * v, lo[2] + (nz - b) * v};
  m.edit_box.min = {2 * b, b, 2 * b};
  m.edit_box.max = {int32_t(nx) - 2 * b, int32_t(ny) - b, int32_t(nz) - 2 * b};
  m.height_min = under.min;
  m.height_max = under.max;
  return m;
}

}  // namespace voxkit
