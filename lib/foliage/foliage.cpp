// Foliage anchors: standing tests, top surfaces, the mask, chunks, the bake and the checks.
#include "lib/foliage/foliage.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "lib/core/grid_alloc.hpp"

namespace voxkit::foliage {
namespace {

// Each float32 operation rounded on its own: `volatile`-free, the compiler may not fuse or
// reassociate these (no -ffast-math, and baseline x86-64 has no FMA to contract into).
inline float f32(double v) { return float(v); }

bool within(float s) { return s <= float(kTolerance) && s >= -float(kTolerance); }

}  // namespace

// --- Standing tests ------------------------------------------------------------------------

bool stands_between(int below, int above, float t) {
  const float s = float(below) + float(above - below) * t - 128.0f;
  return within(s);
}

bool grid_stands(const ByteGrid& g, uint32_t x, uint32_t z, float y) {
  const uint32_t ny = g.cells.ny;
  int y0 = int(y);  // truncation toward zero, as C#'s (int) cast
  if (y0 < 0) y0 = 0;
  if (y0 > int(ny) - 1) y0 = int(ny) - 1;
  const uint64_t i = g.cells.index(x, uint64_t(y0), z);
  return stands_between(g.data[i], g.data[i + g.cells.sx()], y - float(y0));
}

int cell_of(float p, uint32_t cells) {
  // C#'s (int) of a float past int's range is unspecified; the clamp makes it moot.
  int c = p < 0.0f ? 0 : (p >= float(cells) ? int(cells) : int(p));
  return c > int(cells) - 1 ? int(cells) - 1 : c;
}

float frac_of(float p, int c) {
  const float f = p - float(c);
  return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

namespace {

template <bool Editor>
bool stands_in_cell(const ByteGrid& g, const std::array<float, 3>& p) {
  const Dims& d = g.cells;
  const int x0 = cell_of(p[0], d.nx), y0 = cell_of(p[1], d.ny), z0 = cell_of(p[2], d.nz);
  const float fx = frac_of(p[0], x0), fy = frac_of(p[1], y0), fz = frac_of(p[2], z0);
  const uint64_t sx = d.sx(), sxy = d.sx() * d.sy();
  const uint64_t i = d.index(uint64_t(x0), uint64_t(y0), uint64_t(z0)), j = i + sxy;
  const int s000 = g.data[i], s100 = g.data[i + 1], s010 = g.data[i + sx], s110 = g.data[i + sx + 1];
  const int s001 = g.data[j], s101 = g.data[j + 1], s011 = g.data[j + sx], s111 = g.data[j + sx + 1];
  float s;
  if constexpr (Editor) {
    const float a = f32(double(s000) + double(s100 - s000) * double(fx));
    const float b = f32(double(s010) + double(s110 - s010) * double(fx));
    const float c = f32(double(s001) + double(s101 - s001) * double(fx));
    const float e = f32(double(s011) + double(s111 - s011) * double(fx));
    const float lo = f32(double(a) + (double(b) - double(a)) * double(fy));
    const float hi = f32(double(c) + (double(e) - double(c)) * double(fy));
    s = f32(double(lo) + (double(hi) - double(lo)) * double(fz) - 128.0);
  } else {
    const float a = float(s000) + float(s100 - s000) * fx;
    const float b = float(s010) + float(s110 - s010) * fx;
    const float c = float(s001) + float(s101 - s001) * fx;
    const float e = float(s011) + float(s111 - s011) * fx;
    const float lo = a + (b - a) * fy;
    const float hi = c + (e - c) * fy;
    s = lo + (hi - lo) * fz - 128.0f;
  }
  return within(s);
}

}  // namespace

bool point_stands(const ByteGrid& g, const std::array<float, 3>& p) { return stands_in_cell<false>(g, p); }
bool point_stands_editor(const ByteGrid& g, const std::array<float, 3>& p) { return stands_in_cell<true>(g, p); }

// --- Top surface and mask ----------------------------------------------------------------

float top_surface(const ByteGrid& g, uint32_t x, uint32_t z) {
  const uint32_t ny = g.cells.ny;
  for (int64_t y = int64_t(ny) - 1; y >= 0; --y) {
    const int b = g.at(x, uint64_t(y), z);
    if (b >= 128) continue;
    int a = g.at(x, uint64_t(y) + 1, z);
    if (a < 128) a = 255;  // only the top sample can be solid above a solid one (see header)
    return f32(double(y) + (128.0 - double(b)) / double(a - b));
  }
  return -1.0f;
}

std::vector<float> top_surfaces(const ByteGrid& g) {
  const Dims& d = g.cells;
  const uint64_t w = d.sx();
  std::vector<float> top;
  reserve_populated(top, w * d.sz());
  top.assign(w * d.sz(), -1.0f);
  // One z row at a time, scanning y downwards over the whole row: each step reads a
  // contiguous run of samples, and the scan stops once every column of the row is found.
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, d.sz(), 4), [&](const tbb::blocked_range<uint64_t>& r) {
    // found[x] is 0x80 once column x has its surface: eight columns are looked at in one
    // 64-bit step (solid samples of columns not yet found), one at a time only where some are.
    constexpr uint64_t kHigh = 0x8080808080808080ull;
    std::vector<uint8_t> found(w + 8);
    for (uint64_t z = r.begin(); z < r.end(); ++z) {
      std::fill(found.begin(), found.end(), 0);
      uint64_t left = w;
      float* out = top.data() + w * z;
      for (int64_t y = int64_t(d.ny) - 1; y >= 0 && left; --y) {
        const uint8_t* row = g.data.data() + d.index(0, uint64_t(y), z);
        const uint8_t* above = row + w;
        auto take = [&](uint64_t x) {
          found[x] = 0x80;
          --left;
          int a = above[x];
          if (a < 128) a = 255;
          out[x] = f32(double(y) + (128.0 - double(row[x])) / double(a - int(row[x])));
        };
        uint64_t x = 0;
        for (; x + 8 <= w; x += 8) {
          uint64_t v8, f8;
          std::memcpy(&v8, row + x, 8);
          std::memcpy(&f8, found.data() + x, 8);
          uint64_t hit = ~v8 & ~f8 & kHigh;  // high bit clear in the sample, not yet found
          while (hit) {
            take(x + uint64_t(__builtin_ctzll(hit) >> 3));
            hit &= hit - 1;
          }
        }
        for (; x < w; ++x)
          if (!found[x] && row[x] < 128) take(x);
      }
    }
  });
  return top;
}

