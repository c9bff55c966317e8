// The terrain hole a dig zone cuts, as the package's baker computes it (DigZoneBaker:
// ComputeHoleRect and CutTerrain): the cells of the terrain's hole raster that lie fully
// inside the zone's footprint shrunk by one voxel, and the values they had before.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lib/core/zone.hpp"

namespace voxkit {

// A terrain's hole raster: `resolution` cells a side over the terrain's x and z extent.
struct TerrainHoles {
  uint32_t resolution = 0;                 // TerrainData.holesResolution (heightmap resolution - 1)
  std::array<double, 3> position{0, 0, 0}; // the terrain's world position
  std::array<double, 3> size{0, 0, 0};     // TerrainData.size
};

// The largest holes resolution accepted (Unity's terrains stop at 4096).
inline constexpr uint32_t kMaxHolesResolution = 16384;

// How the package's float expressions are evaluated: as the Unity editor runs them (each in
// double, rounded to float where it is stored) or as players do (float32 throughout).
enum class CutArithmetic : uint8_t { Editor, Player };

struct HoleCutRect {
  int32_t x = 0, z = 0, width = 0, depth = 0;  // cells (clamped to the raster)
  HoleRect world;                               // the cut in world metres (the package's holeRect)
};

// ComputeHoleRect for a zone (its origin, cells, voxel size and border voxels) over a
// terrain, in float as the package computes it (Editor: each expression in double, rounded
// where the package stores it; Player: float32 throughout). Throws a usage error with the
// package's wording when the zone is not on the terrain, cuts no cell, or is too narrow for
// its border.
HoleCutRect hole_cut_rect(const ZoneMeta& meta, const TerrainHoles& terrain,
                          CutArithmetic mode = CutArithmetic::Editor);

// CutTerrain: the cut of `rect`, with the previous values read from `holes` (resolution^2
// values, x fastest then z, non-zero = surface) or, without one, a terrain with no holes.
ZoneHoleCut cut_terrain(const HoleCutRect& rect, const TerrainHoles& terrain, const std::vector<uint8_t>* holes);

// The terrain's hole raster after the cut (resolution^2 values, x fastest then z, 1 =
// surface, 0 = hole): `holes` (or all surface) with the cut's cells made holes. With
// `cut_only`, 1 marks the cells the zone cuts and 0 every other cell. Needs a cut with a
// known resolution.
std::vector<uint8_t> hole_raster(const ZoneHoleCut& cut, const std::vector<uint8_t>* holes, bool cut_only);

}  // namespace voxkit
