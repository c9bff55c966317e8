// The package's terrain hole rectangle and cut (lib/bake/hole_cut.hpp).
#include "lib/bake/hole_cut.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit {
namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

}  // namespace

HoleCutRect hole_cut_rect(const ZoneMeta& meta, const TerrainHoles& t, CutArithmetic mode) {
  const bool editor = mode == CutArithmetic::Editor;
  if (t.resolution == 0 || t.resolution > kMaxHolesResolution)
    throw_usage("the terrain's holes resolution must be 1.." + std::to_string(kMaxHolesResolution) + ", not " +
                std::to_string(t.resolution));
  if (!(t.size[0] > 0) || !(t.size[2] > 0) || !std::isfinite(t.size[0]) || !std::isfinite(t.size[2]))
    throw_usage("the terrain's size must be positive on x and z");
  const int res = int(t.resolution);
  const float tpx = float(t.position[0]), tpz = float(t.position[2]);
  const float hx = float(t.size[0]) / float(res), hz = float(t.size[2]) / float(res);
  const float v = float(meta.voxel_size);
  // DigZone.WorldBounds: centre = position + size / 2, extents = size / 2, in float.
  auto bounds = [&](double pos, uint32_t cells, float& lo, float& hi) {
    const float size = float(cells) * v, ext = size * 0.5f, p = float(pos);
    const float centre = p + ext;
    lo = centre - ext;
    hi = centre + ext;
  };
  float bx0, bx1, bz0, bz1;
  bounds(meta.origin[0], meta.cells.nx, bx0, bx1);
  bounds(meta.origin[2], meta.cells.nz, bz0, bz1);
  // Validate: the footprint must lie on the terrain (in float, as the package compares).
  const float tsx = float(t.size[0]), tsz = float(t.size[2]);
  if (bx0 < tpx || bz0 < tpz || bx1 > tpx + tsx || bz1 > tpz + tsz)
    throw_usage("the zone's footprint (x " + num(bx0) + ".." + num(bx1) + ", z " + num(bz0) + ".." + num(bz1) +
                ") must lie completely on the terrain (x " + num(tpx) + ".." + num(tpx + tsx) + ", z " + num(tpz) +
                ".." + num(tpz + tsz) + "), as the dig-zone package requires");
  // (b.min + v - tp) / h, rounded to float where Mathf.CeilToInt takes it.
  auto index = [&](float b, float sign, float tp, float h, bool up) {
    float f;
    if (editor)
      f = float((double(b) + double(sign) * double(v) - double(tp)) / double(h));
    else
      f = (b + sign * v - tp) / h;
    const double r = up ? std::ceil(double(f)) : std::floor(double(f));
    return int(std::clamp(r, 0.0, double(res)));
  };
  const int i0 = index(bx0, 1, tpx, hx, true), j0 = index(bz0, 1, tpz, hz, true);
  const int i1 = index(bx1, -1, tpx, hx, false), j1 = index(bz1, -1, tpz, hz, false);
  HoleCutRect r;
  r.x = i0;
  r.z = j0;
  r.width = i1 - i0;
  r.depth = j1 - j0;
  auto world = [&](float tp, int i, float h) {
    return editor ? double(float(double(tp) + double(i) * double(h))) : double(tp + float(i) * h);
  };
  r.world = HoleRect{world(tpx, i0, hx), world(tpz, j0, hz), world(tpx, i1, hx), world(tpz, j1, hz)};
  if (r.width <= 0 || r.depth <= 0)
    throw_usage("the zone is too small to cut a terrain hole (no hole cell of " + num(hx) + " x " + num(hz) +
                " m lies inside its footprint shrunk by a voxel), as the dig-zone package requires");
  const int border = std::max(2, int(meta.border_voxels));
  const double narrow = std::min(float(r.world.max_x) - float(r.world.min_x), float(r.world.max_z) - float(r.world.min_z));
  if (narrow <= double(v) * (2 * border + 2))
    throw_usage("the terrain hole (" + num(r.world.max_x - r.world.min_x) + " x " + num(r.world.max_z - r.world.min_z) +
                " m) is too narrow for the zone's border of " + std::to_string(border) +
                " voxels: the dig-zone package needs it wider than " + num(double(v) * (2 * border + 2)) + " m");
  return r;
}

ZoneHoleCut cut_terrain(const HoleCutRect& rect, const TerrainHoles& t, const std::vector<uint8_t>* holes) {
  const uint64_t res = t.resolution;
  if (holes && holes->size() != res * res)
    throw_usage("the terrain's hole raster holds " + std::to_string(holes->size()) + " values, not " +
                std::to_string(res) + " x " + std::to_string(res));
  ZoneHoleCut c;
  c.resolution = t.resolution;
  c.terrain_position = t.position;
  c.terrain_size = t.size;
  c.x = rect.x;
  c.z = rect.z;
  c.width = rect.width;
  c.depth = rect.depth;
  c.previous.assign(size_t(rect.width) * size_t(rect.depth), 1);
  if (holes)
    for (int32_t j = 0; j < rect.depth; ++j)
      for (int32_t i = 0; i < rect.width; ++i)
        c.previous[size_t(i) + size_t(j) * size_t(rect.width)] =
            (*holes)[size_t(rect.x + i) + res * size_t(rect.z + j)] ? 1 : 0;
  return c;
}

std::vector<uint8_t> hole_raster(const ZoneHoleCut& cut, const std::vector<uint8_t>* holes, bool cut_only) {
  const uint64_t res = cut.resolution;
  if (res == 0) throw_usage("the zone's hole cut does not record the terrain's holes resolution");
  if (cut.x < 0 || cut.z < 0 || uint64_t(cut.x) + uint64_t(std::max(cut.width, 0)) > res ||
      uint64_t(cut.z) + uint64_t(std::max(cut.depth, 0)) > res)
    throw_usage("the zone's hole cut lies outside the terrain's hole raster");
  if (holes && holes->size() != res * res)
    throw_usage("the terrain's hole raster holds " + std::to_string(holes->size()) + " values, not " +
                std::to_string(res) + " x " + std::to_string(res));
  std::vector<uint8_t> out(size_t(res * res), cut_only ? 0 : 1);
  if (holes && !cut_only)
    for (size_t k = 0; k < out.size(); ++k) out[k] = (*holes)[k] ? 1 : 0;
  for (int32_t j = 0; j < cut.depth; ++j)
    for (int32_t i = 0; i < cut.width; ++i) out[size_t(cut.x + i) + res * size_t(cut.z + j)] = cut_only ? 1 : 0;
  return out;
}

}  // namespace voxkit
