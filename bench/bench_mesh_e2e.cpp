// Benchmark: `voxkit mesh` end to end, as a user times it. Runs the built binary as a child
// process on the demo zone (baked by the binary if out/demo/jacksboro.vxz is missing) and on a
// seeded 1024x128x1024 terrain, to glb, gltf, obj, ply and stl on one and two threads; prints
// each stage (from --json), the wall time and peak RSS of the child, and beside them the
// mesh stage alone and one plain write() (+ fsync, as the atomic output does) of the same
// bytes to the same disk. FBX (through Assimp) is reported apart, and `assimp export` of the
// same mesh from OBJ to glb where the assimp command is installed. Last, in process: the
// vertex-cache passes per chunk, full against FIFO, their ACMR and time.
//
// The memory bound of a run is the peak RSS of the process alone (meshing 16^3 cells: its
// code, libraries and threads) plus the grid plus twice the file; the last lines say, per
// input, whether glb on two threads is within 3x its floor and its bound.
//
// Usage: bench_mesh_e2e [--quick] [--dir DIR] [--voxkit PATH] [--demo ZONE]
//   --quick: a 512x128x512 terrain instead of 1024x128x1024 (and no demo bake).
// Its files (the terrain's raw grid, the baked demo zone, outputs) stay in DIR, by default
// build/release/bench_mesh_e2e. An assimp export is stopped after a minute.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/terrain.hpp"
#include "formats/mesh/mesh_input.hpp"
#include "lib/mesh/mesh.hpp"
#include "lib/mesh/mesh_ops.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

constexpr unsigned kPeerLimit = 60;  // seconds an assimp export may take

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Child {
  int status = -1;
  double wall = 0;
  double max_rss_mb = 0;
  std::string out;  // stdout
};

// Runs argv with stdout to a file (read back) and stderr to /dev/null; wall time and the
// child's peak RSS from wait4. With a time limit, the child is killed after that many seconds.
Child run(const std::vector<std::string>& argv, const fs::path& dir, unsigned limit_seconds = 0) {
  const fs::path out_path = dir / "child.out";
  Child c;
  const auto t = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) return c;
  if (pid == 0) {
    const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (fd >= 0) ::dup2(fd, 1);
    if (null >= 0) ::dup2(null, 2);
    if (limit_seconds) ::alarm(limit_seconds);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  struct rusage ru {};
  ::wait4(pid, &c.status, 0, &ru);
  c.wall = since(t);
  c.max_rss_mb = double(ru.ru_maxrss) / 1024.0;
  std::ifstream in(out_path);
  std::stringstream ss;
  ss << in.rdbuf();
  c.out = ss.str();
  return c;
}

// Runs f in a forked child and waits for it.
template <class F>
void in_child(F&& f) {
  const pid_t pid = fork();
  if (pid == 0) {
    f();
    std::fflush(nullptr);
    _exit(0);
  }
  if (pid > 0) ::waitpid(pid, nullptr, 0);
}

bool ok(const Child& c) { return WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0; }

// The number after "key": in the child's --json text (0 when absent).
double json_number(const std::string& text, const std::string& key, size_t from = 0) {
  const size_t at = text.find("\"" + key + "\":", from);
  if (at == std::string::npos) return 0;
  return std::atof(text.c_str() + at + key.size() + 3);
}

// One write() of `bytes` to a new file in `dir`, then fsync and close: seconds.
double plain_write(const fs::path& dir, uint64_t bytes) {
  std::vector<char> buf(bytes, 'x');
  const fs::path p = dir / "plain.bin";
  const auto t = Clock::now();
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < buf.size()) {
    const ssize_t n = ::write(fd, buf.data() + done, buf.size() - done);
    if (n <= 0) break;
    done += size_t(n);
  }
  ::fsync(fd);
  ::close(fd);
  const double s = since(t);
  fs::remove(p);
  return s;
}

std::string find_program(const char* name) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string d;
  while (std::getline(ss, d, ':'))
    if (!d.empty() && ::access((fs::path(d) / name).c_str(), X_OK) == 0) return (fs::path(d) / name).string();
  return "";
}

// --- In process: the vertex-cache passes over every chunk mesh of a grid.

struct CacheFigures {
  double acmr = 0, seconds = 0;
};

