// Hand-made meshes for the mesh export, clip and merge tests: a cube, a tetrahedron, a grid.
#pragma once

#include <cmath>

#include "lib/mesh/mesh.hpp"

namespace voxkit::test {

// Unit normal of (x, y, z).
inline std::array<float, 3> unit(float x, float y, float z) {
  float l = std::sqrt(x * x + y * y + z * z);
  return {x / l, y / l, z / l};
}

// Fills colours and uv0 from the positions so every vertex is distinct in every attribute.
inline void paint_fixture(Mesh& m) {
  for (const auto& p : m.positions) {
    m.colors.push_back({p[0] / 8.f, p[1] / 8.f, p[2] / 8.f, 0.25f});
    m.uv0.push_back({p[0] * 0.125f + p[2] * 0.01f, float(0x3210)});
  }
}

// The cube [x0, x0+s]^3 with radial normals; triangles wind counter-clockwise seen from
// outside (right-hand rule: (b-a)x(c-a) points out).
inline Mesh cube(float x0 = 0, float s = 2) {
  Mesh m;
  for (int i = 0; i < 8; ++i) {
    float x = (i & 1) ? 1.f : -1.f, y = (i & 2) ? 1.f : -1.f, z = (i & 4) ? 1.f : -1.f;
    m.positions.push_back({x0 + s * (x + 1) / 2, s * (y + 1) / 2, s * (z + 1) / 2});
    m.normals.push_back(unit(x, y, z));
  }
  m.indices = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
               2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
  paint_fixture(m);
  return m;
}

inline Mesh tetrahedron() {
  Mesh m;
  m.positions = {{0, 0, 0}, {3, 0, 0}, {0, 0, 3}, {0, 3, 0}};
  m.normals = {unit(-1, -1, -1), unit(1, 0, 0), unit(0, 0, 1), unit(0, 1, 0)};
  m.indices = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
  paint_fixture(m);
  return m;
}

// A flat grid of n x n quads on y = h from (x0, z0), unit spacing, facing up.
inline Mesh quad_grid(int n, float x0 = 0, float z0 = 0, float h = 1) {
  Mesh m;
  for (int z = 0; z <= n; ++z)
    for (int x = 0; x <= n; ++x) {
      m.positions.push_back({x0 + float(x), h, z0 + float(z)});
      m.normals.push_back({0, 1, 0});
    }
  auto id = [n](int x, int z) { return uint32_t(x + (n + 1) * z); };
  for (int z = 0; z < n; ++z)
    for (int x = 0; x < n; ++x) {
      // Up-facing: (b-a)x(c-a) = +y for a=(x,z), b=(x,z+1), c=(x+1,z).
      m.indices.insert(m.indices.end(), {id(x, z), id(x, z + 1), id(x + 1, z)});
      m.indices.insert(m.indices.end(), {id(x + 1, z), id(x, z + 1), id(x + 1, z + 1)});
    }
  paint_fixture(m);
  return m;
}

}  // namespace voxkit::test
