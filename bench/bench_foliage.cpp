// Benchmark: foliage anchors on a 1024 x 128 x 1024-cell zone with 100,000 trees, a detail
// on every column (1,050,625) and 10,000 surface details. Times the whole bake (top
// surfaces, anchors, buckets, the mask, the verdicts, the chunk hashes) on one and two
// threads, then a 4,096-edit log: the re-check of only the chunks it made dirty against
// the re-check of every chunk. Prints anchors/s beside memcpy of the grid (the floor of
// any pass that reads every sample once) in the same run.
// Usage: bench_foliage [nx ny nz] [trees] [edits]
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "lib/edit/packed_edit.hpp"
#include "lib/edit/replay.hpp"
#include "lib/foliage/foliage.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Zone make_zone(Dims c, std::vector<float>& height) {
  Zone z;
  z.meta.cells = c;
  z.meta.voxel_size = 0.5;
  z.meta.origin = {0, 0, 0};
  z.meta.chunk_cells = 16;
  z.meta.edit_box = {{0, 0, 0}, {int32_t(c.nx), int32_t(c.ny) - 1, int32_t(c.nz)}};
  z.meta.hole = {0, 0, c.nx * 0.5, c.nz * 0.5};
  z.grid = ByteGrid(c, 0);
  height.resize(c.sx() * c.sz());
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> phase(0.f, 6.28f);
  const float a = phase(rng), b = phase(rng), d = phase(rng);
  tbb::parallel_for(uint64_t(0), c.sz(), [&](uint64_t zz) {
    for (uint64_t x = 0; x < c.sx(); ++x) {
      const float h = float(c.ny) * (0.45f + 0.15f * std::sin(float(x) * 0.013f + a) * std::cos(float(zz) * 0.011f + b) +
                                     0.05f * std::sin(float(x + zz) * 0.07f + d));
      height[x + c.sx() * zz] = h;
      for (uint64_t y = 0; y < c.sy(); ++y) z.grid.at(x, y, zz) = quantize_sdf(float(y) - h);
    }
  });
  return z;
}

