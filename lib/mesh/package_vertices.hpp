// The vertices of the dig-zone package's mesher for a batch of cells: each cell's position
// (the mean of its edge crossings at byte 128, summed in the package's edge order), its
// normal (the cell's integer gradient, normalised) and its solid-corner mask. One cell at a
// time in plain C++, or eight at a time with AVX2 where the CPU has it; every path gives the
// same bits, in either float mode.
#pragma once

#include <cstddef>
#include <cstdint>

namespace voxkit::package_detail {

enum class VertexKernel {
  scalar,  // plain C++, one cell at a time (any CPU)
  avx2,    // eight cells a step (x86 CPUs with AVX2, detected at run time)
};

// Whether `k` runs in this build on this CPU.
bool vertex_kernel_supported(VertexKernel k);
// The fastest supported kernel (decided once).
VertexKernel vertex_kernel_best();

// A cell's place in its chunk, packed: (lx + 1) | (ly + 1) << 10 | (lz + 1) << 20 for local
// cell (lx, ly, lz), each from -1 (the halo) to 1022.
inline constexpr int kCellBits = 10;
inline constexpr int32_t pack_cell(int lx, int ly, int lz) {
  return (lx + 1) | (ly + 1) << kCellBits | (lz + 1) << (2 * kCellBits);
}
inline constexpr int cell_x(int32_t c) { return (c & 1023) - 1; }
inline constexpr int cell_y(int32_t c) { return ((c >> kCellBits) & 1023) - 1; }
inline constexpr int cell_z(int32_t c) { return ((c >> (2 * kCellBits)) & 1023) - 1; }

// The cells of one batch. Cell i has its minimum corner at base + offset[i] and its other
// corners at +1 (x), +sy (y), +sz (z) and their sums (corner bits: 1 x, 2 y, 4 z); its
// place in the chunk is cell[i] (pack_cell). Every cell has a solid corner (a byte below
// 128) and an air corner. sy >= 2 and sz >= sy + 2 (a grid's row and layer strides): the
// AVX2 kernel reads the byte pairs (0, 1), (2, 3), (4, 5), (6, 7) and nothing else.
struct CellBatch {
  const uint8_t* base = nullptr;
  const int32_t* offset = nullptr;
  const int32_t* cell = nullptr;
  int64_t sy = 0, sz = 0;
  float voxel = 0.5f;
  bool editor = true;  // FloatMode::Editor (double expressions rounded where stored), else float32
};

// Writes n cells' positions (x, y, z metres from the chunk origin) to pos[3i..3i + 2],
// normals to nrm[3i..3i + 2] and solid-corner masks (bit c: corner c below 128) to mask[i].
void package_vertices_with(VertexKernel k, const CellBatch& cells, size_t n, float* pos, float* nrm,
                           int32_t* mask);
void package_vertices(const CellBatch& cells, size_t n, float* pos, float* nrm, int32_t* mask);

}  // namespace voxkit::package_detail
