// Benchmark: packed edits on a terrain-like zone. Applies a seeded log of mixed edits
// (dig, add, paint, add with soil paint, some smooth; radius 1-6 voxels, centred near the
// surface) to a 1024 x 128 x 1024-cell grid, and replays a 4,096-edit log from the baked grid
// followed by the remesh of its dirty chunks, on one and on two threads. Prints edits/s and
// visited samples/s beside memcpy of the visited bytes' worth (the floor a stamp cannot beat)
// in the same run.
// Usage: bench_edits [nx ny nz] [edits]
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "lib/edit/packed_edit.hpp"
#include "lib/edit/replay.hpp"
#include "lib/mesh/mesh.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Terrain {
  ByteGrid grid;
  std::vector<float> height;  // grid units per column
};

Terrain make_terrain(Dims c) {
  Terrain t;
  t.grid = ByteGrid(c, 0);
  t.height.resize(size_t(c.sx() * c.sz()));
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> phase(0.f, 6.28f);
  const float a = phase(rng), b = phase(rng), d = phase(rng);
  tbb::parallel_for(uint64_t(0), c.sz(), [&](uint64_t z) {
    for (uint64_t x = 0; x < c.sx(); ++x) {
      const float h = float(c.ny) * (0.45f + 0.15f * std::sin(float(x) * 0.013f + a) * std::cos(float(z) * 0.011f + b) +
                                     0.05f * std::sin(float(x + z) * 0.07f + d));
      t.height[x + c.sx() * z] = h;
      for (uint64_t y = 0; y < c.sy(); ++y) t.grid.at(x, y, z) = quantize_sdf(float(y) - h);
    }
  });
  return t;
}

std::vector<uint64_t> make_log(const Terrain& t, size_t n, uint32_t seed) {
  const Dims& c = t.grid.cells;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ux(4, float(c.nx) - 4), uz(4, float(c.nz) - 4), ur(1, 6), uy(-3, 3);
  std::uniform_int_distribution<int> op(0, 19), layer(1, 17);
  std::vector<uint64_t> log;
  log.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const float x = ux(rng), z = uz(rng);
    const float y = t.height[size_t(x) + c.sx() * size_t(z)] + uy(rng);
    const int k = op(rng);
    edit::Op o = k < 8 ? edit::Op::Dig : k < 13 ? edit::Op::Add : k < 19 ? edit::Op::Paint : edit::Op::Smooth;
    const uint32_t l = o == edit::Op::Dig ? 0 : o == edit::Op::Smooth ? 16 : (k % 2 ? uint32_t(layer(rng)) : 0u);
    log.push_back(edit::pack(x, y, z, ur(rng), o, o == edit::Op::Paint ? uint32_t(layer(rng)) : l));
  }
  return log;
}

// A play session: `sites` players each digging, building and painting along a random walk.
std::vector<uint64_t> make_session(const Terrain& t, size_t n, int sites, uint32_t seed) {
  const Dims& c = t.grid.cells;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ux(16, float(c.nx) - 16), uz(16, float(c.nz) - 16), step(-1, 1), ur(1, 6);
  std::uniform_int_distribution<int> op(0, 19), layer(1, 17);
  std::vector<std::array<float, 2>> at;
  for (int s = 0; s < sites; ++s) at.push_back({ux(rng), uz(rng)});
  std::vector<uint64_t> log;
  for (size_t i = 0; i < n; ++i) {
    auto& p = at[i % size_t(sites)];
    p[0] = std::clamp(p[0] + step(rng), 8.f, float(c.nx) - 8), p[1] = std::clamp(p[1] + step(rng), 8.f, float(c.nz) - 8);
    const float y = t.height[size_t(p[0]) + c.sx() * size_t(p[1])] - float(i / size_t(sites)) * 0.02f;
    const int k = op(rng);
    const edit::Op o = k < 10 ? edit::Op::Dig : k < 15 ? edit::Op::Add : edit::Op::Paint;
    log.push_back(edit::pack(p[0], std::max(y, 4.f), p[1], ur(rng), o, o == edit::Op::Dig ? 0u : uint32_t(layer(rng))));
  }
  return log;
}

