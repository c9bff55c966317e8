// The foliage bake: tree, surface-detail and detail anchors, their buckets, the mask.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "lib/core/grid_alloc.hpp"
#include "lib/foliage/foliage.hpp"
#include "lib/foliage/foliage_internal.hpp"

namespace voxkit::foliage {

using detail::f32;

// --- Anchors -------------------------------------------------------------------------------

std::array<float, 3> terrain_point(const std::array<float, 3>& tp, const std::array<float, 3>& p,
                                   const std::array<float, 3>& size) {
  std::array<float, 3> w;
  for (int a = 0; a < 3; ++a) {
    const float scaled = p[size_t(a)] * size[size_t(a)];
    w[size_t(a)] = tp[size_t(a)] + scaled;
  }
  return w;
}

std::array<float, 3> grid_anchor(const ZoneMeta& m, const std::array<float, 3>& w) {
  std::array<float, 3> g;
  const float v = float(m.voxel_size);
  for (int a = 0; a < 3; ++a) {
    const float rel = w[size_t(a)] - float(m.origin[size_t(a)]);
    g[size_t(a)] = rel / v;
  }
  return g;
}

namespace {

// Stable counting sort of items by a key below `keys`: the CSR offsets and the order.
template <class Key>
std::vector<uint32_t> bucket_order(size_t n, uint64_t keys, Key key, std::vector<uint32_t>& offsets) {
  offsets.assign(keys + 1, 0);
  std::vector<uint32_t> k(n);
  for (size_t i = 0; i < n; ++i) {
    k[i] = key(i);
    ++offsets[k[i] + 1];
  }
  for (uint64_t c = 0; c < keys; ++c) offsets[c + 1] += offsets[c];
  std::vector<uint32_t> next(offsets.begin(), offsets.end() - 1), order(n);
  for (size_t i = 0; i < n; ++i) order[next[k[i]]++] = uint32_t(i);
  return order;
}

// The package's detail height: the bilinear blend of the four columns around (gx, gz),
// skipping columns without a surface (editor arithmetic).
float surface_at(const std::vector<float>& top, const Dims& d, float gx, float gz) {
  const int x0 = std::clamp(int(std::floor(gx)), 0, int(d.nx)), z0 = std::clamp(int(std::floor(gz)), 0, int(d.nz));
  const int x1 = std::min(x0 + 1, int(d.nx)), z1 = std::min(z0 + 1, int(d.nz));
  const float fx = std::clamp(f32(double(gx) - x0), 0.0f, 1.0f), fz = std::clamp(f32(double(gz) - z0), 0.0f, 1.0f);
  const uint64_t w = d.sx();
  float sum = 0, weight = 0;
  auto add = [&](int x, int z, float k) {
    const float h = top[uint64_t(x) + w * uint64_t(z)];
    if (h < 0.0f || k <= 0.0f) return;
    sum = f32(double(sum) + double(h) * double(k));
    weight = f32(double(weight) + double(k));
  };
  add(x0, z0, f32((1.0 - fx) * (1.0 - fz)));
  add(x1, z0, f32(double(fx) * (1.0 - fz)));
  add(x0, z1, f32((1.0 - fx) * double(fz)));
  add(x1, z1, f32(double(fx) * double(fz)));
  return weight > 0.0f ? f32(double(sum) / double(weight)) : -1.0f;
}

}  // namespace

ZoneFoliage bake(const Zone& zone, const BakeInput& in, BakeStats* stats_out) {
  const ZoneMeta& m = zone.meta;
  const Dims& d = m.cells;
  const ByteGrid& g = zone.grid;
  const Chunks ch = chunks_of(d, m.chunk_cells);
  BakeStats st;
  ZoneFoliage f;
  // The chunk hashes read the whole grid and nothing else: they run beside the rest.
  std::vector<uint64_t> hashes;
  tbb::task_group hashing;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const auto t_hash = Clock::now();
  hashing.run([&] {
    hashes = chunk_hashes(g, ch.cc);
    st.hash_seconds = since(t_hash);
  });
  auto t = Clock::now();
  const std::vector<float> top = top_surfaces(g);
  st.top_seconds = since(t);
  t = Clock::now();
  st.columns = top.size();
  for (float h : top) st.columns_with_surface += h >= 0.0f;

  // Trees: anchors, stable by anchor chunk.
  {
    std::vector<FoliageTree> kept;
    reserve_populated(kept, in.trees.size());
    for (const TreeInput& t : in.trees) {
      if (t.prototype >= in.tree_prototypes) {
        ++st.trees_bad_prototype;
        continue;
      }
      FoliageTree ft;
      ft.id = t.id;
      ft.prototype = t.prototype;
      ft.position = t.source;
      ft.normalized = t.normalized;
      ft.color = t.color;
      ft.lightmap_color = t.lightmap_color;
      ft.anchor = grid_anchor(m, t.position);
      ft.rotation = t.rotation;
      ft.width = t.width;
      ft.height = t.height;
      ft.up = t.up;
      kept.push_back(ft);
    }
    const auto order = bucket_order(kept.size(), ch.count(), [&](size_t i) { return anchor_chunk(d, ch, kept[i].anchor); },
                                    f.tree_buckets);
    reserve_populated(f.trees, kept.size());
    f.trees.resize(kept.size());
    tbb::parallel_for(tbb::blocked_range<size_t>(0, kept.size(), 1024), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i < r.end(); ++i) {
        FoliageTree t = kept[order[i]];
        t.state = t.baked_state = point_stands_editor(g, t.anchor) ? TreeState::Standing : TreeState::Fallen;
        f.trees[i] = t;
      }
    });
    st.trees = f.trees.size();
    for (const auto& t : f.trees) st.trees_standing += t.state == TreeState::Standing;
  }

  // Surface details: dropped outside [0, n], stable by anchor chunk.
  {
    std::vector<FoliageSurfaceDetail> kept;
    for (const SurfaceInput& s : in.surface) {
      if (s.prototype >= in.detail_prototypes) {
        ++st.surface_bad_prototype;
        continue;
      }
      const auto a = grid_anchor(m, s.position);
      if (!(a[0] >= 0.0f && a[1] >= 0.0f && a[2] >= 0.0f && a[0] <= float(d.nx) && a[1] <= float(d.ny) &&
            a[2] <= float(d.nz))) {
        ++st.surface_outside_grid;
        continue;
      }
      FoliageSurfaceDetail fs;
      fs.id = s.id;
      fs.prototype = s.prototype;
      fs.position = s.source;
      fs.terrain_relative = s.terrain_relative;
      for (int k = 0; k < 3; ++k) fs.root[size_t(k)] = s.position[size_t(k)] - float(m.origin[size_t(k)]);
      fs.normal = s.normal;
      fs.anchor = a;
      fs.rotation = s.rotation;
      fs.width = s.width;
      fs.height = s.height;
      const uint32_t x = uint32_t(std::clamp(int(std::nearbyint(a[0])), 0, int(d.nx)));
      const uint32_t z = uint32_t(std::clamp(int(std::nearbyint(a[2])), 0, int(d.nz)));
      fs.column = x + uint32_t(d.sx()) * z;
      kept.push_back(fs);
    }
    const auto order = bucket_order(kept.size(), ch.count(), [&](size_t i) { return anchor_chunk(d, ch, kept[i].anchor); },
                                    f.surface_buckets);
    f.surface.resize(kept.size());
    for (size_t i = 0; i < kept.size(); ++i) f.surface[i] = kept[order[i]];
    st.surface = f.surface.size();
  }

  st.trees_seconds = since(t);
  t = Clock::now();
  // Details: kept inside the hole where the nearest column has a surface; grouped by chunk
  // column (the merged detail meshes).
  {
    float hx0 = float(m.hole.min_x), hz0 = float(m.hole.min_z), hx1 = float(m.hole.max_x), hz1 = float(m.hole.max_z);
    if (!(hx1 > hx0 && hz1 > hz0)) {
      st.hole_from_footprint = !in.details.empty();
      hx0 = float(m.origin[0]);
      hz0 = float(m.origin[2]);
      hx1 = float(m.origin[0] + d.nx * m.voxel_size);
      hz1 = float(m.origin[2] + d.nz * m.voxel_size);
    }
    const float v = float(m.voxel_size), ox = float(m.origin[0]), oy = float(m.origin[1]), oz = float(m.origin[2]);
    // Each instance on its own (in parallel): its verdict, column and height; then the kept
    // ones placed straight into their chunk column's bucket, in input order (a counting sort).
    enum : uint8_t { kKept, kBadPrototype, kOutside, kNoSurface };
    const size_t n = in.details.size();
    std::vector<uint8_t> verdict;
    std::vector<uint32_t> column;
    std::vector<float> height;
    reserve_populated(verdict, n);
    reserve_populated(column, n);
    reserve_populated(height, n);
    verdict.resize(n);
    column.resize(n);
    height.resize(n);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 4096), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i < r.end(); ++i) {
        const DetailInput& di = in.details[i];
        if (di.prototype >= in.detail_prototypes) {
          verdict[i] = kBadPrototype;
          continue;
        }
        if (!(di.x >= hx0 && di.x < hx1 && di.z >= hz0 && di.z < hz1)) {
          verdict[i] = kOutside;
          continue;
        }
        const float gx = (di.x - ox) / v, gz = (di.z - oz) / v;
        const int x = std::clamp(int(std::nearbyint(gx)), 0, int(d.nx)), z = std::clamp(int(std::nearbyint(gz)), 0, int(d.nz));
        column[i] = uint32_t(x) + uint32_t(d.sx()) * uint32_t(z);
        height[i] = top[column[i]] < 0.0f ? -1.0f : surface_at(top, d, gx, gz);
        verdict[i] = height[i] < 0.0f ? kNoSurface : kKept;
      }
    });
    // Stable counting sort by chunk column in parallel blocks: per block counts, then each
    // block writes its items after those of the blocks before it.
    const uint32_t w = uint32_t(d.sx());
    const uint64_t keys = ch.columns();
    constexpr size_t kBlock = size_t(1) << 16;
    const size_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<std::vector<uint32_t>> counts(blocks, std::vector<uint32_t>(keys, 0));
    std::vector<std::array<uint64_t, 4>> tally(blocks, {0, 0, 0, 0});
    tbb::parallel_for(size_t(0), blocks, [&](size_t bi) {
      for (size_t i = bi * kBlock; i < std::min(n, (bi + 1) * kBlock); ++i) {
        ++tally[bi][verdict[i]];
        if (verdict[i] == kKept) {
          ++counts[bi][detail_chunk_column(ch, column[i] % w, column[i] / w)];
        }
      }
    });
    for (const auto& t : tally) {
      st.details_bad_prototype += t[kBadPrototype];
      st.details_outside_hole += t[kOutside];
      st.details_no_surface += t[kNoSurface];
    }
    f.detail_buckets.assign(keys + 1, 0);
    for (uint64_t k = 0; k < keys; ++k) {
      uint64_t total = 0;
      for (size_t bi = 0; bi < blocks; ++bi) {
        const uint32_t c = counts[bi][k];
        counts[bi][k] = uint32_t(f.detail_buckets[k] + total);  // where this block starts in bucket k
        total += c;
      }
      f.detail_buckets[k + 1] = uint32_t(f.detail_buckets[k] + total);
    }
    reserve_populated(f.details, f.detail_buckets.back());
    f.details.resize(f.detail_buckets.back());
    tbb::parallel_for(size_t(0), blocks, [&](size_t bi) {
      std::vector<uint32_t>& next = counts[bi];
      for (size_t i = bi * kBlock; i < std::min(n, (bi + 1) * kBlock); ++i) {
        if (verdict[i] != kKept) continue;
        const DetailInput& di = in.details[i];
        FoliageDetail& fd = f.details[next[detail_chunk_column(ch, column[i] % w, column[i] / w)]++];
        fd.id = di.id;
        fd.prototype = di.prototype;
        const float wy = f32(double(oy) + double(height[i]) * double(v));
        fd.root = {di.x - ox, wy - oy, di.z - oz};
        fd.rotation = di.rotation;
        fd.width = di.width;
        fd.height = di.height;
        fd.column = column[i];
      }
    });
    st.details = f.details.size();
  }

  st.details_seconds = since(t);
  t = Clock::now();
  // The mask: every column with a surface standing, then the surface details' verdicts.
  f.mask_width = uint32_t(d.sx());
  f.mask_height = mask_height(d, f.surface.size());
  reserve_populated(f.mask, uint64_t(f.mask_width) * f.mask_height * 4);
  f.mask.assign(uint64_t(f.mask_width) * f.mask_height * 4, 0);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, top.size(), 1 << 14), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); ++i) {
      const auto t = column_texel(top[i]);
      std::memcpy(f.mask.data() + 4 * i, t.data(), 4);
    }
  });
  const uint64_t t0 = top.size();
  for (size_t k = 0; k < f.surface.size(); ++k) {
    const bool on = point_stands_editor(g, f.surface[k].anchor);
    st.surface_standing += on;
    uint8_t* t = f.mask.data() + 4 * (t0 + k);
    t[0] = on ? kStanding : kRemoved;
    t[3] = 255;
  }
  reserve_populated(f.baked_mask, f.mask.size());
  f.baked_mask = f.mask;
  st.mask_seconds = since(t);
  hashing.wait();
  f.chunk_hash = std::move(hashes);
  f.grid_version = m.grid_version;
  f.erases_seen = uint32_t(zone.erases.size());
  f.erases_hash = erases_hash(zone.erases);
  if (stats_out) *stats_out = st;
  return f;
}

}  // namespace voxkit::foliage
