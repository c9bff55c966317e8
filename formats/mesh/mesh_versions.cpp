#include "formats/mesh/mesh_versions.hpp"

#include <assimp/version.h>

namespace voxkit::mesh_export {

std::string assimp_version() {
  return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
         std::to_string(aiGetVersionPatch());
}

}  // namespace voxkit::mesh_export
