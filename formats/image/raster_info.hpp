// The `info` describer of rasters (heightmaps, splat and control images, masks): anything GDAL
// opens, and Unity's 16-bit .raw heightmaps by name (docs/info-json.md, "raster").
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::image {

std::optional<identify::Description> describe_raster(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::image
