// Merging with welded borders, and meshoptimizer passes (A. Kapoulkine, meshoptimizer: vertex
// cache optimisation after T. Forsyth's "Linear-speed vertex cache optimisation", 2006;
// simplification after M. Garland, P. Heckbert, "Surface simplification using quadric error
// metrics", 1997).
#include "lib/mesh/mesh_ops.hpp"

#include <meshoptimizer.h>

#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "lib/core/error.hpp"
#include "lib/core/grid_alloc.hpp"

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
  // Positions seen so far -> their vertex: an open-addressed table (linear probing, at most
  // half full) of vertex + 1 (0: free), keys compared against the vertices kept. Four bytes a
  // slot and pages mapped up front: the table is touched at random, and a node-based map or
  // wider slots cost several times more in cache misses and page faults.
  size_t slots = 16;
  while (slots < 2 * total_v) slots *= 2;
  std::vector<uint32_t> table;
  reserve_populated(table, slots);
  table.resize(slots, 0);
  const size_t mask = slots - 1;
  const PosHash hash;
  reserve_populated(out.positions, total_v);
  if (has_n) reserve_populated(out.normals, total_v);
  if (has_c) reserve_populated(out.colors, total_v);
  if (has_uv) reserve_populated(out.uv0, total_v);
  reserve_populated(out.indices, total_i);
  out.indices.resize(total_i);
  auto key_of = [](const std::array<float, 3>& p) { return PosKey{key_bits(p[0]), key_bits(p[1]), key_bits(p[2])}; };
  size_t at = 0;
  std::vector<uint32_t> local;
  for (const Mesh* m : meshes) {
    local.resize(m->positions.size());
    for (size_t v = 0; v < m->positions.size(); ++v) {
      const auto& p = m->positions[v];
      const PosKey k = key_of(p);
      size_t s = hash(k) & mask;
      uint32_t e;
      while ((e = table[s]) != 0 && !(key_of(out.positions[e - 1]) == k)) s = (s + 1) & mask;
      if (e != 0) {
        local[v] = e - 1;
        continue;
      }
      const uint32_t id = uint32_t(out.positions.size());
      table[s] = id + 1;
      local[v] = id;
      out.positions.push_back(p);
      if (has_n) out.normals.push_back(m->normals[v]);
      if (has_c) out.colors.push_back(m->colors[v]);
      if (has_uv) out.uv0.push_back(m->uv0[v]);
    }
    for (uint32_t i : m->indices) out.indices[at++] = local[i];
  }
  return out;
}

namespace {

// Gathers the vertices a fetch remap keeps, from `src` into `dst`'s streams (dst may be src).
void gather(Mesh& dst, const Mesh& src, const std::vector<uint32_t>& remap, size_t unique) {
  auto one = [&](auto& out, const auto& in) {
    using Array = std::remove_cvref_t<decltype(in)>;
    if (in.empty()) {
      out = Array{};
      return;
    }
    Array a(unique);
    meshopt_remapVertexBuffer(a.data(), in.data(), in.size(), sizeof(in[0]), remap.data());
    out.swap(a);
  };
  one(dst.positions, src.positions);
  one(dst.normals, src.normals);
  one(dst.colors, src.colors);
  one(dst.uv0, src.uv0);
}

bool identity(const std::vector<uint32_t>& remap) {
  for (size_t i = 0; i < remap.size(); ++i)
    if (remap[i] != i) return false;
  return true;
}

// Triangle order for the vertex cache, in place.
void order_triangles(MeshArray<uint32_t>& indices, size_t vertices, VertexCacheMethod method) {
  if (method == VertexCacheMethod::Fifo)
    meshopt_optimizeVertexCacheFifo(indices.data(), indices.data(), indices.size(), vertices, kVertexCacheSize);
  else if (method == VertexCacheMethod::Full)
    meshopt_optimizeVertexCache(indices.data(), indices.data(), indices.size(), vertices);
}

// Vertices of `src` in first-use order of `m.indices` (which index `src`'s vertices) into m;
// nothing is copied when they are already in that order and all used.
void order_vertices(Mesh& m, const Mesh& src) {
  const size_t n = src.positions.size();
  std::vector<uint32_t> remap(n);
  const size_t unique = meshopt_optimizeVertexFetchRemap(remap.data(), m.indices.data(), m.indices.size(), n);
  if (&m == &src && unique == n && identity(remap)) return;
  meshopt_remapIndexBuffer(m.indices.data(), m.indices.data(), m.indices.size(), remap.data());
  gather(m, src, remap, unique);
}

}  // namespace

void optimize_vertex_order(Mesh& m, VertexCacheMethod method) {
  if (m.indices.empty()) {
    m = Mesh{};
    return;
  }
  order_triangles(m.indices, m.positions.size(), method);
  order_vertices(m, m);
}

double vertex_cache_acmr(const Mesh& m) {
  if (m.indices.empty()) return 0;
  const meshopt_VertexCacheStatistics s =
      meshopt_analyzeVertexCache(m.indices.data(), m.indices.size(), m.positions.size(), kVertexCacheSize, 0, 0);
  return double(s.acmr);
}

Mesh simplify_mesh(const Mesh& mesh, double ratio, double max_error, VertexCacheMethod method) {
  if (!(ratio > 0 && ratio <= 1)) throw_usage("LOD ratio must be in (0, 1], found " + std::to_string(ratio));
  if (mesh.indices.empty() || ratio == 1) {
    Mesh m = mesh;
    optimize_vertex_order(m, method);
    return m;
  }
  size_t target = size_t(double(mesh.indices.size() / 3) * ratio) * 3;
  Mesh m;
  m.indices.resize(mesh.indices.size());
  size_t count = meshopt_simplify(m.indices.data(), mesh.indices.data(), mesh.indices.size(),
                                  &mesh.positions[0][0], mesh.positions.size(), sizeof(float) * 3,
                                  target, float(max_error), meshopt_SimplifyLockBorder, nullptr);
  m.indices.resize(count);
  if (m.indices.empty()) return Mesh{};
  // Only the kept vertices are copied, once, straight from the full mesh.
  order_triangles(m.indices, mesh.positions.size(), method);
  order_vertices(m, mesh);
  return m;
}

int meshoptimizer_version() { return MESHOPTIMIZER_VERSION; }

}  // namespace voxkit
