// Options shared by `bake` and `rebake`: heightmap placement, NoData fill, splat maps.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "formats/image/heightmap.hpp"
#include "lib/bake/bake.hpp"

namespace voxkit::cli {

struct TerrainOptions {
  std::string heightmap;
  std::vector<double> terrain_size, terrain_pos, origin;
  std::vector<uint32_t> raw_size;
  std::string t_srs, splat, layers;
  NodataFill nodata_fill;

  // Adds the placement, NoData and splat options to `cmd`.
  void add(CLI::App* cmd);
  // Reads and places the heightmap, fills NoData if asked; `info` says what was read.
  Heightfield load(heightmap::Info& info) const;
  // Reads the splat maps (if any) and resamples them to the zone's columns.
  void apply_splat(Zone& zone, const Heightfield& hf) const;
  bool has_splat() const { return !splat.empty(); }
};

}  // namespace voxkit::cli
