// Lockstep walks over two node streams. Recursion depth is bounded by maxDepth (<= 24);
// nothing is allocated per node.
#include "lib/octree/octree_merge.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <tuple>

#include "lib/core/error.hpp"
#include "lib/octree/octree_walk.hpp"

namespace voxkit::octree {
namespace {

void check_same_depth(const DeltaView& a, const DeltaView& b) {
  if (a.max_depth != b.max_depth) {
    throw_data("the two files are of different world sizes", 0,
               "maxDepth " + std::to_string(a.max_depth), "maxDepth " + std::to_string(b.max_depth));
  }
}

// A leaf's value as it applies to every voxel under it.
struct LeafVal {
  uint8_t flags, density, type;
  bool modified() const { return flags & kModified; }
};
inline LeafVal leaf_at(const uint8_t* p, size_t at) { return {p[at], p[at + 1], p[at + 2]}; }
inline bool same(const LeafVal& x, const LeafVal& y) {
  if (!x.modified() && !y.modified()) return true;
  return x.modified() && y.modified() && x.density == y.density && x.type == y.type;
}

struct Differ {
  const uint8_t* pa;
  const uint8_t* pb;
  int md;
  DiffResult& r;
  BlockGrouper& g;

  void record(const LeafVal& x, const LeafVal& y, const Vec3i& pos, int64_t size) {
    if (same(x, y)) return;
    const uint64_t vol = uint64_t(size) * uint64_t(size) * uint64_t(size);
    r.differing_volume += vol;
    if (x.modified() && y.modified()) r.both_changed += vol;
    else if (x.modified()) r.only_a += vol;
    else r.only_b += vol;
    g.add({pos, {pos[0] + size - 1, pos[1] + size - 1, pos[2] + size - 1}});
  }

  // A subtree (at `at` in stream p) against one leaf value spread over it. Returns the end.
  size_t against_leaf(const uint8_t* p, size_t at, const LeafVal& other, bool p_is_a,
                      const Vec3i& pos, int d) {
    const int64_t size = int64_t(1) << (md - d);
    if (p[at] & kLeaf) {
      const LeafVal x = leaf_at(p, at);
      if (p_is_a) record(x, other, pos, size);
      else record(other, x, pos, size);
      return at + 3;
    }
    ++at;
    for (int i = 0; i < 8; ++i) at = against_leaf(p, at, other, p_is_a, child_pos(pos, i, size / 2), d + 1);
    return at;
  }

  // Returns the ends of both subtrees.
  std::pair<size_t, size_t> both(size_t a, size_t b, const Vec3i& pos, int d) {
    const int64_t size = int64_t(1) << (md - d);
    const bool la = pa[a] & kLeaf, lb = pb[b] & kLeaf;
    if (la && lb) {
      record(leaf_at(pa, a), leaf_at(pb, b), pos, size);
      return {a + 3, b + 3};
    }
    if (la) return {a + 3, against_leaf(pb, b, leaf_at(pa, a), false, pos, d)};
    if (lb) return {against_leaf(pa, a, leaf_at(pb, b), true, pos, d), b + 3};
    ++a;
    ++b;
    for (int i = 0; i < 8; ++i) std::tie(a, b) = both(a, b, child_pos(pos, i, size / 2), d + 1);
    return {a, b};
  }
};

struct Merger {
  const uint8_t* pa;
  const uint8_t* pb;
  std::vector<uint8_t>& out;
  MergeStats& st;

  static uint64_t modified_leaves(const uint8_t* p, size_t at, size_t end) {
    uint64_t n = 0;
    while (at < end) {
      if (p[at] & kLeaf) {
        n += (p[at] >> 1) & 1;
        at += 3;
      } else {
        ++at;
      }
    }
    return n;
  }

  size_t copy(const uint8_t* p, size_t at, uint64_t& counter) {
    const size_t end = skip_subtree(p, at);
    out.insert(out.end(), p + at, p + end);
    counter += modified_leaves(p, at, end);
    return end;
  }

