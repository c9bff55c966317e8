// Mesh export: glTF 2.0 (.glb, .gltf), OBJ, PLY and STL by voxkit's own writers, FBX through
// Assimp; in world metres and right-handed space (docs/mesh-export.md).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/mesh/mesh.hpp"

namespace voxkit {

enum class MeshFormat { Glb, Gltf, Obj, Ply, Stl, Fbx };

// "glb", "gltf", "obj", "ply", "stl", "fbx".
std::string_view mesh_format_name(MeshFormat f);
// The names above (case-insensitive); a usage error listing them otherwise.
MeshFormat parse_mesh_format(std::string_view name);
// From the output path's extension; a usage error when it has none voxkit writes.
MeshFormat mesh_format_for_path(const std::string& path);
// Whether the format stores vertex colours / uv0 / normals per vertex.
bool format_has_colors(MeshFormat f);
bool format_has_uv(MeshFormat f);
// Whether the format carries a second UV set (lightmap UVs): glTF and FBX.
bool format_has_uv1(MeshFormat f);
bool format_has_vertex_normals(MeshFormat f);

// One object of the exported scene. With one level of detail it is a node `name` holding
// lods[0]; with more it is a node `name` with children `name_LOD0`, `name_LOD1`, ... (the
// naming Unity's model importer turns into a LOD group). Meshes are in grid units.
struct ExportObject {
  std::string name;
  std::vector<const Mesh*> lods;
  // Set: the meshes are in metres from this grid point (the package mesher's chunk frame),
  // which becomes the node's translation; their positions are written as they are (x
  // negated for the right-handed formats, which is exact).
  std::optional<std::array<double, 3>> local_origin;
};

inline constexpr uint64_t kDefaultMaxMeshBytes = uint64_t(4) << 30;  // 4 GiB

struct MeshExportOptions {
  MeshFormat format = MeshFormat::Glb;
  // World position (metres, Unity's left-handed y-up space) of grid point (0, 0, 0), and
  // metres per grid unit.
  std::array<double, 3> origin{0, 0, 0};
  double voxel_size = 1.0;
  // Convert Unity's left-handed space to the right-handed space the file formats use
  // (negate x, reverse the winding). Off only for tests and for readers that want the
  // positions as they are.
  bool right_handed = true;
  // Refuse (a data error naming the estimate) when estimate_export_bytes() is over this:
  // the exporter holds the whole file in memory (FBX through Assimp several times over).
  uint64_t max_output_bytes = kDefaultMaxMeshBytes;
  // PLY as text ("format ascii 1.0") instead of binary little-endian.
  bool ply_ascii = false;
};

// A cheap estimate of the file export_meshes() writes, from the vertex and triangle counts
// and the format's attributes: close for the binary formats, a lower bound for OBJ's text
// (short numbers) and for glTF (no JSON).
uint64_t estimate_export_bytes(std::span<const ExportObject> objects, const MeshExportOptions& opts);

// Name of the node of chunk (x, y, z): "chunk_X_Y_Z".
std::string chunk_node_name(std::array<int32_t, 3> chunk);

// Writes the scene in memory. Deterministic: the same objects and options give the same
// bytes for any thread count (FBX included: its creation time is fixed). glTF outputs declare only the extensions
// they use and pass the Khronos validator without errors or warnings; .gltf is one
// self-contained file (the buffer is embedded as a base64 data URI).
std::vector<uint8_t> export_meshes(std::span<const ExportObject> objects,
                                   const MeshExportOptions& opts);

// The same bytes handed to `sink` in pieces: a .glb is never held whole in memory (its buffer
// goes out in slabs, gltf_writer::write_glb_stream); the other formats are made whole and
// handed on at once. Returns the number of bytes.
using MeshSink = std::function<void(const uint8_t* data, size_t size)>;
uint64_t export_meshes_to(std::span<const ExportObject> objects, const MeshExportOptions& opts,
                          const MeshSink& sink);
// A .gltf whose buffer is a file of its own, named `bin_uri` in it (relative to the .gltf):
// the JSON to `gltf_sink`, the buffer to `bin_sink` (gltf_writer::write_gltf_separate).
// Returns the bytes of both.
uint64_t export_gltf_separate(std::span<const ExportObject> objects, const MeshExportOptions& opts,
                              const std::string& bin_uri, const MeshSink& gltf_sink, const MeshSink& bin_sink);

}  // namespace voxkit
