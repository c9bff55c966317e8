// Mesh types shared by the meshers (lib/) and the exporters (formats/mesh/mesh_export.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/mesh/mesh_alloc.hpp"
#include "lib/core/progress.hpp"

namespace voxkit {

// An indexed triangle mesh. Positions are in grid units (sample coordinates of the whole
// grid) until an exporter maps them to world metres. Attribute arrays are either empty or
// one entry per vertex.
struct Mesh {
  MeshArray<std::array<float, 3>> positions;
  MeshArray<std::array<float, 3>> normals;  // unit length, pointing into the air
  MeshArray<std::array<float, 4>> colors;   // paint slot weights (dig zones)
  MeshArray<std::array<float, 2>> uv0;      // x: dug-soil weight, y: slot layers (4 bits each)
  MeshArray<std::array<float, 2>> uv1;      // lightmap UVs (add_lightmap_uv), made last: other ops drop them
  MeshArray<uint32_t> indices;              // triangles, counter-clockwise seen from the air

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

// The iso level of the byte SDF: a sample is solid below 128, and edge crossings are
// interpolated linearly to 127.5, which always lies strictly between a solid and an air byte.
inline constexpr float kIsoLevel = 127.5f;

// Chunks per axis for `chunk_cells` cells per chunk edge (ceil(cells / chunk_cells)).
std::array<uint32_t, 3> chunk_counts(const Dims& cells, uint32_t chunk_cells);

// The box of samples a chunk holds in the chunk packer's layout (FORMATS.md): on each axis
// max(0, c*cc - 1) .. min(cells, c*cc + cc), both inclusive.
struct ChunkSampleBox {
  std::array<uint32_t, 3> lo{0, 0, 0};
  std::array<uint32_t, 3> hi{0, 0, 0};
  uint64_t samples() const {
    return uint64_t(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
  }
};
ChunkSampleBox chunk_sample_box(const Dims& cells, uint32_t chunk_cells,
                                std::array<int32_t, 3> chunk);

// The four paint slots of a chunk mesh: terrain layers 0..15 and their uv0.y code
// (slot0 | slot1 << 4 | slot2 << 8 | slot3 << 12, an integer below 2^16 stored as a float).
struct PaintSlots {
  std::array<uint8_t, 4> layers{0, 1, 2, 3};
  float code() const {
    return float(layers[0] | layers[1] << 4 | layers[2] << 8 | layers[3] << 12);
  }
};
// The slots for a set of paint samples: the painted terrain layers in ascending order
// (at most four), then the lowest unpainted layers to fill the rest. A layer index at or
// above `layer_count` (when it is not 0) reads as auto.
PaintSlots paint_slots(std::span<const uint8_t> paint, uint32_t layer_count);

// Meshes the chunk (cx, cy, cz) of an SDF byte grid (a sample is solid when its byte is
// below 128), reading only the samples that chunk holds in the chunk packer's layout.
// Positions are in sample coordinates of the whole grid. An all-solid or all-air chunk
// gives an empty mesh.
Mesh mesh_chunk(const ByteGrid& sdf, std::array<int32_t, 3> chunk, const MeshOptions& opts);

// Meshes every chunk, in parallel; returns the non-empty ones in chunk index order
// (cx fastest, then cy, then cz). The same result for any thread count.
std::vector<ChunkMesh> mesh_chunks(const ByteGrid& sdf, const MeshOptions& opts,
                                   const Progress& progress = {});

// Meshes one chunk from just the samples it holds: `sdf` (and `paint`, if opts.paint.paint
// is set; its grid pointer is then only a flag) are the chunk's sample box, x fastest, then
// y, then z, e.g. one chunk decoded from the runtime blob. Gives the same mesh as
// mesh_chunk on the whole grid. Throws a usage error when a span has the wrong size.
Mesh mesh_chunk_samples(const Dims& cells, std::array<int32_t, 3> chunk,
                        std::span<const uint8_t> sdf, std::span<const uint8_t> paint,
                        const MeshOptions& opts);

// Meshes the whole grid as one mesh (no chunking). Positions and normals equal those of
// the chunk meshes for the same opts.chunk_cells (normals near chunk planes follow the
// chunk rule of docs/meshing.md); paint slots are chosen over the whole grid.
Mesh mesh_whole(const ByteGrid& sdf, const MeshOptions& opts);

}  // namespace voxkit
