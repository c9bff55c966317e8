// Writers for the formats without a scene graph: Wavefront OBJ, PLY (binary little-endian
// and ASCII) and binary STL (docs/mesh-export.md lists what each holds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "formats/mesh/mesh_scene.hpp"

namespace voxkit::simple_writers {

// Where the streaming forms hand their bytes, in order (the file is never held whole: binary
// sections go out in slabs of whole meshes, text in waves of blocks, about 32 MiB at a time).
using Sink = std::function<void(const uint8_t* data, size_t size)>;

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

// The same bytes as the writers above, handed to `sink`; each returns the file's size.
uint64_t write_obj(const mesh_scene::Scene& scene, const Sink& sink);
uint64_t write_ply(const mesh_scene::Scene& scene, bool ascii, const Sink& sink);
uint64_t write_stl(const mesh_scene::Scene& scene, const Sink& sink);

}  // namespace voxkit::simple_writers
