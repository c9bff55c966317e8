// Loading the Assimp plug-in on first use.
#include "formats/mesh/assimp_plugin.hpp"

#include <mutex>

#include "formats/core/plugin.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh_ops.hpp"

namespace voxkit::assimp {
namespace {

// What the plug-in calls in the program that loads it, linked wherever the loader is
// (tests/checks/plugin_symbols.py checks the programs export all it needs).
[[gnu::used]] const void* const kPluginNeeds[] = {
    reinterpret_cast<const void*>(&check_mesh),
    reinterpret_cast<const void*>(&format_has_colors),
    reinterpret_cast<const void*>(&format_has_uv),
    reinterpret_cast<const void*>(&format_has_uv1),
};

std::once_flag once;
const Api* table = nullptr;
std::string failure;

}  // namespace

const Api& api() {
  std::call_once(once, [] {
    try {
      table = static_cast<const Api*>(plugin::load(
          "voxkit-assimp.so", "voxkit_assimp_plugin_api", "writes FBX files",
          [](const void* t) { return static_cast<const Api*>(t)->abi == kPluginAbi; }));
    } catch (const Error& e) {
      failure = e.reason();
    }
  });
  if (!table) throw Error(ErrorKind::Io, failure);
  return *table;
}

}  // namespace voxkit::assimp