double memcpy_gbs(size_t bytes) {
  std::vector<uint8_t> a(bytes, 1), b(bytes);
  std::memcpy(b.data(), a.data(), bytes);
  const auto t = Clock::now();
  for (int i = 0; i < 5; ++i) std::memcpy(b.data(), a.data(), bytes);
  return 5.0 * double(bytes) / seconds_since(t) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  Dims c{1024, 128, 1024};
  size_t n_edits = 100000;
  if (argc >= 4) c = Dims{uint32_t(std::atoi(argv[1])), uint32_t(std::atoi(argv[2])), uint32_t(std::atoi(argv[3]))};
  if (argc >= 5) n_edits = size_t(std::atoll(argv[4]));

  const Terrain t = make_terrain(c);
  const SampleBox box{{2, 2, 2}, {int32_t(c.nx) - 2, int32_t(c.ny) - 1, int32_t(c.nz) - 2}};
  const auto log = make_log(t, n_edits, 7);
  const auto short_log = make_log(t, 4096, 9);
  std::printf("grid %ux%ux%u cells (%.1f M samples), %zu edits, radius 1-6 voxels\n", c.nx, c.ny, c.nz,
              double(c.samples()) / 1e6, log.size());
  std::printf("floor: memcpy %.2f GB/s (64 MiB)\n", memcpy_gbs(size_t(64) << 20));

  std::vector<uint8_t> ref_grid, ref_paint;
  for (int threads : {1, 2}) {
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, size_t(threads));
    edit::Editor ed(t.grid, nullptr, box, {});
    uint64_t visited = 0, changed = 0;
    const auto t0 = Clock::now();
    for (uint64_t e : log) {
      const auto fx = ed.apply(e);
      visited += fx.visited;
      changed += fx.outcome == edit::Outcome::Changed;
    }
    const double s = seconds_since(t0);
    std::printf("apply  %d thread%s: %8.0f edits/s  %7.1f M visited samples/s  (%llu changed, %.3f s)\n", threads,
                threads > 1 ? "s" : " ", double(log.size()) / s, double(visited) / s / 1e6,
                (unsigned long long)changed, s);
    if (threads == 1) {
      ref_grid = ed.grid().data;
      ref_paint = ed.paint().data;
    } else if (ed.grid().data != ref_grid || ed.paint().data != ref_paint) {
      std::printf("MISMATCH between 1 and 2 threads\n");
      return 1;
    }
  }

  const auto session = make_session(t, 4096, 8, 9);
  for (const auto* which : {&short_log, &session}) {
    const char* name = which == &short_log ? "uniform over the zone" : "8 dig sites";
    for (int threads : {1, 2}) {
      tbb::global_control gc(tbb::global_control::max_allowed_parallelism, size_t(threads));
      // From the baked grid: the reset (a copy of the grid, a zero paint grid) is timed too.
      const auto t0 = Clock::now();
      edit::Editor ed(t.grid, nullptr, box, {});
      const double s_reset = seconds_since(t0);
      const auto t1 = Clock::now();
      for (uint64_t e : *which) ed.apply(e);
      const double s_apply = seconds_since(t1);
      const auto dirty = ed.dirty_chunks();
      const auto counts = ed.chunk_counts();
      MeshOptions mo;
      std::vector<size_t> tris(dirty.size());
      const auto t2 = Clock::now();
      tbb::parallel_for(size_t(0), dirty.size(), [&](size_t k) {
        const uint64_t ci = dirty[k];
        const int32_t cx = int32_t(ci % counts[0]), cy = int32_t((ci / counts[0]) % counts[1]),
                      cz = int32_t(ci / (uint64_t(counts[0]) * counts[1]));
        tris[k] = mesh_chunk(ed.grid(), {cx, cy, cz}, mo).indices.size() / 3;
      });
      const double s_mesh = seconds_since(t2);
      size_t total = 0;
      for (size_t v : tris) total += v;
      std::printf("replay %d thread%s, 4096 edits (%s): reset %.1f ms + edits %.1f ms + remesh %zu dirty chunks "
                  "(%zu triangles) %.1f ms; edits + remesh %.1f ms\n",
                  threads, threads > 1 ? "s" : " ", name, s_reset * 1e3, s_apply * 1e3, dirty.size(), total,
                  s_mesh * 1e3, (s_apply + s_mesh) * 1e3);
    }
  }
  return 0;
}
