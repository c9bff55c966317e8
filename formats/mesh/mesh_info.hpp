// `info` describers of the mesh files voxkit writes or reads (docs/info-json.md, "Meshes"):
// glTF binary (.glb) and JSON (.gltf), Wavefront OBJ, PLY (ASCII and binary) and STL (ASCII
// and binary). Each reads the whole file within its bytes (nothing is allocated from a count
// the bytes have not proved) and gives vertex and triangle counts, bounds and attributes.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::mesh_info {

// By the magic "glTF": a data error when the container or its JSON chunk is damaged.
std::optional<identify::Description> describe_glb(std::span<const uint8_t> bytes, const std::string& name);
// A JSON object whose "asset" holds a "version" string (any name); damage past that is a data
// error. Nothing for other files.
std::optional<identify::Description> describe_gltf(std::span<const uint8_t> bytes, const std::string& name);
// By the magic "ply" and a line break: a data error when the header or the body is damaged.
std::optional<identify::Description> describe_ply(std::span<const uint8_t> bytes, const std::string& name);
// ASCII STL (starts "solid" and parses fully as facets) or binary STL (84 + 50 n bytes for n
// triangles). A file named .stl that is neither is a data error; nothing for other names.
std::optional<identify::Description> describe_stl(std::span<const uint8_t> bytes, const std::string& name);
// OBJ: every line a statement OBJ knows, at least one vertex, faces naming vertices that exist.
// A file named .obj that does not parse is a data error; nothing for other names.
std::optional<identify::Description> describe_obj(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::mesh_info
