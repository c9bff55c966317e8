// Meshing throughput: Surface Nets, Marching Cubes and the dig-zone package's mesher over a seeded terrain SDF with caves
// and overhangs, in chunks of 16 on 1 and 2 threads and as one whole-grid mesh (what Flying
// Edges makes) on 1 thread. `--raw FILE` also writes the grid (samples, x fastest)
// for bench/flying_edges.py. Prints one "RESULT mesher threads triangles vertices seconds"
// line per run for bench/mesh_peer.sh.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <ctime>
#include <vector>

#include <malloc.h>
#include <unistd.h>

#include <tbb/global_control.h>

#include "bench/terrain.hpp"
#include "lib/mesh/mesh.hpp"
#include "lib/mesh/package_mesher.hpp"

#include <tbb/parallel_for.h>

using namespace voxkit;
using voxkit::bench::make_grid;

namespace {

struct Run {
  uint64_t triangles = 0, vertices = 0;
  double seconds = 0, cpu = 0;  // wall-clock and process CPU time
};

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// The best of `repeats` passes, and of as many more as fill min_time seconds: a short pass
// (5 ms on two threads) is otherwise easily caught whole by a moment of other load.
Run measure(const ByteGrid& g, Mesher m, int threads, int repeats, double min_time, bool normals,
            bool whole = false) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
  MeshOptions o;
  o.normals = normals;
  o.mesher = m;
  o.chunk_cells = 16;
  Run best;
  best.seconds = 1e30;
  double spent = 0;
  for (int r = 0; r < repeats || (spent < min_time && r < 10000); ++r) {
    const double c0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    std::vector<ChunkMesh> chunks;
    if (whole)
      chunks.push_back({{0, 0, 0}, mesh_whole(g, o)});
    else
      chunks = mesh_chunks(g, o);
    auto t1 = std::chrono::steady_clock::now();
    Run run;
    run.seconds = std::chrono::duration<double>(t1 - t0).count();
    run.cpu = cpu_seconds() - c0;
    spent += run.seconds;
    for (const auto& c : chunks) {
      run.triangles += c.mesh.triangle_count();
      run.vertices += c.mesh.vertex_count();
    }
    if (run.seconds < best.seconds) best = run;
  }
  return best;
}

