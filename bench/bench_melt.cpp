// Benchmark: the melt step of ice modules on seeded hits. Jet hits on the design's module
// (64x24x64 cells, 0.5 m and 1 m radii, with and without cave regions) in hits/s and visited
// points/s on one thread; large hits on a 256^3 grid on one and two threads; each beside
// floors measured in the same run: a memcpy of the module's bytes, and a walk that lowers
// every point of the same boxes by one with no distance or falloff.
// Usage: bench_melt [HITS]
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <vector>

#include "lib/caves/melt.hpp"

using namespace voxkit;

namespace {

double thread_cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double wall() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Best of `reps` runs; `setup` (untimed) runs before each.
double best_of(int reps, bool cpu, const std::function<void()>& setup, const std::function<void()>& f) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    setup();
    const double t0 = cpu ? thread_cpu() : wall();
    f();
    best = std::min(best, (cpu ? thread_cpu() : wall()) - t0);
  }
  return best;
}

std::vector<MeltHit> jet_hits(const Dims& c, size_t n, double radius_cells, double amount, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> x(0, c.nx), y(0, c.ny), z(0, c.nz);
  std::vector<MeltHit> hits(n);
  for (auto& h : hits) {
    h.centre = {x(rng), y(rng), z(rng)};
    h.radius = radius_cells;
    h.amount = amount;
  }
  return hits;
}

// Points in the hits' clipped boxes: what the kernel visits.
uint64_t visited(const Dims& c, const std::vector<MeltHit>& hits) {
  uint64_t total = 0;
  const double lim[3] = {double(c.nx), double(c.ny), double(c.nz)};
  for (const auto& h : hits) {
    uint64_t v = 1;
    for (int a = 0; a < 3; ++a) {
      const double lo = std::max(std::floor(h.centre[size_t(a)] - h.radius), 0.0);
      const double hi = std::min(std::ceil(h.centre[size_t(a)] + h.radius), lim[a]);
      v *= lo <= hi ? uint64_t(hi - lo + 1) : 0;
    }
    total += v;
  }
  return total;
}

// The floor of a box walk: every point of each hit's clipped box lowered by one (saturating),
// with no distance, falloff or counters.
void box_walk(ByteGrid& g, const std::vector<MeltHit>& hits) {
  const Dims& c = g.cells;
  const double lim[3] = {double(c.nx), double(c.ny), double(c.nz)};
  for (const auto& h : hits) {
    int64_t lo[3], hi[3];
    bool empty = false;
    for (int a = 0; a < 3; ++a) {
      const double l = std::max(std::floor(h.centre[size_t(a)] - h.radius), 0.0);
      const double u = std::min(std::ceil(h.centre[size_t(a)] + h.radius), lim[a]);
      empty |= !(l <= u);
      lo[a] = int64_t(l);
      hi[a] = int64_t(u);
    }
    if (empty) continue;
    for (int64_t z = lo[2]; z <= hi[2]; ++z)
      for (int64_t y = lo[1]; y <= hi[1]; ++y) {
        uint8_t* row = g.data.data() + c.index(0, uint64_t(y), uint64_t(z));
        for (int64_t x = lo[0]; x <= hi[0]; ++x) row[x] = uint8_t(row[x] - (row[x] > 0));
      }
  }
}

