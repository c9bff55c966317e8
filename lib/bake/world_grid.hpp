// A world cut into tiles: the grid a whole bake of the world box would have, and each tile's
// zone within it (its own cells plus a halo of whole chunks the mesher reads). A tile zone's
// samples equal the same region of the whole bake bit for bit (bake.hpp GridFrame). Rules in
// docs/world.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "lib/bake/bake.hpp"
#include "lib/core/zone.hpp"

namespace voxkit {

struct WorldSpec {
  std::array<double, 3> min{0, 0, 0}, max{0, 0, 0};  // world box, metres
  double voxel_size = 0.5;
  uint32_t chunk_cells = 16;
  uint32_t tile_chunks = 8;    // tile side in chunks
  uint32_t halo_chunks = 1;    // chunks of the neighbours each tile zone also holds
  uint32_t border_voxels = 2;  // of each tile zone (its hole and edit box)
  double headroom_voxels = 2;  // air the box top must keep over the terrain and its band
};

// The whole world's grid: the origin and cells `voxkit bake` gives the same box (when the
// terrain fits inside it, which each tile checks).
struct WorldGrid {
  WorldSpec spec;
  std::array<double, 3> origin{0, 0, 0};
  Dims cells;
  uint32_t tile_cells() const { return spec.tile_chunks * spec.chunk_cells; }
  uint32_t tiles_x() const { return (cells.nx + tile_cells() - 1) / tile_cells(); }
  uint32_t tiles_z() const { return (cells.nz + tile_cells() - 1) / tile_cells(); }
  GridFrame frame() const { return GridFrame{origin, {0, 0, 0}}; }
};

// Checks the spec (usage errors naming what is wrong) and lays out the grid.
WorldGrid plan_world(const WorldSpec& spec);

// Tile (i, j): cells [core_min, core_max) of the world on x and z are its own; its zone holds
// [zone_min, zone_max) (the core grown by the halo, clipped to the world), all heights.
struct TileBox {
  uint32_t i = 0, j = 0;
  std::array<uint32_t, 2> core_min{0, 0}, core_max{0, 0};  // world cells, x and z
  std::array<uint32_t, 2> zone_min{0, 0}, zone_max{0, 0};
  // World metres of a cell range's edges (x0, z0, x1, z1).
  std::array<double, 4> core_rect(const WorldGrid& w) const;
  std::array<double, 4> zone_rect(const WorldGrid& w) const;
  // The chunks of the tile's zone that are its own: [first, first + count) on x and z.
  std::array<uint32_t, 2> own_chunk_first(const WorldGrid& w) const;
  std::array<uint32_t, 2> own_chunk_count(const WorldGrid& w) const;
};

// A usage error for a tile outside the world.
TileBox tile_box(const WorldGrid& w, uint32_t i, uint32_t j);

// The tile zone's layout (cells, origin, hole and edit box as a bake of its box lays them
// out) and the frame that places it in the world grid.
ZoneMeta tile_meta(const WorldGrid& w, const TileBox& t);
GridFrame tile_frame(const WorldGrid& w, const TileBox& t);

// The world rectangle of terrain a tile's bake reads: its zone grown by the SDF band and a
// sample of the heightmap (x0, z0, x1, z1).
std::array<double, 4> tile_read_rect(const WorldGrid& w, const TileBox& t);

// Checks that the terrain near the tile (`hf` holding at least tile_read_rect) fits the world
// box: the bottom one voxel of solid below the band, the top the band plus the headroom above
// it; and that the tile's zone has no heightmap sample without data. A usage error naming the
// tile, the height found and the box edge to move otherwise.
void check_tile_terrain(const WorldGrid& w, const TileBox& t, const Heightfield& hf);

// Bakes a tile: the band SDF (grid and baked copy), the height raster, in the world's frame.
Zone bake_tile(const WorldGrid& w, const TileBox& t, const Heightfield& hf, const Progress& progress = {});

}  // namespace voxkit
