// voxkit's plug-ins: the parts that need a large library (GDAL: formats/image/gdal_plugin.hpp;
// Assimp: formats/mesh/assimp_plugin.hpp) are shared objects loaded the first time they are
// needed, so a run that does not need them starts without their libraries (docs/startup.md).
// A plug-in resolves voxkit's own functions in the program that loads it, which exports them.
#pragma once

#include <string>
#include <vector>

namespace voxkit::plugin {

// Where plug-in `file` ("voxkit-gdal.so") is looked for, in order: $VOXKIT_PLUGIN_DIR, beside
// the running program, ../lib/voxkit/ from it (an installed layout), the build tree.
std::vector<std::string> paths(const std::string& file);

// Loads `file` (once per process; it stays loaded) and returns what its function `entry`
// returns. An I/O error naming what the plug-in is for (`purpose`), where it was looked for
// and why each did not load. `accept` checks the table (its ABI number) before it is used.
const void* load(const std::string& file, const char* entry, const std::string& purpose,
                 bool (*accept)(const void* table));

}  // namespace voxkit::plugin
