// Selective reset of a terrain.dat delta: modified subtrees in the reset region become one
// unmodified leaf (01 00 00), so the game reads the base terrain there. One pass over the
// node stream, output appended as it goes. See docs/octree-reset.md.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/octree/octree.hpp"
#include "lib/octree/octree_shapes.hpp"

namespace voxkit::octree {

// Output bytes copied unchanged from the input: out[to, to + len) == in[from, from + len),
// in file offsets. A rewrite of a compressed save uses them to keep the compressed data of
// what did not change.
struct CopyRun {
  uint64_t to = 0, from = 0, len = 0;
};

inline constexpr uint64_t kDefaultMaxOutputBytes = uint64_t(4) << 30;  // 4 GiB

struct ResetOptions {
  Region region;
  // terrain_reset.py's output byte for byte: branch flags copied as read, no top-level
  // rule, no collapse, leaves across the boundary kept whole. The region must then be the single keep box of that tool.
  bool compat = false;
  // When set, receives the copied ranges, in output order (maximal: adjacent copies merged).
  std::vector<CopyRun>* copies = nullptr;
  // The reset refuses (a data error) before its output would grow past this many bytes: the
  // top levels of a deep tree expand into up to 8^(maxDepth - 10) leaves.
  uint64_t max_output_bytes = kDefaultMaxOutputBytes;
};

struct ResetStats {
  uint64_t nodes_before = 0, nodes_after = 0;
  uint64_t subtrees_reset = 0;          // subtrees replaced by one unmodified leaf
  uint64_t nodes_reset = 0;             // input nodes inside those subtrees
  uint64_t modified_leaves_reset = 0;
  uint64_t modified_leaves_kept = 0;
  uint64_t branches_collapsed = 0;      // branches left with 8 unmodified leaves, merged
  uint64_t modified_leaves_split = 0;   // modified leaves across a shape's boundary, split
  uint64_t veins_reset = 0, veins_kept = 0;
  uint64_t bytes_before = 0, bytes_after = 0;
};

// Returns the new terrain.dat. The view must come from parse().
std::vector<uint8_t> reset(const DeltaView& v, const ResetOptions& opts, ResetStats* stats = nullptr);

// Depth above which the game keeps branches: the top maxDepth - 10 levels.
inline int top_levels(int max_depth) { return max_depth > kBlockDepth ? max_depth - kBlockDepth : 0; }

}  // namespace voxkit::octree
