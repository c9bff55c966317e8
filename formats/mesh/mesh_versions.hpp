// The Assimp this build runs with, for `voxkit --version`.
#pragma once

#include <string>

namespace voxkit::mesh_export {

std::string assimp_version();  // major.minor.revision

}  // namespace voxkit::mesh_export
