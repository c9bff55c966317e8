#include "formats/grass/grass_surface.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "formats/core/io.hpp"
#include "formats/image/heightmap.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit::grass {

namespace {

// Quads with a corner marked in `none` become holes; returns how many.
uint64_t holes_from_columns(SurfaceGrid& g, const std::vector<uint8_t>& none) {
  const int32_t qx = g.samples_x - 1, qz = g.samples_z - 1;
  g.hole.assign(static_cast<size_t>(qx) * qz, 0);
  uint64_t missing = 0;
  for (int32_t z = 0; z < qz; ++z)
    for (int32_t x = 0; x < qx; ++x) {
      const size_t a = static_cast<size_t>(z) * g.samples_x + x, b = a + g.samples_x;
      if (none[a] | none[a + 1] | none[b] | none[b + 1]) {
        g.hole[static_cast<size_t>(z) * qx + x] = 1;
        ++missing;
      }
    }
  if (missing == 0) g.hole.clear();
  return missing;
}

std::vector<float> weights_of(const ColumnRaster<uint8_t>& r) {
  std::vector<float> w(r.values.size());
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(r.values[i]) / 255.0f;
  return w;
}

}  // namespace

SurfaceGrid surface_from_zone(const Zone& zone, SurfaceReport* report) {
  const Dims& c = zone.grid.cells;
  if (c.nx < 1 || c.nz < 1) throw Error(ErrorKind::Data, "the zone has no columns to grow grass on");
  SurfaceGrid g;
  g.samples_x = static_cast<int32_t>(c.sx());
  g.samples_z = static_cast<int32_t>(c.sz());
  g.spacing = static_cast<float>(zone.meta.voxel_size);
  g.origin_x = static_cast<float>(zone.meta.origin[0]);
  g.origin_y = static_cast<float>(zone.meta.origin[1]);
  g.origin_z = static_cast<float>(zone.meta.origin[2]);
  const std::vector<float> top = foliage::top_surfaces(zone.grid);
  std::vector<float> baked;
  if (!zone.baked.data.empty() && zone.baked.cells == c) baked = foliage::top_surfaces(zone.baked);
  std::vector<uint8_t> none(top.size(), 0);
  g.height.resize(top.size());
  uint64_t without = 0;
  for (size_t i = 0; i < top.size(); ++i) {
    float t = top[i];
    const bool has = t >= 0.0f;
    const bool dug = has && !baked.empty() && baked[i] >= 0.0f && t < baked[i] - kDugTolerance;
    if (!has || dug) {
      none[i] = 1;
      ++without;
      // Neighbours read it for their normals: the baked surface where there is one.
      if (!has) t = !baked.empty() && baked[i] >= 0.0f ? baked[i] : 0.0f;
    }
    g.height[i] = t * g.spacing;
  }
  const uint64_t missing = holes_from_columns(g, none);
  g.layer_names = zone.meta.layer_names;
  for (size_t k = 0; k < g.layer_names.size(); ++k) {
    if (k < zone.splat.size() && zone.splat[k].values.size() == top.size())
      g.weights.push_back(weights_of(zone.splat[k]));
    else
      g.weights.emplace_back(top.size(), 0.0f);  // a named layer with no raster: unpainted
  }
  g.check();
  if (report) {
    report->kind = "zone";
    report->columns = top.size();
    report->columns_without_ground = without;
    report->quads_missing = missing;
    report->layer_names = g.layer_names;
  }
  return g;
}

SurfaceGrid surface_from_terrain(const bake_job::Terrain& terrain, SurfaceReport* report) {
  heightmap::Info info;
  const Heightfield hf = bake_job::load_terrain(terrain, info);
  if (std::abs(hf.dx - hf.dz) > 1e-9 * std::max(hf.dx, hf.dz))
    throw Error(ErrorKind::Usage, "the grass surface needs square samples", std::nullopt,
                "equal x and z spacing", std::to_string(hf.dx) + " x " + std::to_string(hf.dz));
  if (hf.width > 65536 || hf.depth > 65536)
    throw Error(ErrorKind::Usage, "heightmap too large for a grass surface", std::nullopt,
                "at most 65536 samples per side", std::to_string(hf.width) + " x " + std::to_string(hf.depth));
  SurfaceGrid g;
  g.samples_x = static_cast<int32_t>(hf.width);
  g.samples_z = static_cast<int32_t>(hf.depth);
  g.spacing = static_cast<float>(hf.dx);
  g.origin_x = static_cast<float>(hf.origin_x);
  g.origin_z = static_cast<float>(hf.origin_z);
  g.height = hf.heights;
  std::vector<uint8_t> none(g.height.size(), 0);
  uint64_t without = 0;
  for (size_t i = 0; i < g.height.size(); ++i)
    if (!std::isfinite(g.height[i])) {
      none[i] = 1, ++without;
      g.height[i] = 0.0f;
    }
  const uint64_t missing = holes_from_columns(g, none);
  if (!terrain.splat.empty()) {
    // Splat images resampled to the heightmap's samples, as `bake` resamples them to columns.
    Zone z;
    z.meta.cells = Dims{hf.width - 1, 1, hf.depth - 1};
    z.meta.voxel_size = hf.dx;
    z.meta.origin = {hf.origin_x, 0.0, hf.origin_z};
    bake_job::place_splat(terrain, z, hf);
    g.layer_names = z.meta.layer_names;
    for (const auto& r : z.splat) g.weights.push_back(weights_of(r));
  }
  g.check();
  if (report) {
    report->kind = "heightmap";
    report->columns = g.height.size();
    report->columns_without_ground = without;
    report->quads_missing = missing;
    report->layer_names = g.layer_names;
  }
  return g;
}

SurfaceGrid read_surface(const std::string& path, bake_job::Terrain terrain, uint64_t max_input,
                         SurfaceReport* report) {
  // A zone or an asset is known by its first bytes; a heightmap is left to GDAL unread.
  std::vector<uint8_t> head;
  if (path == "-") {
    head = io::read_all(path, max_input);
  } else if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    head.resize(16);
    head.resize(std::fread(head.data(), 1, head.size(), f));
    std::fclose(f);
  }
  const bool zone_file = is_zone_file(head);
  const bool asset = !zone_file && head.size() >= 5 && std::string(head.begin(), head.begin() + 5) == "%YAML";
  if (zone_file || asset) {
    const std::string name = io::display_name(path);
    if (path != "-") head = io::read_all(path, max_input);
    Zone z = with_source(name, [&] {
      if (zone_file) return read_zone(head);
      return unity::import_asset(std::string(head.begin(), head.end()), name);
    });
    head = {};
    return with_source(name, [&] { return surface_from_zone(z, report); });
  }
  if (path == "-") throw Error(ErrorKind::Usage, "a heightmap surface cannot be read from stdin");
  terrain.heightmap = path;
  return surface_from_terrain(terrain, report);
}

}  // namespace voxkit::grass
