// Lays out the exported scene for voxkit's own mesh writers (glTF, OBJ, PLY, STL).
#include "formats/mesh/mesh_scene.hpp"

#include <sys/mman.h>

#include <cstdint>

#include "lib/mesh/mesh_ops.hpp"

namespace voxkit::mesh_scene {

std::vector<uint8_t> output_buffer(size_t bytes) {
  std::vector<uint8_t> out;
  out.reserve(bytes);
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  if (bytes >= 4 * kHuge) {
    // The whole huge pages inside the (not yet touched) room.
    const uintptr_t lo = (reinterpret_cast<uintptr_t>(out.data()) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t hi = (reinterpret_cast<uintptr_t>(out.data()) + bytes) & ~(kHuge - 1);
    if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
  }
  return out;
}

Scene build(std::span<const ExportObject> objects, const MeshExportOptions& o, bool flat) {
  Scene s;
  s.nodes.push_back({"voxkit", std::nullopt, std::nullopt, {}});
  for (const auto& obj : objects) {
    bool any = false;
    for (const Mesh* m : obj.lods) any = any || (m && !m->empty());
    if (!any) continue;
    Frame frame;
    frame.local = obj.local_origin.has_value();
    frame.mirror = o.right_handed;
    frame.origin = o.origin;
    frame.voxel_size = o.voxel_size;
    const size_t node = s.nodes.size();
    s.nodes[0].children.push_back(node);
    s.nodes.push_back({obj.name, std::nullopt, std::nullopt, {}});
    if (frame.local) {
      // The node sits at the chunk's origin in world metres (the handedness applied).
      const auto& g = *obj.local_origin;
      const double sx = o.right_handed ? -1.0 : 1.0;
      s.nodes[node].translation = std::array<float, 3>{float(sx * (o.origin[0] + o.voxel_size * g[0])),
                                                       float(o.origin[1] + o.voxel_size * g[1]),
                                                       float(o.origin[2] + o.voxel_size * g[2])};
      if (flat) frame.offset = *s.nodes[node].translation;
    }
    auto add_mesh = [&](size_t at, const Mesh& m, std::string name) {
      check_mesh(m, name.c_str());
      s.nodes[at].mesh = s.meshes.size();
      s.meshes.push_back({&m, std::move(name), frame});
    };
    if (obj.lods.size() == 1) {
      add_mesh(node, *obj.lods[0], obj.name);
      continue;
    }
    for (size_t l = 0; l < obj.lods.size(); ++l) {
      if (!obj.lods[l] || obj.lods[l]->empty()) continue;
      const size_t kid = s.nodes.size();
      s.nodes[node].children.push_back(kid);
      s.nodes.push_back({obj.name + "_LOD" + std::to_string(l), std::nullopt, std::nullopt, {}});
      add_mesh(kid, *obj.lods[l], s.nodes[kid].name);
    }
  }
  return s;
}

}  // namespace voxkit::mesh_scene
