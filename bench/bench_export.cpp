// Benchmark: export time apart from meshing time. Meshes a seeded 256x128x256 terrain SDF per
// chunk (Surface Nets), optimises the vertex order, then exports the chunk meshes as glb
// (and the other formats, and as one merged mesh); prints MB/s of output and triangles/s for each stage.
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "formats/mesh/mesh_export.hpp"
#include "lib/mesh/mesh.hpp"
#include "lib/mesh/mesh_ops.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;

namespace {

// Rolling hills with a few octaves, seeded: the SDF byte of the vertical distance.
ByteGrid terrain(Dims cells, uint32_t seed) {
  ByteGrid g(cells, 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ph(0.f, 6.28f);
  float a = ph(rng), b = ph(rng), c = ph(rng);
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t x = 0; x < g.cells.sx(); ++x) {
      float fx = float(x), fz = float(z);
      float h = float(cells.ny) * (0.5f + 0.18f * std::sin(fx * 0.031f + a) * std::cos(fz * 0.023f + b) +
                                   0.05f * std::sin(fx * 0.17f + fz * 0.11f + c));
      for (uint64_t y = 0; y < g.cells.sy(); ++y) g.at(x, y, z) = quantize_sdf(float(y) - h);
    }
  return g;
}

// Best of `rounds` runs of `f`, in seconds.
double best_of(int rounds, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    auto t = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 0;
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, size_t(threads));
  const Dims cells{256, 128, 256};
  ByteGrid g = terrain(cells, 42);
  MeshOptions mo;
  std::vector<ChunkMesh> chunks;
  double mesh_s = best_of(3, [&] { chunks = mesh_chunks(g, mo); });
  uint64_t tris = 0, verts = 0;
  for (const auto& c : chunks) {
    tris += c.mesh.triangle_count();
    verts += c.mesh.vertex_count();
  }
  std::vector<ChunkMesh> opt;
  double opt_s = best_of(3, [&] {
    opt = chunks;
    for (auto& c : opt) optimize_vertex_order(c.mesh);
  });
  std::vector<ExportObject> objs;
  for (const auto& c : opt) objs.push_back({chunk_node_name(c.chunk), {&c.mesh}});

  std::printf("bench_export: %ux%ux%u cells, %zu chunk meshes, %llu vertices, %llu triangles, %s threads\n",
              cells.nx, cells.ny, cells.nz, chunks.size(), (unsigned long long)verts,
              (unsigned long long)tris, threads > 0 ? std::to_string(threads).c_str() : "all");
  std::printf("  %-22s %8.1f ms  %8.2f Mtri/s\n", "mesh (surface nets)", mesh_s * 1e3, double(tris) / mesh_s / 1e6);
  std::printf("  %-22s %8.1f ms  %8.2f Mtri/s  (one thread)\n", "vertex order (meshopt)", opt_s * 1e3,
              double(tris) / opt_s / 1e6);
  for (MeshFormat f : {MeshFormat::Glb, MeshFormat::Gltf, MeshFormat::Obj, MeshFormat::Ply,
                       MeshFormat::Stl, MeshFormat::Fbx}) {
    MeshExportOptions eo;
    eo.format = f;
    eo.voxel_size = 0.5;
    std::vector<uint8_t> bytes;
    double s = best_of(f == MeshFormat::Glb ? 3 : 1, [&] { bytes = export_meshes(objs, eo); });
    std::printf("  export %-15s %8.1f ms  %8.2f Mtri/s  %8.1f MB/s  (%.1f MB)\n",
                std::string(mesh_format_name(f)).c_str(), s * 1e3, double(tris) / s / 1e6,
                double(bytes.size()) / s / 1e6, double(bytes.size()) / 1e6);
  }
  // One merged mesh: a handful of accessors instead of five per chunk.
  std::vector<const Mesh*> parts;
  for (const auto& c : opt) parts.push_back(&c.mesh);
  Mesh merged;
  double merge_s = best_of(1, [&] { merged = merge_meshes(parts); optimize_vertex_order(merged); });
  std::vector<ExportObject> one = {{"zone", {&merged}}};
  MeshExportOptions eo;
  eo.voxel_size = 0.5;
  std::vector<uint8_t> bytes;
  double s = best_of(3, [&] { bytes = export_meshes(one, eo); });
  std::printf("  %-22s %8.1f ms  (%llu vertices)\n", "merge + vertex order", merge_s * 1e3,
              (unsigned long long)merged.vertex_count());
  std::printf("  export %-15s %8.1f ms  %8.2f Mtri/s  %8.1f MB/s  (%.1f MB)\n", "glb (merged)", s * 1e3,
              double(tris) / s / 1e6, double(bytes.size()) / s / 1e6, double(bytes.size()) / 1e6);
  return 0;
}
