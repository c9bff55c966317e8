#include "lib/edit/replay.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "lib/core/error.hpp"

namespace voxkit::edit {
namespace {

// (a - p).sqrMagnitude <= r * r, in float32 in Unity's order.
inline bool within(float ax, float ay, float az, float px, float py, float pz, float r) {
  const float dx = ax - px, dy = ay - py, dz = az - pz;
  return !(dx * dx + dy * dy + dz * dz > r * r);
}

}  // namespace

Editor::Editor(const ByteGrid& baked, const ByteGrid* baked_paint, const SampleBox& edit_box,
               const EditorOptions& opts, const ByteGrid* current, const ByteGrid* current_paint,
               std::vector<Spawned> spawned)
    : baked_(&baked), baked_paint_(baked_paint), edit_box_(edit_box), opts_(opts), spawned_(std::move(spawned)) {
  if (opts_.chunk_cells == 0) throw_usage("chunk size must be at least 1 cell");
  auto same = [&](const ByteGrid* g, const char* what) {
    if (g && (g->cells != baked.cells || g->data.size() != baked.data.size()))
      throw_usage(std::string(what) + " does not have the baked grid's dimensions");
  };
  same(baked_paint, "the baked paint grid");
  same(current, "the current grid");
  same(current_paint, "the current paint grid");
  grid_ = current ? *current : baked;
  if (current_paint)
    paint_ = *current_paint;
  else if (baked_paint && !current)
    paint_ = *baked_paint;
  else
    paint_ = ByteGrid(baked.cells, 0);
  const uint32_t n[3] = {baked.cells.nx, baked.cells.ny, baked.cells.nz};
  for (size_t a = 0; a < 3; ++a) chunks_[a] = (n[a] + opts_.chunk_cells - 1) / opts_.chunk_cells;
  dirty_.assign(size_t(chunks_[0]) * chunks_[1] * chunks_[2], 0);
}

std::array<uint32_t, 3> Editor::chunk_counts() const { return chunks_; }

void Editor::mark(const SampleBox& box) {
  unite(changed_, changed_set_, box);
  const ChunkRange c = affected_chunks(box, grid_.cells, opts_.chunk_cells);
  for (uint32_t z = c.lo[2]; z <= c.hi[2]; ++z)
    for (uint32_t y = c.lo[1]; y <= c.hi[1]; ++y)
      for (uint32_t x = c.lo[0]; x <= c.hi[0]; ++x)
        dirty_[x + size_t(chunks_[0]) * (y + size_t(chunks_[1]) * z)] = 1;
}

std::vector<uint64_t> Editor::dirty_chunks() const {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < dirty_.size(); ++i)
    if (dirty_[i]) out.push_back(i);
  return out;
}

bool Editor::erase_spawned(float px, float py, float pz, float r, int kind) {
  const size_t before = spawned_.size();
  std::erase_if(spawned_, [&](const Spawned& s) {
    if ((kind == 1 && !s.tree) || (kind == 2 && s.tree)) return false;
    return within(s.x, s.y, s.z, px, py, pz, r);
  });
  return spawned_.size() != before;
}

void Editor::reset() {
  // What the reset changes, against the grids as they are now, joins the changed box.
  const Dims& c = grid_.cells;
  const ByteGrid* bp = baked_paint_;
  int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, hi[3] = {-1, -1, -1};
  for (uint64_t z = 0; z < c.sz(); ++z)
    for (uint64_t y = 0; y < c.sy(); ++y) {
      const uint64_t row = c.index(0, y, z);
      int64_t first = -1, last = -1;
      for (uint64_t x = 0; x < c.sx(); ++x) {
        const uint64_t i = row + x;
        const uint8_t p = bp ? bp->data[i] : uint8_t(0);
        if (grid_.data[i] == baked_->data[i] && paint_.data[i] == p) continue;
        if (first < 0) first = int64_t(x);
        last = int64_t(x);
      }
      if (first < 0) continue;
      lo[0] = std::min(lo[0], first), hi[0] = std::max(hi[0], last);
      lo[1] = std::min(lo[1], int64_t(y)), hi[1] = std::max(hi[1], int64_t(y));
      lo[2] = std::min(lo[2], int64_t(z)), hi[2] = std::max(hi[2], int64_t(z));
    }
  if (hi[0] >= 0)
    mark(SampleBox{{int32_t(lo[0]), int32_t(lo[1]), int32_t(lo[2])}, {int32_t(hi[0]), int32_t(hi[1]), int32_t(hi[2])}});
  grid_.data = baked_->data;
  if (bp)
    paint_.data = bp->data;
  else
    std::fill(paint_.data.begin(), paint_.data.end(), uint8_t(0));
  spawned_.clear();
}

