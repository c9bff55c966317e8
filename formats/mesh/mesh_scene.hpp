// The exported scene as voxkit's own writers see it: nodes and meshes in file order, and the
// mapping of grid-unit meshes to world metres and right-handed space (docs/mesh-export.md).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/mesh/mesh_export.hpp"

namespace voxkit::mesh_scene {

// How one mesh's vertices land in the file: world metres from grid units, or (for a mesh in
// its node's local frame) as they are; x negated and the winding reversed when right-handed.
struct Frame {
  bool local = false;
  bool mirror = false;
  std::array<double, 3> origin{0, 0, 0};
  double voxel_size = 1;
  // Local meshes in a file without nodes: the node's translation added to every position.
  std::array<float, 3> offset{0, 0, 0};

  std::array<float, 3> position(const std::array<float, 3>& p) const {
    const double sx = mirror ? -1.0 : 1.0;
    if (local) return {float(sx) * p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]};
    return {float(sx * (origin[0] + voxel_size * double(p[0]))), float(origin[1] + voxel_size * double(p[1])),
            float(origin[2] + voxel_size * double(p[2]))};
  }
  std::array<float, 3> normal(const std::array<float, 3>& q) const { return {mirror ? -q[0] : q[0], q[1], q[2]}; }
  // The triangle's corners in file order (b and c swapped by the mirror).
  std::array<uint32_t, 3> triangle(const uint32_t* t) const {
    return mirror ? std::array<uint32_t, 3>{t[0], t[2], t[1]} : std::array<uint32_t, 3>{t[0], t[1], t[2]};
  }
};

// Paint slot weights are 0..1; glTF requires colours in that range and the 8-bit formats
// scale them.
inline float clamp01(float x) { return x < 0 ? 0.0f : x > 1 ? 1.0f : x; }

struct SceneMesh {
  const Mesh* mesh = nullptr;
  std::string name;
  Frame frame;
};

struct SceneNode {
  std::string name;
  std::optional<std::array<float, 3>> translation;  // set for objects with a local origin
  std::optional<size_t> mesh;
  std::vector<size_t> children;
};

// nodes[0] is the root `voxkit`; nodes are in depth-first order, meshes in the order their
// nodes come. Objects whose meshes are all empty make no node; an object with several levels
// is a node with children `name_LODn` (n its level, empty levels skipped).
struct Scene {
  std::vector<SceneNode> nodes;
  std::vector<SceneMesh> meshes;
};

// An empty output buffer with room for `bytes`: for large files the room is asked to be
// backed by huge pages (madvise), which makes filling it several times cheaper where page
// faults are dear (virtual machines); a hint only.
std::vector<uint8_t> output_buffer(size_t bytes);

// Checks every mesh (check_mesh: a usage error naming the mesh on a bad index or attribute
// size) and lays the scene out. `flat`: for a file without nodes (OBJ, PLY, STL), where each
// local mesh is moved by its node's translation instead.
Scene build(std::span<const ExportObject> objects, const MeshExportOptions& opts, bool flat);

}  // namespace voxkit::mesh_scene