// Triangle-weighted ACMR over the chunks, and the time of `method` over them on all threads.
CacheFigures cache_pass(const std::vector<ChunkMesh>& chunks, VertexCacheMethod method) {
  std::vector<Mesh> meshes(chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) meshes[i] = chunks[i].mesh;
  const auto t = Clock::now();
  tbb::parallel_for(size_t(0), meshes.size(), [&](size_t i) { optimize_vertex_order(meshes[i], method); });
  CacheFigures f;
  f.seconds = since(t);
  double misses = 0, tris = 0;
  for (const auto& m : meshes) {
    misses += vertex_cache_acmr(m) * double(m.triangle_count());
    tris += double(m.triangle_count());
  }
  f.acmr = tris > 0 ? misses / tris : 0;
  return f;
}

void cache_report(const char* what, const ByteGrid& sdf, uint32_t chunk_cells) {
  MeshOptions mo;
  mo.chunk_cells = chunk_cells;
  const std::vector<ChunkMesh> chunks = mesh_chunks(sdf, mo);
  uint64_t tris = 0;
  for (const auto& c : chunks) tris += c.mesh.triangle_count();
  const CacheFigures none = cache_pass(chunks, VertexCacheMethod::None);
  const CacheFigures fifo = cache_pass(chunks, VertexCacheMethod::Fifo);
  const CacheFigures full = cache_pass(chunks, VertexCacheMethod::Full);
  std::printf("  %s: %zu chunk meshes, %llu triangles\n", what, chunks.size(), (unsigned long long)tris);
  std::printf("    vertex cache (%u entries) ACMR: as meshed %.3f, FIFO %.3f (%.1f ms), full %.3f (%.1f ms): "
              "FIFO %+.1f%% misses for %.1fx less time\n",
              kVertexCacheSize, none.acmr, fifo.acmr, fifo.seconds * 1e3, full.acmr, full.seconds * 1e3,
              100.0 * (fifo.acmr / full.acmr - 1), full.seconds / std::max(fifo.seconds, 1e-9));
  // --merge: the old order (merge, then the full pass over the one mesh) against the new
  // (each chunk by FIFO in parallel, merge, vertices in first-use order).
  std::vector<const Mesh*> parts;
  for (const auto& c : chunks) parts.push_back(&c.mesh);
  auto t = Clock::now();
  Mesh whole = merge_meshes(parts);
  optimize_vertex_order(whole, VertexCacheMethod::Full);
  const double old_s = since(t);
  std::vector<Mesh> each(chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) each[i] = chunks[i].mesh;
  t = Clock::now();
  tbb::parallel_for(size_t(0), each.size(), [&](size_t i) { optimize_vertex_order(each[i], VertexCacheMethod::Fifo); });
  std::vector<const Mesh*> ordered;
  for (const auto& m : each) ordered.push_back(&m);
  Mesh merged = merge_meshes(ordered);
  optimize_vertex_order(merged, VertexCacheMethod::None);
  const double new_s = since(t);
  std::printf("    merged: merge + full pass %.1f ms (ACMR %.3f); FIFO per chunk + merge %.1f ms (ACMR %.3f)\n",
              old_s * 1e3, vertex_cache_acmr(whole), new_s * 1e3, vertex_cache_acmr(merged));
}

double base_rss_mb = 0;             // the process alone (main)
std::vector<std::string> targets;  // one line per input: glb on 2 threads against the targets

struct Input {
  std::string name;
  std::vector<std::string> args;  // the input path and its options
  uint64_t grid_bytes = 0;        // SDF (and paint) samples held in memory
};

