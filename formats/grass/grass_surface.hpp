// The surfaces a grass scatter reads (docs/grass.md): a zone's top surface, or a heightmap
// with splat (weight) images, as a lib/grass SurfaceGrid.
#pragma once

#include <string>
#include <vector>

#include "formats/bake/bake_job.hpp"
#include "lib/core/zone.hpp"
#include "lib/grass/surface.hpp"

namespace voxkit::grass {

// A column whose surface sank more than this below its baked surface (in voxels) has been
// dug: it grows nothing. The dig-zone package's foliage stands within the same tolerance.
inline constexpr float kDugTolerance = 24.0f / 64.0f;

struct SurfaceReport {
  std::string kind;                 // "zone" or "heightmap"
  uint64_t columns = 0;             // samples of the grid
  uint64_t columns_without_ground = 0;  // no surface, or dug (zones); no data (heightmaps)
  uint64_t quads_missing = 0;
  std::vector<std::string> layer_names;
};

// A zone's current top surface (columns x fastest, one sample per column at the voxel size),
// its splat weights as the layers, and a hole in every quad with a corner column that has no
// surface or was dug.
SurfaceGrid surface_from_zone(const Zone& zone, SurfaceReport* report = nullptr);

// A heightmap placed as `bake` places it (square samples only), its splat maps resampled to
// its samples and named; samples without data make holes of their quads.
SurfaceGrid surface_from_terrain(const bake_job::Terrain& terrain, SurfaceReport* report = nullptr);

// Reads `path` as a zone file or a dig-zone Unity asset when it is one (by its bytes), else
// as a heightmap with `terrain`'s placement and splat maps.
SurfaceGrid read_surface(const std::string& path, bake_job::Terrain terrain, uint64_t max_input,
                         SurfaceReport* report = nullptr);

}  // namespace voxkit::grass
