// bench_world: a seeded world (a Unity .raw heightmap, 0.5 m, 128 cells high) baked and meshed
// in tiles through `voxkit plan --emit ninja` and `ninja -j 2`, beside one `voxkit bake` plus
// one `voxkit mesh` of the whole world: both wall times, their ratio, and the peak memory of
// every job (each voxkit run is measured as a child process through this program's --exec).
//
//   bench_world [--samples N] [--tiles T] [--dir DIR] [--no-whole] [--keep]
//
// --samples: heightmap side in samples (default 2048); --tiles: tiles per side (default 8, so
// 64 tiles); --no-whole: the tiled run only (a world over one zone's 2^31 samples, e.g. 8192).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Run {
  double seconds = 0;
  long max_rss_kb = 0;
  int status = 0;
};

// Runs argv as a child; wall time and its peak resident set.
Run run_child(const std::vector<std::string>& argv, bool quiet = true) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  std::fflush(stdout);  // nothing buffered is printed twice by the child
  const auto t = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    if (quiet) {
      std::FILE* f = std::freopen("/dev/null", "w", stdout);
      (void)f;
    }
    execvp(a[0], a.data());
    std::perror(a[0]);
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  Run r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t).count();
  r.max_rss_kb = ru.ru_maxrss;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return r;
}

// --exec LOG ARGV...: run ARGV, append "rss_kb seconds stage" to LOG, exit with its code.
int exec_mode(int argc, char** argv) {
  const std::string log = argv[2];
  std::vector<std::string> cmd(argv + 3, argv + argc);
  const Run r = run_child(cmd);
  std::string stage = "other";
  for (size_t k = 0; k + 1 < cmd.size(); ++k)
    if (cmd[k] == "tile") stage = cmd[k + 1];
  std::ofstream(log, std::ios::app) << r.max_rss_kb << " " << r.seconds << " " << stage << "\n";
  return r.status;
}

