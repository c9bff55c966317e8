// Assimp lives in a plug-in (formats/mesh/assimp/, built as voxkit-assimp.so beside the voxkit
// binary) loaded the first time an FBX file is written: voxkit writes glTF, OBJ, PLY and STL
// itself, and every other run starts without Assimp's libraries (formats/core/plugin.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/mesh/mesh_export.hpp"

namespace voxkit::assimp {

// Bumped whenever Api changes: a plug-in of another build is refused, not called.
inline constexpr uint32_t kPluginAbi = 1;

struct Api {
  uint32_t abi = kPluginAbi;
  // The FBX file Assimp writes for the objects (before voxkit's repairs, fixup::fbx).
  std::vector<uint8_t> (*export_fbx)(std::span<const ExportObject> objects, const MeshExportOptions& opts);
  // Assimp's version, major.minor.patch.
  std::string (*version)();
};

// The plug-in's functions, loading it on first use (thread-safe); an I/O error when it cannot.
const Api& api();

}  // namespace voxkit::assimp
