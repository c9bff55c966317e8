// Counting walk, modified-region grouping over a block grid, and the top-view raster.
#include "lib/octree/octree_stats.hpp"

#include <algorithm>
#include <string>

#include "lib/core/error.hpp"
#include "lib/octree/octree_walk.hpp"

namespace voxkit::octree {

DeltaStats stats(const DeltaView& v) {
  DeltaStats s;
  s.by_depth.resize(size_t(v.max_depth) + 1);
  const int64_t o = v.origin();
  uint8_t path_flags[kMaxAnyDepth + 2] = {};
  walk(v.nodes, v.max_depth, [&](const NodeRef& n) {
    path_flags[n.depth] = n.flags;
    ++s.nodes;
    auto& dc = s.by_depth[size_t(n.depth)];
    if (n.modified() && n.depth > 0 && !(path_flags[n.depth - 1] & kModified)) ++s.unflagged_ancestors;
    if (!n.leaf()) {
      ++s.branches;
      ++dc.branches;
      s.modified_branches += n.modified();
      return true;
    }
    ++s.leaves;
    ++dc.leaves;
    if (n.modified()) {
      ++s.modified_leaves;
      ++dc.modified_leaves;
      const uint64_t vol = uint64_t(n.size) * uint64_t(n.size) * uint64_t(n.size);
      s.modified_volume += vol;
      if (n.density == 0) s.air_volume += vol;
      if (n.density == 255) s.solid_volume += vol;
      const Box3i b{{n.pos[0] - o, n.pos[1], n.pos[2] - o},
                    {n.pos[0] - o + n.size - 1, n.pos[1] + n.size - 1, n.pos[2] - o + n.size - 1}};
      if (!s.any_modified) {
        s.modified_bounds = b;
        s.any_modified = true;
      } else {
        for (int k = 0; k < 3; ++k) {
          s.modified_bounds.min[k] = std::min(s.modified_bounds.min[k], b.min[k]);
          s.modified_bounds.max[k] = std::max(s.modified_bounds.max[k], b.max[k]);
        }
      }
    }
    return true;
  });
  s.veins = v.vein_count;
  VeinReader r(v);
  Vein vein;
  while (r.next(vein)) s.minables += vein.minables.size() / kMinableBytes;
  return s;
}

BlockGrouper::BlockGrouper(int max_depth, int block_log2) : log2_(block_log2) {
  if (block_log2 < 0 || block_log2 > max_depth) {
    throw_usage("region block size must be a power of two from 1 to the world size " +
                std::to_string(1ull << max_depth));
  }
  const int gl = max_depth - block_log2;  // log2 of blocks per axis
  // Compared as exponents: at depth 24 with 1-voxel blocks, 3 * gl is 72, wider than a shift.
  static_assert(kMaxRegionCells == uint64_t(1) << (3 * kMaxRegionAxisLog2));
  if (max_depth < 0 || max_depth > kMaxAnyDepth || gl > kMaxRegionAxisLog2) {
    throw_usage("region block size " + std::to_string(1ull << block_log2) +
                " is too fine for a world of " + std::to_string(1ull << max_depth) +
                " (at most 2^21 blocks; use " + std::to_string(1ull << (max_depth - 7)) +
                " or more)");
  }
  g_ = int64_t(1) << gl;
  index_.assign(size_t(g_ * g_ * g_), UINT32_MAX);
}

void BlockGrouper::add(const Box3i& box) {
  const int k2 = log2_;
  const int64_t world = g_ << k2;
  for (int k = 0; k < 3; ++k) {
    if (box.min[k] < 0 || box.max[k] < box.min[k] || box.max[k] >= world) {
      throw_usage("box " + std::to_string(box.min[k]) + ".." + std::to_string(box.max[k]) +
                  " lies outside the world of " + std::to_string(world) + " voxels per axis");
    }
  }
  for (int64_t bz = box.min[2] >> k2; bz <= box.max[2] >> k2; ++bz)
    for (int64_t by = box.min[1] >> k2; by <= box.max[1] >> k2; ++by)
      for (int64_t bx = box.min[0] >> k2; bx <= box.max[0] >> k2; ++bx) {
        const int64_t b[3] = {bx, by, bz};
        Box3i part;
        uint64_t vol = 1;
        for (int k = 0; k < 3; ++k) {
          part.min[k] = std::max(box.min[k], b[k] << k2);
          part.max[k] = std::min(box.max[k], ((b[k] + 1) << k2) - 1);
          vol *= uint64_t(part.max[k] - part.min[k] + 1);
        }
        uint32_t& ix = index_[size_t(bx + g_ * (by + g_ * bz))];
        if (ix == UINT32_MAX) {
          ix = uint32_t(cells_.size());
          cells_.push_back({part, vol, bx, by, bz});
        } else {
          Cell& c = cells_[ix];
          for (int k = 0; k < 3; ++k) {
            c.bounds.min[k] = std::min(c.bounds.min[k], part.min[k]);
            c.bounds.max[k] = std::max(c.bounds.max[k], part.max[k]);
          }
          c.volume += vol;
        }
      }
}

std::vector<ModifiedRegion> BlockGrouper::finish(int64_t o) {
  // Flood fill over occupied blocks, 26-neighbourhood.
  std::vector<uint32_t> label(cells_.size(), UINT32_MAX);
  std::vector<ModifiedRegion> out;
  std::vector<uint32_t> queue;
  const int64_t g = g_;
  for (uint32_t seed = 0; seed < cells_.size(); ++seed) {
    if (label[seed] != UINT32_MAX) continue;
    const uint32_t id = uint32_t(out.size());
    ModifiedRegion reg;
    reg.bounds = cells_[seed].bounds;
    label[seed] = id;
    queue.assign(1, seed);
    while (!queue.empty()) {
      const uint32_t ci = queue.back();
      queue.pop_back();
      const Cell& c = cells_[ci];
      for (int k = 0; k < 3; ++k) {
        reg.bounds.min[k] = std::min(reg.bounds.min[k], c.bounds.min[k]);
        reg.bounds.max[k] = std::max(reg.bounds.max[k], c.bounds.max[k]);
      }
      reg.volume += c.volume;
      ++reg.blocks;
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int64_t x = c.bx + dx, y = c.by + dy, z = c.bz + dz;
            if (x < 0 || y < 0 || z < 0 || x >= g || y >= g || z >= g) continue;
            const uint32_t nb = index_[size_t(x + g * (y + g * z))];
            if (nb == UINT32_MAX || label[nb] != UINT32_MAX) continue;
            label[nb] = id;
            queue.push_back(nb);
          }
    }
    out.push_back(reg);
  }
  for (auto& r : out) {
    r.bounds.min[0] -= o;
    r.bounds.max[0] -= o;
    r.bounds.min[2] -= o;
    r.bounds.max[2] -= o;
  }
  std::sort(out.begin(), out.end(), [](const ModifiedRegion& a, const ModifiedRegion& b) {
    if (a.volume != b.volume) return a.volume > b.volume;
    if (a.bounds.min != b.bounds.min) return a.bounds.min < b.bounds.min;
    return a.bounds.max < b.bounds.max;
  });
  return out;
}

