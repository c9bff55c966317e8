// Mesh types shared by the meshers (lib/) and the exporters (formats/mesh_export.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace voxkit {

// An indexed triangle mesh. Positions are in grid units (sample coordinates of the whole
// grid) until an exporter maps them to world metres. Attribute arrays are either empty or
// one entry per vertex.
struct Mesh {
  std::vector<std::array<float, 3>> positions;
  std::vector<std::array<float, 3>> normals;  // unit length, pointing into the air
  std::vector<std::array<float, 4>> colors;   // paint slot weights (dig zones)
  std::vector<std::array<float, 2>> uv0;      // x: dug-soil weight, y: slot layers (4 bits each)
  std::vector<uint32_t> indices;              // triangles, counter-clockwise seen from the air

  size_t vertex_count() const { return positions.size(); }
  size_t triangle_count() const { return indices.size() / 3; }
  bool empty() const { return indices.empty(); }
};

// The mesh of one chunk, named by its chunk coordinates.
struct ChunkMesh {
  std::array<int32_t, 3> chunk{0, 0, 0};
  Mesh mesh;
};

}  // namespace voxkit
