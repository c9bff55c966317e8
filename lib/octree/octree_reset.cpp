// Selective reset: one pre-order pass with an explicit stack; a branch's flags byte is
// written when the branch is entered and patched (or the branch collapsed) when it ends.
#include "lib/octree/octree_reset.hpp"

#include <algorithm>
#include <string>

#include "lib/core/error.hpp"
#include "lib/octree/octree_walk.hpp"

namespace voxkit::octree {
namespace {

// What a finished node left in the output, as its parent needs to know.
struct Result {
  bool changed = false;     // output differs from the input subtree
  bool modified = false;    // output node carries IS_MODIFIED
  bool unmod_leaf = false;  // output node is a leaf without IS_MODIFIED
};

struct Frame {
  int child;
  Vec3i pos;
  size_t out_at;  // offset of the branch's flags byte in the output
  uint8_t in_flags;
  Result acc;     // changed / modified: any child; unmod_leaf: every child
};

// Skips a validated subtree, counting its nodes and modified leaves.
size_t skip_count(const uint8_t* p, size_t pos, uint64_t& nodes, uint64_t& mod_leaves) {
  return skip_subtree(p, pos, [&](uint8_t f) {
    ++nodes;
    mod_leaves += (f & kLeaf) ? (f >> 1) & 1 : 0;
  });
}

// Records which output bytes are input bytes copied as they were. Bytes patched after their
// copy (a branch's flags) are marked and split out at the end.
class CopyLog {
 public:
  explicit CopyLog(std::vector<CopyRun>* runs) : runs_(runs) {}
  bool on() const { return runs_ != nullptr; }
  void copy(size_t to, size_t from, size_t len) {
    if (!runs_ || len == 0) return;
    if (!runs_->empty()) {
      CopyRun& b = runs_->back();
      if (b.to + b.len == to && b.from + b.len == from) {
        b.len += len;
        return;
      }
    }
    runs_->push_back({to, from, len});
  }
  // The output was cut back to `size` bytes.
  void truncate(size_t size) {
    if (!runs_) return;
    while (!runs_->empty() && runs_->back().to >= size) runs_->pop_back();
    if (!runs_->empty() && runs_->back().to + runs_->back().len > size) {
      runs_->back().len = size - runs_->back().to;
    }
  }
  void patched(size_t at) {
    if (runs_) patched_.push_back(at);
  }
  // Splits the runs at the patched bytes.
  void finish() {
    if (!runs_ || patched_.empty()) return;
    std::sort(patched_.begin(), patched_.end());
    std::vector<CopyRun> out;
    out.reserve(runs_->size() + patched_.size());
    size_t k = 0;
    for (CopyRun r : *runs_) {
      while (k < patched_.size() && patched_[k] < r.to) ++k;
      while (k < patched_.size() && patched_[k] < r.to + r.len) {
        const uint64_t cut = patched_[k] - r.to;
        if (cut > 0) out.push_back({r.to, r.from, cut});
        r = {r.to + cut + 1, r.from + cut + 1, r.len - cut - 1};
        ++k;
      }
      if (r.len > 0) out.push_back(r);
    }
    *runs_ = std::move(out);
  }

