// Fuzz target: the GLB given to `mesh --foliage --tree-mesh`: its first mesh is copied into a
// small glTF holding one standing tree. What is accepted must give a GLB that splits again.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "formats/mesh/gltf_foliage.hpp"
#include "formats/mesh/mesh_export_fixup.hpp"
#include "lib/core/error.hpp"

namespace {

std::vector<uint8_t> base_glb() {
  const std::string json = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"voxkit"}]})";
  voxkit::fixup::GltfParts p{{json.begin(), json.end()}, {}};
  return voxkit::fixup::glb(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<uint8_t> base = base_glb();
  voxkit::ZoneFoliage f;
  voxkit::FoliageTree t;
  t.anchor = {1, 2, 3};
  t.prototype = 0;
  f.trees.push_back(t);
  voxkit::FoliageGltfOptions o;
  o.any_tree_mesh.assign(data, data + size);
  try {
    const auto out = voxkit::add_foliage(base, voxkit::MeshFormat::Glb, f, o);
    (void)voxkit::fixup::split_glb(out);
  } catch (const voxkit::Error&) {
  }
  return 0;
}
