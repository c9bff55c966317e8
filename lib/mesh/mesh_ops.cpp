// Merging with welded borders, and meshoptimizer passes (A. Kapoulkine, meshoptimizer: vertex
// cache optimisation after T. Forsyth's "Linear-speed vertex cache optimisation", 2006;
// simplification after M. Garland, P. Heckbert, "Surface simplification using quadric error
// metrics", 1997).
#include "lib/mesh/mesh_ops.hpp"

#include <meshoptimizer.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>

#include "lib/core/error.hpp"
#include "lib/core/grid_alloc.hpp"
#include "lib/mesh/mesh_alloc.hpp"

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

// The weld's parts (by the top bits of a position's hash) and its mark of a first vertex.
constexpr size_t kParts = 16;
constexpr int kPartShift = 28;
constexpr uint32_t kFirst = 0x80000000u;

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

namespace {

// merge_meshes; `owned` (empty, or the same meshes) are emptied as they are used: their indices
// once the merged indices are written (before the merged vertices are allocated), the rest
// after.
Mesh merge(std::span<const Mesh* const> meshes, std::span<Mesh* const> owned) {
  Mesh out;
  if (meshes.empty()) return out;
  const Mesh& first = *meshes[0];
  const bool has_n = !first.normals.empty(), has_c = !first.colors.empty(), has_uv = !first.uv0.empty();
  const size_t nm = meshes.size();
  // Where each mesh's vertices and indices start in the concatenation.
  std::vector<size_t> vstart(nm + 1, 0), istart(nm + 1, 0);
  for (size_t m = 0; m < nm; ++m) {
    const Mesh& mesh = *meshes[m];
    if (!mesh.positions.empty() && ((!mesh.normals.empty()) != has_n || (!mesh.colors.empty()) != has_c ||
                                    (!mesh.uv0.empty()) != has_uv))
      throw_usage("merge: meshes carry different vertex attributes");
    vstart[m + 1] = vstart[m] + mesh.positions.size();
    istart[m + 1] = istart[m] + mesh.indices.size();
  }
  const size_t total_v = vstart[nm];
  if (total_v >= kFirst) throw_usage("merge: " + std::to_string(total_v) + " vertices are more than one mesh holds");
  // The checks in parallel; the first failing mesh's error is the one reported.
  std::vector<std::exception_ptr> errors(nm);
  tbb::parallel_for(size_t(0), nm, [&](size_t m) {
    try {
      check_mesh(*meshes[m], "merge");
    } catch (...) {
      errors[m] = std::current_exception();
    }
  });
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);