uint32_t mask_height(const Dims& c, uint64_t s) { return uint32_t(c.nz + 1 + (s + c.nx) / (uint64_t(c.nx) + 1)); }

std::array<uint8_t, 4> column_texel(float anchor) {
  if (anchor < 0.0f) return {kRemoved, 0, 0, 0};
  // anchor * 16 is exact; nearbyint rounds half to even (Mathf.RoundToInt).
  const double v = std::nearbyint(double(anchor) * 16.0);
  const uint32_t a = v <= 0 ? 0u : v >= 65535 ? 65535u : uint32_t(v);
  return {kStanding, uint8_t(a >> 8), uint8_t(a & 255), 255};
}

float texel_anchor(const uint8_t* t) {
  if (t[3] == 0) return -1.0f;
  return float((uint32_t(t[1]) << 8) | t[2]) / kAnchorScale;
}

// --- Chunks ----------------------------------------------------------------------------------

Chunks chunks_of(const Dims& c, uint32_t cc) {
  Chunks ch;
  ch.cc = cc ? cc : 16;
  ch.cx = (c.nx + ch.cc - 1) / ch.cc;
  ch.cy = (c.ny + ch.cc - 1) / ch.cc;
  ch.cz = (c.nz + ch.cc - 1) / ch.cc;
  return ch;
}

uint32_t anchor_chunk(const Dims& c, const Chunks& ch, const std::array<float, 3>& a) {
  const uint32_t x = uint32_t(cell_of(a[0], c.nx)), y = uint32_t(cell_of(a[1], c.ny)), z = uint32_t(cell_of(a[2], c.nz));
  return ch.index(std::min(x / ch.cc, ch.cx - 1), std::min(y / ch.cc, ch.cy - 1), std::min(z / ch.cc, ch.cz - 1));
}

uint32_t column_chunk(const Dims& c, const Chunks& ch, uint32_t x, uint32_t z, float y) {
  const uint32_t ay = std::min(uint32_t(std::max(0, int(y))), c.ny - 1);
  return ch.index(std::min(x / ch.cc, ch.cx - 1), std::min(ay / ch.cc, ch.cy - 1), std::min(z / ch.cc, ch.cz - 1));
}