 private:
  std::vector<CopyRun>* runs_;
  std::vector<uint64_t> patched_;
};

inline void put_reset_leaf(std::vector<uint8_t>& out) {
  out.push_back(kLeaf);
  out.push_back(0);
  out.push_back(0);
}

// Bytes emit_reset() writes at depth d: a leaf at or below `top`, else a branch of eight.
uint64_t reset_bytes(int d, int top) {
  uint64_t b = 3;
  for (int k = std::max(d, 0); k < top; ++k) {
    if (b > (UINT64_MAX - 1) / 8) return UINT64_MAX;
    b = 1 + 8 * b;
  }
  return b;
}

// Refuses an output that would grow past the cap, before it is written.
struct OutputCap {
  uint64_t cap;
  // `more` bytes are about to be appended to an output of `now` bytes, for the input node
  // at file offset `node_at`.
  void check(size_t now, uint64_t more, uint64_t node_at) const {
    if (more > cap || uint64_t(now) > cap - more) {
      const uint64_t total = more > UINT64_MAX - now ? UINT64_MAX : now + more;
      throw_data("reset output would grow past the output cap", node_at,
                 "at most " + std::to_string(cap) + " bytes",
                 (total == UINT64_MAX ? std::string("more than 2^64") : std::to_string(total)) +
                     " bytes");
    }
  }
};

// An unmodified region at depth d: branches down to the depth the game keeps split, then
// one 01 00 00 leaf each.
void emit_reset(std::vector<uint8_t>& out, int d, int top) {
  if (d >= top) {
    put_reset_leaf(out);
    return;
  }
  out.push_back(0);
  for (int i = 0; i < 8; ++i) emit_reset(out, d + 1, top);
}

// Splits a modified leaf that straddles the region's boundary: the parts to keep repeat
// the leaf's bytes, the parts to reset become unmodified. Returns whether the emitted
// node is modified.
struct Splitter {
  const Region& region;
  std::vector<uint8_t>& out;
  const uint8_t* leaf;
  int md, top;
  int64_t origin;
  const OutputCap& cap;
  uint64_t leaf_at;  // file offset of the leaf, for errors