  // The weld, in parallel and with the result of a pass in order (every vertex welded to the
  // first vertex of the concatenation at its position):
  // 1. each vertex's position hash (per mesh, in parallel);
  // 2. the vertices sorted by the hash's top bits into kParts parts, keeping their order;
  // 3. per part, in parallel: an open-addressed table (linear probing, at most half full) of
  //    the first vertex seen at each position, compared by hash and then by position; each
  //    vertex gets that first vertex (a vertex is its own first at a new position);
  // 4. in order: output numbers for the first vertices, the others take their first's;
  // 5. the attributes and indices written, per mesh in parallel.
  MeshArray<uint32_t> hash, first_of, order;
  for (auto* a : {&hash, &first_of, &order}) reserve_populated(*a, total_v), a->resize(total_v);
  auto key_of = [](const std::array<float, 3>& p) { return PosKey{key_bits(p[0]), key_bits(p[1]), key_bits(p[2])}; };
  auto position = [&](size_t g) -> const std::array<float, 3>& {
    const size_t m = size_t(std::upper_bound(vstart.begin(), vstart.end(), g) - vstart.begin()) - 1;
    return meshes[m]->positions[g - vstart[m]];
  };
  const PosHash hasher;
  tbb::parallel_for(size_t(0), nm, [&](size_t m) {
    const auto& pos = meshes[m]->positions;
    for (size_t v = 0; v < pos.size(); ++v) {
      const uint64_t h = hasher(key_of(pos[v]));
      hash[vstart[m] + v] = uint32_t(h ^ (h >> 32));
    }
  });
  std::array<size_t, kParts + 1> part_start{};
  for (size_t g = 0; g < total_v; ++g) ++part_start[(hash[g] >> kPartShift) + 1];
  for (size_t p = 0; p < kParts; ++p) part_start[p + 1] += part_start[p];
  {
    std::array<size_t, kParts> fill;
    std::copy(part_start.begin(), part_start.end() - 1, fill.begin());
    for (size_t g = 0; g < total_v; ++g) order[fill[hash[g] >> kPartShift]++] = uint32_t(g);
  }
  tbb::parallel_for(size_t(0), kParts, [&](size_t p) {
    const size_t n = part_start[p + 1] - part_start[p];
    if (n == 0) return;
    size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    std::vector<std::array<uint32_t, 2>> table(slots, {0u, 0u});  // first vertex + 1 (0: free), hash
    const size_t mask = slots - 1;
    for (size_t k = part_start[p]; k < part_start[p + 1]; ++k) {
      const uint32_t g = order[k], h = hash[g];
      size_t s = h & mask;
      for (;; s = (s + 1) & mask) {
        const auto [e, eh] = table[s];
        if (e == 0) {
          table[s] = {g + 1, h};
          first_of[g] = g;
          break;
        }
        if (eh == h && key_of(position(e - 1)) == key_of(position(g))) {
          first_of[g] = e - 1;
          break;
        }
      }
    }
  });
  MeshArray<uint32_t>().swap(order);
  MeshArray<uint32_t>().swap(hash);
  // first_of becomes each vertex's output number, kFirst marking the first vertices (a first
  // vertex's number is set before any later vertex reads it).
  size_t kept = 0;
  for (size_t g = 0; g < total_v; ++g)
    first_of[g] = first_of[g] == g ? uint32_t(kept++) | kFirst : first_of[first_of[g]] & ~kFirst;

  reserve_populated(out.indices, istart[nm]);
  out.indices.resize(istart[nm]);
  tbb::parallel_for(size_t(0), nm, [&](size_t m) {
    const Mesh& mesh = *meshes[m];
    const uint32_t* id = first_of.data() + vstart[m];
    uint32_t* at = out.indices.data() + istart[m];
    for (size_t k = 0; k < mesh.indices.size(); ++k) at[k] = id[mesh.indices[k]] & ~kFirst;
  });
  if (!owned.empty()) {
    for (Mesh* m : owned) MeshArray<uint32_t>().swap(m->indices);
    release_mesh_memory();
  }
  reserve_populated(out.positions, kept);
  out.positions.resize(kept);
  if (has_n) reserve_populated(out.normals, kept), out.normals.resize(kept);
  if (has_c) reserve_populated(out.colors, kept), out.colors.resize(kept);
  if (has_uv) reserve_populated(out.uv0, kept), out.uv0.resize(kept);
  tbb::parallel_for(size_t(0), nm, [&](size_t m) {
    const Mesh& mesh = *meshes[m];
    const uint32_t* id = first_of.data() + vstart[m];
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
      if (!(id[v] & kFirst)) continue;
      const uint32_t o = id[v] & ~kFirst;
      out.positions[o] = mesh.positions[v];
      if (has_n) out.normals[o] = mesh.normals[v];
      if (has_c) out.colors[o] = mesh.colors[v];
      if (has_uv) out.uv0[o] = mesh.uv0[v];
    }
  });
  if (!owned.empty()) {
    for (Mesh* m : owned) *m = Mesh{};
    release_mesh_memory();
  }
  return out;
}

}  // namespace

Mesh merge_meshes(std::span<const Mesh* const> meshes) { return merge(meshes, {}); }

Mesh merge_meshes_consuming(std::span<Mesh* const> meshes) {
  const std::vector<const Mesh*> in(meshes.begin(), meshes.end());
  return merge(in, meshes);
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