EditEffect Editor::apply(uint64_t e) {
  EditEffect fx;
  std::optional<GridLimit> limit;
  if (opts_.check_position) limit = GridLimit{grid_.cells.nx, grid_.cells.ny, grid_.cells.nz};
  if (auto why = invalid_reason(e, opts_.target, limit)) {
    fx.outcome = Outcome::Invalid;
    fx.why = *why;
    return fx;
  }
  const Fields f = unpack(e);
  const float px = float(f.x) / 16.0f, py = float(f.y) / 16.0f, pz = float(f.z) / 16.0f;
  const float r = float(f.radius) / 8.0f;
  const auto finish = [&](const StampResult& s) {
    fx.visited = s.visited;
    if (s.changed) {
      fx.grid_changed = true;
      fx.box = s.box;
      mark(s.box);
    }
    const bool any = s.changed || fx.spawns_added || fx.spawns_removed;
    fx.outcome = any ? Outcome::Changed : Outcome::NoChange;
    return fx;
  };

  if (f.op == uint32_t(Op::Tree) || f.op == uint32_t(Op::Detail)) {
    const bool tree = f.op == uint32_t(Op::Tree);
    if (f.layer == 0) {
      const size_t before = spawned_.size();
      erase_spawned(px, py, pz, r, tree ? 1 : 2);
      fx.spawns_removed = uint32_t(before - spawned_.size());
      return finish({});
    }
    const uint32_t prefabs = tree ? opts_.tree_prefabs : opts_.detail_prefabs;
    if (f.layer > prefabs || spawned_.size() >= opts_.max_spawned) return finish({});
    for (const Spawned& s : spawned_)
      if (s.edit == e) return finish({});
    spawned_.push_back(Spawned{e, tree, px, py, pz});
    fx.spawns_added = 1;
    return finish({});
  }
  if (f.op == uint32_t(Op::Smooth)) {
    return finish(smooth(grid_, edit_box_, px, py, pz, r, float(f.layer) / float(kSmoothSteps)));
  }
  if (f.op != uint32_t(Op::Dig) && f.op != uint32_t(Op::Add) && f.op != uint32_t(Op::Paint)) return finish({});
  if (f.layer > kLayerMax) return finish({});
  // Digging takes away what was planted in the sphere; adding soil buries it.
  if (f.op != uint32_t(Op::Paint)) {
    const size_t before = spawned_.size();
    erase_spawned(px, py, pz, r, 0);
    fx.spawns_removed = uint32_t(before - spawned_.size());
  }
  const StampResult s = stamp(grid_, &paint_, edit_box_, px, py, pz, r, f.op, f.layer);
  if (s.changed && (f.op == uint32_t(Op::Paint) || f.layer > 0)) paint_touched_ = true;
  return finish(s);
}

NetReport replay_network(Editor& editor, std::span<const NetRecord> records, uint64_t max_records) {
  NetReport rep;
  std::vector<NetRecord> pending;
  pending.reserve(kPendingCapacity);
  std::optional<GridLimit> limit;
  if (editor.options().check_position)
    limit = GridLimit{editor.grid().cells.nx, editor.grid().cells.ny, editor.grid().cells.nz};

  auto append = [&](const NetRecord& r) {
    const EditEffect fx = editor.apply(r.edit);
    rep.visited += fx.visited;
    if (fx.outcome == Outcome::Changed) ++rep.changed;
    else if (fx.outcome == Outcome::NoChange) ++rep.unchanged;
    rep.log.push_back(r.edit);
    ++rep.count;
    ++rep.applied;
  };
  auto buffer = [&](const NetRecord& r) {
    if (pending.size() >= kPendingCapacity) {
      ++rep.overflow;
      return;
    }
    pending.push_back(r);
    ++rep.buffered;
  };
  // Until nothing changes: drop stale entries, append the one that comes next.
  auto drain = [&] {
    bool progress = true;
    while (progress) {
      progress = false;
      for (size_t i = 0; i < pending.size();) {
        const NetRecord& r = pending[i];
        const bool stale = r.epoch < rep.epoch || (r.epoch == rep.epoch && r.seq < rep.count);
        const bool next = r.epoch == rep.epoch && r.seq == rep.count;
        if (!stale && !next) {
          ++i;
          continue;
        }
        if (stale) {
          if (r.epoch < rep.epoch)
            ++rep.stale;
          else
            ++rep.duplicates;
        } else {
          append(r);
          progress = true;
        }
        pending[i] = pending.back();
        pending.pop_back();
      }
    }
  };

  for (const NetRecord& r : records) {
    if (rep.records >= max_records) break;
    ++rep.records;
    if (r.kind == NetRecord::Kind::Reset) {
      if (r.epoch > rep.epoch) {
        rep.epoch = r.epoch;
        rep.count = 0;
        rep.log.clear();
        editor.reset();
        ++rep.resets;
        drain();
      } else {
        ++rep.stale;
      }
      continue;
    }
    if (invalid_reason(r.edit, editor.options().target, limit)) {
      ++rep.invalid;
      continue;
    }
    if (r.epoch != rep.epoch) {
      if (r.epoch > rep.epoch)
        buffer(r);
      else
        ++rep.stale;
      continue;
    }
    if (r.seq < rep.count) {
      ++rep.duplicates;
      continue;
    }
    if (r.seq > rep.count) {
      buffer(r);
      continue;
    }
    append(r);
    drain();
  }

  for (const NetRecord& r : pending) {
    if (r.epoch == rep.epoch)
      ++rep.waiting;
    else if (r.epoch > rep.epoch)
      ++rep.waiting_newer_epoch;
  }
  if (rep.waiting) rep.first_missing = rep.count;
  return rep;
}

}  // namespace voxkit::edit
