// Mesh types shared by the meshers (lib/) and the exporters (formats/mesh_export.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lib/grid.hpp"
#include "lib/progress.hpp"

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

enum class Mesher { SurfaceNets, MarchingCubes };

// Paint input for dig zones: the paint grid (same layout as the SDF grid) and the number of
// terrain layers; see docs/meshing.md for how slots, colours and uv0 are derived.
struct PaintInput {
  const ByteGrid* paint = nullptr;
  uint32_t layer_count = 0;
};

struct MeshOptions {
  Mesher mesher = Mesher::SurfaceNets;
  uint32_t chunk_cells = 16;
  bool normals = true;   // from the SDF gradient
  PaintInput paint;      // optional
};

// Meshes the chunk (cx, cy, cz) of an SDF byte grid (a sample is solid when its byte is
// below 128), reading only the samples that chunk holds in the chunk packer's layout.
// Positions are in sample coordinates of the whole grid. An all-solid or all-air chunk
// gives an empty mesh.
Mesh mesh_chunk(const ByteGrid& sdf, std::array<int32_t, 3> chunk, const MeshOptions& opts);

// Meshes every chunk, in parallel; returns the non-empty ones in chunk index order
// (cx fastest, then cy, then cz). The same result for any thread count.
std::vector<ChunkMesh> mesh_chunks(const ByteGrid& sdf, const MeshOptions& opts,
                                   const Progress& progress = {});

// Meshes the whole grid as one mesh (no chunking).
Mesh mesh_whole(const ByteGrid& sdf, const MeshOptions& opts);

}  // namespace voxkit
