// The dig-zone model in memory: metadata, the current, baked and paint grids, and the
// height and splat textures under the zone. The file container is formats/zone/zone_file.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/core/grid.hpp"

namespace voxkit {

// A box of samples, inclusive on both ends, in sample coordinates of the zone grid.
struct SampleBox {
  std::array<int32_t, 3> min{0, 0, 0};
  std::array<int32_t, 3> max{0, 0, 0};
  bool operator==(const SampleBox&) const = default;
};

// The terrain hole, in world metres on the horizontal plane (min x, min z, max x, max z).
struct HoleRect {
  double min_x = 0, min_z = 0, max_x = 0, max_z = 0;
  bool operator==(const HoleRect&) const = default;
};

struct ZoneMeta {
  Dims cells;
  double voxel_size = 0.5;                 // metres per cell edge
  std::array<double, 3> origin{0, 0, 0};   // world position of sample 0 (Unity space, y up)
  uint32_t chunk_cells = 16;
  uint32_t border_voxels = 2;
  SampleBox edit_box;
  HoleRect hole;
  double height_min = 0, height_max = 0;   // terrain height range under the zone, metres
  std::vector<std::string> layer_names;    // terrain layers, in _Control order (<= 16)
  std::string source;                      // free text: where the zone came from
  uint32_t grid_version = 1;               // bumped whenever a grid changes

  // World position of sample (x, y, z).
  std::array<double, 3> world(double x, double y, double z) const {
    return {origin[0] + x * voxel_size, origin[1] + y * voxel_size, origin[2] + z * voxel_size};
  }
};

// A per-column raster under the zone: (nx+1) x (nz+1) values at index x + (nx+1) * z.
template <class T>
struct ColumnRaster {
  uint32_t width = 0, depth = 0;  // nx+1, nz+1
  std::vector<T> values;
};

struct Zone {
  ZoneMeta meta;
  ByteGrid grid;   // current SDF grid
  ByteGrid baked;  // the grid as baked from the terrain
  ByteGrid paint;  // 0 auto, 1-4 layers 0-3, 5 dug soil, 6-17 layers 4-15; empty = never painted
  ColumnRaster<float> height;                 // terrain height (world metres) per column
  std::vector<ColumnRaster<uint8_t>> splat;   // one weight raster (0..255) per terrain layer
  // Trees and details placed by edits (packed tree/detail edits with a layer above 0) whose
  // objects still stand, in the order they were placed, and the erase edits (layer 0) applied
  // since the bake, in log order (they hide baked foliage within their radius).
  std::vector<uint64_t> spawns, erases;

  // Sections of the file this version does not know, carried through unchanged on rewrite.
  struct RawSection {
    std::array<char, 4> tag;
    std::vector<uint8_t> bytes;
  };
  std::vector<RawSection> unknown_sections;
};

}  // namespace voxkit
