// Loading plug-ins.
#include "formats/core/plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "lib/core/error.hpp"

namespace voxkit::plugin {

std::vector<std::string> paths(const std::string& file) {
  std::vector<std::string> out;
  if (const char* env = std::getenv("VOXKIT_PLUGIN_DIR"); env && *env) out.push_back((std::filesystem::path(env) / file).string());
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back((self.parent_path() / file).string());
    out.push_back((self.parent_path().parent_path() / "lib" / "voxkit" / file).string());
  }
#ifdef VOXKIT_PLUGIN_BUILD_DIR
  out.push_back((std::filesystem::path(VOXKIT_PLUGIN_BUILD_DIR) / file).string());
#endif
  return out;
}

const void* load(const std::string& file, const char* entry, const std::string& purpose,
                 bool (*accept)(const void* table)) {
  std::string tried;
  auto note = [&](const std::string& path, const std::string& why) {
    tried += (tried.empty() ? "" : ", ") + path + " (" + why + ")";
  };
  for (const std::string& path : paths(file)) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      note(path, "missing");
      continue;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      note(path, e ? e : "dlopen failed");
      continue;
    }
    using Entry = const void* (*)();
    auto fn = reinterpret_cast<Entry>(dlsym(h, entry));
    const void* table = fn ? fn() : nullptr;
    if (!table || !accept(table)) {
      note(path, "from another build of voxkit");
      dlclose(h);
      continue;
    }
    return table;  // kept loaded for the life of the process
  }
  throw Error(ErrorKind::Io, "cannot load the plug-in " + file + ", which " + purpose + ": tried " + tried);
}

}  // namespace voxkit::plugin
