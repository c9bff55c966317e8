// Surface Nets vertex offsets: ns per cell of each kernel (scalar, SSE2, AVX2) over the
// cells with a sign change of the meshing benchmark's terrain, one batch per cell row as
// the mesher calls it, with the samples in cache (hot) and from memory (cold), and with one
// batch per z layer of cells (hot). Prints one "RESULT kernel cells ns_hot ns_cold
// ns_layer" line per kernel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench/terrain.hpp"
#include "lib/mesh/sn_offsets.hpp"

using namespace voxkit;
using namespace voxkit::mesh_detail;

namespace {

struct alignas(16) Quad {
  float f[4];
};

}  // namespace

int main(int argc, char** argv) {
  Dims cells{256, 128, 256};
  int repeats = 5;
  if (!bench::grid_options(argc, argv, "bench_sn_offsets", cells, repeats)) return 2;
  const ByteGrid g = bench::make_grid(cells, 1234);
  if (g.data.size() > size_t(INT32_MAX)) {
    std::fprintf(stderr, "bench_sn_offsets: grid too large for 32-bit offsets\n");
    return 2;
  }
  const int64_t sy = int64_t(g.cells.sx()), sz = sy * int64_t(g.cells.sy());
  // The mixed cells, x fastest, where each cell row's run of them starts, and the first
  // row of each z layer of cells.
  std::vector<int32_t> offset;
  std::vector<size_t> row_start{0}, layer_start{0};
  for (int64_t z = 0; z < cells.nz; ++z) {
    for (int64_t y = 0; y < cells.ny; ++y) {
      for (int64_t x = 0; x < cells.nx; ++x) {
        const int64_t o = x + sy * y + sz * z;
        int solid = 0;
        for (int c = 0; c < 8; ++c)
          solid += g.data[size_t(o + (c & 1) + ((c >> 1) & 1) * sy + ((c >> 2) & 1) * sz)] < 128;
        if (solid != 0 && solid != 8) offset.push_back(int32_t(o));
      }
      if (offset.size() != row_start.back()) row_start.push_back(offset.size());
    }
    layer_start.push_back(row_start.size() - 1);
  }
  std::vector<Quad> out(offset.size());
  // The AVX2 kernel reads eight neighbouring cells along x as whole rows: how many of its
  // steps over the rows are such runs.
  size_t steps = 0, runs = 0;
  for (size_t i = 0; i + 1 < row_start.size(); ++i)
    for (size_t c = row_start[i]; c < row_start[i + 1]; c += 8) {
      const size_t end = std::min(c + 8, row_start[i + 1]);
      const size_t from = end - c == 8 ? c : end >= row_start[i] + 8 ? end - 8 : c;
      ++steps;
      runs += end - from == 8 && offset[from + 7] - offset[from] == 7;
    }
  std::printf("grid %ux%ux%u cells, %zu with a sign change in %zu rows, best of %d runs\n",
              cells.nx, cells.ny, cells.nz, offset.size(), row_start.size() - 1, repeats);
  std::printf("AVX2 steps over the rows: %zu, %.1f%% of them eight cells in a run along x\n",
              steps, 100.0 * double(runs) / double(steps));
  std::vector<Quad> first;
  // Rows [r0, r1), one batch per row as the mesher calls the kernel.
  auto run_rows = [&](OffsetsKernel k, size_t r0, size_t r1) {
    for (size_t i = r0; i < r1; ++i)
      sn_offsets_with(k, g.data.data(), offset.data() + row_start[i],
                      row_start[i + 1] - row_start[i], sy, sz, out[row_start[i]].f);
  };
  for (OffsetsKernel k : {OffsetsKernel::scalar, OffsetsKernel::sse2, OffsetsKernel::avx2}) {
    const char* name = k == OffsetsKernel::avx2   ? "avx2"
                       : k == OffsetsKernel::sse2 ? "sse2"
                                                  : "scalar";
    if (!sn_offsets_supported(k)) {
      std::printf("%-7s not supported here\n", name);
      continue;
    }
    // Cold: one pass over the grid, the samples coming from memory. Hot: each z layer of
    // cells again after a first pass, its samples in cache, as they are when the mesher
    // computes a chunk's vertices right after finding its mixed cells.
    // Layer: hot, but one batch per z layer instead of per row (steps span rows).
    double cold = 1e30, hot = 1e30, layer = 1e30;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      run_rows(k, 0, row_start.size() - 1);
      const auto t1 = std::chrono::steady_clock::now();
      cold = std::min(cold, std::chrono::duration<double>(t1 - t0).count());
      double sum = 0;
      for (size_t l = 0; l + 1 < layer_start.size(); ++l) {
        run_rows(k, layer_start[l], layer_start[l + 1]);
        const auto t2 = std::chrono::steady_clock::now();
        run_rows(k, layer_start[l], layer_start[l + 1]);
        sum += std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count();
      }
      hot = std::min(hot, sum);
      sum = 0;
      for (size_t l = 0; l + 1 < layer_start.size(); ++l) {
        const size_t c0 = row_start[layer_start[l]], c1 = row_start[layer_start[l + 1]];
        sn_offsets_with(k, g.data.data(), offset.data() + c0, c1 - c0, sy, sz, out[c0].f);
        const auto t2 = std::chrono::steady_clock::now();
        sn_offsets_with(k, g.data.data(), offset.data() + c0, c1 - c0, sy, sz, out[c0].f);
        sum += std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count();
      }
      layer = std::min(layer, sum);
    }
    // Every kernel must give the first one's bits; a benchmark of a wrong kernel is void.
    if (first.empty()) {
      first = out;
    } else if (std::memcmp(first.data(), out.data(), sizeof(Quad) * out.size()) != 0) {
      std::fprintf(stderr, "bench_sn_offsets: %s differs from scalar\n", name);
      return 1;
    }
    const double per_cell = 1e9 / double(offset.size());
    std::printf("%-7s %6.2f ns/cell hot (samples in cache) %6.2f cold %6.2f hot by layer\n",
                name, hot * per_cell, cold * per_cell, layer * per_cell);
    std::printf("RESULT %s %zu %.4f %.4f %.4f\n", name, offset.size(), hot * per_cell,
                cold * per_cell, layer * per_cell);
  }
  return 0;
}
