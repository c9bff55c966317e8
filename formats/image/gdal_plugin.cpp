// Loading the GDAL plug-in on first use.
#include "formats/image/gdal_plugin.hpp"

#include <mutex>

#include "formats/core/diagnostics.hpp"
#include "formats/core/io.hpp"
#include "formats/core/plugin.hpp"
#include "formats/image/heightmap_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::gdal {
namespace {

// What the plug-in calls in the program that loads it. A program links from voxkit's static
// libraries only what it uses itself; naming these here links them wherever the loader is,
// so the plug-in always finds them (tests/checks/plugin_symbols.py compares this list with
// the plug-in's undefined symbols).
using Text = const std::string&;
[[gnu::used]] const void* const kPluginNeeds[] = {
    reinterpret_cast<const void*>(static_cast<void (*)(Text)>(&diag::warn)),
    reinterpret_cast<const void*>(static_cast<bool (*)(Text)>(&io::exists)),
    reinterpret_cast<const void*>(
        static_cast<void (*)(std::string, std::optional<uint64_t>, std::string, std::string)>(&throw_data)),
    reinterpret_cast<const void*>(static_cast<void (*)(std::string)>(&throw_usage)),
    reinterpret_cast<const void*>(static_cast<void (*)(std::string, const std::vector<Error::Hint>&)>(&throw_usage)),
    reinterpret_cast<const void*>(&heightmap::internal::window_span),
    reinterpret_cast<const void*>(&heightmap::internal::unity_height),
    reinterpret_cast<const void*>(&heightmap::internal::place_unity_frame),
    reinterpret_cast<const void*>(&heightmap::internal::kPlacementFix),
    reinterpret_cast<const void*>(&heightmap::internal::kPlacementHints),
};

std::once_flag once;
const Api* table = nullptr;
std::string failure;

}  // namespace

std::vector<std::string> plugin_paths() { return plugin::paths("voxkit-gdal.so"); }

const Api& api() {
  std::call_once(once, [] {
    try {
      table = static_cast<const Api*>(plugin::load(
          "voxkit-gdal.so", "voxkit_gdal_plugin_api", "reads rasters",
          [](const void* t) { return static_cast<const Api*>(t)->abi == kPluginAbi; }));
    } catch (const Error& e) {
      failure = e.reason();
    }
  });
  if (!table) throw Error(ErrorKind::Io, failure);
  return *table;
}

bool loaded() { return table != nullptr; }

}  // namespace voxkit::gdal
