// Loading the GDAL plug-in on first use.
#include "formats/image/gdal_plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "formats/core/diagnostics.hpp"
#include "formats/core/io.hpp"
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

const char* kName = "voxkit-gdal.so";
const char* kEntry = "voxkit_gdal_plugin_api";

std::once_flag once;
const Api* table = nullptr;
std::string failure;

void load() {
  std::string tried;
  for (const std::string& path : plugin_paths()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path + " (missing)";
      continue;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      tried += (tried.empty() ? "" : ", ") + path + " (" + (e ? e : "dlopen failed") + ")";
      continue;
    }
    using Entry = const Api* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(h, kEntry));
    const Api* api = entry ? entry() : nullptr;
    if (!api || api->abi != kPluginAbi) {
      tried += (tried.empty() ? "" : ", ") + path + " (from another build of voxkit)";
      dlclose(h);
      continue;
    }
    table = api;  // kept loaded for the life of the process
    return;
  }
  failure = "cannot load the GDAL plug-in " + std::string(kName) + ", which reads rasters: tried " + tried;
}

}  // namespace

std::vector<std::string> plugin_paths() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("VOXKIT_GDAL_PLUGIN"); env && *env) out.push_back(env);
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back((self.parent_path() / kName).string());
    out.push_back((self.parent_path().parent_path() / "lib" / "voxkit" / kName).string());
  }
#ifdef VOXKIT_GDAL_PLUGIN_BUILD
  out.push_back(VOXKIT_GDAL_PLUGIN_BUILD);
#endif
  return out;
}

const Api& api() {
  std::call_once(once, load);
  if (!table) throw Error(ErrorKind::Io, failure);
  return *table;
}

bool loaded() { return table != nullptr; }

}  // namespace voxkit::gdal
