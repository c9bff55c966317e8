// The functions of the GDAL plug-in (formats/image/gdal/), gathered into its Api table by
// plugin.cpp. Built only into voxkit-gdal.so, never into voxkit itself.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/core/identify.hpp"
#include "formats/image/heightmap.hpp"
#include "lib/bake/bake.hpp"

namespace voxkit::heightmap {
Heightfield read_gdal(const std::string& path, const Options& o, Info* info);
std::vector<RasterPart> raster_parts_gdal(const std::string& path, const Options& o);
}  // namespace voxkit::heightmap

namespace voxkit::splat {
SplatImage read_gdal(const std::string& path);
}  // namespace voxkit::splat

namespace voxkit::image {
std::optional<identify::Description> describe_raster_gdal(std::span<const uint8_t> bytes);
}  // namespace voxkit::image
