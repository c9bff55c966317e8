// `info` describers for the grass files (docs/info-json.md, "grass-type", "camera-path"): a
// grass type in any of its syntaxes, and the camera paths of `grass residency`.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::grass {

// A .vxgrass file by its name (a data error when it does not read), or a .toml/.json file that
// reads as a grass type; nothing otherwise.
std::optional<identify::Description> describe_grass_type(std::span<const uint8_t> bytes, const std::string& name);

// A camera path that reads whole and holds at least one view (a loose text format: nothing
// otherwise).
std::optional<identify::Description> describe_camera_path(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::grass