// The dig-zone package's mesher over every chunk of 16 (the same chunks), best pass as above.
Run measure_package(const ByteGrid& g, int threads, int repeats, double min_time) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
  const auto n = chunk_counts(g.cells, 16);
  std::vector<std::array<uint32_t, 3>> list;
  for (uint32_t z = 0; z < n[2]; ++z)
    for (uint32_t y = 0; y < n[1]; ++y)
      for (uint32_t x = 0; x < n[0]; ++x) list.push_back({x, y, z});
  package::Options po;
  po.chunk_cells = 16;
  po.voxel_size = 0.5f;
  Run best;
  best.seconds = 1e30;
  double spent = 0;
  for (int r = 0; r < repeats || (spent < min_time && r < 10000); ++r) {
    std::vector<package::ChunkMesh> meshes(list.size());
    const double c0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    tbb::parallel_for(size_t(0), list.size(), [&](size_t i) { meshes[i] = package::build_chunk(g, list[i], po); });
    auto t1 = std::chrono::steady_clock::now();
    Run run;
    run.seconds = std::chrono::duration<double>(t1 - t0).count();
    run.cpu = cpu_seconds() - c0;
    spent += run.seconds;
    for (const auto& m : meshes) {
      run.triangles += m.indices.size() / 3;
      run.vertices += m.positions.size();
    }
    if (run.seconds < best.seconds) best = run;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  // Each pass reuses the memory the previous one freed, as a long-running process does:
  // glibc's mmap and trim thresholds are fixed, so that no figure depends on which earlier
  // allocation happened to move their dynamic values (a whole-grid index array of 7.7 MB
  // mapped afresh on every pass made that pass 1.6x slower in one build).
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  Dims cells{256, 128, 256};
  std::string raw;
  int repeats = 5;
  double min_time = 0.25;  // seconds of passes per measurement, at least
  bool normals = true;
  bool whole_too = true;  // also one whole-grid mesh on one thread
  bool package_too = true;  // also the dig-zone package's mesher (lib/mesh/package_mesher.hpp)
  std::vector<Mesher> meshers{Mesher::SurfaceNets, Mesher::MarchingCubes};
  std::vector<int> thread_counts{1, 2};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--raw") && i + 1 < argc) {
      raw = argv[++i];
    } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) {
      min_time = std::max(0.0, std::atof(argv[++i]));
    } else if (!std::strcmp(argv[i], "--mesher") && i + 1 < argc) {
      const std::string m = argv[++i];
      meshers = {m == "mc" ? Mesher::MarchingCubes : Mesher::SurfaceNets};
      package_too = m == "package";
      if (package_too) meshers.clear();
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      thread_counts = {std::max(1, std::atoi(argv[++i]))};
    } else if (!std::strcmp(argv[i], "--chunks-only")) {
      whole_too = false;
    } else if (!std::strcmp(argv[i], "--no-normals")) {
      normals = false;
    } else if (!std::strcmp(argv[i], "--cells") && i + 3 < argc) {
      cells = {uint32_t(std::atoi(argv[i + 1])), uint32_t(std::atoi(argv[i + 2])),
               uint32_t(std::atoi(argv[i + 3]))};
      i += 3;
    } else {
      std::fprintf(stderr, "usage: bench_mesh [--cells NX NY NZ] [--repeat N] [--min-time SECONDS] [--mesher sn|mc|package] [--threads N] "
                   "[--no-normals] [--chunks-only] [--raw FILE]\n");
      return 2;
    }
  }
  ByteGrid g = make_grid(cells, 1234);
  if (!raw.empty()) {
    // Flushed to the disk before any timing, so that its write-back does not run beside the
    // measured passes (it slowed them by several per cent).
    FILE* f = std::fopen(raw.c_str(), "wb");
    if (!f || std::fwrite(g.data.data(), 1, g.data.size(), f) != g.data.size() ||
        std::fflush(f) || fsync(fileno(f)) || std::fclose(f)) {
      std::fprintf(stderr, "bench_mesh: cannot write %s\n", raw.c_str());
      return 1;
    }
  }
  std::printf("grid %ux%ux%u cells, chunks of 16, normals %s, best of %d runs and of %.2f s of runs\n",
              cells.nx, cells.ny, cells.nz, normals ? "on" : "off", repeats, min_time);
  for (Mesher m : meshers) {
    const bool sn = m == Mesher::SurfaceNets;
    double one = 0;
    // The chunked runs (the real workload: 2048 meshes, border vertices repeated in each
    // chunk that uses them), then one whole-grid mesh on one thread, as Flying Edges makes.
    std::vector<int> runs = thread_counts;
    if (whole_too) runs.push_back(0);
    for (int threads : runs) {
      const bool whole = threads == 0;
      if (whole) threads = 1;
      Run r = measure(g, m, threads, repeats, min_time, normals, whole);
      const double tps = double(r.triangles) / r.seconds, vps = double(r.vertices) / r.seconds;
      const char* name = whole ? (sn ? "sn_whole" : "mc_whole")
                               : (sn ? "surface_nets" : "marching_cubes");
      if (threads == 1 && !whole) one = tps;
      std::printf("%-15s %d thread%s %9llu tris %9llu verts %8.2f ms %8.2f Mtri/s %8.2f Mvert/s",
                  name, threads, threads == 1 ? " " : "s", (unsigned long long)r.triangles,
                  (unsigned long long)r.vertices, r.seconds * 1e3, tps / 1e6, vps / 1e6);
      std::printf("  (cpu %.2f ms)", r.cpu * 1e3);
      if (threads > 1 && one > 0 && !whole) std::printf("  x%.2f", tps / one);
      std::printf("\n");
      std::printf("RESULT %s %d %llu %llu %.6f %.6f\n", name, threads,
                  (unsigned long long)r.triangles, (unsigned long long)r.vertices, r.seconds, r.cpu);
    }
  }
  if (package_too) {
    double one = 0;
    for (int threads : thread_counts) {
      Run r = measure_package(g, threads, repeats, min_time);
      const double tps = double(r.triangles) / r.seconds, vps = double(r.vertices) / r.seconds;
      if (threads == 1) one = tps;
      std::printf("%-15s %d thread%s %9llu tris %9llu verts %8.2f ms %8.2f Mtri/s %8.2f Mvert/s  (cpu %.2f ms)",
                  "package", threads, threads == 1 ? " " : "s", (unsigned long long)r.triangles,
                  (unsigned long long)r.vertices, r.seconds * 1e3, tps / 1e6, vps / 1e6, r.cpu * 1e3);
      if (threads > 1 && one > 0) std::printf("  x%.2f", tps / one);
      std::printf("\n");
      std::printf("RESULT package %d %llu %llu %.6f %.6f\n", threads, (unsigned long long)r.triangles,
                  (unsigned long long)r.vertices, r.seconds, r.cpu);
    }
  }
  return 0;
}