void e2e(const std::string& voxkit, const Input& in, const fs::path& dir) {
  std::printf("  %s (grid %.1f MB)\n", in.name.c_str(), double(in.grid_bytes) / 1e6);
  std::printf("    %-4s %2s  %6s %6s %6s %6s %6s %6s %6s  %7s %8s  %7s %7s  %7s %7s\n", "fmt", "-j", "read",
              "mesh", "clip", "optim", "lmap", "export", "write", "wall s", "MB", "plain s", "x floor", "RSS MB",
              "bound");
  for (const char* fmt : {"glb", "gltf", "obj", "ply", "stl", "fbx"}) {
    for (int j : {1, 2}) {
      if (std::string(fmt) == "fbx" && j == 1) continue;  // reported apart, once
      const fs::path out = dir / (std::string("out.") + fmt);
      std::vector<std::string> argv = {voxkit, "-j", std::to_string(j), "-f", "mesh"};
      argv.insert(argv.end(), in.args.begin(), in.args.end());
      argv.insert(argv.end(), {"-o", out.string(), "--json"});
      const Child c = run(argv, dir);
      if (!ok(c)) {
        std::printf("    %-4s %2d  failed (status %d)\n", fmt, j, c.status);
        continue;
      }
      const size_t s = c.out.find("\"seconds\"");
      const double mesh = json_number(c.out, "mesh", s);
      // A .gltf's buffer is a file of its own beside it: both are the output.
      fs::path bin = out;
      bin.replace_extension(".bin");
      const uint64_t bytes = fs::file_size(out) + (std::string(fmt) == "gltf" && fs::exists(bin) ? fs::file_size(bin) : 0);
      const double plain = plain_write(dir, bytes);
      const double floor = mesh + plain;
      const double bound_mb = base_rss_mb + (double(in.grid_bytes) + 2.0 * double(bytes)) / 1048576.0;
      std::printf("    %-4s %2d  %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f  %7.3f %8.2f  %7.3f %7.2f  %7.1f %7.1f\n",
                  fmt, j, json_number(c.out, "read", s), mesh, json_number(c.out, "clip", s),
                  json_number(c.out, "optimise", s), json_number(c.out, "lightmap", s),
                  json_number(c.out, "export", s), json_number(c.out, "write", s), c.wall, double(bytes) / 1e6, plain,
                  c.wall / floor, c.max_rss_mb, bound_mb);
      if (std::string(fmt) == "glb" && j == 2) {
        const bool met = c.wall / floor <= 3 && c.max_rss_mb <= bound_mb;
        targets.push_back(in.name + ": x" + std::to_string(c.wall / floor).substr(0, 4) + " floor, RSS " +
                          std::to_string(int(c.max_rss_mb + 0.5)) + " of " + std::to_string(int(bound_mb + 0.5)) +
                          " MB: " + (met ? "met" : "NOT met"));
      }
    }
  }
  const std::string assimp = find_program("assimp");
  if (assimp.empty()) {
    std::printf("    assimp export OBJ -> glb: the assimp command is not installed (assimp-utils)\n");
  } else {
    // The OBJ of the last run of this input, exported to glb by Assimp's command.
    const fs::path obj = dir / "peer.obj";
    std::vector<std::string> argv = {voxkit, "-f", "mesh"};
    argv.insert(argv.end(), in.args.begin(), in.args.end());
    argv.insert(argv.end(), {"-o", obj.string()});
    if (ok(run(argv, dir))) {
      const Child c = run({assimp, "export", obj.string(), (dir / "peer.glb").string()}, dir, kPeerLimit);
      if (WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGALRM)
        std::printf("    assimp export OBJ -> glb: stopped after %u s, peak RSS %.1f MB by then\n", kPeerLimit,
                    c.max_rss_mb);
      else
        std::printf("    assimp export OBJ -> glb: %.3f s, peak RSS %.1f MB%s\n", c.wall, c.max_rss_mb,
                    ok(c) ? "" : " (failed)");
    }
  }
  std::printf("    vdb_tool -ls2mesh: %s\n", find_program("vdb_tool").empty() ? "not installed" : "installed, not run");
}

}  // namespace

