// Heightmap placement and splat options for the bake verbs.
#include "tools/bake_options.hpp"

#include "formats/image/splat.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"

namespace voxkit::cli {

void TerrainOptions::add(CLI::App* cmd, bool heightmap_positional) {
  if (heightmap_positional)
    cmd->add_option("heightmap", terrain.heightmap, "Heightmap: any GDAL raster, or Unity .raw")->required();
  cmd->add_option("--terrain-size", terrain_size,
                  "Unity placement: terrain size W,H,L in metres (heights normalised, y = Y + h*H)")
      ->delimiter(',')->expected(3);
  cmd->add_option("--terrain-pos", terrain_pos, "Unity placement: terrain position X,Y,Z (default 0,0,0)")
      ->delimiter(',')->expected(3);
  cmd->add_option("--raw-size", raw_size, "Unity .raw size W,H in samples (default: square 2^n+1 from the file size)")
      ->delimiter(',')->expected(2);
  cmd->add_option("--geo-origin", origin,
                  "Georeferenced rasters: projected E,N[,H] that becomes world 0 (default: the raster's south-west corner)")
      ->delimiter(',')->expected(2, 3)->type_name("E,N[,H]");
  cmd->add_option("--t-srs", terrain.placement.t_srs,
                  "Warp to this CRS (EPSG:n, WKT, PROJ); geographic rasters default to the local UTM zone");
  add_nodata_fill(cmd, "--nodata-fill", terrain.nodata_fill, "Fill NoData: min, value:N or nearest (default: refuse)");
  cmd->add_option("--splat", splat, "Up to four RGBA control images a.png,b.png,... (Unity _Control order)");
  cmd->add_option("--layers", layers, "Terrain layer names, comma-separated (default layer0, layer1, ...)");
}

const bake_job::Terrain& TerrainOptions::get() {
  heightmap::Options& o = terrain.placement;
  auto three = [](const std::vector<double>& v) { return std::array<double, 3>{v[0], v[1], v.size() > 2 ? v[2] : 0}; };
  if (!terrain_size.empty()) o.terrain_size = three(terrain_size);
  if (!terrain_pos.empty()) o.terrain_pos = three(terrain_pos);
  if (!origin.empty()) o.origin = three(origin);
  if (!raw_size.empty()) o.raw_size = std::array<uint32_t, 2>{raw_size[0], raw_size[1]};
  if (o.terrain_size && (!((*o.terrain_size)[0] > 0) || !((*o.terrain_size)[2] > 0) || !((*o.terrain_size)[1] >= 0))) {
    throw_usage("--terrain-size W,H,L needs positive W and L and H >= 0");
  }
  if (o.raw_size && ((*o.raw_size)[0] < 2 || (*o.raw_size)[1] < 2)) throw_usage("--raw-size needs at least 2x2 samples");
  terrain.splat = splat::split_list(splat);
  terrain.splat_text = splat;
  terrain.layer_names = splat::split_list(layers);
  if (terrain.splat.size() > 4) {
    throw_usage("--splat takes at most four control images, got " + std::to_string(terrain.splat.size()));
  }
  return terrain;
}

}  // namespace voxkit::cli
