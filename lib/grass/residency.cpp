// The grass residency ring (GrassResidency) over the foliage cell grid, in float32.
#include "lib/grass/residency.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "lib/core/error.hpp"

// Every float expression here is rounded operation by operation, as the engine's: no fused
// multiply-adds (GCC does not contract in ISO mode; clang would within an expression).
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace voxkit::grass {
namespace {

std::string num(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

// floor(v / size) as a cell coordinate, if it is one (finite, within int32).
std::optional<int32_t> floor_cell(float v, float size) {
  const float f = std::floor(v / size);
  if (!(f >= -2147483648.0f && f < 2147483648.0f)) return std::nullopt;
  return static_cast<int32_t>(f);
}

[[noreturn]] void range_error(const std::string& what, const std::string& expected, float range) {
  Error e(ErrorKind::Usage, what, std::nullopt, expected, num(range));
  e.set_hint("range", "the range");
  throw e;
}

void check_range(float range) {
  if (!(range >= 0.0f) || !std::isfinite(range))
    range_error("the range must be a finite number of metres >= 0", "a finite number >= 0", range);
}

}  // namespace

CellKey CellGrid::cell_of(float x, float z) const {
  const float size = cell_size();
  const auto cx = floor_cell(x, size), cz = floor_cell(z, size);
  if (!std::isfinite(x) || !std::isfinite(z) || !cx || !cz)
    throw_data("the position (" + num(x) + ", " + num(z) + ") is outside the cell grid", std::nullopt,
               "finite coordinates whose cells fit 32-bit integers", num(x) + ", " + num(z));
  return {*cx, *cz};
}

float CellGrid::distance(CellKey c, float x, float z) const {
  const float size = cell_size();
  const float low_x = static_cast<float>(c.x) * size, low_z = static_cast<float>(c.z) * size;
  const float high_x = low_x + size, high_z = low_z + size;
  const float dx = std::max(std::max(low_x - x, 0.0f), x - high_x);
  const float dz = std::max(std::max(low_z - z, 0.0f), z - high_z);
  const float dx2 = dx * dx, dz2 = dz * dz;
  return std::sqrt(dx2 + dz2);
}

Residency::Residency(float cell_size, int64_t capacity) {
  if (!std::isfinite(cell_size) || !(cell_size >= kMinCellSize)) {
    Error e(ErrorKind::Usage, "the cell size must be a finite number of metres >= 1", std::nullopt, ">= 1",
            num(cell_size));
    e.set_hint("cell-size", "the cell size");
    throw e;
  }
  if (capacity <= 0 || capacity > kMaxRingCapacity) {
    Error e(ErrorKind::Usage, "the ring's capacity must be 1 .. " + std::to_string(kMaxRingCapacity) + " cells",
            std::nullopt, "1 .. " + std::to_string(kMaxRingCapacity), std::to_string(capacity));
    e.set_hint("capacity", "the ring's capacity");
    throw e;
  }
  grid_.size = cell_size;
  capacity_ = static_cast<int32_t>(capacity);
  free_.reserve(size_t(capacity));
  for (int64_t slot = capacity - 1; slot >= 0; --slot) free_.push_back(static_cast<int32_t>(slot));
}

void Residency::set_hysteresis(float h) {
  if (!std::isfinite(h)) {
    Error e(ErrorKind::Usage, "the hysteresis must be a finite fraction", std::nullopt, "a finite number", num(h));
    e.set_hint("hysteresis", "the hysteresis");
    throw e;
  }
  hysteresis_ = h;
}

ResidencyChange Residency::update(float vx, float vz, float range) {
  // Every check before anything changes.
  check_range(range);
  grid_.cell_of(vx, vz);
  const float size = grid_.cell_size();
  const auto lx = floor_cell(vx - range, size), hx = floor_cell(vx + range, size);
  const auto lz = floor_cell(vz - range, size), hz = floor_cell(vz + range, size);
  if (!lx || !hx || !lz || !hz)
    range_error("the range reaches past the cell grid's 32-bit cells", "a smaller range", range);
  const uint64_t cells = uint64_t(int64_t(*hx) - *lx + 1) * uint64_t(int64_t(*hz) - *lz + 1);
  if (cells > kMaxSquareCells)
    range_error("the range covers " + std::to_string(cells) + " candidate cells of " + num(size) + " m",
                "at most " + std::to_string(kMaxSquareCells) + " cells", range);

  ResidencyChange change;
  refused_ = 0;
  const float keep = range * (1.0f + std::max(hysteresis_, 0.0f));

  // Out first, so a view that jumped frees the slots its new neighbourhood wants.
  bool removed = false;
  for (Entry& e : entries_) {
    e.distance = grid_.distance(e.cell, vx, vz);
    if (e.distance > keep) {
      e.alive = false;
      removed = true;
      index_.erase(pack(e.cell));
      free_.push_back(e.slot);
      change.evicted.push_back({e.cell, e.slot});
    }
  }

  // Wanted: the square in row-major order, then nearest first (ties keep that order).
  wanted_.clear();
  for (int64_t z = *lz; z <= *hz; ++z) {
    for (int64_t x = *lx; x <= *hx; ++x) {
      const CellKey c{static_cast<int32_t>(x), static_cast<int32_t>(z)};
      const float d = grid_.distance(c, vx, vz);
      if (d <= range && index_.find(pack(c)) == index_.end()) wanted_.push_back({c, d});
    }
  }
  std::stable_sort(wanted_.begin(), wanted_.end(), [](const Wanted& a, const Wanted& b) { return a.distance < b.distance; });

  // The reclaim order (built on the first reclaim): the residents before this update, furthest
  // first, insertion order among equals. A cell created by this update is never strictly
  // further than a later wanted cell, so it never needs to be in it.
  bool ordered = false;
  size_t next = 0;
  size_t created = 0;
  for (const Wanted& w : wanted_) {
    if (free_.empty()) {
      if (!ordered) {
        by_distance_.clear();
        for (size_t i = 0; i < entries_.size(); ++i)
          if (entries_[i].alive) by_distance_.push_back(static_cast<uint32_t>(i));
        std::stable_sort(by_distance_.begin(), by_distance_.end(),
                         [&](uint32_t a, uint32_t b) { return entries_[a].distance > entries_[b].distance; });
        ordered = true;
      }
      if (next == by_distance_.size() || !(entries_[by_distance_[next]].distance > w.distance)) {
        refused_ = wanted_.size() - created;
        break;
      }
      Entry& victim = entries_[by_distance_[next++]];
      victim.alive = false;
      removed = true;
      index_.erase(pack(victim.cell));
      free_.push_back(victim.slot);
      change.evicted.push_back({victim.cell, victim.slot});
    }
    const int32_t slot = free_.back();
    free_.pop_back();
    index_[pack(w.cell)] = static_cast<uint32_t>(entries_.size());
    entries_.push_back({w.cell, slot, w.distance, true});
    change.created.push_back({w.cell, slot});
    ++created;
  }
  if (removed) compact();
  return change;
}

void Residency::compact() {
  size_t to = 0;
  for (size_t from = 0; from < entries_.size(); ++from) {
    if (!entries_[from].alive) continue;
    if (to != from) {
      entries_[to] = entries_[from];
      index_[pack(entries_[to].cell)] = static_cast<uint32_t>(to);
    }
    ++to;
  }
  entries_.resize(to);
}

void Residency::clear() {
  for (const Entry& e : entries_) free_.push_back(e.slot);
  entries_.clear();
  index_.clear();
  refused_ = 0;
}

std::vector<CellSlot> Residency::resident() const {
  std::vector<CellSlot> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back({e.cell, e.slot});
  return out;
}

std::optional<int32_t> Residency::slot_of(CellKey c) const {
  const auto it = index_.find(pack(c));
  if (it == index_.end()) return std::nullopt;
  return entries_[it->second].slot;
}

uint64_t ring_memory_bytes(float range, float cell_size, uint64_t blades_per_cell, uint64_t blade_bytes) {
  check_range(range);
  if (std::isnan(cell_size)) {
    Error e(ErrorKind::Usage, "the cell size is not a number", std::nullopt, "a number of metres", "NaN");
    e.set_hint("cell-size", "the cell size");
    throw e;
  }
  const float cells = std::ceil(range / std::max(cell_size, 1.0f));
  uint64_t side = 0, bytes = 0;
  const bool fits = cells < 4294967296.0f && !__builtin_mul_overflow(uint64_t(cells), uint64_t(2), &side) &&
                    !__builtin_add_overflow(side, uint64_t(1), &side) && !__builtin_mul_overflow(side, side, &bytes) &&
                    !__builtin_mul_overflow(bytes, blades_per_cell, &bytes) &&
                    !__builtin_mul_overflow(bytes, blade_bytes, &bytes);
  if (!fits) range_error("the ring's memory for this range does not fit 64 bits", "a smaller range", range);
  return bytes;
}

float density_scale(bool enabled, float density) {
  if (!enabled) return 0.0f;
  if (density < 0.0f) return 0.0f;
  if (density > 1.0f) return 1.0f;
  return density;
}

}  // namespace voxkit::grass
