// The Vixen engine's deterministic grass scatter (GrassScatter, FoliageScatter.Place):
// a fixed grid of candidates per cell, each jittered by its own hash, tested in the engine's
// order (no ground, too steep, not dense enough) and turned into a 48-byte blade record.
// Float32 and uint32 arithmetic throughout; see lib/grass/grass_math.hpp for what is exact.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/slab_alloc.hpp"
#include "lib/grass/grass_type.hpp"
#include "lib/grass/surface.hpp"

namespace voxkit::grass {

// The refusal enum, with the engine's values.
enum class Refusal : uint8_t { Placed = 0, NoSurface = 1, Slope = 2, Density = 3 };
const char* refusal_name(Refusal r);  // "placed", "no-surface", "slope", "density"

// The GPU instance record (GrassInstance): 48 bytes, little-endian floats.
struct Blade {
  float position[3];
  float scale;
  float rotation[4];  // x, y, z, w
  float tint;
  float wind_phase;
  float padding[2];
};
static_assert(sizeof(Blade) == 48);

struct CellKey {
  int32_t x = 0, z = 0;
  bool operator==(const CellKey&) const = default;
};

// The cell of a world position: (floor(x / size), floor(z / size)) in float.
CellKey cell_of(float x, float z, float cell_size);
// FoliageCellGrid.CellSize: sizes below 1 m read as 1 m.
float effective_cell_size(float size);

// Everything of a type and a cell size the candidates share.
struct ScatterSetup {
  GrassType type;
  float cell_size = 32.0f;
  int32_t side = 1;       // candidates per side
  float step = 32.0f;     // cell_size / side
  float reach = 0.0f;     // clamp(jitter, 0, 1) * step * 0.5
  float align = 0.0f;     // clamp(align_to_normal, 0, 1)
  float density_scale = 1.0f;  // clamped to [0, 1] where it is used
  int layer = kNoLayer;   // the type's layer on the surface (SurfaceGrid::layer_index)
};
// Throws voxkit::Error (usage) for an invalid type, a grid over 46340 per side (the index is
// an int) or a non-finite cell size or density scale.
ScatterSetup make_setup(const GrassType& type, float cell_size, float density_scale, const SurfaceGrid& surface);

// CandidateAt: the world XZ of candidate `index` of `cell`.
std::array<float, 2> candidate_at(const ScatterSetup& s, CellKey cell, int32_t index);

// What one candidate became, with everything the verdict read (for --explain).
struct Trace {
  int32_t index = 0;
  uint32_t hash = 0;
  float x = 0, z = 0;
  Ground ground;
  float slope = 0;  // radians from flat (when there was ground)
  float keep = 0;   // DensityAt(weight) * clamp(scale, 0, 1)
  float draw = 0;   // U(h, 8)
  Refusal verdict = Refusal::NoSurface;
};

// Consider: the verdict for one candidate, and the blade when it is placed.
Refusal consider(const ScatterSetup& s, const SurfaceGrid& surface, CellKey cell, int32_t index, Blade* blade,
                 Trace* trace = nullptr);

// FoliageScatter.Place for grass: rotation, scale, tint and wind phase of a placed blade.
Blade place(const ScatterSetup& s, const Ground& ground, uint32_t hash);

struct CellResult {
  CellKey cell;
  uint32_t candidates = 0;
  std::array<uint32_t, 4> counts{};  // by Refusal: placed, no surface, slope, density
  uint32_t over_capacity = 0;        // placed but past the cell's capacity (dropped)
  // In huge-page slabs (lib/core/slab_alloc.hpp): a cell's blades are often half a megabyte.
  SlabVector<Blade> blades;          // in candidate order
  SlabVector<int32_t> indices;       // the candidate index of each blade
};

struct ScatterOptions {
  uint32_t capacity = 0;   // blades kept per cell (the lowest candidate indices); 0 = all
  bool keep_blades = true; // false: count only
};

// Scatter every cell (on all cores; the result does not depend on the thread count).
std::vector<CellResult> scatter(const ScatterSetup& s, const SurfaceGrid& surface, std::span<const CellKey> cells,
                                const ScatterOptions& options);

// Every candidate of one cell, traced.
std::vector<Trace> explain(const ScatterSetup& s, const SurfaceGrid& surface, CellKey cell);

}  // namespace voxkit::grass