  bool node(int d, const Vec3i& pos) {
    const int64_t size = int64_t(1) << (md - d);
    const Box3i wb{{pos[0] - origin, pos[1], pos[2] - origin},
                   {pos[0] - origin + size - 1, pos[1] + size - 1, pos[2] - origin + size - 1}};
    const auto cover = region.classify(wb);
    if (cover == Region::Cover::Reset) {
      cap.check(out.size(), reset_bytes(d, top), leaf_at);
      emit_reset(out, d, top);
      return false;
    }
    cap.check(out.size(), 3, leaf_at);
    if (cover == Region::Cover::Keep || d == md) {  // a single voxel is never mixed
      out.insert(out.end(), leaf, leaf + 3);
      return true;
    }
    const size_t flag_at = out.size();
    out.push_back(kModified);
    bool any = false;
    for (int i = 0; i < 8; ++i) any |= node(d + 1, child_pos(pos, i, size / 2));
    if (!any && d >= top) {
      out.resize(flag_at);
      put_reset_leaf(out);
    } else {
      out[flag_at] = any ? kModified : 0;
    }
    return any;
  }
};

uint64_t count_nodes(std::span<const uint8_t> nodes) {
  uint64_t n = 0, m = 0;
  skip_count(nodes.data(), 0, n, m);
  return n;
}

}  // namespace

std::vector<uint8_t> reset(const DeltaView& v, const ResetOptions& opts, ResetStats* stats_out) {
  ResetStats st;
  std::vector<uint8_t> out;
  out.reserve(v.file_size());
  if (opts.copies) opts.copies->clear();
  CopyLog log(opts.copies);
  put_i32(out, v.max_depth);
  log.copy(0, 0, 4);
  const size_t nodes_base = out.size();
  const uint8_t* p = v.nodes.data();
  const int md = v.max_depth;
  const int64_t o = v.origin();
  const int top = opts.compat ? 0 : top_levels(md);
  const Region& region = opts.region;
  const OutputCap cap{opts.max_output_bytes};
  cap.check(0, 4, 0);

  Frame stack[kMaxAnyDepth + 2];
  int d = 0;
  size_t at = 0;
  Vec3i cur{0, 0, 0};
  for (;;) {
    const int64_t size = int64_t(1) << (md - d);
    const uint8_t f = p[at];
    const Box3i wb{{cur[0] - o, cur[1], cur[2] - o}, {cur[0] - o + size - 1, cur[1] + size - 1, cur[2] - o + size - 1}};
    Result r;
    if (f & kLeaf) {
      ++st.nodes_before;
      const auto cover = (f & kModified) ? region.classify(wb) : Region::Cover::Keep;
      if (cover == Region::Cover::Reset) {
        cap.check(out.size(), reset_bytes(d, top), 4 + at);
        emit_reset(out, d, top);
        ++st.subtrees_reset;
        ++st.nodes_reset;
        ++st.modified_leaves_reset;
        r = {true, false, d >= top};
      } else if (cover == Region::Cover::Mixed && !opts.compat) {
        Splitter sp{region, out, p + at, md, top, o, cap, 4 + at};
        const bool mod = sp.node(d, cur);
        ++st.modified_leaves_split;
        r = {true, mod, false};
      } else {
        cap.check(out.size(), 3, 4 + at);
        log.copy(out.size(), 4 + at, 3);
        out.insert(out.end(), p + at, p + at + 3);
        st.modified_leaves_kept += (f >> 1) & 1;
        r = {false, bool(f & kModified), !(f & kModified)};
      }
      at += 3;
    } else {
      const auto cover = region.classify(wb);
      if (cover == Region::Cover::Keep) {
        const size_t end = skip_count(p, at, st.nodes_before, st.modified_leaves_kept);
        cap.check(out.size(), end - at, 4 + at);
        log.copy(out.size(), 4 + at, end - at);
        out.insert(out.end(), p + at, p + end);
        at = end;
        r = {false, bool(f & kModified), false};
      } else if (cover == Region::Cover::Reset && d >= top) {
        cap.check(out.size(), 3, 4 + at);
        uint64_t n = 0;
        at = skip_count(p, at, n, st.modified_leaves_reset);
        st.nodes_before += n;
        st.nodes_reset += n;
        ++st.subtrees_reset;
        put_reset_leaf(out);
        r = {true, false, true};
      } else {
        ++st.nodes_before;
        cap.check(out.size(), 1, 4 + at);
        stack[d] = {0, cur, out.size(), f, {false, false, true}};
        log.copy(out.size(), 4 + at, 1);
        out.push_back(f);
        ++d;
        ++at;
        continue;  // child 0 starts at the branch origin
      }
    }
    // Hand the result up; finish every branch whose eighth child this was.
    for (;;) {
      if (d == 0) goto done;
      Frame& fr = stack[d - 1];
      fr.acc.changed |= r.changed;
      fr.acc.modified |= r.modified;
      fr.acc.unmod_leaf &= r.unmod_leaf;
      if (++fr.child < 8) {
        cur = child_pos(fr.pos, fr.child, int64_t(1) << (md - d));
        break;
      }
      --d;  // the branch at depth d is complete
      if (!fr.acc.changed) {
        r = {false, bool(fr.in_flags & kModified), false};
      } else if (opts.compat) {
        r = {true, bool(fr.in_flags & kModified), false};
      } else if (d >= top && fr.acc.unmod_leaf) {
        out.resize(fr.out_at);
        log.truncate(fr.out_at);
        put_reset_leaf(out);
        ++st.branches_collapsed;
        r = {true, false, true};
      } else {
        out[fr.out_at] = fr.acc.modified ? kModified : 0;
        if (out[fr.out_at] != fr.in_flags) log.patched(fr.out_at);
        r = {true, fr.acc.modified, false};
      }
    }
  }
done:
  const size_t nodes_len = out.size() - nodes_base;
  st.nodes_after = count_nodes(std::span<const uint8_t>(out).subspan(nodes_base, nodes_len));
  const size_t count_at = out.size();
  cap.check(out.size(), 4, v.veins_offset() - 4);
  put_i32(out, 0);
  VeinReader veins(v);
  Vein vein;
  while (veins.next(vein)) {
    if (region.resets({vein.world[0], vein.world[1], vein.world[2]})) {
      ++st.veins_reset;
    } else {
      ++st.veins_kept;
      cap.check(out.size(), vein.record.size(), v.veins_offset() + size_t(vein.record.data() - v.veins.data()));
      log.copy(out.size(), v.veins_offset() + size_t(vein.record.data() - v.veins.data()),
               vein.record.size());
      append(out, vein.record);
    }
  }
  const int32_t kept = int32_t(st.veins_kept);
  for (int k = 0; k < 4; ++k) out[count_at + k] = uint8_t(uint32_t(kept) >> (8 * k));
  log.finish();
  st.bytes_before = v.file_size();
  st.bytes_after = out.size();
  if (stats_out) *stats_out = st;
  return out;
}

}  // namespace voxkit::octree
