// The grass residency ring of the Vixen engine (GrassResidency, docs/grass-residency.md):
// which cells of a square cell grid hold one of a fixed number of pooled slots as a view
// moves, and the terrain panel's two derived numbers (the ring's memory, the density scale).
//
// All distances and positions are float32, each operation rounded as the engine's .NET code
// rounds it (residency.cpp is never contracted into fused multiply-adds).
//
// Where the engine's order depends on .NET's Dictionary (eviction, reclaim ties, Clear), the
// resident cells are walked in insertion order (spec 7.5): slot numbers may differ from the
// engine's when distances tie, the sets of cells do not.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "lib/grass/scatter.hpp"  // CellKey: a cell of the grid (signed X, Z), shared with the scatter

namespace voxkit::grass {

inline constexpr float kDefaultCellSize = 32.0f;  // what the engine always passes
inline constexpr float kMinCellSize = 1.0f;       // FoliageCellGrid.MinimumSize
inline constexpr float kDefaultHysteresis = 0.15f;
// Refused (usage errors): rings of more slots, and an update whose square of candidate
// cells holds more cells (the panel's largest range, 2000 m, over 1 m cells needs 4001^2).
inline constexpr int64_t kMaxRingCapacity = int64_t(1) << 20;
inline constexpr uint64_t kMaxSquareCells = uint64_t(1) << 24;

// A square grid aligned to world 0 (FoliageCellGrid). The size is guarded as the engine
// guards it: anything not > 1 (zero, negative, NaN) is 1 m.
struct CellGrid {
  float size = kDefaultCellSize;

  float cell_size() const { return size > kMinCellSize ? size : kMinCellSize; }
  // (floor(x / size), floor(z / size)) in float; a data error when a coordinate is not finite
  // or its cell is outside the signed 32-bit range.
  CellKey cell_of(float x, float z) const;
  // The low corner (X * size, Z * size).
  float origin_x(CellKey c) const { return static_cast<float>(c.x) * cell_size(); }
  float origin_z(CellKey c) const { return static_cast<float>(c.z) * cell_size(); }
  // The distance from (x, z) to the nearest point of the cell's rectangle; 0 inside.
  float distance(CellKey c, float x, float z) const;
};

// A cell and the ring slot it holds.
struct CellSlot {
  CellKey cell;
  int32_t slot = 0;
  friend bool operator==(const CellSlot&, const CellSlot&) = default;
};

// What one update changed: a difference, not the resident set. Copies, owned by the caller.
struct ResidencyChange {
  std::vector<CellSlot> created;  // cells that entered range and took a slot, nearest first
  std::vector<CellSlot> evicted;  // cells that gave theirs up (evicted first, then reclaimed)
  bool empty() const { return created.empty() && evicted.empty(); }
};

class Residency {
 public:
  // A ring of `capacity` slots (1 .. kMaxRingCapacity) over cells of `cell_size` metres
  // (finite, >= 1). Usage errors otherwise. The free slots are a stack: the first cells
  // created take slots 0, 1, 2, ...
  Residency(float cell_size, int64_t capacity);

  const CellGrid& grid() const { return grid_; }
  int32_t capacity() const { return capacity_; }
  size_t count() const { return entries_.size(); }
  size_t free_slots() const { return free_.size(); }

  // How far past the range a cell survives, as a fraction (default 0.15; a negative value
  // acts as 0). A usage error when not finite.
  float hysteresis() const { return hysteresis_; }
  void set_hysteresis(float h);

  // Brings the ring up to date with a view at (view_x, view_z) (the height is not used):
  //  1. keep = range * (1 + max(hysteresis, 0)); every resident cell further than keep
  //     (strictly) is evicted, in insertion order, and its slot pushed back;
  //  2. the wanted cells: those of the square of cells [cell(x - range) .. cell(x + range)] in
  //     both axes, in row-major order (z outer), not resident and within range (<=), stably
  //     sorted by distance;
  //  3. each wanted cell pops a slot; with none free it reclaims the slot of the furthest
  //     resident cell (the first in insertion order among equals) if that one is strictly
  //     further than the wanted cell; otherwise the update stops and refused() = the wanted
  //     cells not created.
  // Usage errors: a range that is negative or not finite (hint "range"), or whose square is
  // outside the grid or holds more than kMaxSquareCells cells; a data error for a view that is
  // not finite or outside the grid. On an error the ring is unchanged.
  ResidencyChange update(float view_x, float view_z, float range);

  // Drops every cell, returning every slot (pushed in insertion order); refused() = 0.
  void clear();

  // How many wanted cells the last update could not place (already resident cells never count).
  uint64_t refused() const { return refused_; }

  // The resident cells in insertion order, with their slots.
  std::vector<CellSlot> resident() const;
  std::optional<int32_t> slot_of(CellKey c) const;
  float distance_to(CellKey c, float x, float z) const { return grid_.distance(c, x, z); }

 private:
  struct Entry {
    CellKey cell;
    int32_t slot;
    float distance;  // to the view of the update in progress
    bool alive;
  };
  struct Wanted {
    CellKey cell;
    float distance;
  };
  static uint64_t pack(CellKey c) {
    return (uint64_t(uint32_t(c.x)) << 32) | uint64_t(uint32_t(c.z));
  }
  void compact();

  CellGrid grid_;
  int32_t capacity_;
  float hysteresis_ = kDefaultHysteresis;
  uint64_t refused_ = 0;
  std::vector<Entry> entries_;                   // resident cells, insertion order
  std::unordered_map<uint64_t, uint32_t> index_;  // cell -> its position in entries_
  std::vector<int32_t> free_;                    // the stack of free slots (top = back)
  std::vector<Wanted> wanted_;                   // scratch of update()
  std::vector<uint32_t> by_distance_;            // scratch of update(): reclaim order
};

// The panel's memory figure (TerrainGrassSettings.RingBytes): (2 * ceil(range / max(cell
// size, 1)) + 1)^2 * blades per cell * bytes per blade, ceil and the division in float. A
// usage error for a range that is negative or not finite, or a figure beyond 64 bits.
uint64_t ring_memory_bytes(float range, float cell_size, uint64_t blades_per_cell, uint64_t blade_bytes = 48);

// The panel's DensityScale: enabled ? clamp(density, 0, 1) : 0 (NaN passes through, as
// Math.Clamp lets it).
float density_scale(bool enabled, float density);

}  // namespace voxkit::grass
