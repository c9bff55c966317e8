// Foliage anchors as the dig-zone package bakes and checks them (docs/foliage.md): the top
// surface of each grid column, tree and surface-detail anchors, the standing tests, the
// foliage mask, which chunk checks which anchor, the buckets, erase edits, and the re-check
// of only the chunks an edit reaches.
//
// Arithmetic: the standing tests are float32, as the runtimes that re-check after edits
// evaluate them; the bake's top surfaces and detail heights are evaluated as the Unity
// editor evaluates the baker (each float expression in double, rounded to float where it is
// stored). Anchors are per-operation float32 (Vector3 operators), which both agree on.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::foliage {

inline constexpr int kTolerance = 24;        // 1/64 voxel: 0.375 voxel either side
inline constexpr float kAnchorScale = 16.0f;  // mask anchors in 1/16 voxel
inline constexpr uint8_t kStanding = 255, kRemoved = 0;

// --- Standing tests (raw grid bytes) ----------------------------------------------------

// The surface passes within the tolerance of the point t (not clamped) of the way from
// sample `below` to the one above it: -24 <= below + (above - below) t - 128 <= 24.
bool stands_between(int below, int above, float t);
// stands_between at height y (grid units) of column (x, z): y0 = clamp(trunc(y), 0, ny-1).
bool grid_stands(const ByteGrid& grid, uint32_t x, uint32_t z, float y);
// The cell (0..cells-1) holding coordinate p (negative -> 0), and where p lies in it (0..1).
int cell_of(float p, uint32_t cells);
float frac_of(float p, int cell);
// Trilinear over the 8 samples of the cell holding p (x, then y, then z), same tolerance.
bool point_stands(const ByteGrid& grid, const std::array<float, 3>& p);
// The same in the editor's arithmetic (the bake's verdicts for trees and surface details).
bool point_stands_editor(const ByteGrid& grid, const std::array<float, 3>& p);

// --- Top surface and the mask -----------------------------------------------------------

// Height (grid units) of the topmost surface of column (x, z): the first solid sample b
// scanning down from ny-1, at y + (128 - b)/(a - b) with a the sample above; -1 without one.
// A solid top sample (which baked grids never hold) reads as 255.
float top_surface(const ByteGrid& grid, uint32_t x, uint32_t z);
// Every column's, x fastest ((nx+1)(nz+1) values), on all cores.
std::vector<float> top_surfaces(const ByteGrid& grid);

// Rows of the mask: the columns, then one texel per surface detail (ceil, padded with 0).
uint32_t mask_height(const Dims& cells, uint64_t surface_details);
// A column's texel: (0,0,0,0) without a surface, else (255, A >> 8, A & 255, 255) with
// A = clamp(round_half_even(anchor * 16), 0, 65535).
std::array<uint8_t, 4> column_texel(float anchor);
// The anchor a texel holds (A / 16), or -1 when its alpha is 0 (no surface, or erased).
float texel_anchor(const uint8_t* texel);

// --- Chunks --------------------------------------------------------------------------------

struct Chunks {
  uint32_t cc = 16;
  uint32_t cx = 0, cy = 0, cz = 0;  // ceil(n / cc) per axis
  uint64_t count() const { return uint64_t(cx) * cy * cz; }
  uint64_t columns() const { return uint64_t(cx) * cz; }
  uint32_t index(uint32_t x, uint32_t y, uint32_t z) const { return x + cx * (y + cy * z); }
};
Chunks chunks_of(const Dims& cells, uint32_t chunk_cells);

// The chunk that checks a point anchor: the one holding its (clamped) cell.
uint32_t anchor_chunk(const Dims& cells, const Chunks& ch, const std::array<float, 3>& a);
// The chunk that checks column (x, z) with (mask) anchor height y: cell y = min(trunc(y), ny-1).
uint32_t column_chunk(const Dims& cells, const Chunks& ch, uint32_t x, uint32_t z, float y);
// The chunk column a column's details are merged into: min(x/cc, CX-1) + CX min(z/cc, CZ-1).
uint32_t detail_chunk_column(const Chunks& ch, uint32_t x, uint32_t z);

// --- Inputs and the bake -----------------------------------------------------------------

struct TreeInput {
  uint32_t id = 0, prototype = 0;
  std::array<float, 3> position{0, 0, 0};  // world metres
  float rotation = 0, width = 1, height = 1;
  std::array<float, 3> up{0, 0, 0};
  // As given (kept for writing back): terrain-normalised when `normalized`, else = position.
  std::array<float, 3> source{0, 0, 0};
  bool normalized = false;
  std::array<uint8_t, 4> color{255, 255, 255, 255}, lightmap_color{255, 255, 255, 255};
};
struct DetailInput {
  uint32_t id = 0, prototype = 0;
  float x = 0, z = 0;  // world metres (the height comes from the surface)
  float rotation = 0, width = 1, height = 1;
};
struct SurfaceInput {
  uint32_t id = 0, prototype = 0;
  std::array<float, 3> position{0, 0, 0}, normal{0, 0, 0};  // world metres
  float rotation = 0, width = 1, height = 1;
  // As given: metres from the terrain's position when `terrain_relative`, else = position.
  std::array<float, 3> source{0, 0, 0};
  bool terrain_relative = false;
};