std::vector<ModifiedRegion> modified_regions(const DeltaView& v, int block_log2) {
  BlockGrouper grouper(v.max_depth, block_log2);
  walk(v.nodes, v.max_depth, [&](const NodeRef& n) {
    // Descend every branch: a file may lack IS_MODIFIED on an ancestor of a modified node.
    if (n.leaf() && n.modified()) {
      grouper.add({n.pos, {n.pos[0] + n.size - 1, n.pos[1] + n.size - 1, n.pos[2] + n.size - 1}});
    }
    return true;
  });
  return grouper.finish(v.origin());
}

TopMap top_map(const DeltaView& v, int64_t cell) {
  if (cell < 1 || (cell & (cell - 1)) != 0 || uint64_t(cell) > v.size()) {
    throw_usage("map cell must be a power of two from 1 to the world size " + std::to_string(v.size()));
  }
  TopMap m;
  m.cell = cell;
  const uint64_t w = v.size() / uint64_t(cell);
  if (w > 16384) {
    throw_usage("map of " + std::to_string(w) + " pixels per side is too large (at most 16384); "
                "use a larger cell");
  }
  m.width = m.height = uint32_t(w);
  m.modified.assign(size_t(w * w), 0);
  walk(v.nodes, v.max_depth, [&](const NodeRef& n) {
    if (!n.leaf() || !n.modified()) return true;
    const uint64_t s = uint64_t(n.size);
    if (n.size >= cell) {
      const uint64_t per = uint64_t(cell) * uint64_t(cell) * s;
      for (int64_t z = n.pos[2] / cell; z < (n.pos[2] + n.size) / cell; ++z)
        for (int64_t x = n.pos[0] / cell; x < (n.pos[0] + n.size) / cell; ++x)
          m.modified[size_t(x + int64_t(w) * z)] += per;
    } else {
      m.modified[size_t(n.pos[0] / cell + int64_t(w) * (n.pos[2] / cell))] += s * s * s;
    }
    return true;
  });
  return m;
}

}  // namespace voxkit::octree
