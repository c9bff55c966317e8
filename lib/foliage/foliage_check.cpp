// Foliage checks: the chunk-local re-check, erase edits, the baked state, chunk hashes.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lib/foliage/foliage.hpp"

namespace voxkit::foliage {

// --- Checks ----------------------------------------------------------------------------------

void recheck(const ByteGrid& g, uint32_t cc, ZoneFoliage& f, std::span<const uint32_t> chunks) {
  const Dims& d = g.cells;
  const Chunks ch = chunks_of(d, cc);
  // Group the chunks by chunk column: a column's owner is found from its anchor's row.
  struct Group {
    uint32_t cx, cz;
    std::vector<uint8_t> rows;  // per cy: re-check
  };
  std::vector<Group> groups;
  {
    std::vector<int64_t> slot(ch.columns(), -1);
    for (uint32_t ci : chunks) {
      const uint32_t cx = ci % ch.cx, cy = (ci / ch.cx) % ch.cy, cz = ci / (ch.cx * ch.cy);
      const uint64_t k = cx + uint64_t(ch.cx) * cz;
      if (slot[k] < 0) {
        slot[k] = int64_t(groups.size());
        groups.push_back({cx, cz, std::vector<uint8_t>(ch.cy, 0)});
      }
      groups[size_t(slot[k])].rows[cy] = 1;
    }
  }
  const uint64_t w = d.sx();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, groups.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t gi = r.begin(); gi < r.end(); ++gi) {
      const Group& gr = groups[gi];
      const uint32_t x0 = gr.cx * ch.cc, x1 = gr.cx == ch.cx - 1 ? d.nx : x0 + ch.cc - 1;
      const uint32_t z0 = gr.cz * ch.cc, z1 = gr.cz == ch.cz - 1 ? d.nz : z0 + ch.cc - 1;
      for (uint32_t z = z0; z <= z1; ++z)
        for (uint32_t x = x0; x <= x1; ++x) {
          uint8_t* t = f.mask.data() + 4 * (x + w * z);
          if (t[3] == 0) continue;
          const float anchor = texel_anchor(t);
          const uint32_t ay = std::min(uint32_t(anchor), d.ny - 1);
          if (!gr.rows[std::min(ay / ch.cc, ch.cy - 1)]) continue;
          t[0] = grid_stands(g, x, z, anchor) ? kStanding : kRemoved;
        }
    }
  });
  const uint64_t t0 = w * d.sz();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, chunks.size(), 16), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); ++i) {
      const uint32_t ci = chunks[i];
      for (uint32_t k = f.surface_buckets[ci]; k < f.surface_buckets[ci + 1]; ++k) {
        uint8_t* t = f.mask.data() + 4 * (t0 + k);
        if (t[3] == 0) continue;
        t[0] = point_stands(g, f.surface[k].anchor) ? kStanding : kRemoved;
      }
      for (uint32_t k = f.tree_buckets[ci]; k < f.tree_buckets[ci + 1]; ++k) {
        FoliageTree& t = f.trees[k];
        if (t.state == TreeState::Erased) continue;
        t.state = point_stands(g, t.anchor) ? TreeState::Standing : TreeState::Fallen;
      }
    }
  });
}

void recheck_all(const ByteGrid& g, uint32_t cc, ZoneFoliage& f) {
  const Chunks ch = chunks_of(g.cells, cc);
  std::vector<uint32_t> all(ch.count());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  recheck(g, cc, f, all);
}

uint64_t erase(ZoneFoliage& f, const Dims& d, const std::array<float, 3>& p, float r, bool tree) {
  const float rr = r * r;
  uint64_t n = 0;
  auto sq = [&](const std::array<float, 3>& a) {
    const float dx = a[0] - p[0], dy = a[1] - p[1], dz = a[2] - p[2];
    return dx * dx + dy * dy + dz * dz;
  };
  if (tree) {
    for (FoliageTree& t : f.trees) {
      if (t.state == TreeState::Erased || sq(t.anchor) > rr) continue;
      t.state = TreeState::Erased;
      ++n;
    }
    return n;
  }
  if (f.mask.empty()) return 0;
  const uint64_t w = d.sx();
  const int x0 = std::max(0, int(std::floor(p[0] - r))), x1 = std::min(int(d.nx), int(std::ceil(p[0] + r)));
  const int z0 = std::max(0, int(std::floor(p[2] - r))), z1 = std::min(int(d.nz), int(std::ceil(p[2] + r)));
  for (int z = z0; z <= z1; ++z)
    for (int x = x0; x <= x1; ++x) {
      uint8_t* t = f.mask.data() + 4 * (uint64_t(x) + w * uint64_t(z));
      if (t[3] == 0) continue;
      if (sq({float(x), texel_anchor(t), float(z)}) > rr) continue;
      t[0] = kRemoved;
      t[3] = 0;
      ++n;
    }
  const uint64_t t0 = w * d.sz();
  for (size_t k = 0; k < f.surface.size(); ++k) {
    uint8_t* t = f.mask.data() + 4 * (t0 + k);
    if (t[3] == 0 || sq(f.surface[k].anchor) > rr) continue;
    t[0] = kRemoved;
    t[3] = 0;
    ++n;
  }
  return n;
}

