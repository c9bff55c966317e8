// Comparing and combining two deltas of the same world: where they differ (as regions),
// and B's modifications laid over A.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/octree/octree.hpp"
#include "lib/octree/octree_stats.hpp"

namespace voxkit::octree {

// Two voxels are the same when both are unmodified (they read the base terrain) or both
// are modified with equal density and type.
struct DiffResult {
  uint64_t differing_volume = 0;  // voxels that read differently
  uint64_t only_a = 0;            // modified in A only
  uint64_t only_b = 0;            // modified in B only
  uint64_t both_changed = 0;      // modified in both, to different values
  std::vector<ModifiedRegion> regions;  // connected differing regions, world coordinates
  uint64_t veins_only_a = 0, veins_only_b = 0, veins_common = 0;  // by record bytes
};

// Throws a data error when the two maxDepths differ; a usage error for a bad block size.
DiffResult diff(const DeltaView& a, const DeltaView& b, int block_log2);

struct MergeStats {
  uint64_t leaves_from_a = 0, leaves_from_b = 0;  // modified leaves in the output by origin
  uint64_t veins_from_a = 0, veins_from_b = 0;
};

// B over A: wherever B is modified, B's voxels; elsewhere A's. Veins: A's veins that B
// does not have (same veinWorldPos and idHash), then all of B's. Throws a data error when
// the two maxDepths differ.
std::vector<uint8_t> merge(const DeltaView& a, const DeltaView& b, MergeStats* stats = nullptr);

}  // namespace voxkit::octree
