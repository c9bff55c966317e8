// Standing trees added to a glTF file (.glb or .gltf) as instances of a mesh per prototype:
// EXT_mesh_gpu_instancing (one node per prototype), or one node per tree
// (docs/mesh-export.md, "Foliage").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "formats/mesh/mesh_export.hpp"
#include "lib/core/zone.hpp"

namespace voxkit {

struct FoliageGltfOptions {
  bool instancing = true;  // EXT_mesh_gpu_instancing; false: one node per tree
  // A GLB whose first mesh stands for the trees of a prototype (its geometry and material
  // factors; textures are not carried over), by prototype, or for every prototype without
  // one of its own. Without either, a marker cone, coloured by prototype.
  std::map<uint32_t, std::vector<uint8_t>> tree_mesh;
  std::vector<uint8_t> any_tree_mesh;
  // As the meshes were exported: world position of grid point 0, metres per grid unit,
  // Unity's left-handed space turned right-handed (x negated).
  std::array<double, 3> origin{0, 0, 0};
  double voxel_size = 1;
  bool right_handed = true;
};

struct FoliageGltfReport {
  uint64_t trees = 0;        // standing trees added
  uint32_t prototypes = 0;   // meshes they use
};

// Returns `file` (as export_meshes wrote it, in `format`: glb or gltf) with the zone's
// standing trees under a node "foliage". A usage error for other formats, a data error for
// a tree mesh that is not a GLB with a mesh.
std::vector<uint8_t> add_foliage(const std::vector<uint8_t>& file, MeshFormat format, const ZoneFoliage& foliage,
                                 const FoliageGltfOptions& opts, FoliageGltfReport* report = nullptr);

}  // namespace voxkit
