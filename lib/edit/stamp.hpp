// The dig-zone package's sphere stamps on the byte grid (specs: "Stamp semantics"): dig, add,
// add with soil paint, paint, and the Jacobi smooth, with the package's float32 evaluation
// order, quantisation and clipping, so that the grid and paint bytes come out identical.
#pragma once

#include <array>
#include <cstdint>

#include "lib/core/grid.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::edit {

inline constexpr float kSdfBand = 2.0f;  // voxels of band outside a sphere that a stamp visits
inline constexpr uint32_t kSmoothSteps = 31;  // smooth strength = layer / 31

// What a stamp did: whether any grid or paint byte changed and the inclusive box of the
// samples that changed (meaningful only when `changed`), and how many samples it visited (its
// box: every sample there has its distance evaluated; those with d >= 2 are then skipped).
struct StampResult {
  bool changed = false;
  SampleBox box;
  uint64_t visited = 0;
};

// Dig (op 0), add (op 1) and paint (op 3) of a sphere at (cx, cy, cz), radius r, in grid units,
// clipped to the inclusive `edit_box` (which must lie inside the grid). Add with a layer above
// 0 and paint set paint bytes to `layer` strictly inside the sphere; `paint` must then be a
// grid of the same cells (the caller allocates a zero one when the zone has none, as both
// runtimes do). Other ops change nothing.
StampResult stamp(ByteGrid& grid, ByteGrid* paint, const SampleBox& edit_box, float cx, float cy, float cz,
                  float r, uint32_t op, uint32_t layer);

// The Jacobi smooth of the package (`DigGridUtil.Smooth`): interior samples of the box
// floor(c - r) .. ceil(c + r) clipped to the edit box and to 1 .. n - 1, each moved towards the
// mean of its six face neighbours by clamp01(1 - dist / r) x strength, reading only the grid as
// it was before the stamp. r <= 0 or strength <= 0 changes nothing.
StampResult smooth(ByteGrid& grid, const SampleBox& edit_box, float cx, float cy, float cz, float r,
                   float strength);

// The chunks that must be remeshed when the samples of `box` changed (the package's
// `AffectedChunks` on each axis: from (min - 1) div cc, or 0, to min((max + 1) div cc,
// chunks - 1)), as inclusive chunk coordinates.
struct ChunkRange {
  std::array<uint32_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
};
ChunkRange affected_chunks(const SampleBox& box, const Dims& cells, uint32_t chunk_cells);

// The edit box a raw grid gets when none is given: every sample but the top row (y = ny),
// which the package never edits.
SampleBox default_edit_box(const Dims& cells);

// Grows `into` to hold `box` (`into_set` says whether `into` holds anything yet).
void unite(SampleBox& into, bool& into_set, const SampleBox& box);

}  // namespace voxkit::edit
