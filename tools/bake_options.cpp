// Heightmap placement and splat options for the bake verbs.
#include "tools/bake_options.hpp"

#include "formats/core/io.hpp"
#include "formats/image/splat.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"

namespace voxkit::cli {
namespace {

std::array<double, 3> three(const std::vector<double>& v, const char* name, double third = 0) {
  if (v.size() == 2) return {v[0], v[1], third};
  if (v.size() != 3) throw_usage(std::string(name) + " needs three comma-separated numbers");
  return {v[0], v[1], v[2]};
}

}  // namespace

void TerrainOptions::add(CLI::App* cmd) {
  cmd->add_option("--terrain-size", terrain_size,
                  "Unity placement: terrain size W,H,L in metres (heights normalised, y = Y + h*H)")
      ->delimiter(',')->expected(3);
  cmd->add_option("--terrain-pos", terrain_pos, "Unity placement: terrain position X,Y,Z (default 0,0,0)")
      ->delimiter(',')->expected(3);
  cmd->add_option("--raw-size", raw_size, "Unity .raw size W,H in samples (default: square 2^n+1 from the file size)")
      ->delimiter(',')->expected(2);
  cmd->add_option("--origin", origin,
                  "Georeferenced rasters: projected E,N[,H] that becomes world 0 (default: the raster's south-west corner)")
      ->delimiter(',')->expected(2, 3);
  cmd->add_option("--t-srs", t_srs,
                  "Warp to this CRS (EPSG:n, WKT, PROJ); geographic rasters default to the local UTM zone");
  add_nodata_fill(cmd, "--nodata-fill", nodata_fill, "Fill NoData: min, value:N or nearest (default: refuse)");
  cmd->add_option("--splat", splat, "Up to four RGBA control images a.png,b.png,... (Unity _Control order)");
  cmd->add_option("--layers", layers, "Terrain layer names, comma-separated (default layer0, layer1, ...)");
}

Heightfield TerrainOptions::load(heightmap::Info& info) const {
  heightmap::Options o;
  if (!terrain_size.empty()) o.terrain_size = three(terrain_size, "--terrain-size");
  if (!terrain_pos.empty()) o.terrain_pos = three(terrain_pos, "--terrain-pos");
  if (!origin.empty()) o.origin = three(origin, "--origin");
  if (!raw_size.empty()) o.raw_size = std::array<uint32_t, 2>{raw_size[0], raw_size[1]};
  o.t_srs = t_srs;
  const NodataFill fill = nodata_fill;
  Heightfield hf = heightmap::read(heightmap, o, &info);
  with_source(io::display_name(heightmap), [&] {
    check_heightfield(hf);
    fill_nodata(hf, fill);
  });
  return hf;
}

void TerrainOptions::apply_splat(Zone& zone, const Heightfield& hf) const {
  if (splat.empty()) return;
  std::vector<SplatImage> images;
  for (const auto& path : splat::split_list(splat)) images.push_back(splat::read(path));
  if (images.size() > 4) throw_usage("--splat takes at most four control images, got " + std::to_string(images.size()));
  std::vector<std::string> names = splat::split_list(layers);
  if (names.empty()) {
    for (size_t k = 0; k < 4 * images.size(); ++k) names.push_back("layer" + std::to_string(k));
  }
  if (names.size() > 4 * images.size()) {
    throw_usage("--layers names " + std::to_string(names.size()) + " layers but " +
                std::to_string(images.size()) + " control image(s) hold at most " +
                std::to_string(4 * images.size()));
  }
  // A georeferenced raster's images cover its pixel edges; Unity placement its sample span.
  double x0 = hf.origin_x, z0 = hf.origin_z, x1 = hf.max_x(), z1 = hf.max_z();
  if (terrain_size.empty()) {
    x0 -= hf.dx / 2;
    x1 += hf.dx / 2;
    z0 -= hf.dz / 2;
    z1 += hf.dz / 2;
  }
  zone.splat = resample_splat(images, uint32_t(names.size()), zone.meta, x0, z0, x1, z1);
  zone.meta.layer_names = names;
}

}  // namespace voxkit::cli