int main(int argc, char** argv) {
  std::string voxkit = VOXKIT_BINARY, demo = std::string(VOXKIT_SOURCE_DIR) + "/out/demo/jacksboro.vxz";
  fs::path dir;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--voxkit" && i + 1 < argc) voxkit = argv[++i];
    else if (a == "--demo" && i + 1 < argc) demo = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_mesh_e2e [--quick] [--dir DIR] [--voxkit PATH] [--demo ZONE]\n");
      return 2;
    }
  }
  if (dir.empty()) dir = fs::path(VOXKIT_BINARY_DIR) / "bench_mesh_e2e";
  fs::create_directories(dir);

  if (!fs::exists(demo) && !quick) {
    // scripts/demo.sh's bake.
    demo = (dir / "jacksboro.vxz").string();
    if (!fs::exists(demo)) {
      const std::string src = VOXKIT_SOURCE_DIR;
      run({voxkit, "-f", "bake", src + "/test_data/dem/jacksboro_crop.tif", "-o", demo, "--center", "7000,600,8000",
           "--size", "12000,100,14000", "--voxel-size", "25", "--splat", src + "/test_data/dem/jacksboro_splat.png",
           "--layers", "grass,rock,sand,snow"},
          dir);
    }
  }
  // The children's peak RSS counts the pages they share with this process until they exec:
  // everything large (the terrain, the zone, the in-process passes) is made in a forked child
  // or after the end-to-end runs, so this process stays small while they run.
  const Dims cells = quick ? Dims{512, 128, 512} : Dims{1024, 128, 1024};
  const uint64_t terrain_bytes = uint64_t(cells.nx + 1) * (cells.ny + 1) * (cells.nz + 1);
  const fs::path raw = dir / ("terrain" + std::to_string(cells.nx) + ".raw");
  if (!fs::exists(raw) || fs::file_size(raw) != terrain_bytes)
    in_child([&] {
      const ByteGrid terrain = bench::make_grid(cells, 42);
      std::ofstream f(raw, std::ios::binary);
      f.write(reinterpret_cast<const char*>(terrain.data.data()), std::streamsize(terrain.data.size()));
    });
  uint64_t demo_bytes = 0;
  if (fs::exists(demo)) {
    const fs::path count = dir / "demo_grid_bytes";
    in_child([&] {
      const MeshSource src = read_mesh_input(demo, MeshInputOptions{});
      std::ofstream(count) << src.sdf.data.size() + src.paint.data.size();
    });
    std::ifstream(count) >> demo_bytes;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // The process alone: its code, libraries and threads, meshing a grid of 16^3 cells.
  const fs::path tiny = dir / "tiny16.raw";
  in_child([&] {
    const ByteGrid g = bench::make_grid(Dims{16, 16, 16}, 7);
    std::ofstream f(tiny, std::ios::binary);
    f.write(reinterpret_cast<const char*>(g.data.data()), std::streamsize(g.data.size()));
  });
  const Child base = run({voxkit, "-f", "mesh", tiny.string(), "--cells", "16,16,16", "-o", (dir / "tiny.glb").string()}, dir);
  base_rss_mb = base.max_rss_mb;
  std::printf("bench_mesh_e2e: %s (the process alone, meshing 16^3 cells: peak RSS %.1f MB)\n", voxkit.c_str(),
              base.max_rss_mb);

  std::vector<Input> inputs;
  if (demo_bytes) {
    inputs.push_back({"demo zone " + fs::path(demo).filename().string() + " (package mesher, lightmap UVs)",
                      {demo},
                      demo_bytes});
    inputs.push_back({"demo zone, --merge (Surface Nets, as scripts/demo.sh)", {demo, "--merge"}, demo_bytes});
  }
  const std::string size = std::to_string(cells.nx) + "x" + std::to_string(cells.ny) + "x" + std::to_string(cells.nz);
  inputs.push_back({"terrain " + size + " (raw SDF, Surface Nets)",
                    {raw.string(), "--cells", std::to_string(cells.nx) + "," + std::to_string(cells.ny) + "," +
                                                  std::to_string(cells.nz)},
                    terrain_bytes});
  std::printf(
      "voxkit mesh end to end (seconds; x floor = wall / (mesh + plain write); bound = the process alone + grid + 2 x "
      "file)\n");
  for (const auto& in : inputs) e2e(voxkit, in, dir);
  std::printf("targets (glb, 2 threads: within 3x the floor, peak RSS within the bound)\n");
  for (const auto& t : targets) std::printf("  %s\n", t.c_str());

  std::printf("vertex cache passes, in process, all threads\n");
  if (demo_bytes) {
    const MeshSource src = read_mesh_input(demo, MeshInputOptions{});
    cache_report("demo zone (Surface Nets)", src.sdf, src.chunk_cells);
  }
  cache_report(("terrain " + size).c_str(), bench::make_grid(cells, 42), 16);
  return 0;
}
