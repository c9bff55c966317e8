// GDAL lives in a plug-in (formats/image/gdal/, built as voxkit-gdal.so beside the voxkit
// binary) that is loaded the first time a raster is read: every other run of voxkit starts
// without GDAL and its hundred-odd shared libraries (docs/startup.md). The plug-in resolves
// voxkit's own functions (errors, I/O, the heightmap placement) from the program that loads
// it, which exports them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/core/identify.hpp"
#include "formats/image/heightmap.hpp"
#include "lib/bake/bake.hpp"

namespace voxkit::gdal {

// Bumped whenever Api changes: a plug-in of another build is refused, not called.
inline constexpr uint32_t kPluginAbi = 1;

struct Api {
  uint32_t abi = kPluginAbi;
  // heightmap::read for everything but Unity .raw files.
  Heightfield (*read_heightmap)(const std::string& path, const heightmap::Options& opts, heightmap::Info* info);
  // heightmap::raster_parts of a GDAL raster.
  std::vector<heightmap::RasterPart> (*raster_parts)(const std::string& path, const heightmap::Options& opts);
  // A control image GDAL reads (splat::read, for what stb_image does not read).
  SplatImage (*read_image)(const std::string& path);
  // info's description of a raster GDAL opens from memory, or nothing.
  std::optional<identify::Description> (*describe_raster)(std::span<const uint8_t> bytes);
  // GDAL's release name.
  std::string (*version)();
};

// The plug-in's functions, loading it on first use (thread-safe). An I/O error naming where
// it was looked for and why it did not load.
const Api& api();
// Whether it has been loaded (for tests of the start-up).
bool loaded();
// Where it is looked for, in order (formats/core/plugin.hpp).
std::vector<std::string> plugin_paths();

}  // namespace voxkit::gdal
