// What a terrain.dat holds: node counts by depth, modified leaves and volume, connected
// modified regions as world boxes, and a top-view raster of modified voxels.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/octree/octree.hpp"
#include "lib/octree/octree_shapes.hpp"

namespace voxkit::octree {

struct DepthCounts {
  uint64_t branches = 0, leaves = 0, modified_leaves = 0;
};

struct DeltaStats {
  std::vector<DepthCounts> by_depth;  // maxDepth + 1 entries
  uint64_t nodes = 0, branches = 0, leaves = 0;
  uint64_t modified_branches = 0, modified_leaves = 0;
  uint64_t modified_volume = 0;  // voxels under modified leaves
  uint64_t air_volume = 0;       // of those, voxels with density 0 (dug out)
  uint64_t solid_volume = 0;     // of those, voxels with density 255
  // Modified nodes under a branch without IS_MODIFIED (the game sets it on every ancestor).
  uint64_t unflagged_ancestors = 0;
  bool any_modified = false;
  Box3i modified_bounds;         // world coordinates, valid when any_modified
  uint64_t veins = 0, minables = 0;
};

DeltaStats stats(const DeltaView& v);

// A connected group of blocks (edge 2^block_log2 voxels, 26-neighbourhood) that contain
// modified voxels. `bounds` is the tight box of the modified voxels in the group (world
// coordinates); `volume` their count.
struct ModifiedRegion {
  Box3i bounds;
  uint64_t volume = 0;
  uint64_t blocks = 0;
};

// Largest block grid the region finder allocates (cells per axis, cubed).
inline constexpr int kMaxRegionAxisLog2 = 7;
inline constexpr uint64_t kMaxRegionCells = uint64_t(1) << 21;  // 128^3

// Groups boxes of voxels (octree coordinates) into connected regions over a block grid.
class BlockGrouper {
 public:
  // Throws a usage error when the block size is not a power of two within the world or
  // gives more than kMaxRegionCells blocks.
  BlockGrouper(int max_depth, int block_log2);
  void add(const Box3i& octree_box);
  // Regions in world coordinates, sorted by volume (largest first), ties by position.
  std::vector<ModifiedRegion> finish(int64_t origin);

 private:
  struct Cell {
    Box3i bounds;
    uint64_t volume;
    int64_t bx, by, bz;
  };
  int log2_;
  int64_t g_;
  std::vector<uint32_t> index_;
  std::vector<Cell> cells_;
};

// Regions sorted by volume (largest first), ties by position. Throws a usage error when
// the block size is not a power of two within the world or gives more than
// kMaxRegionCells blocks.
std::vector<ModifiedRegion> modified_regions(const DeltaView& v, int block_log2);

// A top view: pixel (px, pz) covers world columns x in [px*cell - o, (px+1)*cell - o),
// same for z; the value is the number of modified voxels below it.
struct TopMap {
  uint32_t width = 0, height = 0;
  int64_t cell = 1;
  std::vector<uint64_t> modified;  // width * height, row = z
};

// Throws a usage error when `cell` is not a power of two or the map would exceed
// 16384 pixels per side.
TopMap top_map(const DeltaView& v, int64_t cell);

}  // namespace voxkit::octree
