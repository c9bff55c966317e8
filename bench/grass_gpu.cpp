// The grass scatter on the GPU (bench/grass_gpu.comp) through Vulkan, against lib/grass on the CPU.
//
//   grass_gpu            bench: 256 cells of 16384 candidates, GPU time beside the CPU's on 1 and 2 threads
//   grass_gpu --check    the GPU's records equal the CPU's bit for bit on a synthetic terrain
//                        (ctest grass_gpu); exits 1 on any difference, 2 when no usable device
//   grass_gpu --peer [SPV]  the engine's own GrassScatter.comp.spv (default /tmp/vixen/...) on the same
//                        terrain, compared with tolerance (it filters textures: not bit-exact)
//
// This file is the program: the synthetic terrain, the three modes and main. The Vulkan host
// (class Gpu: device, buffers, pipelines) is grass_gpu_host.hpp, grass_gpu_host.cpp and
// grass_gpu_peer_host.cpp. The shader's SPIR-V is compiled at build time and linked in
// (grass_gpu_spv.cpp in the build directory), so the program reads no file (--peer reads the
// engine's SPIR-V). docs/grass-gpu.md says what is exact and why.
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "bench/grass_gpu_host.hpp"
#include "lib/grass/grass_type.hpp"
#include "lib/grass/scatter.hpp"
#include "lib/grass/surface.hpp"

