// Surface Nets vertex offsets for a batch of cells: eight cells a step with AVX2 where the
// CPU has it, one cell a step with SSE2 otherwise, the same bits from every path.
#pragma once

#include <cstddef>
#include <cstdint>

namespace voxkit::mesh_detail {

// The implementations sn_offsets chooses from. Every one computes the same bits; the
// choice is only about speed, and is exposed so tests and benchmarks can compare them.
enum class OffsetsKernel {
  scalar,  // plain C++, one cell at a time (any CPU)
  sse2,    // one cell a step (builds for x86 with SSE2)
  avx2,    // eight cells a step (x86 CPUs with AVX2, detected at run time)
};

// Whether `k` can run in this build on this CPU.
bool sn_offsets_supported(OffsetsKernel k);
// The fastest supported kernel (decided once, on the first call).
OffsetsKernel sn_offsets_best();

// The vertex offsets inside n cells with a sign change (each has a solid corner, a byte
// below 128, and an air corner: other cells have no vertex). Cell i has its minimum
// corner at base + offset[i] and its other corners at +1 (x), +sy (y), +sz (z) and their
// sums (corner bits: 1 x, 2 y, 4 z). Writes (fx, fy, fz, 0) to f_out[4i .. 4i + 3]: per
// axis, the mean over the cell's crossing edges of the crossing's position along that
// axis, exactly (bit for bit) as
//   e_j   = (127.5f - float(lo)) / float(hi - lo) for a crossing edge j, else 0.0f
//   sum_a = (e_0 + e_2) + (e_1 + e_3) over the four edges along axis a
//   f_a   = (float(base_a) + sum_a) * (1.0f / float(count))
// where the edges j = 0..3 along x have low corners 0, 2, 4, 6, along y 0, 1, 4, 5 and
// along z 0, 1, 2, 3, count is the number of crossing edges and base_a the number of them
// whose low corner has bit a set; single-precision IEEE operations, no fused multiply-add.
// Fastest with cells in x order: eight neighbouring cells along x make one AVX2 step.
// Preconditions: every cell's eight corner bytes are readable, and f_out is 16-byte
// aligned. No other byte is read (the kernels read corner pairs (x, x + 1), or for eight
// cells in a run along x the nine bytes of each of their four rows), so a cell may sit at
// the very start or end of its buffer.
void sn_offsets(const uint8_t* base, const int32_t* offset, size_t n, int64_t sy, int64_t sz,
                float* f_out);
// The same with a given kernel, which must be supported.
void sn_offsets_with(OffsetsKernel k, const uint8_t* base, const int32_t* offset, size_t n,
                     int64_t sy, int64_t sz, float* f_out);

}  // namespace voxkit::mesh_detail
