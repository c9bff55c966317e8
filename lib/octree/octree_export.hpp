// A box of a terrain.dat delta as a dig zone: the modified densities as SDF bytes, one
// zone sample per world voxel, so the zone meshers can turn player edits into a mesh.
#pragma once

#include <cstdint>
#include <string>

#include "lib/core/grid.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_shapes.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::octree {

// What a voxel under a leaf without IS_MODIFIED becomes: the base terrain lives in
// Terrain{i}.dat files the delta does not carry, so the export has to assume something.
enum class Unmodified { Air, Solid };

struct ExportOptions {
  Box3i box;                              // world voxel coordinates, inclusive
  Unmodified unmodified = Unmodified::Air;
  uint64_t max_samples = kMaxGridSamples; // refuse larger boxes before allocating
  std::string source;                     // ZoneMeta::source
};

struct ExportStats {
  uint64_t modified_voxels = 0;    // samples taken from modified leaves
  uint64_t unmodified_voxels = 0;  // samples filled by the policy
  uint64_t nodes_visited = 0;      // nodes the walk looked at (only those meeting the box)
};

// Walks the node stream once, descending only into nodes that meet the box. The zone has
// voxel size 1 m, origin at the box's min corner (world coordinates, y up), cells one less
// than the box's voxels per axis, the edit box the whole grid and the hole rect the box's
// x/z extent. Density 0..255 (air..solid) maps through ice_to_sdf. Throws a usage error
// when the box leaves the world, is thinner than 2 voxels on an axis, or holds more than
// max_samples voxels.
Zone export_zone(const DeltaView& v, const ExportOptions& o, ExportStats* stats = nullptr);

}  // namespace voxkit::octree