namespace {

using namespace voxkit::grass;
using namespace voxkit::bench::grass_gpu;
using Clock = std::chrono::steady_clock;

// --- synthetic terrain ------------------------------------------------------------------------

// Hills from sines, a steep ramp (slope refusals), a flat shelf (upright normals), a hole
// rectangle, and two layers "grass" and "rock" whose weights vary over the grid (including
// exact 0 and 1). The values are data: they are uploaded as the same floats to both sides.
SurfaceGrid make_surface(float ox, float oy, float oz, float spacing, int32_t nx, int32_t nz, double phase) {
  SurfaceGrid g;
  g.origin_x = ox, g.origin_y = oy, g.origin_z = oz, g.spacing = spacing;
  g.samples_x = nx, g.samples_z = nz;
  const size_t n = static_cast<size_t>(nx) * nz;
  g.height.resize(n);
  g.layer_names = {"grass", "rock"};
  g.weights.assign(2, std::vector<float>(n));
  const double wx = (nx - 1) * static_cast<double>(spacing), wz = (nz - 1) * static_cast<double>(spacing);
  for (int32_t j = 0; j < nz; ++j)
    for (int32_t i = 0; i < nx; ++i) {
      const double x = i * static_cast<double>(spacing), z = j * static_cast<double>(spacing);
      double h = 4.0 * std::sin(0.09 * x + phase) * std::cos(0.06 * z) + 1.5 * std::sin(0.31 * x + 0.23 * z + phase);
      // A ramp of slope about 1.7 (60 degrees) across a band of x.
      const double r0 = 0.62 * wx, r1 = 0.74 * wx;
      if (x > r0) h += 1.7 * (std::min(x, r1) - r0);
      // A flat shelf in one corner.
      if (x < 0.18 * wx && z < 0.2 * wz) h = 2.0;
      const size_t k = static_cast<size_t>(j) * nx + i;
      g.height[k] = static_cast<float>(h);
      double grass = 0.5 + 0.6 * std::sin(0.05 * x + phase) * std::cos(0.08 * z);
      g.weights[0][k] = static_cast<float>(std::clamp(grass, 0.0, 1.0));
      double rock = (x - 0.3 * wx) / (0.5 * wx);
      g.weights[1][k] = static_cast<float>(std::clamp(rock + 0.2 * std::sin(0.4 * z), 0.0, 1.0));
    }
  g.hole.assign(static_cast<size_t>(nx - 1) * (nz - 1), 0);
  for (int32_t j = (nz - 1) * 45 / 100; j < (nz - 1) * 58 / 100; ++j)
    for (int32_t i = (nx - 1) * 30 / 100; i < (nx - 1) * 41 / 100; ++i) g.hole[static_cast<size_t>(j) * (nx - 1) + i] = 1;
  g.check();
  return g;
}

std::vector<CellKey> cell_block(int32_t x0, int32_t z0, int32_t nx, int32_t nz) {
  std::vector<CellKey> cells;
  for (int32_t z = z0; z < z0 + nz; ++z)
    for (int32_t x = x0; x < x0 + nx; ++x) cells.push_back({x, z});
  return cells;
}

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

void print_blade(const char* who, const Blade* b) {
  if (!b) {
    std::printf("      %-4s (none)\n", who);
    return;
  }
  const float* f = reinterpret_cast<const float*>(b);
  std::printf("      %-4s pos %08X %08X %08X scale %08X rot %08X %08X %08X %08X tint %08X phase %08X pad %08X %08X\n",
              who, bits(f[0]), bits(f[1]), bits(f[2]), bits(f[3]), bits(f[4]), bits(f[5]), bits(f[6]), bits(f[7]),
              bits(f[8]), bits(f[9]), bits(f[10]), bits(f[11]));
}

struct CheckTotals {
  uint64_t candidates = 0, records = 0, mismatches = 0;
  std::array<uint64_t, 4> verdicts{};
  int printed = 0;
};

// One scatter (a type, a cell size, a density scale, a surface, cells) on both sides, compared.
void check_case(Gpu& gpu, const char* label, const GrassType& type, float cell_size, float density_scale,
                const SurfaceGrid& surface, const std::vector<CellKey>& cells, CheckTotals& t) {
  const ScatterSetup s = make_setup(type, cell_size, density_scale, surface);
  const uint32_t n = static_cast<uint32_t>(s.side) * static_cast<uint32_t>(s.side);
  ScatterOptions opt;
  const auto cpu = scatter(s, surface, cells, opt);
  std::vector<GpuCellResult> gpu_out;
  gpu.run(s, surface, cells, n, gpu_out);
  uint64_t case_mismatch = 0, case_records = 0;
  std::array<uint64_t, 4> v{};
  for (size_t c = 0; c < cells.size(); ++c) {
    const CellResult& a = cpu[c];
    const GpuCellResult& b = gpu_out[c];
    for (int k = 0; k < 4; ++k) v[k] += a.counts[k];
    if (a.counts != b.counts) {
      ++case_mismatch;
      if (t.printed++ < 12)
        std::printf("  MISMATCH %s cell (%d, %d): counts cpu %u/%u/%u/%u gpu %u/%u/%u/%u (placed/no-surface/slope/density)\n",
                    label, cells[c].x, cells[c].z, a.counts[0], a.counts[1], a.counts[2], a.counts[3], b.counts[0],
                    b.counts[1], b.counts[2], b.counts[3]);
    }
    // Walk both index lists together (both sorted by candidate index).
    size_t i = 0, j = 0;
    while (i < a.indices.size() || j < b.indices.size()) {
      const bool has_a = i < a.indices.size(), has_b = j < b.indices.size();
      const int32_t ia = has_a ? a.indices[i] : INT32_MAX, ib = has_b ? b.indices[j] : INT32_MAX;
      const Blade* pa = ia <= ib && has_a ? &a.blades[i] : nullptr;
      const Blade* pb = ib <= ia && has_b ? &b.blades[j] : nullptr;
      ++case_records;
      if (!pa || !pb || std::memcmp(pa, pb, sizeof(Blade)) != 0) {
        ++case_mismatch;
        if (t.printed++ < 12) {
          std::printf("  MISMATCH %s cell (%d, %d) candidate %d:\n", label, cells[c].x, cells[c].z, std::min(ia, ib));
          print_blade("cpu", pa);
          print_blade("gpu", pb);
        }
      }
      if (pa) ++i;
      if (pb) ++j;
    }
  }
  t.candidates += static_cast<uint64_t>(n) * cells.size();
  t.records += case_records;
  t.mismatches += case_mismatch;
  for (int k = 0; k < 4; ++k) t.verdicts[k] += v[k];
  std::printf("  %-34s %3zu cells x %5u candidates: placed %7llu, no-surface %7llu, slope %7llu, density %7llu: %s\n",
              label, cells.size(), n, static_cast<unsigned long long>(v[0]), static_cast<unsigned long long>(v[1]),
              static_cast<unsigned long long>(v[2]), static_cast<unsigned long long>(v[3]),
              case_mismatch ? "DIFFERENT" : "equal");
}

int run_check(Gpu& gpu) {
  CheckTotals t;
  // Types: the default bound to "grass"; one with no layer and no random yaw, align 0; one bound
  // to "rock" with a collapsed weight range, align 1, full jitter and a lower slope limit; one
  // bound to a layer the surface lacks (weight 0) with a range below 0 so some still grow.
  GrassType grass = default_type("meadow");
  grass.layer = "grass";
  GrassType bare = default_type("bare");
  bare.random_yaw = false;
  bare.align_to_normal = 0.0f;
  bare.density = 5.0f;
  GrassType rock = default_type("lichen");
  rock.layer = "rock";
  rock.min_weight = rock.max_weight = 0.4f;
  rock.align_to_normal = 1.0f;
  rock.jitter = 1.0f;
  rock.max_slope = 0.5f;
  rock.min_scale = 0.25f, rock.max_scale = 2.5f;
  GrassType missing = default_type("snowgrass");
  missing.layer = "snow";
  missing.min_weight = -0.8f, missing.max_weight = 0.7f;
  missing.align_to_normal = 0.7f;

  // Near the origin: 16 cells of 32 m in all four quadrants, on a grid from (-50.5, -47.25) to
  // about (46, 49): the outer cells run off it.
  const SurfaceGrid near = make_surface(-50.5f, 3.25f, -47.25f, 0.75f, 130, 130, 0.0);
  const auto near_cells = cell_block(-2, -2, 4, 4);
  // Far away: cells (1000, -2000) and (-5000, 3000) and their neighbours, each on its own grid.
  const SurfaceGrid far1 = make_surface(1000 * 32.0f - 3.0f, -120.0f, -2000 * 32.0f - 5.0f, 1.0f, 72, 70, 1.3);
  const auto far1_cells = cell_block(1000, -2000, 2, 2);
  const SurfaceGrid far2 = make_surface(-5000 * 32.0f - 2.5f, 40.0f, 3000 * 32.0f - 1.5f, 1.25f, 56, 56, 2.1);
  const auto far2_cells = cell_block(-5000, 3000, 2, 2);

  std::printf("check: GPU records against lib/grass, bit for bit\n");
  check_case(gpu, "meadow(grass) near", grass, 32.0f, 1.0f, near, near_cells, t);
  check_case(gpu, "bare(no layer, no yaw) near", bare, 32.0f, 1.0f, near, near_cells, t);
  check_case(gpu, "lichen(rock, align 1) near", rock, 32.0f, 1.0f, near, near_cells, t);
  check_case(gpu, "snowgrass(missing) near x0.8", missing, 32.0f, 0.8f, near, near_cells, t);
  check_case(gpu, "meadow 7.3 m cells near x0.6", grass, 7.3f, 0.6f, near, cell_block(-7, -7, 13, 13), t);
  check_case(gpu, "meadow(grass) far (1000,-2000)", grass, 32.0f, 1.0f, far1, far1_cells, t);
  check_case(gpu, "lichen(rock) far (1000,-2000)", rock, 32.0f, 1.0f, far1, far1_cells, t);
  check_case(gpu, "meadow(grass) far (-5000,3000)", grass, 32.0f, 1.0f, far2, far2_cells, t);
  check_case(gpu, "bare far (-5000,3000)", bare, 32.0f, 1.0f, far2, far2_cells, t);
  std::printf("check: %llu candidates, %llu records compared (placed %llu, no-surface %llu, slope %llu, density %llu), "
              "%llu mismatches\n",
              static_cast<unsigned long long>(t.candidates), static_cast<unsigned long long>(t.records),
              static_cast<unsigned long long>(t.verdicts[0]), static_cast<unsigned long long>(t.verdicts[1]),
              static_cast<unsigned long long>(t.verdicts[2]), static_cast<unsigned long long>(t.verdicts[3]),
              static_cast<unsigned long long>(t.mismatches));
  bool bad = t.mismatches != 0;
  for (int k = 0; k < 4; ++k)
    if (t.verdicts[k] == 0) {
      std::printf("check: no candidate got verdict %s: the terrain does not cover it\n", refusal_name(static_cast<Refusal>(k)));
      bad = true;
    }
  std::printf("%s\n", bad ? "FAILED" : "ok: the GPU records equal the CPU records bit for bit");
  return bad ? 1 : 0;
}

int run_bench(Gpu& gpu) {
  // 256 cells of 32 m with the default type (16 per square metre: 128 x 128 candidates), on a
  // 512 m grid of 1 m quads.
  const SurfaceGrid g = make_surface(-1.0f, 0.0f, -1.0f, 1.0f, 515, 515, 0.4);
  const auto cells = cell_block(0, 0, 16, 16);
  const ScatterSetup s = make_setup(default_type("grass"), 32.0f, 1.0f, g);
  const uint32_t n = static_cast<uint32_t>(s.side) * static_cast<uint32_t>(s.side);
  const double candidates = static_cast<double>(n) * cells.size();
  std::printf("bench: %zu cells x %u candidates (default type, 32 m cells)\n", cells.size(), n);

  std::vector<GpuCellResult> out;
  gpu.run(s, g, cells, n, out);  // warm-up (pipeline compilation, first touch)
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) best = std::min(best, gpu.run(s, g, cells, n, out));
  uint64_t placed = 0;
  for (const auto& r : out) placed += r.counts[0];
  std::printf("  gpu %-40s %8.3f s  %7.2f M candidates/s  %7.2f M blades/s  (%llu blades)\n",
              (gpu.name() + " (" + gpu.kind() + ")").c_str(), best, candidates / best * 1e-6, placed / best * 1e-6,
              static_cast<unsigned long long>(placed));
  bool same_counts = true;
  for (int threads : {1, 2}) {
    tbb::global_control cap(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
    double cbest = 1e30;
    uint64_t cplaced = 0;
    for (int rep = 0; rep < 2; ++rep) {
      const auto t0 = Clock::now();
      const auto r = scatter(s, g, cells, ScatterOptions{});
      cbest = std::min(cbest, std::chrono::duration<double>(Clock::now() - t0).count());
      cplaced = 0;
      for (size_t k = 0; k < r.size(); ++k) {
        cplaced += r[k].counts[0];
        same_counts = same_counts && r[k].counts == out[k].counts;
      }
    }
    std::printf("  cpu lib/grass, %d thread%s %26s %8.3f s  %7.2f M candidates/s  %7.2f M blades/s  (%llu blades)\n",
                threads, threads == 1 ? " " : "s", "", cbest, candidates / cbest * 1e-6, cplaced / cbest * 1e-6,
                static_cast<unsigned long long>(cplaced));
  }
  std::printf("  verdict counts per cell, gpu against cpu: %s\n", same_counts ? "equal" : "DIFFERENT");
  return same_counts ? 0 : 1;
}

// --- the engine's shader as a peer --------------------------------------------------------

constexpr const char* kEngineSpirv = "/tmp/vixen/GrassScatter.comp.spv";

struct PeerTotals {
  uint64_t cpu_placed = 0, engine_placed = 0, matched = 0, cpu_only = 0, engine_only = 0;
  uint64_t xz_equal = 0, scale_equal = 0, rot_equal = 0, tint_equal = 0, phase_equal = 0;
  double max_dxz = 0, max_dy = 0, max_dscale = 0, max_drot = 0, max_dtint = 0, max_dphase = 0;
  uint64_t centred = 0;  // engine records standing exactly on their slot's centre (no jitter)
};

// The engine's records carry no candidate index: a record's slot is recovered from its position
// (jitter moves a candidate less than half a step, so floor((x - cell origin) / step) is its slot).
void peer_case(Gpu& gpu, const std::vector<uint32_t>& spirv, const char* label, const GrassType& type,
               const SurfaceGrid& surface, const std::vector<CellKey>& cells, PeerTotals& t) {
  const ScatterSetup s = make_setup(type, 32.0f, 1.0f, surface);
  const uint32_t n = static_cast<uint32_t>(s.side) * static_cast<uint32_t>(s.side);
  const auto cpu = scatter(s, surface, cells, ScatterOptions{});
  std::vector<GpuCellResult> eng;
  gpu.run_engine(spirv, s, surface, cells, n, eng);
  PeerTotals c;
  for (size_t k = 0; k < cells.size(); ++k) {
    const CellResult& a = cpu[k];
    c.cpu_placed += a.counts[0];
    c.engine_placed += eng[k].counts[0];
    std::vector<int32_t> seen(n, -1);
    const double ox = static_cast<double>(static_cast<float>(cells[k].x) * s.cell_size);
    const double oz = static_cast<double>(static_cast<float>(cells[k].z) * s.cell_size);
    for (size_t r = 0; r < eng[k].blades.size(); ++r) {
      const Blade& b = eng[k].blades[r];
      const int64_t sx = static_cast<int64_t>(std::floor((b.position[0] - ox) / s.step));
      const int64_t sz = static_cast<int64_t>(std::floor((b.position[2] - oz) / s.step));
      if (sx < 0 || sz < 0 || sx >= s.side || sz >= s.side) continue;
      seen[static_cast<size_t>(sz * s.side + sx)] = static_cast<int32_t>(r);
      const float cx = static_cast<float>(cells[k].x) * s.cell_size + (static_cast<float>(sx) + 0.5f) * s.step;
      const float cz = static_cast<float>(cells[k].z) * s.cell_size + (static_cast<float>(sz) + 0.5f) * s.step;
      c.centred += b.position[0] == cx && b.position[2] == cz;
    }
    for (size_t i = 0; i < a.indices.size(); ++i) {
      const int32_t e = seen[static_cast<size_t>(a.indices[i])];
      if (e < 0) {
        ++c.cpu_only;
        continue;
      }
      seen[static_cast<size_t>(a.indices[i])] = -2;
      ++c.matched;
      const Blade& x = a.blades[i];
      const Blade& y = eng[k].blades[static_cast<size_t>(e)];
      const double dxz = std::max(std::fabs(x.position[0] - y.position[0]), std::fabs(x.position[2] - y.position[2]));
      c.max_dxz = std::max(c.max_dxz, dxz);
      c.xz_equal += bits(x.position[0]) == bits(y.position[0]) && bits(x.position[2]) == bits(y.position[2]);
      c.max_dy = std::max(c.max_dy, static_cast<double>(std::fabs(x.position[1] - y.position[1])));
      c.max_dscale = std::max(c.max_dscale, static_cast<double>(std::fabs(x.scale - y.scale)));
      c.scale_equal += bits(x.scale) == bits(y.scale);
      double dr = 0;
      bool req = true;
      for (int q = 0; q < 4; ++q) {
        dr = std::max(dr, static_cast<double>(std::fabs(x.rotation[q] - y.rotation[q])));
        req = req && bits(x.rotation[q]) == bits(y.rotation[q]);
      }
      c.max_drot = std::max(c.max_drot, dr);
      c.rot_equal += req;
      c.max_dtint = std::max(c.max_dtint, static_cast<double>(std::fabs(x.tint - y.tint)));
      c.tint_equal += bits(x.tint) == bits(y.tint);
      c.max_dphase = std::max(c.max_dphase, static_cast<double>(std::fabs(x.wind_phase - y.wind_phase)));
      c.phase_equal += bits(x.wind_phase) == bits(y.wind_phase);
    }
    for (int32_t v : seen) c.engine_only += v >= 0;
  }
  std::printf("  %-26s placed cpu %6llu engine %6llu; matched %6llu, cpu only %4llu, engine only %4llu; "
              "engine records on their slot centre %llu\n", label,
              static_cast<unsigned long long>(c.cpu_placed), static_cast<unsigned long long>(c.engine_placed),
              static_cast<unsigned long long>(c.matched), static_cast<unsigned long long>(c.cpu_only),
              static_cast<unsigned long long>(c.engine_only), static_cast<unsigned long long>(c.centred));
  std::printf("  %-26s bit-equal: xz %llu, scale %llu, rotation %llu, tint %llu, phase %llu; max |d| xz %.3g, y %.3g m, "
              "scale %.3g, rotation %.3g, tint %.3g, phase %.3g\n",
              "", static_cast<unsigned long long>(c.xz_equal), static_cast<unsigned long long>(c.scale_equal),
              static_cast<unsigned long long>(c.rot_equal), static_cast<unsigned long long>(c.tint_equal),
              static_cast<unsigned long long>(c.phase_equal), c.max_dxz, c.max_dy, c.max_dscale, c.max_drot,
              c.max_dtint, c.max_dphase);
  t.cpu_placed += c.cpu_placed, t.engine_placed += c.engine_placed, t.matched += c.matched;
  t.cpu_only += c.cpu_only, t.engine_only += c.engine_only;
  t.max_dxz = std::max(t.max_dxz, c.max_dxz), t.max_dy = std::max(t.max_dy, c.max_dy);
  t.max_dscale = std::max(t.max_dscale, c.max_dscale), t.max_drot = std::max(t.max_drot, c.max_drot);
  t.max_dtint = std::max(t.max_dtint, c.max_dtint), t.max_dphase = std::max(t.max_dphase, c.max_dphase);
  t.centred += c.centred;
}

int run_peer(Gpu& gpu, const char* path) {
  std::vector<uint32_t> spirv;
  if (FILE* f = std::fopen(path, "rb")) {
    uint32_t w;
    while (std::fread(&w, 4, 1, f) == 1) spirv.push_back(w);
    std::fclose(f);
  }
  if (spirv.size() < 5 || spirv[0] != 0x07230203u) {
    std::fprintf(stderr, "grass_gpu: cannot read the engine's SPIR-V at %s\n", path);
    return 2;
  }
  // The check's near terrain without its hole (the engine's hole map is per sample and
  // thresholded after filtering, ours per quad: no like-for-like hole), square as the engine's
  // single-tile atlas needs.
  SurfaceGrid near = make_surface(-50.5f, 3.25f, -47.25f, 0.75f, 130, 130, 0.0);
  near.hole.clear();
  const auto cells = cell_block(-2, -2, 4, 4);
  GrassType grass = default_type("meadow");
  grass.layer = "grass";
  GrassType rock = default_type("lichen");
  rock.layer = "rock";
  rock.min_weight = 0.2f, rock.max_weight = 0.7f;
  rock.align_to_normal = 1.0f;
  rock.max_slope = 0.5f;
  std::printf("peer: the engine's GrassScatter.comp.spv (%zu words; RandomYaw, LayerBound) on the same terrain, "
              "heights and weights as bilinearly filtered R32F textures\n", spirv.size());
  // 1. With the default jitter (0.8): does the engine's shader jitter at all? Its Main writes
  //    `val x = originX + (...) * step` and, on the next line, `+ (Unit(hash, 6) * 2f - 1f) * reach`,
  //    which Raven parses as a statement of its own: the SPIR-V computes the jitter and drops it.
  PeerTotals jittered;
  peer_case(gpu, spirv, "meadow(grass), jitter 0.8", grass, near, cells, jittered);
  const bool drops_jitter = jittered.centred == jittered.engine_placed && jittered.engine_placed > 0;
  std::printf("peer: %llu of %llu engine records stand exactly on their slot centre: %s\n",
              static_cast<unsigned long long>(jittered.centred), static_cast<unsigned long long>(jittered.engine_placed),
              drops_jitter ? "the engine's shader drops the jitter (an engine bug; lib/grass and GrassScatter.cs jitter)"
                           : "the engine's shader jitters");
  // 2. With jitter 0 both place candidates on the slot centres: compare everything else.
  grass.jitter = 0.0f;
  rock.jitter = 0.0f;
  PeerTotals t;
  peer_case(gpu, spirv, "meadow(grass), jitter 0", grass, near, cells, t);
  peer_case(gpu, spirv, "lichen(rock, align 1), jitter 0", rock, near, cells, t);
  // Tolerances: the engine filters heights and weights in hardware (lavapipe: 8-bit sub-texel
  // weights), uses the driver's sin/cos/acos, a native lerp (mix) and may contract; positions
  // come from the same hash and should agree to an ulp, verdicts may flip near a threshold.
  const double flipped = static_cast<double>(t.cpu_only + t.engine_only) / std::max<uint64_t>(1, t.cpu_placed);
  const bool ok = t.matched > 0 && flipped <= 0.01 && t.max_dxz <= 1e-3 && t.max_dy <= 0.02 && t.max_drot <= 0.02 &&
                  t.max_dscale <= 1e-5 && t.max_dtint <= 1e-6 && t.max_dphase <= 1e-5;
  std::printf("peer (jitter 0): %llu records matched, %.3f%% of verdicts differ; max |d| xz %.3g, y %.3g m, "
              "rotation %.3g, scale %.3g: %s\n",
              static_cast<unsigned long long>(t.matched), flipped * 100.0, t.max_dxz, t.max_dy, t.max_drot, t.max_dscale,
              ok ? "ok (within tolerance)" : "OUT OF TOLERANCE");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool ok_args = (argc == 1) || (argc == 2 && (mode == "--check" || mode == "--peer")) || (argc == 3 && mode == "--peer");
  if (!ok_args) {
    std::fprintf(stderr, "usage: grass_gpu [--check | --peer [ENGINE_SPIRV]]\n");
    return 2;
  }
  try {
    Gpu gpu;
    std::printf("device: %s (%s)\n", gpu.name().c_str(), gpu.kind().c_str());
    if (mode == "--peer") return run_peer(gpu, argc == 3 ? argv[2] : kEngineSpirv);
    return mode == "--check" ? run_check(gpu) : run_bench(gpu);
  } catch (const Gpu::NoDevice& e) {
    std::fprintf(stderr, "grass_gpu: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grass_gpu: %s\n", e.what());
    return 1;
  }
}
