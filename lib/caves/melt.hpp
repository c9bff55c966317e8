// The melt step of ice density modules (0 empty .. 255 solid, surface 128; seeds/001 "Melt
// the Deep"): hits that remove density inside a sphere with a smoothstep falloff, the litres
// they free, the solid-point counter with its highlight and completion thresholds, the cave
// regions a carved point opens, and the chunks to remesh (docs/melt.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lib/caves/caves.hpp"
#include "lib/core/box.hpp"
#include "lib/core/grid.hpp"
#include "lib/core/progress.hpp"

namespace voxkit {

// Litres of one whole point (255 bytes) at the design's 0.25 m voxel: 0.25^3 m^3 = 15.625 L.
inline constexpr double kLitresPerPointAtQuarterMetre = 15.625;
// Amounts are capped here (whole points) so that amount * 255 * falloff stays finite in float.
inline constexpr double kMaxMeltAmount = 1e30;

// One hit, in grid units (sample coordinates). The amount melted at the centre is `amount`
// when given, else intensity = power * temperature * dt / (hardness(depth) * brake), with
// brake from the hit or else from the run.
struct MeltHit {
  std::array<double, 3> centre{0, 0, 0};
  double radius = 1;                    // > 0
  std::optional<double> amount;         // whole points (1 = 255 bytes), >= 0
  std::optional<double> power, temperature, dt;  // each >= 0
  std::optional<double> brake;          // > 0

  bool operator==(const MeltHit&) const = default;
};

struct MeltOptions {
  // Hardness samples, each > 0, over depth below the module's top face: sample i sits at
  // depth i * hardness_step metres; without a step the samples span the module's height
  // evenly (top face to bottom face). Read by linear interpolation, clamped at both ends.
  // Empty: hardness 1.
  std::vector<double> hardness;
  std::optional<double> hardness_step;  // metres, > 0
  double brake = 1;                     // hits without their own brake, > 0
  double voxel_size = 0.25;             // metres per cell, > 0 (litres and depth)
  // Leave the outer points (index 0 and n on each axis) unchanged, as the prototype does
  // with its padded grid; by default the whole grid melts.
  bool keep_border = false;
  double highlight = 0.1;               // remaining fraction at or below which to highlight
  // The module's solid count at its start, for the remaining fraction (default: the
  // count of the grid given); at least the grid's own count.
  std::optional<uint64_t> start_solid;
  uint32_t chunk_cells = 16;            // remesh chunks, cells per edge
};

// Cave regions: the region grid (same dimensions as the density) and the ids still closed.
struct MeltRegions {
  const RegionGrid* grid = nullptr;
  std::vector<uint16_t> closed;
};

struct MeltHitResult {
  uint64_t hit = 0;                 // 1-based, in the order applied
  double amount = 0;                // whole points at the centre, as applied
  std::optional<double> hardness;   // when the formula gave the amount
  double depth = 0;                 // metres below the top face (the centre's)
  uint64_t points_changed = 0;
  uint64_t bytes_removed = 0;       // sum of the byte decreases
  uint64_t solid_after = 0;
  Box3i changed;                    // samples that changed (empty when none)
  std::vector<uint16_t> opened;     // regions this hit opened, ascending
};

struct MeltOpened {
  uint16_t id = 0;
  uint64_t hit = 0;  // 1-based
};

struct MeltResult {
  std::vector<MeltHitResult> hits;
  uint64_t points_changed = 0, bytes_removed = 0;
  uint64_t solid_start = 0;   // the reference of the remaining fraction
  uint64_t solid_before = 0;  // the grid's count before the first hit
  uint64_t solid_after = 0;
  double remaining = 0;       // solid_after / solid_start (0 when solid_start is 0)
  bool highlight_at_start = false;       // at or below the threshold before any hit
  std::optional<uint64_t> highlight_hit; // the hit after which it first was
  bool completed = false;                // no solid point left
  bool completed_at_start = false;
  std::optional<uint64_t> completed_hit;
  std::vector<MeltOpened> opened;        // in the order they opened (by hit, then id)
  std::vector<uint16_t> closed_after;    // ascending
  Box3i changed;                         // union of the hits' changed boxes
  std::array<uint32_t, 3> chunk_grid{0, 0, 0};     // chunks per axis
  std::vector<std::array<uint32_t, 3>> remesh;     // chunks to remesh, in chunk index order

  double litres(double voxel_size) const;
};

// 1 - smoothstep(t) for t in [0, 1), smoothstep(t) = 3t^2 - 2t^3, in float.
float melt_falloff(float t);
// Litres of `bytes` removed bytes at `voxel_size` metres: bytes / 255 * v^3 * 1000.
double melt_litres(uint64_t bytes, double voxel_size);
// Points that count as solid ice: byte >= 128.
inline bool melt_solid(uint8_t b) { return b >= 128; }
uint64_t count_solid(std::span<const uint8_t> density);
// The hardness at `depth_m` metres below the top of a module `height_m` metres tall.
double hardness_at(const MeltOptions& opts, double depth_m, double height_m);

// Applies `hits` in order to `density` (changed in place). Throws a usage error for a bad
// option or a region grid of other dimensions, and a data error naming the hit for a hit out
// of range. Within a large hit the work is split over threads; the bytes and every counter
// are the same for any thread count.
MeltResult melt(ByteGrid& density, std::span<const MeltHit> hits, const MeltOptions& opts = {},
                const MeltRegions& regions = {}, const Progress& progress = {});

}  // namespace voxkit
