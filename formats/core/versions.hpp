// What a voxkit binary is made of: its version and the versions of the libraries whose code
// decides output bytes (zlib: PNG and .save deflate; LZ4: chunk blocks; GDAL: heightmap
// reading and warping; Assimp: FBX and the other mesh formats it writes; meshoptimizer:
// vertex order; TBB: none, results never depend on it, listed for completeness).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace voxkit {

// {"voxkit": "0.1.0", "libraries": {"zlib": ..., "lz4": ..., "gdal": ..., "assimp": ...,
//  "tbb": ..., "meshoptimizer": ..., "toml++": ..., "nlohmann_json": ...}}
nlohmann::json build_versions();
// "voxkit 0.1.0" and one "  library version" line each.
std::string build_versions_text();

}  // namespace voxkit
