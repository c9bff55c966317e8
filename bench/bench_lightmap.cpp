// Lightmap UVs (lib/mesh/lightmap_uv.hpp) over a zone's chunk meshes: bench_mesh's terrain
// (rolling hills, caves, ledges) with flat-topped mesas whose walls are cliffs, meshed chunk by
// chunk with the package's mesher, then every mesh unwrapped on all threads and on one. The
// peer is the package mesher's own time for the same chunks, measured in the same run. Prints
// the layout figures: charts per mesh, coverage, area distortion, vertices split; and a digest
// of the outputs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include <malloc.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "bench/terrain.hpp"
#include "lib/mesh/lightmap_uv.hpp"
#include "lib/mesh/package_mesher.hpp"

using namespace voxkit;

namespace {

// Mesas: vertical-walled columns of rock standing over the hills, flat on top.
void add_mesas(ByteGrid& g, uint32_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  const Dims c = g.cells;
  for (uint32_t i = 0; i < count; ++i) {
    const float cx = u(rng) * float(c.nx), cz = u(rng) * float(c.nz), r = 6 + u(rng) * 14;
    const float top = float(c.ny) * (0.7f + 0.15f * u(rng));
    for (uint64_t z = 0; z < g.cells.sz(); ++z)
      for (uint64_t x = 0; x < g.cells.sx(); ++x) {
        // A rounded square column: walls at distance r (in the max norm, corners rounded).
        const float dx = std::fabs(float(x) - cx), dz = std::fabs(float(z) - cz);
        const float wall = std::max(dx, dz) * 0.7f + std::hypot(dx, dz) * 0.3f - r;
        if (wall > 3) continue;
        for (uint64_t y = 0; y < g.cells.sy(); ++y) {
          uint8_t& s = g.at(x, y, z);
          s = std::min(s, quantize_sdf(std::max(wall, float(y) - top)));
        }
      }
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Time {
  double wall = 1e30, cpu = 0;  // seconds: wall clock and process CPU time
};

// The best wall-clock time of `repeats` runs of f, and of as many more as fill min_time.
template <class F>
Time best_of(int repeats, double min_time, F&& f) {
  Time best;
  double spent = 0;
  for (int r = 0; r < repeats || (spent < min_time && r < 1000); ++r) {
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double s = seconds_since(t0);
    spent += s;
    if (s < best.wall) best = {s, cpu_seconds() - c0};
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  // As bench_mesh: glibc's trim and mmap thresholds fixed, as a long-running process would
  // have them, so that each pass reuses the memory the last one freed (with the defaults, the
  // heap is trimmed and faulted back in for most meshes: some 15% more on one thread).
  bool default_malloc = false;
  for (int i = 1; i < argc; ++i) default_malloc |= !std::strcmp(argv[i], "--default-malloc");
  if (!default_malloc) {
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  uint32_t chunks[3] = {11, 11, 11};
  uint32_t size = 1024;
  int repeats = 3;
  double min_time = 1.0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--chunks") && i + 3 < argc) {
      for (int k = 0; k < 3; ++k) chunks[k] = uint32_t(std::max(1, std::atoi(argv[i + 1 + k])));
      i += 3;
    } else if (!std::strcmp(argv[i], "--size") && i + 1 < argc) {
      size = uint32_t(std::max(1, std::atoi(argv[++i])));
    } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) {
      min_time = std::max(0.0, std::atof(argv[++i]));
    } else if (!std::strcmp(argv[i], "--default-malloc")) {
    } else {
      std::fprintf(stderr, "usage: bench_lightmap [--chunks X Y Z] [--size TEXELS] [--repeat N] [--min-time SECONDS] "
                   "[--default-malloc]\n");
      return 2;
    }
  }
  const uint32_t cc = 16;
  const Dims cells{chunks[0] * cc, chunks[1] * cc, chunks[2] * cc};
  ByteGrid g = bench::make_grid(cells, 1234);
  add_mesas(g, std::max(1u, chunks[0] * chunks[2] / 12), 99);
  const size_t n = size_t(chunks[0]) * chunks[1] * chunks[2];
  package::Options po;
  po.chunk_cells = cc;
  po.voxel_size = 0.5f;
  std::vector<package::ChunkMesh> meshes(n), timed(n);  // timed: the mesher's timed runs
  auto mesh_all = [&](std::vector<package::ChunkMesh>& meshes) {
    tbb::parallel_for(size_t(0), n, [&](size_t i) {
      const uint32_t x = uint32_t(i % chunks[0]), y = uint32_t(i / chunks[0] % chunks[1]),
                     z = uint32_t(i / (size_t(chunks[0]) * chunks[1]));
      meshes[i] = package::build_chunk(g, {x, y, z}, po);
    });
  };
  mesh_all(meshes);
  std::vector<lightmap::MeshRef> refs;
  uint64_t triangles = 0, vertices = 0;
  for (const auto& m : meshes)
    if (!m.empty()) {
      refs.push_back({m.positions, m.indices});
      triangles += m.indices.size() / 3;
      vertices += m.positions.size();
    }
  lightmap::Options lo;
  lo.size = size;
  std::printf("zone of %ux%ux%u chunks of %u cells (%ux%ux%u cells, voxel 0.5 m), %zu chunks, %zu meshes, "
              "%llu triangles, %llu vertices; lightmap %u texels, padding %.0f; best of %d runs and of %.2f s of runs%s\n",
              chunks[0], chunks[1], chunks[2], cc, cells.nx, cells.ny, cells.nz, n, refs.size(),
              (unsigned long long)triangles, (unsigned long long)vertices, size, lo.padding_texels, repeats, min_time,
              default_malloc ? "; glibc's default malloc thresholds" : "");
  std::vector<lightmap::Unwrap> out;
  const int hw = int(tbb::this_task_arena::max_concurrency());
  std::vector<int> threads{hw};
  if (hw != 1) threads.push_back(1);
  for (int t : threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(t));
    const Time mesh = best_of(repeats, min_time, [&] { mesh_all(timed); });
    const Time uv = best_of(repeats, min_time, [&] { out = lightmap::unwrap_all(refs, lo); });
    std::printf("%d thread%s  package mesher %7.2f ms %6.2f Mtri/s (cpu %7.2f ms) | lightmap unwrap %7.2f ms "
                "%5.2f Mtri/s (cpu %7.2f ms) %6.1f us/mesh, %.2fx the mesher's time\n",
                t, t == 1 ? " " : "s", mesh.wall * 1e3, double(triangles) / mesh.wall / 1e6, mesh.cpu * 1e3,
                uv.wall * 1e3, double(triangles) / uv.wall / 1e6, uv.cpu * 1e3,
                uv.wall * 1e6 / double(std::max<size_t>(1, refs.size())), uv.wall / mesh.wall);
    std::printf("RESULT lightmap %d %llu %.6f %.6f\n", t, (unsigned long long)triangles, uv.wall, mesh.wall);
  }
  // The layouts' figures, per mesh with some area (a mesh of zero-area triangles only has
  // one point chart, scale 0 and no coverage).
  double charts = 0, cov = 0, cov_min = 1, dmean = 0, dmax = 0, tpm_min = 1e30, tpm_max = 0;
  uint32_t charts_max = 0;
  uint64_t vin = 0, vout = 0, flat = 0;
  for (const auto& u : out) {
    const auto& s = u.stats;
    vin += s.vertices_in, vout += s.vertices_out;
    if (s.texels_per_metre == 0) {
      ++flat;
      continue;
    }
    charts += s.charts, charts_max = std::max(charts_max, s.charts);
    cov += s.coverage, cov_min = std::min(cov_min, s.coverage);
    dmean += s.area_distortion_mean, dmax = std::max(dmax, s.area_distortion_max);
    tpm_min = std::min(tpm_min, s.texels_per_metre), tpm_max = std::max(tpm_max, s.texels_per_metre);
  }
  // A digest of every output (indices, copies, uvs, charts and stats, bit for bit), so that a
  // change meant to keep the layouts can be checked against the figure printed before it.
  uint64_t digest = 0xcbf29ce484222325ull;
  auto hash = [&](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) digest = (digest ^ static_cast<const unsigned char*>(p)[i]) * 0x100000001b3ull;
  };
  for (const auto& u : out) {
    hash(u.source_vertex.data(), u.source_vertex.size() * sizeof(uint32_t));
    hash(u.indices.data(), u.indices.size() * sizeof(uint32_t));
    hash(u.uv.data(), u.uv.size() * sizeof(u.uv[0]));
    hash(u.chart.data(), u.chart.size() * sizeof(uint32_t));
    const auto& s = u.stats;
    for (uint32_t v : {s.charts, s.vertices_in, s.vertices_out}) hash(&v, sizeof v);
    for (double v : {s.texels_per_metre, s.coverage, s.area_distortion_max, s.area_distortion_mean}) hash(&v, sizeof v);
  }
  const double k = double(std::max<uint64_t>(1, out.size() - flat));
  std::printf("per mesh: charts %.1f mean, %u max; coverage %.1f%% mean, %.1f%% min; area distortion %.3f mean, "
              "%.3f max; texels per metre %.1f..%.1f; vertices out/in %.3f; %llu meshes of zero-area triangles only\n",
              charts / k, charts_max, 100 * cov / k, 100 * cov_min, dmean / k, dmax, tpm_min, tpm_max,
              double(vout) / double(std::max<uint64_t>(1, vin)), (unsigned long long)flat);
  std::printf("output digest %016llx\n", (unsigned long long)digest);
  return 0;
}
