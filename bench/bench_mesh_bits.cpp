// Solid bits (SolidBits): ns per sample of each path (scalar, SSE2, AVX2) over the meshing
// benchmark's terrain, in the boxes the meshers ask for: Surface Nets rows of 16-cell chunks
// (257-sample rows), Marching Cubes chunks of 16 cells (17- or 16-sample rows) and the whole
// grid. Each box set is timed in grid order after the caches are flushed (samples from
// memory, "cold"), and each box again right after its first pass (samples in cache, "hot").
// Prints one "RESULT path case ns_cold ns_hot" line per path and case.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench/terrain.hpp"
#include "lib/mesh/mesh_internal.hpp"

using namespace voxkit;
using namespace voxkit::mesh_detail;

namespace {

struct Box {
  int64_t lo[3], hi[3];
  int64_t samples() const {
    return (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
  }
};

// The sample boxes of the chunks of cc cells along each axis (along x: one box a row when
// rows is set), each from its first owned cell - 1 (clipped) to its last owned cell + 1.
std::vector<Box> chunk_boxes(const Dims& c, int64_t cc, bool rows) {
  const int64_t n[3] = {c.nx, c.ny, c.nz};
  std::vector<Box> out;
  for (int64_t z = 0; z < n[2]; z += cc)
    for (int64_t y = 0; y < n[1]; y += cc)
      for (int64_t x = 0; x < n[0]; x += rows ? n[0] : cc) {
        const int64_t at[3] = {x, y, z};
        Box b;
        for (int a = 0; a < 3; ++a) {
          b.lo[a] = std::max<int64_t>(at[a] - 1, 0);
          b.hi[a] = std::min<int64_t>(at[a] + (rows && a == 0 ? n[0] : cc), n[a]);
        }
        out.push_back(b);
      }
  return out;
}

// Writes a buffer larger than the caches, so that the grid's samples come from memory.
void evict(std::vector<uint8_t>& buffer) {
  for (size_t i = 0; i < buffer.size(); i += 64) buffer[i] = uint8_t(buffer[i] + 1);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  Dims cells{256, 128, 256};
  int repeats = 5;
  if (!bench::grid_options(argc, argv, "bench_mesh_bits", cells, repeats)) return 2;
  const ByteGrid g = bench::make_grid(cells, 1234);
  const View v = whole_view(g);
  struct Case {
    const char* name;
    std::vector<Box> boxes;
  };
  const Case cases[] = {
      {"sn-rows", chunk_boxes(cells, 16, true)},
      {"mc-chunks", chunk_boxes(cells, 16, false)},
      {"whole", {Box{{0, 0, 0}, {cells.nx, cells.ny, cells.nz}}}},
  };
  std::printf("grid %ux%ux%u cells, best of %d runs, best path here: %s\n", cells.nx, cells.ny,
              cells.nz, repeats,
              SolidBits::best_path() == SolidBits::Path::Avx2   ? "avx2"
              : SolidBits::best_path() == SolidBits::Path::Sse2 ? "sse2"
                                                                : "scalar");
  std::vector<uint64_t> storage;
  std::vector<uint8_t> flush(size_t(256) << 20);
  for (const Case& c : cases) {
    int64_t samples = 0;
    for (const Box& b : c.boxes) samples += b.samples();
    std::vector<uint64_t> first;
    for (SolidBits::Path p :
         {SolidBits::Path::Scalar, SolidBits::Path::Sse2, SolidBits::Path::Avx2}) {
      const char* name = p == SolidBits::Path::Avx2   ? "avx2"
                         : p == SolidBits::Path::Sse2 ? "sse2"
                                                      : "scalar";
      if (p > SolidBits::best_path()) {
        std::printf("%-7s not supported here\n", name);
        continue;
      }
      // Every path must give the same bits and uniformity; a benchmark of a wrong one is void.
      std::vector<uint64_t> all;
      for (const Box& b : c.boxes) {
        const SolidBits bits(v, b.lo, b.hi, storage, p);
        all.insert(all.end(), storage.begin(), storage.end());
        all.push_back(bits.uniform());
      }
      if (first.empty()) {
        first = all;
      } else if (first != all) {
        std::fprintf(stderr, "bench_mesh_bits: %s differs from scalar on %s\n", name, c.name);
        return 1;
      }
      double cold = 1e30, hot = 1e30;
      size_t uniform = 0;
      for (int r = 0; r < repeats; ++r) {
        uniform = 0;
        evict(flush);
        const auto t0 = std::chrono::steady_clock::now();
        for (const Box& b : c.boxes) uniform += SolidBits(v, b.lo, b.hi, storage, p).uniform();
        cold = std::min(cold, seconds_since(t0));
        double sum = 0;
        for (const Box& b : c.boxes) {
          uniform += SolidBits(v, b.lo, b.hi, storage, p).uniform();
          const auto t1 = std::chrono::steady_clock::now();
          uniform += SolidBits(v, b.lo, b.hi, storage, p).uniform();
          sum += seconds_since(t1);
        }
        hot = std::min(hot, sum);
      }
      const double ns = 1e9 / double(samples);
      std::printf("%-9s %-7s %zu boxes, %lld samples: %6.3f ns/sample cold %6.3f hot "
                  "(%zu uniform)\n",
                  c.name, name, c.boxes.size(), static_cast<long long>(samples), cold * ns,
                  hot * ns, uniform / 3);
      std::printf("RESULT %s %s %.4f %.4f\n", name, c.name, cold * ns, hot * ns);
    }
  }
  return 0;
}
