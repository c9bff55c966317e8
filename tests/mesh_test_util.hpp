// Helpers for the mesher tests: SDF shapes, watertightness, triangle sets, chunk comparison.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "lib/mesh/mesh.hpp"

namespace voxkit::test {

using P3 = std::array<float, 3>;

// Bit pattern of a position, for exact comparisons.
inline std::array<uint32_t, 3> bits(const P3& p) {
  std::array<uint32_t, 3> b;
  std::memcpy(b.data(), p.data(), sizeof b);
  return b;
}

// A sphere of radius r at c: distance in voxels, positive outside (in air).
inline ByteGrid sphere_grid(Dims cells, P3 c, float r) {
  ByteGrid g(cells, 0);
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y < g.cells.sy(); ++y)
      for (uint64_t x = 0; x < g.cells.sx(); ++x) {
        float dx = float(x) - c[0], dy = float(y) - c[1], dz = float(z) - c[2];
        g.at(x, y, z) = quantize_sdf(std::sqrt(dx * dx + dy * dy + dz * dz) - r);
      }
  return g;
}

// Rolling terrain with carved spherical caves and an overhang: real surface everywhere.
inline ByteGrid cave_terrain(Dims cells, uint32_t seed) {
  ByteGrid g(cells, 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  float a = u(rng) * 6.28f, b = u(rng) * 6.28f;
  struct Cave {
    float x, y, z, r;
  };
  std::vector<Cave> caves;
  for (int i = 0; i < 6; ++i)
    caves.push_back({u(rng) * float(cells.nx), u(rng) * float(cells.ny) * 0.6f,
                     u(rng) * float(cells.nz), 2.0f + u(rng) * float(cells.ny) * 0.2f});
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y < g.cells.sy(); ++y)
      for (uint64_t x = 0; x < g.cells.sx(); ++x) {
        float h = float(cells.ny) * (0.6f + 0.15f * std::sin(float(x) * 0.21f + a) *
                                                std::cos(float(z) * 0.17f + b));
        float d = float(y) - h;
        for (const Cave& c : caves) {
          float dx = float(x) - c.x, dy = float(y) - c.y, dz = float(z) - c.z;
          d = std::max(d, c.r - std::sqrt(dx * dx + dy * dy + dz * dz));
        }
        g.at(x, y, z) = quantize_sdf(d);
      }
  return g;
}

// Directed edge counts: a closed, consistently wound surface has every directed edge once
// and its reverse once.
struct EdgeReport {
  bool closed = true;      // every undirected edge in exactly two triangles
  bool oriented = true;    // and those two use it in opposite directions
  size_t edges = 0;
};
inline EdgeReport check_edges(const Mesh& m) {
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  for (size_t i = 0; i < m.indices.size(); i += 3)
    for (int k = 0; k < 3; ++k) ++directed[{m.indices[i + k], m.indices[i + (k + 1) % 3]}];
  EdgeReport r;
  std::set<std::pair<uint32_t, uint32_t>> undirected;
  for (auto& [e, n] : directed) {
    undirected.insert({std::min(e.first, e.second), std::max(e.first, e.second)});
    auto rev = directed.find({e.second, e.first});
    int back = rev == directed.end() ? 0 : rev->second;
    if (n + back != 2) r.closed = false;
    if (n != 1 || back != 1) r.oriented = false;
  }
  r.edges = undirected.size();
  return r;
}

// Triangles as position triples (rotated so the smallest bit pattern leads), sorted.
using Tri = std::array<std::array<uint32_t, 3>, 3>;
inline void add_triangles(const Mesh& m, std::vector<Tri>& out) {
  for (size_t i = 0; i < m.indices.size(); i += 3) {
    Tri t{bits(m.positions[m.indices[i]]), bits(m.positions[m.indices[i + 1]]),
          bits(m.positions[m.indices[i + 2]])};
    auto lead = std::min_element(t.begin(), t.end()) - t.begin();
    std::rotate(t.begin(), t.begin() + lead, t.end());
    out.push_back(t);
  }
}
inline std::vector<Tri> triangle_set(const std::vector<ChunkMesh>& chunks) {
  std::vector<Tri> v;
  for (const auto& c : chunks) add_triangles(c.mesh, v);
  std::sort(v.begin(), v.end());
  return v;
}
inline std::vector<Tri> triangle_set(const Mesh& m) {
  std::vector<Tri> v;
  add_triangles(m, v);
  std::sort(v.begin(), v.end());
  return v;
}

// Normal (bit pattern) per position bit pattern; false if one position has two normals.
inline bool collect_normals(const Mesh& m,
                            std::map<std::array<uint32_t, 3>, std::array<uint32_t, 3>>& out) {
  for (size_t i = 0; i < m.positions.size(); ++i) {
    auto [it, fresh] = out.emplace(bits(m.positions[i]), bits(m.normals[i]));
    if (!fresh && it->second != bits(m.normals[i])) return false;
  }
  return true;
}

inline bool same_mesh(const Mesh& a, const Mesh& b) {
  return a.positions == b.positions && a.normals == b.normals && a.colors == b.colors &&
         a.uv0 == b.uv0 && a.indices == b.indices;
}

}  // namespace voxkit::test
