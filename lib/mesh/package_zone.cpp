// Whole-zone meshing with the package's mesher, hole cut and lightmap UVs.
#include "lib/mesh/package_zone.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh.hpp"

namespace voxkit::package {

lightmap::Stats add_lightmap_uv(ChunkMesh& mesh, const lightmap::Options& opts) {
  mesh.uv1.clear();
  if (mesh.indices.empty()) return {};
  lightmap::Unwrap u = lightmap::unwrap(mesh.positions, mesh.indices, opts);
  const size_t n = mesh.positions.size(), m = u.source_vertex.size();
  auto extend = [&](auto& attr) {
    if (attr.empty()) return;
    attr.resize(m);
    for (size_t v = n; v < m; ++v) attr[v] = attr[u.source_vertex[v]];
  };
  extend(mesh.positions);
  extend(mesh.normals);
  extend(mesh.colors);
  extend(mesh.uv0);
  mesh.indices = std::move(u.indices);
  mesh.uv1 = std::move(u.uv);
  return u.stats;
}

std::vector<ZoneChunkMesh> build_zone(const ByteGrid& grid, const ZoneMeshOptions& opts,
                                      const std::vector<std::array<uint32_t, 3>>* only) {
  const uint32_t cc = opts.chunk.chunk_cells;
  const auto n = chunk_counts(grid.cells, cc);
  std::vector<ZoneChunkMesh> out;
  if (only) {
    for (const auto& c : *only) {
      if (c[0] >= n[0] || c[1] >= n[1] || c[2] >= n[2]) throw_usage("a chunk to mesh is outside the grid");
      out.push_back({c, {}, {}});
    }
  } else {
    out.reserve(size_t(n[0]) * n[1] * n[2]);
    for (uint32_t cz = 0; cz < n[2]; ++cz)
      for (uint32_t cy = 0; cy < n[1]; ++cy)
        for (uint32_t cx = 0; cx < n[0]; ++cx) out.push_back({{cx, cy, cz}, {}, {}});
  }
  tbb::parallel_for(size_t(0), out.size(), [&](size_t i) {
    ZoneChunkMesh& z = out[i];
    z.mesh = build_chunk(grid, z.chunk, opts.chunk);
    if (opts.hole) {
      const auto box = hole_clip_box(*opts.hole, opts.hole_margin, opts.origin, z.chunk, cc, opts.chunk.voxel_size,
                                     opts.chunk.mode);
      clip_xz(z.mesh, box[0], box[1], box[2], box[3], true, opts.chunk.mode);
    }
    if (opts.lightmap) z.lightmap = add_lightmap_uv(z.mesh, *opts.lightmap);
  });
  return out;
}

void LightmapTotals::add(const lightmap::Stats& s, uint64_t triangles) {
  if (meshes == 0 || s.texels_per_metre < texels_per_metre_min) texels_per_metre_min = s.texels_per_metre;
  texels_per_metre_max = std::max(texels_per_metre_max, s.texels_per_metre);
  ++meshes;
  charts += s.charts;
  vertices_in += s.vertices_in;
  vertices_out += s.vertices_out;
  area_distortion_max = std::max(area_distortion_max, s.area_distortion_max);
  coverage_sum_ += s.coverage * double(triangles);
  distortion_sum_ += s.area_distortion_mean * double(triangles);
  weight_ += double(triangles);
  coverage_mean = weight_ > 0 ? coverage_sum_ / weight_ : 0;
  area_distortion_mean = weight_ > 0 ? distortion_sum_ / weight_ : 0;
}

LightmapTotals lightmap_totals(const std::vector<ZoneChunkMesh>& chunks) {
  LightmapTotals t;
  for (const auto& c : chunks)
    if (!c.mesh.uv1.empty()) t.add(c.lightmap, c.mesh.indices.size() / 3);
  return t;
}

}  // namespace voxkit::package