uint32_t detail_chunk_column(const Chunks& ch, uint32_t x, uint32_t z) {
  return std::min(x / ch.cc, ch.cx - 1) + ch.cx * std::min(z / ch.cc, ch.cz - 1);
}

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

// --- Reports ---------------------------------------------------------------------------------

Counts counts(const ZoneFoliage& f, const Dims& d) {
  Counts c;
  const uint64_t cols = d.sx() * d.sz();
  if (f.mask.size() < 4 * cols) return c;
  for (uint64_t i = 0; i < cols; ++i) {
    const uint8_t* t = f.mask.data() + 4 * i;
    const uint8_t* b = f.baked_mask.data() + 4 * i;
    if (b[3] == 0) continue;
    ++c.columns_surface;
    if (t[3] == 0)
      ++c.columns_erased;
    else if (t[0] == kStanding)
      ++c.columns_standing;
    else
      ++c.columns_fallen;
  }
  for (const auto& t : f.trees) {
    if (t.state == TreeState::Standing) ++c.trees_standing;
    else if (t.state == TreeState::Fallen) ++c.trees_fallen;
    else ++c.trees_erased;
  }
  for (size_t k = 0; k < f.surface.size(); ++k) {
    const uint8_t* t = f.mask.data() + 4 * (cols + k);
    if (t[3] == 0) ++c.surface_erased;
    else if (t[0] == kStanding) ++c.surface_standing;
    else ++c.surface_fallen;
  }
  for (const auto& dt : f.details) {
    const uint8_t* t = f.mask.data() + 4 * uint64_t(dt.column);
    if (t[3] == 0) ++c.details_erased;
    else if (t[0] == kStanding) ++c.details_standing;
    else ++c.details_fallen;
  }
  return c;
}

bool Diff::empty() const {
  return trees_fell.empty() && trees_rose.empty() && columns_fell.empty() && columns_rose.empty() &&
         surface_fell.empty() && surface_rose.empty() && details_fell.empty() && details_rose.empty();
}

Diff diff(const ZoneFoliage& f, const Dims& d) {
  Diff out;
  const uint64_t cols = d.sx() * d.sz();
  auto on = [](const uint8_t* t) { return t[3] != 0 && t[0] == kStanding; };
  for (uint64_t i = 0; i < cols; ++i) {
    const bool was = on(f.baked_mask.data() + 4 * i), is = on(f.mask.data() + 4 * i);
    if (was && !is) out.columns_fell.push_back(uint32_t(i));
    if (!was && is) out.columns_rose.push_back(uint32_t(i));
  }
  for (const auto& t : f.trees) {
    const bool was = t.baked_state == TreeState::Standing, is = t.state == TreeState::Standing;
    if (was && !is) out.trees_fell.push_back(t.id);
    if (!was && is) out.trees_rose.push_back(t.id);
  }
  for (size_t k = 0; k < f.surface.size(); ++k) {
    const bool was = on(f.baked_mask.data() + 4 * (cols + k)), is = on(f.mask.data() + 4 * (cols + k));
    if (was && !is) out.surface_fell.push_back(f.surface[k].id);
    if (!was && is) out.surface_rose.push_back(f.surface[k].id);
  }
  for (const auto& dt : f.details) {
    const bool was = on(f.baked_mask.data() + 4 * uint64_t(dt.column)), is = on(f.mask.data() + 4 * uint64_t(dt.column));
    if (was && !is) out.details_fell.push_back(dt.id);
    if (!was && is) out.details_rose.push_back(dt.id);
  }
  for (auto* v : {&out.trees_fell, &out.trees_rose, &out.surface_fell, &out.surface_rose, &out.details_fell,
                  &out.details_rose})
    std::sort(v->begin(), v->end());
  return out;
}

