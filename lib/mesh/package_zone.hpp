// A whole dig zone meshed as the package's baker does it: every chunk (or a given list) with
// the package's mesher, each cut to the terrain hole grown by the material's hole margin, and
// a lightmap UV set per chunk mesh (the baker asks Unity for one; lib/mesh/lightmap_uv.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/mesh/lightmap_uv.hpp"
#include "lib/mesh/package_mesher.hpp"

namespace voxkit::package {

struct ZoneMeshOptions {
  Options chunk;                                  // chunk cells, voxel size, paint, arithmetic
  std::array<float, 3> origin{0, 0, 0};           // world position of sample 0
  std::optional<std::array<float, 4>> hole;       // cut to this hole (world min x, min z, max x, max z)
  float hole_margin = 0.1f;                       // ... grown by this many metres (0.6.1's default)
  std::optional<lightmap::Options> lightmap;      // make ChunkMesh::uv1
};

struct ZoneChunkMesh {
  std::array<uint32_t, 3> chunk{0, 0, 0};
  ChunkMesh mesh;  // empty when the chunk has no surface (or the cut took it all)
  lightmap::Stats lightmap;
};

// The chunks in the package's ChunkIndex order (x fastest, then y, then z), or `only` in the
// order given (each must lie inside the grid). Parallel over chunks; the result does not
// depend on the thread count.
std::vector<ZoneChunkMesh> build_zone(const ByteGrid& grid, const ZoneMeshOptions& opts,
                                      const std::vector<std::array<uint32_t, 3>>* only = nullptr);

// Adds uv1 to a chunk mesh: vertices split along chart borders are appended after the
// mesh's own (their attributes copied), so the package's vertex order is kept for the rest.
lightmap::Stats add_lightmap_uv(ChunkMesh& mesh, const lightmap::Options& opts);

// Totals over meshes: charts, vertices in and out, the range of texel densities, the largest
// area distortion, and coverage and distortion means weighted by triangles.
struct LightmapTotals {
  uint64_t meshes = 0, charts = 0, vertices_in = 0, vertices_out = 0;
  double texels_per_metre_min = 0, texels_per_metre_max = 0;
  double coverage_mean = 0, area_distortion_max = 0, area_distortion_mean = 0;
  void add(const lightmap::Stats& s, uint64_t triangles);

 private:
  double coverage_sum_ = 0, distortion_sum_ = 0, weight_ = 0;
};
LightmapTotals lightmap_totals(const std::vector<ZoneChunkMesh>& chunks);

}  // namespace voxkit::package
