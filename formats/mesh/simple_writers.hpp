// Writers for the formats without a scene graph: Wavefront OBJ, PLY (binary little-endian
// and ASCII) and binary STL (docs/mesh-export.md lists what each holds).
#pragma once

#include <cstdint>
#include <vector>

#include "formats/mesh/mesh_scene.hpp"

namespace voxkit::simple_writers {

// OBJ: per mesh a group `g NAME`, its `v x y z [r g b]` (colour: the first three paint
// weights), `vt u v` (uv0) and `vn x y z` lines, then its faces `f v/vt/vn ...` (1-based,
// counted over the whole file). Numbers are the shortest text that reads back as the same float.
std::vector<uint8_t> write_obj(const mesh_scene::Scene& scene);

// PLY: every mesh in one vertex list and one face list (indices moved by the vertices before
// them). Vertex properties x y z, then nx ny nz, s t (uv0), red green blue alpha (uchar:
// weight * 255, rounded) when any mesh has them (zeros for the meshes without); faces are
// `list uchar int vertex_index`.
std::vector<uint8_t> write_ply(const mesh_scene::Scene& scene, bool ascii);

// Binary STL: every triangle of every mesh with its facet normal (unit length, from the
// written corners), attribute bytes 0.
std::vector<uint8_t> write_stl(const mesh_scene::Scene& scene);

}  // namespace voxkit::simple_writers
