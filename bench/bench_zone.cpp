// Benchmark: zone file write and read throughput on a terrain-like 1024 x 128 x 1024-cell zone
// (seeded synthetic rolling terrain, a sculpted copy and a sparse paint grid), in MB/s of
// decoded grid bytes, by wall time and by process CPU time (all threads; on a shared machine
// the wall figure also counts time other processes held the cores).
// Usage: bench_zone [nx ny nz] [repeats]
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "formats/zone/zone_file.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;

namespace {

Zone make_zone(Dims c) {
  Zone z;
  z.meta.cells = c;
  z.meta.voxel_size = 0.5;
  z.meta.edit_box = {{2, 0, 2}, {int32_t(c.nx) - 2, int32_t(c.ny), int32_t(c.nz) - 2}};
  z.meta.layer_names = {"Grass", "Rock", "Sand", "Snow"};
  z.baked = ByteGrid(c, 0);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> phase(0.f, 6.28f);
  const float a = phase(rng), b = phase(rng), d = phase(rng);
  z.height.width = c.nx + 1;
  z.height.depth = c.nz + 1;
  z.height.values.resize(size_t(c.sx() * c.sz()));
  for (uint64_t zz = 0; zz < c.sz(); ++zz)
    for (uint64_t x = 0; x < c.sx(); ++x) {
      const float h = float(c.ny) * (0.45f + 0.15f * std::sin(float(x) * 0.013f + a) * std::cos(float(zz) * 0.011f + b) +
                                     0.05f * std::sin(float(x + zz) * 0.07f + d));
      z.height.values[x + c.sx() * zz] = h * float(z.meta.voxel_size);
      for (uint64_t y = 0; y < c.sy(); ++y) z.baked.at(x, y, zz) = quantize_sdf(float(y) - h);
    }
  z.grid = z.baked;
  z.paint = ByteGrid(c, 0);
  // A few hundred dug spheres: sculpted and painted samples.
  std::uniform_int_distribution<uint64_t> px(8, c.nx - 8), pz(8, c.nz - 8);
  for (int k = 0; k < 300; ++k) {
    const uint64_t cx = px(rng), cz = pz(rng);
    const uint64_t cy = uint64_t(z.height.values[cx + c.sx() * cz] / z.meta.voxel_size);
    for (uint64_t zz = cz - 5; zz <= cz + 5; ++zz)
      for (uint64_t y = cy > 5 ? cy - 5 : 0; y <= std::min<uint64_t>(c.ny, cy + 5); ++y)
        for (uint64_t x = cx - 5; x <= cx + 5; ++x) {
          const float r = std::sqrt(float((x - cx) * (x - cx) + (y - cy) * (y - cy) + (zz - cz) * (zz - cz)));
          uint8_t& s = z.grid.at(x, y, zz);
          s = std::max(s, quantize_sdf(4.f - r));
          if (r < 5.f) z.paint.at(x, y, zz) = 5;
        }
  }
  for (int l = 0; l < 4; ++l) {
    ColumnRaster<uint8_t> r{z.height.width, z.height.depth, std::vector<uint8_t>(z.height.values.size(), uint8_t(l * 60))};
    z.splat.push_back(std::move(r));
  }
  return z;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

int main(int argc, char** argv) {
  Dims c{1024, 128, 1024};
  int repeats = 3;
  if (argc >= 4) c = {uint32_t(std::atoi(argv[1])), uint32_t(std::atoi(argv[2])), uint32_t(std::atoi(argv[3]))};
  if (argc >= 5) repeats = std::max(1, std::atoi(argv[4]));
  std::printf("zone %ux%ux%u cells, %llu samples per grid, 3 grids\n", c.nx, c.ny, c.nz,
              (unsigned long long)c.samples());
  Zone z = make_zone(c);
  const double grid_mb = 3.0 * double(c.samples()) / 1e6;
  double best_w = 1e30, best_r = 1e30, cpu_w = 1e30, cpu_r = 1e30;
  std::vector<uint8_t> file;
  for (int i = 0; i < repeats; ++i) {
    auto t = Clock::now();
    std::clock_t c0 = std::clock();
    file = write_zone(z);
    best_w = std::min(best_w, seconds_since(t));
    cpu_w = std::min(cpu_w, double(std::clock() - c0) / CLOCKS_PER_SEC);
    t = Clock::now();
    c0 = std::clock();
    Zone back = read_zone(file);
    best_r = std::min(best_r, seconds_since(t));
    cpu_r = std::min(cpu_r, double(std::clock() - c0) / CLOCKS_PER_SEC);
    if (back.grid.data != z.grid.data) {
      std::fprintf(stderr, "round trip differs\n");
      return 1;
    }
  }
  std::printf("file %.1f MB (%.2f%% of %.1f MB decoded grids)\n", double(file.size()) / 1e6,
              100.0 * double(file.size()) / (grid_mb * 1e6), grid_mb);
  std::printf("write %6.0f MB/s wall (%.3f s), %6.0f MB/s per CPU second (%.3f s), best of %d\n", grid_mb / best_w,
              best_w, grid_mb / cpu_w, cpu_w, repeats);
  std::printf("read  %6.0f MB/s wall (%.3f s), %6.0f MB/s per CPU second (%.3f s), best of %d\n", grid_mb / best_r,
              best_r, grid_mb / cpu_r, cpu_r, repeats);
  return 0;
}
