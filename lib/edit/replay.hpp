// Applying packed edits to a zone's grids as the package's runtimes do: the standalone
// runtime's ApplyEdit (validity, the spawn side effects of dig and add, tree and detail spawns
// and erases, the changed box and the dirty chunks), its LoadEdits (reset to the baked grid,
// then every edit in order), and the VRChat receiver's handling of (edit, sequence, epoch)
// records in arrival order (duplicates, gaps, early records, epochs).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/core/zone.hpp"
#include "lib/edit/packed_edit.hpp"
#include "lib/edit/stamp.hpp"

namespace voxkit::edit {

inline constexpr uint32_t kMaxSpawned = 2048;    // the standalone runtime's default maxSpawned
inline constexpr uint32_t kPendingCapacity = 128;  // the VRChat receiver's pending buffer

// A tree or detail placed by an edit; its position is the edit's (grid units).
struct Spawned {
  uint64_t edit = 0;
  bool tree = true;
  float x = 0, y = 0, z = 0;
};

struct EditorOptions {
  Target target = Target::V07;   // which edits are valid
  bool check_position = true;    // refuse positions past the grid (as the VRChat runtime does)
  uint32_t chunk_cells = 16;
  // Prefab list lengths: a spawn whose index (layer - 1) is not below them is ignored. The
  // prefabs are the scene's; with no list a spawn of any index 1..31 is kept.
  uint32_t tree_prefabs = 31, detail_prefabs = 31;
  uint32_t max_spawned = kMaxSpawned;
};

enum class Outcome : uint8_t {
  Changed,    // the grid, paint or the spawned objects changed (the runtime logs the edit)
  NoChange,   // valid, but nothing changed (the standalone runtime does not log it)
  Invalid,    // refused by a receiver of the target (op 6/7, layer, position)
};

struct EditEffect {
  Outcome outcome = Outcome::NoChange;
  bool grid_changed = false;   // grid or paint bytes
  SampleBox box;               // inclusive changed samples, when grid_changed
  uint32_t spawns_added = 0, spawns_removed = 0;
  uint64_t visited = 0;        // samples the stamp looked at
  std::string why;             // Invalid: what was wrong
};

// The state a runtime keeps while edits are applied: the current grid and paint, the spawned
// objects, the accumulated changed box and dirty chunks. The baked grids are borrowed and
// must outlive the editor.
class Editor {
 public:
  // `baked_paint` may be null (no paint: a zero grid is used, as both runtimes do).
  // `current` / `current_paint` start the editor from a grid that already holds edits (a
  // zone's grid); null starts from the baked ones.
  Editor(const ByteGrid& baked, const ByteGrid* baked_paint, const SampleBox& edit_box, const EditorOptions& opts,
         const ByteGrid* current = nullptr, const ByteGrid* current_paint = nullptr,
         std::vector<Spawned> spawned = {});

  // The standalone runtime's ApplyEdit(e).
  EditEffect apply(uint64_t e);
  // ResetToBaked: the baked grid and paint back, no spawned objects. The accumulated changed
  // box and dirty chunks keep growing (they say what differs from the input).
  void reset();

  const ByteGrid& grid() const { return grid_; }
  const ByteGrid& paint() const { return paint_; }
  ByteGrid& grid() { return grid_; }
  ByteGrid& paint() { return paint_; }
  bool paint_touched() const { return paint_touched_; }  // some edit wrote paint
  const std::vector<Spawned>& spawned() const { return spawned_; }
  const EditorOptions& options() const { return opts_; }
  const SampleBox& edit_box() const { return edit_box_; }

  // Every sample box changed since construction (resets included: a reset changes what
  // earlier edits changed), and whether there is any.
  bool any_change() const { return changed_set_; }
  const SampleBox& changed_box() const { return changed_; }
  // Chunk indices (cx + ncx * (cy + ncy * cz)) to remesh, ascending.
  std::vector<uint64_t> dirty_chunks() const;
  std::array<uint32_t, 3> chunk_counts() const;

 private:
  void mark(const SampleBox& box);
  bool erase_spawned(float px, float py, float pz, float r, int kind);

  const ByteGrid* baked_;
  const ByteGrid* baked_paint_;
  SampleBox edit_box_;
  EditorOptions opts_;
  ByteGrid grid_, paint_;
  bool paint_touched_ = false;
  std::vector<Spawned> spawned_;
  SampleBox changed_;
  bool changed_set_ = false;
  std::vector<uint8_t> dirty_;  // one flag per chunk
  std::array<uint32_t, 3> chunks_{0, 0, 0};
};

// --- Network arrival order (the VRChat receiver) --------------------------------------------

struct NetRecord {
  enum class Kind : uint8_t { Edit, Reset };
  Kind kind = Kind::Edit;
  uint64_t edit = 0;
  uint32_t seq = 0;
  uint32_t epoch = 0;
};

struct NetReport {
  uint64_t records = 0;
  uint64_t applied = 0;            // appended to the log (in sequence order) and applied
  uint64_t changed = 0, unchanged = 0;  // of the applied: whether they changed a sample
  uint64_t visited = 0;            // samples the applied edits visited
  uint64_t duplicates = 0;         // seq below the count: dropped
  uint64_t stale = 0;              // an older epoch: dropped
  uint64_t invalid = 0;            // refused by validity: dropped
  uint64_t buffered = 0;           // held for later at some point (early or a newer epoch)
  uint64_t overflow = 0;           // dropped because the pending buffer was full
  uint64_t resets = 0;             // resets applied (to a newer epoch)
  uint32_t epoch = 0;              // the epoch the client ends in
  uint32_t count = 0;              // entries of the client's log in that epoch
  // A gap that never filled: the first missing sequence number of the final epoch, and how
  // many records wait behind it.
  std::optional<uint32_t> first_missing;
  uint64_t waiting = 0;
  // Records of a newer epoch that never saw its reset.
  uint64_t waiting_newer_epoch = 0;
  std::vector<uint64_t> log;       // the client's log of the final epoch, in sequence order
};

// Feeds records to a receiver in arrival order, applying each edit through `editor` when it
// is appended (the editor is reset at each newer epoch). Stops after `max_records` records.
NetReport replay_network(Editor& editor, std::span<const NetRecord> records,
                         uint64_t max_records = UINT64_MAX);

}  // namespace voxkit::edit
