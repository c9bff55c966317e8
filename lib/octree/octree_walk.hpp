// A pre-order walk over a validated node stream with node positions, using an explicit
// stack (no recursion, no object per node).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "lib/octree/octree.hpp"

namespace voxkit::octree {

// A node as the walk sees it. Positions are octree coordinates (0 .. size-1 per axis).
struct NodeRef {
  int depth = 0;
  int64_t size = 0;  // voxels per axis
  std::array<int64_t, 3> pos{};
  uint8_t flags = 0, density = 0, type = 0;  // density/type are 0 for branches
  size_t offset = 0;                         // of the flags byte in the node stream

  bool leaf() const { return flags & kLeaf; }
  bool modified() const { return flags & kModified; }
};

// Origin of child i of a branch at `pos` whose children span `half` voxels.
inline std::array<int64_t, 3> child_pos(const std::array<int64_t, 3>& pos, int i, int64_t half) {
  return {pos[0] + ((i & 1) ? half : 0), pos[1] + ((i & 2) ? half : 0),
          pos[2] + ((i & 4) ? half : 0)};
}

// Calls visit(const NodeRef&) for every node in pre-order. For a branch, visit returns true
// to descend into its children or false to skip the whole subtree.
template <class Visit>
void walk(std::span<const uint8_t> nodes, int max_depth, Visit&& visit) {
  struct Frame {
    int child;
    std::array<int64_t, 3> pos;
  };
  Frame st[kMaxAnyDepth + 2];
  const uint8_t* p = nodes.data();
  size_t at = 0;
  int d = 0;
  std::array<int64_t, 3> cur{0, 0, 0};
  for (;;) {
    NodeRef n;
    n.depth = d;
    n.size = int64_t(1) << (max_depth - d);
    n.pos = cur;
    n.flags = p[at];
    n.offset = at;
    bool descend = false;
    if (n.flags & kLeaf) {
      n.density = p[at + 1];
      n.type = p[at + 2];
      visit(static_cast<const NodeRef&>(n));
      at += 3;
    } else if (visit(static_cast<const NodeRef&>(n))) {
      st[d] = {0, cur};
      ++d;
      ++at;
      descend = true;  // cur stays: child 0 starts at the branch origin
    } else {
      at = skip_subtree(p, at);
    }
    if (descend) continue;
    for (;;) {
      if (d == 0) return;
      Frame& f = st[d - 1];
      if (++f.child < 8) {
        cur = child_pos(f.pos, f.child, int64_t(1) << (max_depth - d));
        break;
      }
      --d;
    }
  }
}

}  // namespace voxkit::octree
