// Lightmap UVs for voxkit's meshes (lib/mesh/mesh_ops.hpp add_lightmap_uv).
#include "lib/mesh/mesh_ops.hpp"

namespace voxkit {

lightmap::Stats add_lightmap_uv(Mesh& mesh, const lightmap::Options& opts) {
  mesh.uv1.clear();
  if (mesh.indices.empty()) return {};
  lightmap::Unwrap u = lightmap::unwrap(std::span<const std::array<float, 3>>(mesh.positions.data(), mesh.positions.size()),
                                        std::span<const uint32_t>(mesh.indices.data(), mesh.indices.size()), opts);
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
  mesh.indices.assign(u.indices.begin(), u.indices.end());
  mesh.uv1.assign(u.uv.begin(), u.uv.end());
  return u.stats;
}

}  // namespace voxkit
