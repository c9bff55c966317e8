// Options shared by `bake` and `rebake`: heightmap placement, NoData fill, splat maps, parsed
// into bake_job::Terrain.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "formats/bake/bake_job.hpp"

namespace voxkit::cli {

struct TerrainOptions {
  bake_job::Terrain terrain;
  std::vector<double> terrain_size, terrain_pos, origin;
  std::vector<uint32_t> raw_size;
  std::string splat, layers;

  // Adds the placement, NoData and splat options to `cmd` (and the heightmap positional
  // unless the verb has its own input).
  void add(CLI::App* cmd, bool heightmap_positional = true);
  // The parsed terrain: placement and splat lists filled in.
  const bake_job::Terrain& get();
};

}  // namespace voxkit::cli
