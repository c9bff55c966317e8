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

// --- Foliage anchors (the dig-zone package's trees, details and surface details) -----------
// Baked by lib/foliage/ (docs/foliage.md); stored in the zone file's FOLI section.

enum class TreeState : uint8_t { Fallen = 0, Standing = 1, Erased = 2 };

// A terrain tree the zone keeps: as placed (Unity's TreeInstance fields, world metres) and
// its anchor, the grid point (voxels from sample 0, not clamped) whose surface it stands on.
struct FoliageTree {
  uint32_t id = 0;         // index in the input list
  uint32_t prototype = 0;
  // The position as given: terrain-normalised (0..1 of the terrain) when `normalized`, else
  // world metres. Kept as read so it is written back bit for bit.
  std::array<float, 3> position{0, 0, 0};
  bool normalized = false;
  std::array<float, 3> anchor{0, 0, 0};
  float rotation = 0;      // radians about y, as Unity's TreeInstance keeps it
  float width = 1, height = 1;
  std::array<float, 3> up{0, 0, 0};  // (0,0,0): straight up
  std::array<uint8_t, 4> color{255, 255, 255, 255}, lightmap_color{255, 255, 255, 255};
  TreeState state = TreeState::Standing, baked_state = TreeState::Standing;
};

// A terrain detail instance on the top surface of its grid column.
struct FoliageDetail {
  uint32_t id = 0, prototype = 0;
  std::array<float, 3> root{0, 0, 0};  // zone-local metres (from the zone origin)
  float rotation = 0;                  // degrees about y (Unity's DetailInstanceTransform)
  float width = 1, height = 1;
  uint32_t column = 0;                 // nearest column x + (nx+1) z: its mask texel
};

// A surface detail (walls, ceilings, tunnel floors): its own anchor and mask texel.
struct FoliageSurfaceDetail {
  uint32_t id = 0, prototype = 0;
  // The position as given: metres from the terrain's position when `terrain_relative` (the
  // Unity asset's form), else world metres.
  std::array<float, 3> position{0, 0, 0};
  bool terrain_relative = false;
  std::array<float, 3> root{0, 0, 0};    // zone-local metres
  std::array<float, 3> normal{0, 0, 0};  // which way it grows
  std::array<float, 3> anchor{0, 0, 0};  // grid units
  float rotation = 0, width = 1, height = 1;
  uint32_t column = 0;
};

struct ZoneFoliage {
  // Items sorted stably by the chunk that checks them; buckets are CSR offsets (chunk count
  // + 1; detail buckets: chunk columns CX*CZ + 1).
  std::vector<FoliageTree> trees;
  std::vector<uint32_t> tree_buckets;
  std::vector<FoliageSurfaceDetail> surface;
  std::vector<uint32_t> surface_buckets;
  std::vector<FoliageDetail> details;
  std::vector<uint32_t> detail_buckets;
  // The foliage mask (RGBA32, linear): as last checked, and as baked.
  uint32_t mask_width = 0, mask_height = 0;
  std::vector<uint8_t> mask, baked_mask;
  // What the current state was checked against: one hash per chunk of the samples it owns,
  // the zone's grid version, and the erase edits applied (a count and a hash of them).
  std::vector<uint64_t> chunk_hash;
  uint32_t grid_version = 0;
  uint32_t erases_seen = 0;
  uint64_t erases_hash = 0;
  // The terrain the trees were placed on (terrain-normalised inputs), for writing them back.
  bool has_terrain = false;
  std::array<double, 3> terrain_position{0, 0, 0}, terrain_size{0, 0, 0};

  bool empty() const { return mask.empty(); }
};

// The terrain hole cells a zone cuts (the dig-zone package's cutRect and cutPrevious): a
// rectangle of the terrain's hole raster (`resolution` cells a side over the terrain's x and
// z, cell (i, j) at terrain position + (i, j) * size / resolution) and the values the cells
// had before the cut, which the package puts back when the zone goes.
struct ZoneHoleCut {
  uint32_t resolution = 0;  // the terrain's holes resolution; 0 = unknown (read from an asset)
  std::array<double, 3> terrain_position{0, 0, 0}, terrain_size{0, 0, 0};  // known when resolution > 0
  int32_t x = 0, z = 0;                   // first cell of the cut
  int32_t width = 0, depth = 0;           // cells on x and z
  std::vector<uint8_t> previous;          // width * depth, x fastest: 1 = surface, 0 = already a hole
  bool empty() const { return width <= 0 || depth <= 0; }
};

struct Zone {
  ZoneMeta meta;
  ByteGrid grid;   // current SDF grid
  ByteGrid baked;  // the grid as baked from the terrain
  ByteGrid paint;  // 0 auto, 1-4 layers 0-3, 5 dug soil, 6-17 layers 4-15; empty = never painted
  ColumnRaster<float> height;                 // terrain height (world metres) per column
  std::vector<ColumnRaster<uint8_t>> splat;   // one weight raster (0..255) per terrain layer
  // 1 where the column's surface height came from a heightmap sample that had no data and
  // was filled (bake's NoData fill), else 0; empty when no column did.
  ColumnRaster<uint8_t> filled;
  // Trees and details placed by edits (packed tree/detail edits with a layer above 0) whose
  // objects still stand, in the order they were placed, and the erase edits (layer 0) applied
  // since the bake, in log order (they hide baked foliage within their radius).
  std::vector<uint64_t> spawns, erases;
  ZoneFoliage foliage;  // empty until `foliage bake`
  ZoneHoleCut hole_cut;  // empty until `zone hole-mask` or an asset import records one

  // Sections of the file this version does not know, carried through unchanged on rewrite.
  struct RawSection {
    std::array<char, 4> tag;
    std::vector<uint8_t> bytes;
  };
  std::vector<RawSection> unknown_sections;
};

}  // namespace voxkit
