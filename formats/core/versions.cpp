#include "formats/core/versions.hpp"

#include <tbb/version.h>

#include "formats/image/image_versions.hpp"
#include "formats/mesh/mesh_versions.hpp"
#include "lib/codec/lz4_block.hpp"
#include "lib/mesh/mesh_ops.hpp"

namespace voxkit {

nlohmann::json build_versions() {
  const int mo = meshoptimizer_version();
  return {{"voxkit", VOXKIT_VERSION},
          {"libraries",
           {{"zlib", image::zlib_library_version()},
            {"lz4", lz4::lz4_library_version()},
            {"gdal", image::gdal_library_version()},
            {"assimp", mesh_export::assimp_version()},
            {"tbb", TBB_runtime_version()},
            {"meshoptimizer", std::to_string(mo / 1000) + "." + std::to_string(mo % 1000 / 10)},
            {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_PATCH)}}}};
}

std::string build_versions_text() {
  const nlohmann::json j = build_versions();
  std::string s = "voxkit " + j["voxkit"].get<std::string>() + "\n";
  for (const auto& [name, v] : j["libraries"].items()) s += "  " + name + " " + v.get<std::string>() + "\n";
  return s;
}

}  // namespace voxkit
