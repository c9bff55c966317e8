// Merging with welded borders, and meshoptimizer passes (A. Kapoulkine, meshoptimizer: vertex
// cache optimisation after T. Forsyth's "Linear-speed vertex cache optimisation", 2006;
// simplification after M. Garland, P. Heckbert, "Surface simplification using quadric error
// metrics", 1997).
#include "lib/mesh/mesh_ops.hpp"

#include <meshoptimizer.h>

#include <bit>
#include <cstring>
#include <string>
#include <unordered_map>

#include "lib/core/error.hpp"

namespace voxkit {
namespace {

struct PosKey {
  uint32_t x, y, z;
  bool operator==(const PosKey&) const = default;
};
struct PosHash {
  size_t operator()(const PosKey& k) const {
    uint64_t h = uint64_t(k.x) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(k.y) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= uint64_t(k.z) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return size_t(h ^ (h >> 32));
  }
};

uint32_t key_bits(float f) { return std::bit_cast<uint32_t>(f == 0.0f ? 0.0f : f); }

template <class T>
void remap_stream(MeshArray<T>& v, const std::vector<uint32_t>& remap, size_t unique) {
  if (v.empty()) return;
  MeshArray<T> out(unique);
  meshopt_remapVertexBuffer(out.data(), v.data(), v.size(), sizeof(T), remap.data());
  v.swap(out);
}

// Applies a meshopt remap table (old -> new vertex, ~0 = dropped) to every stream.
void apply_remap(Mesh& m, const std::vector<uint32_t>& remap, size_t unique) {
  meshopt_remapIndexBuffer(m.indices.data(), m.indices.data(), m.indices.size(), remap.data());
  remap_stream(m.positions, remap, unique);
  remap_stream(m.normals, remap, unique);
  remap_stream(m.colors, remap, unique);
  remap_stream(m.uv0, remap, unique);
}

}  // namespace

void check_mesh(const Mesh& m, const char* what) {
  size_t n = m.positions.size();
  auto bad = [&](const char* name, size_t got) {
    throw_usage(std::string(what) + ": " + name + " has " + std::to_string(got) +
                " entries for " + std::to_string(n) + " vertices");
  };
  if (!m.normals.empty() && m.normals.size() != n) bad("normals", m.normals.size());
  if (!m.colors.empty() && m.colors.size() != n) bad("colors", m.colors.size());
  if (!m.uv0.empty() && m.uv0.size() != n) bad("uv0", m.uv0.size());
  if (m.indices.size() % 3 != 0)
    throw_usage(std::string(what) + ": index count " + std::to_string(m.indices.size()) +
                " is not a multiple of 3");
  for (uint32_t i : m.indices)
    if (i >= n)
      throw_usage(std::string(what) + ": index " + std::to_string(i) + " out of range (" +
                  std::to_string(n) + " vertices)");
}

Mesh merge_meshes(std::span<const Mesh* const> meshes) {
  Mesh out;
  if (meshes.empty()) return out;
  const Mesh& first = *meshes[0];
  bool has_n = !first.normals.empty(), has_c = !first.colors.empty(), has_uv = !first.uv0.empty();
  size_t total_v = 0, total_i = 0;
  for (const Mesh* m : meshes) {
    check_mesh(*m, "merge");
    if (!m->positions.empty() && ((!m->normals.empty()) != has_n || (!m->colors.empty()) != has_c ||
                                  (!m->uv0.empty()) != has_uv))
      throw_usage("merge: meshes carry different vertex attributes");
    total_v += m->positions.size();
    total_i += m->indices.size();
  }
  std::unordered_map<PosKey, uint32_t, PosHash> seen;
  seen.reserve(total_v);
  out.indices.reserve(total_i);
  std::vector<uint32_t> local;
  for (const Mesh* m : meshes) {
    local.resize(m->positions.size());
    for (size_t v = 0; v < m->positions.size(); ++v) {
      const auto& p = m->positions[v];
      PosKey k{key_bits(p[0]), key_bits(p[1]), key_bits(p[2])};
      auto [it, fresh] = seen.emplace(k, uint32_t(out.positions.size()));
      local[v] = it->second;
      if (!fresh) continue;
      out.positions.push_back(p);
      if (has_n) out.normals.push_back(m->normals[v]);
      if (has_c) out.colors.push_back(m->colors[v]);
      if (has_uv) out.uv0.push_back(m->uv0[v]);
    }
    for (uint32_t i : m->indices) out.indices.push_back(local[i]);
  }
  return out;
}

void optimize_vertex_order(Mesh& m) {
  if (m.indices.empty()) {
    m = Mesh{};
    return;
  }
  size_t n = m.positions.size();
  meshopt_optimizeVertexCache(m.indices.data(), m.indices.data(), m.indices.size(), n);
  std::vector<uint32_t> remap(n);
  size_t unique =
      meshopt_optimizeVertexFetchRemap(remap.data(), m.indices.data(), m.indices.size(), n);
  apply_remap(m, remap, unique);
}

Mesh simplify_mesh(const Mesh& mesh, double ratio, double max_error) {
  if (!(ratio > 0 && ratio <= 1)) throw_usage("LOD ratio must be in (0, 1], found " + std::to_string(ratio));
  Mesh m = mesh;
  if (m.indices.empty() || ratio == 1) {
    optimize_vertex_order(m);
    return m;
  }
  size_t target = size_t(double(m.indices.size() / 3) * ratio) * 3;
  MeshArray<uint32_t> out(m.indices.size());
  size_t count = meshopt_simplify(out.data(), m.indices.data(), m.indices.size(),
                                  &m.positions[0][0], m.positions.size(), sizeof(float) * 3,
                                  target, float(max_error), meshopt_SimplifyLockBorder, nullptr);
  out.resize(count);
  m.indices.swap(out);
  optimize_vertex_order(m);
  return m;
}

int meshoptimizer_version() { return MESHOPTIMIZER_VERSION; }

}  // namespace voxkit
