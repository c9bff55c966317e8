// The `voxkit mesh` pipeline: chunk meshes -> hole clip -> LODs / merge -> vertex order -> export.
#include "formats/mesh/mesh_job.hpp"

#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh_clip.hpp"
#include "lib/mesh/mesh_ops.hpp"

namespace voxkit {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

template <class F>
void parallel_each(size_t n, F&& f) {
  tbb::parallel_for(size_t(0), n, [&](size_t i) { f(i); });
}

}  // namespace

MeshJobResult run_mesh_job(const MeshSource& src, const MeshJob& job, const Progress& progress) {
  MeshJobResult r;
  MeshOptions mo;
  mo.mesher = job.mesher;
  mo.chunk_cells = job.chunk_cells.value_or(src.chunk_cells);
  if (!src.paint.data.empty()) mo.paint = PaintInput{&src.paint, src.layer_count};

  std::optional<ClipRect> clip;
  if (job.clip_overlap) {
    std::optional<HoleRect> hole = job.hole ? job.hole : src.hole;
    if (!hole || !(hole->min_x < hole->max_x && hole->min_z < hole->max_z))
      throw_usage("clipping to the hole: the input has no terrain hole (give one with a hole rectangle)",
                  {{"clip-hole", "clipping to the hole"}, {"hole", "a hole rectangle"}});
    if (!(*job.clip_overlap >= 0)) {
      throw_usage("clipping to the hole: the overlap must be 0 or more metres",
                  {{"clip-hole", "clipping to the hole"}});
    }
    // World metres -> grid units of the meshes (before any handedness conversion).
    const double o = *job.clip_overlap, v = src.voxel_size;
    clip = ClipRect{(hole->min_x - o - src.origin[0]) / v, (hole->min_z - o - src.origin[2]) / v,
                    (hole->max_x + o - src.origin[0]) / v, (hole->max_z + o - src.origin[2]) / v};
  }

  auto t = Clock::now();
  std::vector<ChunkMesh> chunks;
  if (job.only_chunks) {
    chunks.resize(job.only_chunks->size());
    parallel_each(chunks.size(), [&](size_t i) {
      chunks[i].chunk = (*job.only_chunks)[i];
      chunks[i].mesh = mesh_chunk(src.sdf, chunks[i].chunk, mo);
    });
    std::erase_if(chunks, [](const ChunkMesh& c) { return c.mesh.empty(); });
  } else {
    chunks = mesh_chunks(src.sdf, mo, progress);
  }
  r.mesh_seconds = since(t);
  r.chunks_meshed = chunks.size();

  t = Clock::now();
  if (clip) {
    parallel_each(chunks.size(), [&](size_t i) { chunks[i].mesh = clip_mesh(chunks[i].mesh, *clip); });
    std::erase_if(chunks, [](const ChunkMesh& c) { return c.mesh.empty(); });
  }
  r.clip_seconds = since(t);
  r.chunks_exported = chunks.size();

  t = Clock::now();
  // levels[o][l]: level l of object o (level 0 = the full mesh).
  std::vector<std::string> names;
  std::vector<std::vector<Mesh>> levels;
  if (job.merge) {
    std::vector<const Mesh*> parts;
    for (const auto& c : chunks) parts.push_back(&c.mesh);
    Mesh merged = merge_meshes(parts);
    chunks.clear();
    if (!merged.empty()) {
      names.push_back("zone");
      levels.push_back({std::move(merged)});
    }
  } else {
    for (auto& c : chunks) {
      names.push_back(chunk_node_name(c.chunk));
      levels.push_back({});
      levels.back().push_back(std::move(c.mesh));
    }
    chunks.clear();
  }
  const size_t nl = 1 + job.lods.size();
  parallel_each(levels.size(), [&](size_t o) {
    auto& lv = levels[o];
    for (size_t l = 1; l < nl; ++l) lv.push_back(simplify_mesh(lv[0], job.lods[l - 1], job.lod_error));
    optimize_vertex_order(lv[0]);
  });
  r.optimise_seconds = since(t);

  r.lods.resize(nl);
  for (size_t l = 0; l < nl; ++l) r.lods[l].ratio = l == 0 ? 1.0 : job.lods[l - 1];
  for (const auto& lv : levels)
    for (size_t l = 0; l < nl; ++l) {
      r.lods[l].vertices += lv[l].vertex_count();
      r.lods[l].triangles += lv[l].triangle_count();
    }

  t = Clock::now();
  std::vector<ExportObject> objects;
  for (size_t o = 0; o < levels.size(); ++o) {
    ExportObject obj{names[o], {}};
    for (const auto& m : levels[o]) obj.lods.push_back(&m);
    objects.push_back(std::move(obj));
  }
  MeshExportOptions eo;
  eo.format = job.format;
  eo.origin = src.origin;
  eo.voxel_size = src.voxel_size;
  eo.right_handed = job.right_handed;
  eo.max_output_bytes = job.max_output_bytes;
  r.bytes = export_meshes(objects, eo);
  r.meshes = objects.size();
  r.export_seconds = since(t);
  return r;
}

}  // namespace voxkit