// A world point of a terrain-normalised position, as the package computes it (float32 per
// operation): terrain position + position01 * terrain size.
std::array<float, 3> terrain_point(const std::array<float, 3>& terrain_pos, const std::array<float, 3>& pos01,
                                   const std::array<float, 3>& terrain_size);
// Grid anchor of a world point: (w - origin) / voxel size, float32 per operation.
std::array<float, 3> grid_anchor(const ZoneMeta& meta, const std::array<float, 3>& world);

struct BakeInput {
  std::span<const TreeInput> trees;
  std::span<const DetailInput> details;
  std::span<const SurfaceInput> surface;
  // Prototype list lengths: instances whose prototype is not below them are skipped, as the
  // package skips a bad prototype index. UINT32_MAX keeps every instance.
  uint32_t tree_prototypes = UINT32_MAX, detail_prototypes = UINT32_MAX;
};

struct BakeStats {
  uint64_t columns = 0, columns_with_surface = 0;
  uint64_t trees = 0, trees_standing = 0, trees_bad_prototype = 0;
  uint64_t details = 0, details_outside_hole = 0, details_no_surface = 0, details_bad_prototype = 0;
  uint64_t surface = 0, surface_standing = 0, surface_outside_grid = 0, surface_bad_prototype = 0;
  bool hole_from_footprint = false;  // the zone has no hole rectangle: its footprint was used
  // Wall time of the stages, seconds (the chunk hashes run beside the others).
  double top_seconds = 0, trees_seconds = 0, details_seconds = 0, mask_seconds = 0, hash_seconds = 0;
};

// Bakes the foliage of a zone's current grid: anchors, buckets, the mask (current = baked),
// the verdicts at bake, and the chunk hashes the next check compares against.
ZoneFoliage bake(const Zone& zone, const BakeInput& in, BakeStats* stats = nullptr);

// --- Checks ----------------------------------------------------------------------------------

// Re-checks what the listed chunks decide (indices ascending, no repeats): their owned
// columns, surface details and trees. Erased items (alpha 0, TreeState::Erased) stay as
// they are. Chunks write disjoint items, so the result never depends on the thread count.
void recheck(const ByteGrid& grid, uint32_t chunk_cells, ZoneFoliage& f, std::span<const uint32_t> chunks);
// Every chunk.
void recheck_all(const ByteGrid& grid, uint32_t chunk_cells, ZoneFoliage& f);

// An erase edit (a tree or detail edit with layer 0) at grid point p, radius r (grid units),
// as the standalone runtime's EraseBaked: trees with squared distance <= r^2 become Erased;
// columns in [floor(p-r), ceil(p+r)] (x and z, clipped) whose (x, anchor, z) is within r, and
// surface details within r, lose their surface (r = 0, a = 0; the anchor bytes stay).
// Returns how many items it took.
uint64_t erase(ZoneFoliage& f, const Dims& cells, const std::array<float, 3>& p, float r, bool tree);

// The baked state back (ResetToBaked): mask and tree verdicts as baked.
void restore_baked(ZoneFoliage& f);

// One 64-bit hash per chunk of the samples it owns (cc per axis; the last chunk also the
// samples up to n), and the chunks whose reads (own samples plus the +1 halo) a change
// between two such lists can reach, ascending.
std::vector<uint64_t> chunk_hashes(const ByteGrid& grid, uint32_t chunk_cells);
void update_chunk_hashes(const ByteGrid& grid, uint32_t chunk_cells, std::span<const uint32_t> chunks,
                         std::vector<uint64_t>& hashes);
std::vector<uint32_t> chunks_reached(const Dims& cells, uint32_t chunk_cells, std::span<const uint64_t> before,
                                     std::span<const uint64_t> after);
// Hash of a list of erase edits (which erases a state has seen).
uint64_t erases_hash(std::span<const uint64_t> erases);

// --- Reports ---------------------------------------------------------------------------------

struct Counts {
  uint64_t columns_surface = 0, columns_standing = 0, columns_fallen = 0, columns_erased = 0;
  uint64_t trees_standing = 0, trees_fallen = 0, trees_erased = 0;
  uint64_t surface_standing = 0, surface_fallen = 0, surface_erased = 0;
  uint64_t details_standing = 0, details_fallen = 0, details_erased = 0;
};
Counts counts(const ZoneFoliage& f, const Dims& cells);

// What changed from the baked state: ids (tree, detail and surface-detail input ids; column
// indices x + (nx+1) z) that fell or were erased, and those that stand again.
struct Diff {
  std::vector<uint32_t> trees_fell, trees_rose, columns_fell, columns_rose, surface_fell, surface_rose,
      details_fell, details_rose;
  bool empty() const;
};
Diff diff(const ZoneFoliage& f, const Dims& cells);

// Per chunk: the trees and surface details it checks and the columns it owns (with a
// surface); per chunk column: the details merged into its mesh.
struct ChunkCounts {
  std::vector<uint32_t> trees, surface, columns;  // chunk count
  std::vector<uint32_t> details;                  // chunk columns
};
ChunkCounts chunk_counts(const ZoneFoliage& f, const Dims& cells, uint32_t chunk_cells);

// Checks that a foliage state fits a zone's cells and chunks (mask size, buckets, columns,
// item order); returns "" or what is wrong.
std::string problem(const ZoneFoliage& f, const Dims& cells, uint32_t chunk_cells);

}  // namespace voxkit::foliage
