// Baking a terrain into a dig zone: the zone's geometry (box, cells, edit box, terrain hole,
// grow-to-terrain), the exact band SDF of the heightfield, splat and height rasters, and
// re-baking a sculpted zone from a changed terrain. Rules in docs/bake.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/bake/heightfield.hpp"
#include "lib/core/progress.hpp"
#include "lib/core/zone.hpp"

namespace voxkit {

// The SDF band: distances are exact within this many voxels of the surface, clamped beyond.
inline constexpr double kBandVoxels = 2.0;

// Default cap on a baked zone's samples (2^31 - 1, the RLE count limit).
inline constexpr uint64_t kDefaultMaxBakeSamples = kMaxGridSamples;

// Where the zone goes. Exactly one of: a world box, a centre + size, or the whole terrain.
struct ZoneBoxSpec {
  enum class Kind { Whole, Box, Centre } kind = Kind::Whole;
  std::array<double, 3> min{0, 0, 0}, max{0, 0, 0};   // Box: world corners, metres
  std::array<double, 3> centre{0, 0, 0}, size{0, 0, 0};  // Centre: world centre and size
  double voxel_size = 0.5;          // metres per cell
  uint32_t chunk_cells = 16;
  uint32_t border_voxels = 2;
  double headroom_voxels = 2;       // air kept above the band over the highest terrain
  double depth_voxels = 16;         // Whole: solid kept below the band under the lowest terrain
  uint64_t max_samples = kDefaultMaxBakeSamples;
};

// Lays out the zone over `hf`: cells, origin, edit box, hole, height range; grows the top to
// clear the terrain by the band plus the headroom. Throws a usage error for an empty or
// inverted box, a box outside the terrain, NoData under the zone, a zone too small for its
// border, or a zone over `max_samples` (naming the fix).
ZoneMeta plan_zone(const Heightfield& hf, const ZoneBoxSpec& spec);

// A zone cut out of a larger grid (a tile of a world): zone sample (x, y, z) is sample
// (x + offset[0], y + offset[1], z + offset[2]) of a grid whose sample 0 lies at `origin`.
// The bakes below compute positions in that larger grid, so a cut-out's bytes equal the same
// region of the larger grid's bake bit for bit. Without a frame, the zone is its own grid.
struct GridFrame {
  std::array<double, 3> origin{0, 0, 0};
  std::array<int64_t, 3> offset{0, 0, 0};
};
// The frame a zone is its own grid in: its origin, no offset.
inline GridFrame own_frame(const ZoneMeta& m) { return GridFrame{m.origin, {0, 0, 0}}; }

// Bakes the band SDF of `hf` into `grid` (resized to meta.cells). Parallel over z-slabs,
// the same bytes for any thread count. `progress` gets (slabs done, slabs). With `copy`,
// that grid gets the same bytes too, each slab copied while it is still in cache (the
// baked grid of a fresh zone).
// `frame` (when given) places the zone inside a larger grid; meta.origin is then not read.
void bake_sdf(const Heightfield& hf, const ZoneMeta& meta, ByteGrid& grid,
              const Progress& progress = {}, ByteGrid* copy = nullptr, const GridFrame* frame = nullptr);

// Terrain height (world metres) at every zone column.
ColumnRaster<float> bake_height_raster(const Heightfield& hf, const ZoneMeta& meta,
                                       const GridFrame* frame = nullptr);

// Which zone columns stand on filled NoData (Zone::filled): 1 where the column's terrain
// height (bake_height_raster) gives weight to a sample marked in `hf.filled`. Empty when no
// column does, so a zone over data only stores no mask.
ColumnRaster<uint8_t> bake_filled_raster(const Heightfield& hf, const ZoneMeta& meta,
                                         const GridFrame* frame = nullptr);

// A control (splat) image: 4 channels per texel, row 0 at world z max (image order),
// covering the terrain's extent with texel centres at (i + 0.5) / width of it.
struct SplatImage {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // 4 bytes per texel, row-major
};

// Bilinearly resamples up to four control images (4 layers each, Unity _Control order) to
// the zone's columns: one raster per layer, `layers` of them (<= 4 * images.size(), <= 16).
// `terrain_min/max` give the world x/z extent the images cover.
std::vector<ColumnRaster<uint8_t>> resample_splat(const std::vector<SplatImage>& images,
                                                  uint32_t layers, const ZoneMeta& meta,
                                                  double terrain_min_x, double terrain_min_z,
                                                  double terrain_max_x, double terrain_max_z,
                                                  const GridFrame* frame = nullptr);

// A fresh zone: planned, baked (current = baked), height raster, filled-column mask, no paint.
Zone bake_zone(const Heightfield& hf, const ZoneBoxSpec& spec, const Progress& progress = {});

struct RebakeStats {
  uint64_t kept = 0;       // sculpted samples kept (current != baked before the re-bake)
  uint64_t changed = 0;    // unsculpted samples whose value the new terrain changed
  uint64_t samples = 0;
  uint32_t grown_cells = 0;  // cells added at the top so the new terrain stays inside
};

// Re-bakes `zone` from the new terrain `hf`: keeps every sculpted sample and all paint,
// takes the new terrain everywhere else, and sets the baked copy, the height raster and the
// filled-column mask to the new terrain. The top grows (air added above) when the new terrain needs it. Bumps grid_version.
RebakeStats rebake_zone(Zone& zone, const Heightfield& hf, double headroom_voxels = 2,
                        uint64_t max_samples = kDefaultMaxBakeSamples,
                        const Progress& progress = {});

}  // namespace voxkit
