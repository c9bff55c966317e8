// The `voxkit mesh` pipeline: chunk meshes -> hole clip -> LODs / merge -> vertex order -> export.
#include "formats/mesh/mesh_job.hpp"

#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh_alloc.hpp"
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

bool uses_package_mesher(const MeshSource& src, const MeshJob& job) {
  return job.package.value_or(src.dig_zone && !job.merge);
}

bool makes_lightmap_uv(const MeshSource& src, const MeshJob& job) {
  if (job.lightmap && *job.lightmap && !format_has_uv1(job.format))
    throw_usage(std::string(mesh_format_name(job.format)) + " files hold one UV set: lightmap UVs need glTF or FBX",
                {{"format", "the output format"}});
  return job.lightmap.value_or(uses_package_mesher(src, job) && format_has_uv1(job.format));
}

namespace {

MeshJobResult run(const MeshSource& src, MeshSource* freeable, const MeshJob& job, const Progress& progress) {
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
  std::vector<std::array<double, 3>> local_origins;  // the package mesher's chunk frames
  r.package = uses_package_mesher(src, job);
  const bool lightmap = makes_lightmap_uv(src, job);
  lightmap::Options lo;
  lo.size = job.lightmap_size;
  package::LightmapTotals lm_totals;
  const bool framed = job.frame_origin || job.chunk_offset != std::array<int32_t, 3>{0, 0, 0};
  if (framed && !r.package) throw_usage("only the package's mesher places chunks in a larger grid");
  if (r.package) {
    if (job.merge) throw_usage("the package's mesher makes one mesh per chunk: it cannot merge them");
    const uint32_t cc = mo.chunk_cells;
    package::ZoneMeshOptions zo;
    zo.chunk.chunk_cells = cc;
    zo.chunk.voxel_size = float(src.voxel_size);
    zo.chunk.paint = src.paint.data.empty() ? nullptr : &src.paint;
    zo.chunk.mode = job.arithmetic;
    zo.origin = {float(src.origin[0]), float(src.origin[1]), float(src.origin[2])};
    if (job.clip_overlap) {
      const HoleRect h = job.hole ? *job.hole : *src.hole;
      zo.hole = std::array<float, 4>{float(h.min_x), float(h.min_z), float(h.max_x), float(h.max_z)};
      zo.hole_margin = float(*job.clip_overlap);
    }
    std::vector<std::array<uint32_t, 3>> only;
    if (job.only_chunks) {
      for (const auto& c : *job.only_chunks) {
        if (c[0] < 0 || c[1] < 0 || c[2] < 0) throw_usage("a chunk to mesh is outside the grid");
        only.push_back({uint32_t(c[0]), uint32_t(c[1]), uint32_t(c[2])});
      }
    }
    std::vector<package::ZoneChunkMesh> zone = package::build_zone(src.sdf, zo, job.only_chunks ? &only : nullptr);
    std::erase_if(zone, [](const package::ZoneChunkMesh& c) { return c.mesh.empty(); });
    r.mesh_seconds = since(t);
    t = Clock::now();
    if (lightmap) {
      parallel_each(zone.size(), [&](size_t i) { zone[i].lightmap = package::add_lightmap_uv(zone[i].mesh, lo); });
      for (const auto& c : zone) lm_totals.add(c.lightmap, c.mesh.indices.size() / 3);
    }
    r.lightmap_seconds = since(t);
    chunks.resize(zone.size());
    parallel_each(zone.size(), [&](size_t i) {
      package::ChunkMesh& pm = zone[i].mesh;
      ChunkMesh& out = chunks[i];
      out.chunk = {int32_t(zone[i].chunk[0]) + job.chunk_offset[0], int32_t(zone[i].chunk[1]) + job.chunk_offset[1],
                   int32_t(zone[i].chunk[2]) + job.chunk_offset[2]};
      Mesh& m = out.mesh;
      m.positions.assign(pm.positions.begin(), pm.positions.end());
      m.normals.assign(pm.normals.begin(), pm.normals.end());
      m.colors.assign(pm.colors.begin(), pm.colors.end());
      m.uv0.assign(pm.uv0.begin(), pm.uv0.end());
      m.uv1.assign(pm.uv1.begin(), pm.uv1.end());
      // voxkit's meshes wind counter-clockwise seen from the air; the package's clockwise.
      m.indices.resize(pm.indices.size());
      for (size_t k = 0; k < pm.indices.size(); k += 3) {
        m.indices[k] = pm.indices[k];
        m.indices[k + 1] = pm.indices[k + 2];
        m.indices[k + 2] = pm.indices[k + 1];
      }
      pm = {};  // one copy of the meshes at a time: the peak stays near grid + output
    });
    for (const auto& c : chunks)
      local_origins.push_back({double(c.chunk[0]) * cc, double(c.chunk[1]) * cc, double(c.chunk[2]) * cc});
    clip.reset();  // cut above, as the package cuts
  } else if (job.only_chunks) {
    chunks.resize(job.only_chunks->size());
    parallel_each(chunks.size(), [&](size_t i) {
      chunks[i].chunk = (*job.only_chunks)[i];
      chunks[i].mesh = mesh_chunk(src.sdf, chunks[i].chunk, mo);
    });
    std::erase_if(chunks, [](const ChunkMesh& c) { return c.mesh.empty(); });
  } else {
    chunks = mesh_chunks(src.sdf, mo, progress);
  }
  if (!r.package) r.mesh_seconds = since(t);
  if (freeable) {
    freeable->sdf = {}, freeable->paint = {};
    release_mesh_memory();  // the C library keeps a freed grid in its heap unless asked
  }
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
    // Each chunk's triangles ordered on its own, in parallel: the merge keeps triangles in
    // chunk order, so the merged mesh only needs its vertices in first-use order.
    parallel_each(chunks.size(), [&](size_t i) { optimize_vertex_order(chunks[i].mesh, job.vertex_cache); });
    std::vector<Mesh*> parts;
    for (auto& c : chunks) parts.push_back(&c.mesh);
    Mesh merged = merge_meshes_consuming(parts);  // the chunk meshes' memory given back as it goes
    chunks.clear();
    if (!merged.empty()) {
      names.push_back("zone");
      levels.emplace_back();  // not push_back({...}): an initializer list would copy the mesh
      levels.back().push_back(std::move(merged));
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
    for (size_t l = 1; l < nl; ++l) lv.push_back(simplify_mesh(lv[0], job.lods[l - 1], job.lod_error, job.vertex_cache));
    // The package's own order is kept.
    if (!r.package) optimize_vertex_order(lv[0], job.merge ? VertexCacheMethod::None : job.vertex_cache);
  });
  r.optimise_seconds = since(t);
  if (job.measure_acmr) {
    std::vector<double> misses(levels.size());  // ACMR x triangles, per object
    parallel_each(levels.size(), [&](size_t o) {
      misses[o] = vertex_cache_acmr(levels[o][0]) * double(levels[o][0].triangle_count());
    });
    double total = 0, triangles = 0;
    for (size_t o = 0; o < levels.size(); ++o) {
      total += misses[o];
      triangles += double(levels[o][0].triangle_count());
    }
    r.acmr = triangles > 0 ? total / triangles : 0;
  }
  const VertexCacheMethod m = job.vertex_cache;
  r.vertex_order = r.package ? "package" : m == VertexCacheMethod::Fifo ? "fifo" : m == VertexCacheMethod::Full ? "full" : "none";

