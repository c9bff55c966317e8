// The terrain the meshing benchmarks run on: rolling hills, caves and overhanging ledges.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "lib/core/grid.hpp"

namespace voxkit::bench {

// Terrain with rolling hills, carved caves and overhanging ledges.
inline ByteGrid make_grid(Dims cells, uint32_t seed) {
  ByteGrid g(cells, 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  const float a = u(rng) * 6.28f, b = u(rng) * 6.28f;
  std::vector<float> height(g.cells.sx() * g.cells.sz());
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t x = 0; x < g.cells.sx(); ++x)
      height[x + g.cells.sx() * z] =
          float(cells.ny) * (0.6f + 0.12f * std::sin(float(x) * 0.031f + a) *
                                        std::cos(float(z) * 0.027f + b) +
                             0.04f * std::sin(float(x + z) * 0.11f));
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t y = 0; y < g.cells.sy(); ++y)
      for (uint64_t x = 0; x < g.cells.sx(); ++x)
        g.at(x, y, z) = quantize_sdf(float(y) - height[x + g.cells.sx() * z]);
  // Caves: spheres below the surface; ledges: flattened spheres cut into the slopes.
  auto carve = [&](float cx, float cy, float cz, float r, float squash) {
    const int64_t x0 = std::max<int64_t>(0, int64_t(cx - r - 3)),
                  x1 = std::min<int64_t>(cells.nx, int64_t(cx + r + 3));
    const int64_t y0 = std::max<int64_t>(0, int64_t(cy - r - 3)),
                  y1 = std::min<int64_t>(cells.ny, int64_t(cy + r + 3));
    const int64_t z0 = std::max<int64_t>(0, int64_t(cz - r - 3)),
                  z1 = std::min<int64_t>(cells.nz, int64_t(cz + r + 3));
    for (int64_t z = z0; z <= z1; ++z)
      for (int64_t y = y0; y <= y1; ++y)
        for (int64_t x = x0; x <= x1; ++x) {
          float dx = float(x) - cx, dy = (float(y) - cy) * squash, dz = float(z) - cz;
          uint8_t v = quantize_sdf(r - std::sqrt(dx * dx + dy * dy + dz * dz));
          uint8_t& s = g.at(uint64_t(x), uint64_t(y), uint64_t(z));
          s = std::max(s, v);
        }
  };
  const int caves = int(uint64_t(cells.nx) * cells.nz / 200);
  for (int i = 0; i < caves; ++i) {
    float x = u(rng) * float(cells.nx), z = u(rng) * float(cells.nz);
    float top = height[uint64_t(x) + g.cells.sx() * uint64_t(z)];
    carve(x, 2.0f + u(rng) * (top - 6.0f), z, 2.5f + u(rng) * 6.0f, 1.0f);
  }
  for (int i = 0; i < caves / 4; ++i) {
    float x = u(rng) * float(cells.nx), z = u(rng) * float(cells.nz);
    float top = height[uint64_t(x) + g.cells.sx() * uint64_t(z)];
    carve(x, top - 3.0f, z, 6.0f + u(rng) * 6.0f, 2.5f);
  }
  return g;
}

// The options of the benchmarks that take only a grid size and a repeat count: --cells NX NY
// NZ and --repeat N. Prints the usage of `name` and returns false on anything else.
inline bool grid_options(int argc, char** argv, const char* name, Dims& cells, int& repeats) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--cells") && i + 3 < argc) {
      cells = {uint32_t(std::atoi(argv[i + 1])), uint32_t(std::atoi(argv[i + 2])),
               uint32_t(std::atoi(argv[i + 3]))};
      i += 3;
    } else {
      std::fprintf(stderr, "usage: %s [--cells NX NY NZ] [--repeat N]\n", name);
      return false;
    }
  }
  return true;
}

}  // namespace voxkit::bench