void line(const char* what, size_t hits, uint64_t points, double s, double memcpy_bps) {
  std::printf("%-44s %10.0f hits/s %8.1f M points/s  %5.1f%% of memcpy\n", what, double(hits) / s,
              double(points) / s / 1e6, 100.0 * (double(points) / s) / memcpy_bps);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc >= 2 ? size_t(std::atoll(argv[1])) : 200000;
  const Dims module{64, 24, 64};
  const ByteGrid solid(module, 255);
  std::printf("module %ux%ux%u cells (%llu points), %zu seeded hits per run, best of 5\n", module.nx, module.ny,
              module.nz, (unsigned long long)module.samples(), n);

  double memcpy_bps = 0;
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    std::vector<uint8_t> copy(solid.data.size());
    const int inner = 2000;
    const double t = best_of(5, true, [] {}, [&] {
      for (int i = 0; i < inner; ++i) {
        std::memcpy(copy.data(), solid.data.data(), solid.data.size());
        asm volatile("" ::"r"(copy.data()) : "memory");
      }
    });
    memcpy_bps = double(solid.data.size()) * inner / t;
    std::printf("%-44s %8.2f GB/s (the floor: one byte per point)\n", "memcpy of the module", memcpy_bps / 1e9);
    uint64_t sink = 0;
    const double tc = best_of(5, true, [] {}, [&] {
      for (int i = 0; i < 200; ++i) sink += count_solid(solid.data);
    });
    std::printf("%-44s %8.2f GB/s (%llu)\n", "full solid count (what the counter avoids)",
                double(solid.data.size()) * 200 / tc / 1e9, (unsigned long long)(sink / 1000));
  }

  // Cave regions for the region case: a closed pocket every 8 cells, one id each.
  RegionGrid rg{module, std::vector<uint16_t>(module.samples(), 0)};
  std::vector<uint16_t> closed;
  uint16_t next = 1;
  for (uint32_t z = 4; z < module.nz; z += 8)
    for (uint32_t y = 4; y < module.ny; y += 8)
      for (uint32_t x = 4; x < module.nx; x += 8) {
        rg.ids[module.index(x, y, z)] = next;
        closed.push_back(next++);
      }

  struct Case {
    const char* what;
    double radius_m, amount;
    bool regions;
  };
  const Case cases[] = {
      {"jet r 0.5 m, 0.012 points (0.6/s at 50 Hz)", 0.5, 0.012, false},
      {"jet r 0.5 m, 1 point", 0.5, 1.0, false},
      {"jet r 1 m, 0.012 points", 1.0, 0.012, false},
      {"jet r 0.5 m, 0.012 points, cave regions", 0.5, 0.012, true},
  };
  for (const Case& c : cases) {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    const auto hits = jet_hits(module, n, c.radius_m / 0.25, c.amount, 42);
    ByteGrid g;
    MeltResult r;
    const double t = best_of(5, true, [&] { g = solid; }, [&] {
      r = melt(g, hits, {}, c.regions ? MeltRegions{&rg, closed} : MeltRegions{});
    });
    line(c.what, hits.size(), visited(module, hits), t, memcpy_bps);
    const double tw = best_of(5, true, [&] { g = solid; }, [&] { box_walk(g, hits); });
    line("  box walk over the same boxes (floor)", hits.size(), visited(module, hits), tw, memcpy_bps);
    std::printf("%-44s %llu points changed, %.1f L, %zu regions opened\n", "", (unsigned long long)r.points_changed,
                r.litres(0.25), r.opened.size());
  }

  // Large hits: the work inside one hit is split over z slabs.
  const Dims big{256, 256, 256};
  const ByteGrid big_solid(big, 255);
  const auto big_hits = jet_hits(big, 64, 48, 0.05, 7);
  const uint64_t big_points = visited(big, big_hits);
  std::vector<uint8_t> out1;
  for (int threads : {1, 2}) {
    tbb::global_control cap(tbb::global_control::max_allowed_parallelism, size_t(threads));
    ByteGrid g;
    const double t = best_of(3, false, [&] { g = big_solid; }, [&] { melt(g, big_hits); });
    char what[64];
    std::snprintf(what, sizeof what, "256^3 grid, 64 hits r 48 cells, %d thread%s", threads, threads > 1 ? "s" : "");
    line(what, big_hits.size(), big_points, t, memcpy_bps);
    if (threads == 1) out1 = g.data;
    else if (g.data != out1) {
      std::fprintf(stderr, "bench_melt: 2 threads gave other bytes than 1\n");
      return 1;
    }
  }
  return 0;
}