  // Lightmap UVs for every level the package path did not give them to (grid units there:
  // the texel density is scaled to metres).
  t = Clock::now();
  if (lightmap) {
    std::vector<std::vector<lightmap::Stats>> stats(levels.size());
    parallel_each(levels.size(), [&](size_t o) {
      stats[o].resize(levels[o].size());
      for (size_t l = 0; l < levels[o].size(); ++l) {
        Mesh& m = levels[o][l];
        if (!m.uv1.empty() || m.empty()) continue;
        stats[o][l] = add_lightmap_uv(m, lo);
        if (!r.package) stats[o][l].texels_per_metre /= src.voxel_size;
      }
    });
    for (size_t o = 0; o < levels.size(); ++o)
      for (size_t l = 0; l < levels[o].size(); ++l)
        if (stats[o][l].vertices_out) lm_totals.add(stats[o][l], levels[o][l].triangle_count());
    r.lightmap = lm_totals;
  }
  r.lightmap_seconds += since(t);

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
    ExportObject obj{names[o], {}, std::nullopt};
    for (const auto& m : levels[o]) obj.lods.push_back(&m);
    if (r.package) obj.local_origin = local_origins[o];
    objects.push_back(std::move(obj));
  }
  MeshExportOptions eo;
  eo.format = job.format;
  eo.origin = job.frame_origin.value_or(src.origin);
  eo.voxel_size = src.voxel_size;
  eo.right_handed = job.right_handed;
  eo.ply_ascii = job.ply_ascii;
  eo.max_output_bytes = job.max_output_bytes;
  if (job.sink && job.bin_sink && job.format == MeshFormat::Gltf) {
    r.byte_count = export_gltf_separate(objects, eo, job.bin_uri, job.sink, job.bin_sink);
  } else if (job.sink) {
    r.byte_count = export_meshes_to(objects, eo, job.sink);
  } else {
    r.bytes = export_meshes(objects, eo);
    r.byte_count = r.bytes.size();
  }
  r.meshes = objects.size();
  r.export_seconds = since(t);
  return r;
}

}  // namespace

MeshJobResult run_mesh_job(const MeshSource& src, const MeshJob& job, const Progress& progress) {
  return run(src, nullptr, job, progress);
}

MeshJobResult run_mesh_job_freeing_grids(MeshSource& src, const MeshJob& job, const Progress& progress) {
  return run(src, &src, job, progress);
}

}  // namespace voxkit