  // B's subtree over one modified leaf of A. Returns B's end and whether the output is modified.
  std::pair<size_t, bool> over_leaf(size_t b, const LeafVal& a) {
    if (pb[b] & kLeaf) {
      if (pb[b] & kModified) {
        out.insert(out.end(), pb + b, pb + b + 3);
        ++st.leaves_from_b;
      } else {
        out.insert(out.end(), {a.flags, a.density, a.type});
        ++st.leaves_from_a;
      }
      return {b + 3, true};
    }
    out.push_back(kModified);
    ++b;
    for (int i = 0; i < 8; ++i) b = over_leaf(b, a).first;
    return {b, true};
  }

  // Returns the ends in A and B and whether the output node is modified.
  std::tuple<size_t, size_t, bool> both(size_t a, size_t b) {
    const bool la = pa[a] & kLeaf, lb = pb[b] & kLeaf;
    if (lb && !(pb[b] & kModified)) {
      const bool mod = pa[a] & kModified;
      return {copy(pa, a, st.leaves_from_a), b + 3, mod};
    }
    if (lb) {
      out.insert(out.end(), pb + b, pb + b + 3);
      ++st.leaves_from_b;
      return {skip_subtree(pa, a), b + 3, true};
    }
    if (la && !(pa[a] & kModified)) {
      const bool mod = pb[b] & kModified;
      return {a + 3, copy(pb, b, st.leaves_from_b), mod};
    }
    if (la) {
      auto [bend, mod] = over_leaf(b, leaf_at(pa, a));
      return {a + 3, bend, mod};
    }
    const size_t flag_at = out.size();
    out.push_back(0);
    ++a;
    ++b;
    bool any = false;
    for (int i = 0; i < 8; ++i) {
      auto [na, nb, mod] = both(a, b);
      a = na;
      b = nb;
      any |= mod;
    }
    out[flag_at] = any ? kModified : 0;
    return {a, b, any};
  }
};

}  // namespace

DiffResult diff(const DeltaView& a, const DeltaView& b, int block_log2) {
  check_same_depth(a, b);
  DiffResult r;
  BlockGrouper g(a.max_depth, block_log2);
  Differ d{a.nodes.data(), b.nodes.data(), a.max_depth, r, g};
  d.both(0, 0, {0, 0, 0}, 0);
  r.regions = g.finish(a.origin());
  std::set<std::string> va;
  VeinReader ra(a);
  Vein v;
  while (ra.next(v)) va.emplace(reinterpret_cast<const char*>(v.record.data()), v.record.size());
  std::set<std::string> vb;
  VeinReader rb(b);
  while (rb.next(v)) vb.emplace(reinterpret_cast<const char*>(v.record.data()), v.record.size());
  for (const auto& x : va) (vb.count(x) ? r.veins_common : r.veins_only_a)++;
  for (const auto& x : vb) r.veins_only_b += va.count(x) ? 0 : 1;
  return r;
}

std::vector<uint8_t> merge(const DeltaView& a, const DeltaView& b, MergeStats* stats) {
  check_same_depth(a, b);
  MergeStats st;
  std::vector<uint8_t> out;
  out.reserve(a.file_size() + b.file_size());
  put_i32(out, a.max_depth);
  Merger m{a.nodes.data(), b.nodes.data(), out, st};
  m.both(0, 0);
  // Veins: keyed by position and idHash.
  std::set<std::tuple<int16_t, int16_t, int16_t, int32_t>> in_b;
  VeinReader rb(b);
  Vein v;
  while (rb.next(v)) in_b.insert({v.world[0], v.world[1], v.world[2], v.id_hash});
  const size_t count_at = out.size();
  put_i32(out, 0);
  VeinReader ra(a);
  while (ra.next(v)) {
    if (in_b.count({v.world[0], v.world[1], v.world[2], v.id_hash})) continue;
    append(out, v.record);
    ++st.veins_from_a;
  }
  append(out, b.veins);
  st.veins_from_b = b.vein_count;
  const uint32_t total = uint32_t(st.veins_from_a + st.veins_from_b);
  for (int k = 0; k < 4; ++k) out[count_at + k] = uint8_t(total >> (8 * k));
  if (stats) *stats = st;
  return out;
}

}  // namespace voxkit::octree