void restore_baked(ZoneFoliage& f) {
  f.mask = f.baked_mask;
  for (FoliageTree& t : f.trees) t.state = t.baked_state;
}

// --- Hashes ----------------------------------------------------------------------------------

namespace {

uint64_t hash_chunk(const ByteGrid& g, const Chunks& ch, uint32_t ci, std::vector<uint8_t>& buf) {
  const Dims& d = g.cells;
  const uint32_t cx = ci % ch.cx, cy = (ci / ch.cx) % ch.cy, cz = ci / (ch.cx * ch.cy);
  const uint32_t n[3] = {d.nx, d.ny, d.nz};
  const uint32_t c[3] = {cx, cy, cz}, last[3] = {ch.cx - 1, ch.cy - 1, ch.cz - 1};
  uint32_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = c[a] * ch.cc;
    hi[a] = c[a] == last[a] ? n[a] : lo[a] + ch.cc - 1;
  }
  const uint64_t len = hi[0] - lo[0] + 1;
  buf.resize(len * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1));
  uint8_t* o = buf.data();
  for (uint32_t z = lo[2]; z <= hi[2]; ++z)
    for (uint32_t y = lo[1]; y <= hi[1]; ++y) {
      std::memcpy(o, g.data.data() + d.index(lo[0], y, z), len);
      o += len;
    }
  return XXH3_64bits(buf.data(), buf.size());
}

}  // namespace

std::vector<uint64_t> chunk_hashes(const ByteGrid& g, uint32_t cc) {
  const Chunks ch = chunks_of(g.cells, cc);
  std::vector<uint64_t> h(ch.count());
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, uint32_t(h.size()), 64), [&](const tbb::blocked_range<uint32_t>& r) {
    std::vector<uint8_t> buf;
    for (uint32_t ci = r.begin(); ci < r.end(); ++ci) h[ci] = hash_chunk(g, ch, ci, buf);
  });
  return h;
}

void update_chunk_hashes(const ByteGrid& g, uint32_t cc, std::span<const uint32_t> chunks, std::vector<uint64_t>& h) {
  const Chunks ch = chunks_of(g.cells, cc);
  if (h.size() != ch.count()) {
    h = chunk_hashes(g, cc);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<size_t>(0, chunks.size(), 64), [&](const tbb::blocked_range<size_t>& r) {
    std::vector<uint8_t> buf;
    for (size_t i = r.begin(); i < r.end(); ++i) h[chunks[i]] = hash_chunk(g, ch, chunks[i], buf);
  });
}

std::vector<uint32_t> chunks_reached(const Dims& d, uint32_t cc, std::span<const uint64_t> before,
                                     std::span<const uint64_t> after) {
  const Chunks ch = chunks_of(d, cc);
  std::vector<uint8_t> mark(ch.count(), 0);
  const bool all = before.size() != ch.count() || after.size() != ch.count();
  for (uint32_t ci = 0; ci < ch.count(); ++ci) {
    if (!all && before[ci] == after[ci]) continue;
    // A chunk reads its own samples and the first samples of the next chunk on each axis:
    // a change in chunk (x, y, z) reaches it and the chunks before it on any axes.
    const uint32_t cx = ci % ch.cx, cy = (ci / ch.cx) % ch.cy, cz = ci / (ch.cx * ch.cy);
    for (uint32_t dz = 0; dz <= std::min(cz, 1u); ++dz)
      for (uint32_t dy = 0; dy <= std::min(cy, 1u); ++dy)
        for (uint32_t dx = 0; dx <= std::min(cx, 1u); ++dx) mark[ch.index(cx - dx, cy - dy, cz - dz)] = 1;
  }
  std::vector<uint32_t> out;
  for (uint32_t ci = 0; ci < mark.size(); ++ci)
    if (mark[ci]) out.push_back(ci);
  return out;
}

uint64_t erases_hash(std::span<const uint64_t> erases) {
  std::vector<uint8_t> b(erases.size() * 8);
  for (size_t i = 0; i < erases.size(); ++i)
    for (int k = 0; k < 8; ++k) b[8 * i + size_t(k)] = uint8_t(erases[i] >> (8 * k));
  return XXH3_64bits(b.data(), b.size());
}

}  // namespace voxkit::foliage
