// The dig-zone package's own chunk mesher (its SurfaceNets and ChunkMesher, 0.4-0.7), to
// the last bit: the crossing at byte 128 (a byte of 128 is air), each vertex at the mean of
// its cell's edge crossings, the normal from the cell's gradient, quads on the three edges
// leaving each owned cell's minimum corner with the package's split and winding, its vertex
// order (every cell of the chunk and its -1 halo, z then y then x, unused halo vertices
// included) and its paint attributes; and the baker's cut of a chunk mesh to the terrain
// hole (ChunkMesher.ClipXZ: Sutherland-Hodgman on x and z, shared cut vertices, zero-area
// triangles dropped as 0.6.1 does, vertices renumbered by first use). Positions are metres
// from the chunk's origin sample, in Unity's left-handed y-up space (docs/meshing.md).
//
// Arithmetic: Editor evaluates each float expression in double and rounds it to float where
// it is stored (a local, an argument, a field), which reproduces the meshes the Unity editor
// bakes; Player is strict float32 (IL2CPP, Udon). The two differ by an ulp in a few
// components and, on near ties, in a quad's diagonal.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lib/core/grid.hpp"

namespace voxkit::package {

enum class FloatMode : uint8_t { Editor, Player };

struct ChunkMesh {
  std::vector<std::array<float, 3>> positions;  // metres from the chunk origin
  std::vector<std::array<float, 3>> normals;
  std::vector<std::array<float, 4>> colors;     // paint slot weights
  std::vector<std::array<float, 2>> uv0;        // x: dug soil, y: slot code (0 without paint)
  std::vector<uint32_t> indices;                // clockwise seen from the air (Unity)
  // Lightmap UVs (package_zone.hpp add_lightmap_uv), empty until made; made after the cut
  // (clip_xz drops them).
  std::vector<std::array<float, 2>> uv1;
  bool empty() const { return indices.empty(); }
  // The index format Unity would use: 16-bit up to 65535 vertices.
  bool index16() const { return positions.size() <= 65535; }
};

struct Options {
  uint32_t chunk_cells = 16;
  float voxel_size = 0.5f;
  const ByteGrid* paint = nullptr;  // the paint grid, or null (uv0.y is then 0)
  FloatMode mode = FloatMode::Editor;
};

// ChunkMesher.Build for chunk (cx, cy, cz) of `grid`.
ChunkMesh build_chunk(const ByteGrid& grid, std::array<uint32_t, 3> chunk, const Options& opts);

// ChunkMesher.ClipXZ: keeps what lies inside min..max on x and z (chunk-local metres; a
// point on the border is inside). A mesh with every vertex inside (unused ones too) is left
// exactly as it is. `drop_zero_area`: the 0.6.1 test (squared cross length below 1e-12).
void clip_xz(ChunkMesh& mesh, float min_x, float min_z, float max_x, float max_z, bool drop_zero_area,
             FloatMode mode = FloatMode::Editor);

// The box ClipToHole gives ClipXZ for chunk (cx, cy, cz): the hole rectangle (world min x,
// min z, max x, max z) grown by `margin` metres (the material's Hole Overlap, 0.1 by default
// in 0.6.1, 0 before), minus the chunk's origin: zone origin + (cx, cy, cz) * (chunk cells *
// voxel size), all in float as the baker computes it. {min x, min z, max x, max z}.
std::array<float, 4> hole_clip_box(const std::array<float, 4>& hole, float margin, const std::array<float, 3>& origin,
                                   std::array<uint32_t, 3> chunk, uint32_t chunk_cells, float voxel_size,
                                   FloatMode mode = FloatMode::Editor);

}  // namespace voxkit::package
