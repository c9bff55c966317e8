#include "formats/mesh/mesh_versions.hpp"

#include "formats/mesh/assimp_plugin.hpp"
#include "lib/core/error.hpp"

namespace voxkit::mesh_export {

std::string assimp_version() {
  try {
    return assimp::api().version();
  } catch (const Error& e) {
    return "unavailable (" + e.reason() + ")";
  }
}

}  // namespace voxkit::mesh_export