ChunkCounts chunk_counts(const ZoneFoliage& f, const Dims& d, uint32_t cc) {
  const Chunks ch = chunks_of(d, cc);
  ChunkCounts c;
  c.trees.assign(ch.count(), 0);
  c.surface.assign(ch.count(), 0);
  c.columns.assign(ch.count(), 0);
  c.details.assign(ch.columns(), 0);
  for (uint64_t i = 0; i < ch.count() && f.tree_buckets.size() == ch.count() + 1; ++i)
    c.trees[i] = f.tree_buckets[i + 1] - f.tree_buckets[i];
  for (uint64_t i = 0; i < ch.count() && f.surface_buckets.size() == ch.count() + 1; ++i)
    c.surface[i] = f.surface_buckets[i + 1] - f.surface_buckets[i];
  for (uint64_t i = 0; i < ch.columns() && f.detail_buckets.size() == ch.columns() + 1; ++i)
    c.details[i] = f.detail_buckets[i + 1] - f.detail_buckets[i];
  const uint64_t w = d.sx();
  if (f.baked_mask.size() >= 4 * w * d.sz())
    for (uint64_t z = 0; z < d.sz(); ++z)
      for (uint64_t x = 0; x < w; ++x) {
        const uint8_t* t = f.baked_mask.data() + 4 * (x + w * z);
        if (t[3] == 0) continue;
        ++c.columns[column_chunk(d, ch, uint32_t(x), uint32_t(z), texel_anchor(t))];
      }
  return c;
}

std::string problem(const ZoneFoliage& f, const Dims& d, uint32_t cc) {
  if (f.empty()) return {};
  const Chunks ch = chunks_of(d, cc);
  if (f.mask_width != d.sx()) return "mask width " + std::to_string(f.mask_width) + " is not nx + 1 = " + std::to_string(d.sx());
  if (f.mask_height != mask_height(d, f.surface.size()))
    return "mask height " + std::to_string(f.mask_height) + " does not fit " + std::to_string(f.surface.size()) +
           " surface details (" + std::to_string(mask_height(d, f.surface.size())) + " rows)";
  const uint64_t texels = uint64_t(f.mask_width) * f.mask_height;
  if (f.mask.size() != 4 * texels || f.baked_mask.size() != 4 * texels) return "mask data does not match its size";
  auto check_buckets = [](const std::vector<uint32_t>& b, uint64_t keys, uint64_t items, const char* what) -> std::string {
    if (b.size() != keys + 1)
      return std::string(what) + " buckets: " + std::to_string(b.size()) + " offsets, expected " + std::to_string(keys + 1);
    if (b[0] != 0 || b[keys] != items) return std::string(what) + " buckets do not span the items";
    for (uint64_t i = 0; i < keys; ++i)
      if (b[i] > b[i + 1]) return std::string(what) + " buckets decrease at " + std::to_string(i);
    return {};
  };
  if (auto p = check_buckets(f.tree_buckets, ch.count(), f.trees.size(), "tree"); !p.empty()) return p;
  if (auto p = check_buckets(f.surface_buckets, ch.count(), f.surface.size(), "surface detail"); !p.empty()) return p;
  if (auto p = check_buckets(f.detail_buckets, ch.columns(), f.details.size(), "detail"); !p.empty()) return p;
  // Each item in the bucket of the chunk that checks it.
  for (uint64_t c = 0; c < ch.count(); ++c) {
    for (uint32_t k = f.tree_buckets[c]; k < f.tree_buckets[c + 1]; ++k)
      if (anchor_chunk(d, ch, f.trees[k].anchor) != c) return "tree " + std::to_string(k) + " is not in its anchor chunk's bucket";
    for (uint32_t k = f.surface_buckets[c]; k < f.surface_buckets[c + 1]; ++k)
      if (anchor_chunk(d, ch, f.surface[k].anchor) != c)
        return "surface detail " + std::to_string(k) + " is not in its anchor chunk's bucket";
  }
  const uint64_t cols = d.sx() * d.sz();
  for (uint64_t c = 0; c < ch.columns(); ++c)
    for (uint32_t k = f.detail_buckets[c]; k < f.detail_buckets[c + 1]; ++k) {
      const uint32_t col = f.details[k].column;
      if (col >= cols) return "detail " + std::to_string(k) + " names column " + std::to_string(col) + " past the grid";
      if (detail_chunk_column(ch, col % uint32_t(d.sx()), col / uint32_t(d.sx())) != c)
        return "detail " + std::to_string(k) + " is not in its chunk column's bucket";
    }
  for (const auto& s : f.surface)
    if (s.column >= cols) return "a surface detail names a column past the grid";
  if (!f.chunk_hash.empty() && f.chunk_hash.size() != ch.count()) return "chunk hash count does not match the chunks";
  return {};
}

}  // namespace voxkit::foliage