// A seeded terrain: a few octaves of smooth value noise, 8..48 m, as 16-bit Unity .raw (over a
// terrain height of 64 m).
void write_terrain(const std::string& path, uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> h(size_t(n) * n, 0.0);
  double amp = 1.0, total = 0;
  for (uint32_t cell = 256; cell >= 8; cell /= 2) {
    const uint32_t g = n / cell + 2;
    std::vector<double> lattice(size_t(g) * g);
    for (double& v : lattice) v = u(rng);
    for (uint32_t j = 0; j < n; ++j)
      for (uint32_t i = 0; i < n; ++i) {
        const double x = double(i) / cell, z = double(j) / cell;
        const uint32_t xi = uint32_t(x), zi = uint32_t(z);
        double fx = x - xi, fz = z - zi;
        fx = fx * fx * (3 - 2 * fx);
        fz = fz * fz * (3 - 2 * fz);
        auto at = [&](uint32_t a, uint32_t b) { return lattice[a + size_t(g) * b]; };
        const double v = (at(xi, zi) * (1 - fx) + at(xi + 1, zi) * fx) * (1 - fz) +
                         (at(xi, zi + 1) * (1 - fx) + at(xi + 1, zi + 1) * fx) * fz;
        h[i + size_t(n) * j] += amp * v;
      }
    total += amp;
    amp *= 0.5;
  }
  std::vector<uint8_t> bytes(size_t(n) * n * 2);
  for (size_t k = 0; k < h.size(); ++k) {
    const double metres = 8 + 40 * h[k] / total;
    const uint16_t q = uint16_t(std::lround(metres / 64.0 * 65535.0));
    bytes[2 * k] = uint8_t(q & 0xff);
    bytes[2 * k + 1] = uint8_t(q >> 8);
  }
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

struct Peaks {
  std::map<std::string, long> max_kb;
  std::map<std::string, int> count;
  std::map<std::string, double> seconds;
};

Peaks read_log(const std::string& path) {
  Peaks p;
  std::ifstream f(path);
  long kb;
  double s;
  std::string stage;
  while (f >> kb >> s >> stage) {
    p.max_kb[stage] = std::max(p.max_kb[stage], kb);
    p.count[stage]++;
    p.seconds[stage] += s;
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::strcmp(argv[1], "--exec") == 0) return exec_mode(argc, argv);
  uint32_t samples = 2048, tiles = 8;
  bool whole = true, keep = false;
  std::string dir = fs::temp_directory_path() / "voxkit_bench_world";
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a == "--samples" && k + 1 < argc) samples = uint32_t(std::stoul(argv[++k]));
    else if (a == "--tiles" && k + 1 < argc) tiles = uint32_t(std::stoul(argv[++k]));
    else if (a == "--dir" && k + 1 < argc) dir = argv[++k];
    else if (a == "--no-whole") whole = false;
    else if (a == "--keep") keep = true;
    else {
      std::fprintf(stderr, "usage: bench_world [--samples N] [--tiles T] [--dir DIR] [--no-whole]\n");
      return 2;
    }
  }
  const std::string vk = VOXKIT_BINARY;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string self = fs::canonical("/proc/self/exe").string();
  const double v = 0.5, extent = (samples - 1) * v;
  // The world: chunks of 16 cells inside the terrain (a metre of margin), `tiles` per side.
  const uint32_t chunks = uint32_t((extent - 2) / v) / 16;
  const uint32_t tile_chunks = (chunks + tiles - 1) / tiles;
  const double side = chunks * 16 * v;
  const std::string raw = dir + "/terrain.raw";
  write_terrain(raw, samples, 20261203);
  std::ostringstream toml;
  toml << "[world]\nname = \"bench\"\nmin = [1.0, 0.0, 1.0]\nmax = [" << 1.0 + side << ", 64.0, " << 1.0 + side
       << "]\nvoxel_size = 0.5\nchunk_cells = 16\ntile_chunks = " << tile_chunks
       << "\n\n[terrain]\nheight = \"terrain.raw\"\nterrain_size = [" << extent << ", 64.0, " << extent
       << "]\nraw_size = [" << samples << ", " << samples << "]\n\n[mesh]\nformat = \"glb\"\n";
  std::ofstream(dir + "/world.toml") << toml.str();
  const std::string log = dir + "/jobs.log", wrap = dir + "/voxkit.sh";
  std::ofstream(wrap) << "#!/bin/sh\nexec " << self << " --exec " << log << " " << vk << " \"$@\"\n";
  fs::permissions(wrap, fs::perms::owner_all);
  std::printf("bench_world: %ux%u samples (%.1f m), %u x %u chunks of 16 cells, 128 cells high, %u x %u tiles of %u chunks\n",
              samples, samples, extent, chunks, chunks, (chunks + tile_chunks - 1) / tile_chunks,
              (chunks + tile_chunks - 1) / tile_chunks, tile_chunks);
  const uint64_t tile_zone = uint64_t((tile_chunks + 2) * 16 + 1) * 129 * ((tile_chunks + 2) * 16 + 1);
  const uint64_t world_zone = uint64_t(chunks * 16 + 1) * 129 * (chunks * 16 + 1);
  std::printf("  samples: world %.3g, one tile zone (halo included) %.3g\n", double(world_zone), double(tile_zone));

  Run plan = run_child({vk, "-q", "plan", dir + "/world.toml", "--emit", "ninja", "-o", dir + "/plan", "--voxkit", wrap});
  if (plan.status) return 1;
  const Run tiled = run_child({"ninja", "-C", dir + "/plan", "-j", "2"});
  if (tiled.status) {
    std::fprintf(stderr, "bench_world: the ninja run failed\n");
    return 1;
  }
  const Peaks p = read_log(log);
  std::printf("  tiled (ninja -j 2): %.2f s wall; %d bake jobs (peak %.0f MB, %.2f s each), %d mesh jobs (peak %.0f MB, %.2f s each)\n",
              tiled.seconds, p.count.count("bake") ? p.count.at("bake") : 0, p.max_kb.count("bake") ? p.max_kb.at("bake") / 1024.0 : 0,
              p.count.count("bake") ? p.seconds.at("bake") / p.count.at("bake") : 0, p.count.count("mesh") ? p.count.at("mesh") : 0,
              p.max_kb.count("mesh") ? p.max_kb.at("mesh") / 1024.0 : 0,
              p.count.count("mesh") ? p.seconds.at("mesh") / p.count.at("mesh") : 0);
  if (whole) {
    std::ostringstream box, size, rs;
    box << 1.0 << ",0," << 1.0 << "," << 1.0 + side << ",64," << 1.0 + side;
    size << extent << ",64," << extent;
    rs << samples << "," << samples;
    const Run bake = run_child({vk, "-q", "-f", "bake", raw, "--terrain-size", size.str(), "--raw-size", rs.str(), "--box",
                                box.str(), "--voxel-size", "0.5", "-o", dir + "/whole.vxz"});
    const Run mesh = run_child({vk, "-q", "-f", "mesh", dir + "/whole.vxz", "-o", dir + "/whole.glb"});
    if (bake.status || mesh.status) {
      std::fprintf(stderr, "bench_world: the whole bake or mesh failed\n");
      return 1;
    }
    const double w = bake.seconds + mesh.seconds;
    std::printf("  whole (one bake + one mesh): %.2f s wall (bake %.2f s, peak %.0f MB; mesh %.2f s, peak %.0f MB)\n", w,
                bake.seconds, bake.max_rss_kb / 1024.0, mesh.seconds, mesh.max_rss_kb / 1024.0);
    std::printf("  tiled / whole: x%.2f wall (target 1.3); peak memory per job x%.3f of the whole run's\n", tiled.seconds / w,
                double(std::max(p.max_kb.count("bake") ? p.max_kb.at("bake") : 0, p.max_kb.count("mesh") ? p.max_kb.at("mesh") : 0)) /
                    double(std::max(bake.max_rss_kb, mesh.max_rss_kb)));
  }
  if (!keep) fs::remove_all(dir);
  return 0;
}