double memcpy_gbs(size_t bytes) {
  std::vector<uint8_t> a(bytes, 1), b(bytes);
  std::memcpy(b.data(), a.data(), bytes);
  const auto t = Clock::now();
  for (int i = 0; i < 3; ++i) std::memcpy(b.data(), a.data(), bytes);
  return 3.0 * double(bytes) / since(t) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  Dims c{1024, 128, 1024};
  size_t n_trees = 100000, n_edits = 4096;
  if (argc >= 4) c = Dims{uint32_t(std::atoi(argv[1])), uint32_t(std::atoi(argv[2])), uint32_t(std::atoi(argv[3]))};
  if (argc >= 5) n_trees = size_t(std::atoll(argv[4]));
  if (argc >= 6) n_edits = size_t(std::atoll(argv[5]));

  std::vector<float> height;
  const Zone zone = make_zone(c, height);
  const float v = float(zone.meta.voxel_size);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> ux(0, float(c.nx)), uz(0, float(c.nz)), jitter(-0.4f, 0.4f);
  std::vector<foliage::TreeInput> trees(n_trees);
  for (size_t i = 0; i < n_trees; ++i) {
    const float x = ux(rng), z = uz(rng);
    trees[i] = {uint32_t(i), uint32_t(i % 4), {x * v, height[size_t(x) + c.sx() * size_t(z)] * v, z * v}, 0, 1, 1, {0, 0, 0}};
  }
  std::vector<foliage::DetailInput> details(c.sx() * c.sz());
  for (uint64_t zz = 0; zz < c.sz(); ++zz)
    for (uint64_t x = 0; x < c.sx(); ++x) {
      const size_t i = x + c.sx() * zz;
      details[i] = {uint32_t(i), uint32_t(i % 3), (float(x) + jitter(rng)) * v, (float(zz) + jitter(rng)) * v, 0, 1, 1};
    }
  std::vector<foliage::SurfaceInput> surface(10000);
  for (size_t i = 0; i < surface.size(); ++i) {
    const float x = ux(rng), z = uz(rng);
    surface[i] = {uint32_t(i), 0, {x * v, (height[size_t(x) + c.sx() * size_t(z)] - 0.1f) * v, z * v}, {1, 0, 0}, 0, 1, 1};
  }
  foliage::BakeInput in;
  in.trees = trees;
  in.details = details;
  in.surface = surface;
  const uint64_t anchors = trees.size() + details.size() + surface.size() + c.sx() * c.sz();

  std::printf("zone %ux%ux%u cells (%.1f M samples), %zu trees, %zu details, %zu surface details, %llu columns\n", c.nx,
              c.ny, c.nz, double(c.samples()) / 1e6, trees.size(), details.size(), surface.size(),
              (unsigned long long)(c.sx() * c.sz()));
  const double floor_gbs = memcpy_gbs(zone.grid.data.size());
  std::printf("floor: memcpy of the grid %.2f GB/s = %.1f ms\n", floor_gbs,
              double(zone.grid.data.size()) / floor_gbs / 1e6);

  ZoneFoliage baked;
  std::vector<uint8_t> ref_mask;
  for (int threads : {1, 2}) {
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, size_t(threads));
    double best = 1e9;
    foliage::BakeStats bs;
    for (int rep = 0; rep < 5; ++rep) {
      foliage::BakeStats st;
      auto t0 = Clock::now();
      ZoneFoliage f = foliage::bake(zone, in, &st);
      const double s = since(t0);
      if (s < best) best = s, bs = st;
      if (rep == 0 && threads == 1) ref_mask = f.mask;
      if (rep == 0 && threads == 2 && f.mask != ref_mask) {
        std::printf("MISMATCH between 1 and 2 threads\n");
        return 1;
      }
      baked = std::move(f);
    }
    std::printf("bake   %d thread%s: %7.1f ms  %6.1f M anchors/s  (top surfaces %.1f, trees and surface details %.1f, "
                "details %.1f, mask %.1f ms; chunk hashes %.1f ms beside them)\n",
                threads, threads > 1 ? "s" : " ", best * 1e3, double(anchors) / best / 1e6, bs.top_seconds * 1e3,
                bs.trees_seconds * 1e3, bs.details_seconds * 1e3, bs.mask_seconds * 1e3, bs.hash_seconds * 1e3);
  }

  // Logs of digs and adds near the surface (uniform over the zone: 64, 512 and 4,096 edits;
  // and 4,096 edits at 8 dig sites), then the re-check of the chunks each made dirty against
  // the re-check of every chunk.
  const foliage::Chunks ch = foliage::chunks_of(c, 16);
  const foliage::ChunkCounts per_chunk = foliage::chunk_counts(baked, c, 16);
  uint64_t all_anchors = 0;
  for (uint64_t ci = 0; ci < ch.count(); ++ci) all_anchors += per_chunk.trees[ci] + per_chunk.surface[ci] + per_chunk.columns[ci];
  std::uniform_real_distribution<float> ur(1, 6), uy(-3, 3), step(-1, 1);
  auto uniform_log = [&](size_t n) {
    std::vector<uint64_t> log;
    for (size_t i = 0; i < n; ++i) {
      const float x = ux(rng), z = uz(rng);
      log.push_back(edit::pack(x, height[size_t(x) + c.sx() * size_t(z)] + uy(rng), z, ur(rng),
                               i % 3 ? edit::Op::Dig : edit::Op::Add, 0));
    }
    return log;
  };
  auto sites_log = [&](size_t n, int sites) {
    std::vector<std::array<float, 2>> at;
    for (int k = 0; k < sites; ++k) at.push_back({ux(rng), uz(rng)});
    std::vector<uint64_t> log;
    for (size_t i = 0; i < n; ++i) {
      auto& p = at[i % size_t(sites)];
      p[0] = std::clamp(p[0] + step(rng), 8.f, float(c.nx) - 8), p[1] = std::clamp(p[1] + step(rng), 8.f, float(c.nz) - 8);
      const float y = height[size_t(p[0]) + c.sx() * size_t(p[1])] - float(i / size_t(sites)) * 0.02f;
      log.push_back(edit::pack(p[0], std::max(y, 4.f), p[1], ur(rng), i % 3 ? edit::Op::Dig : edit::Op::Add, 0));
    }
    return log;
  };
  struct Case {
    const char* name;
    std::vector<uint64_t> log;
  };
  std::vector<Case> cases{{"64 edits, uniform", uniform_log(64)},
                          {"512 edits, uniform", uniform_log(512)},
                          {"4096 edits, uniform", uniform_log(n_edits)},
                          {"4096 edits, 8 dig sites", sites_log(n_edits, 8)}};
  for (const Case& k : cases) {
    edit::EditorOptions eo;
    eo.chunk_cells = 16;
    edit::Editor ed(zone.grid, nullptr, zone.meta.edit_box, eo);
    for (uint64_t e : k.log) ed.apply(e);
    std::vector<uint32_t> dirty;
    uint64_t anchors_dirty = 0;
    for (uint64_t ci : ed.dirty_chunks()) {
      dirty.push_back(uint32_t(ci));
      anchors_dirty += per_chunk.trees[ci] + per_chunk.surface[ci] + per_chunk.columns[ci];
    }
    std::printf("log: %s: %zu of %llu chunks dirty, holding %.1f%% of the anchors\n", k.name, dirty.size(),
                (unsigned long long)ch.count(), 100.0 * double(anchors_dirty) / double(all_anchors));
    for (int threads : {1, 2}) {
      tbb::global_control gc(tbb::global_control::max_allowed_parallelism, size_t(threads));
      double best_local = 1e9, best_full = 1e9, best_hash = 1e9;
      ZoneFoliage local, full;
      for (int rep = 0; rep < 3; ++rep) {
        local = baked;
        auto t0 = Clock::now();
        foliage::recheck(ed.grid(), 16, local, dirty);
        best_local = std::min(best_local, since(t0));
        full = baked;
        t0 = Clock::now();
        foliage::recheck_all(ed.grid(), 16, full);
        best_full = std::min(best_full, since(t0));
        std::vector<uint64_t> h = baked.chunk_hash;
        t0 = Clock::now();
        foliage::update_chunk_hashes(ed.grid(), 16, dirty, h);
        best_hash = std::min(best_hash, since(t0));
      }
      if (local.mask != full.mask) {
        std::printf("MISMATCH between the chunk-local and the full re-check\n");
        return 1;
      }
      const auto d = foliage::diff(local, c);
      std::printf("  recheck %d thread%s: dirty chunks %7.2f ms (+ their hashes %5.2f ms), every chunk %7.2f ms (%.1fx)"
                  "  %.1f M anchors/s; %zu trees, %zu columns fell\n",
                  threads, threads > 1 ? "s" : " ", best_local * 1e3, best_hash * 1e3, best_full * 1e3,
                  best_full / best_local, double(anchors_dirty) / best_local / 1e6, d.trees_fell.size(),
                  d.columns_fell.size());
    }
  }
  return 0;
}
