// `info` describers for the grass files (docs/info-json.md, "grass-type"): a grass type in
// any of its syntaxes.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::grass {

// A .vxgrass file by its name (a data error when it does not read), or a .toml/.json file that
// reads as a grass type; nothing otherwise.
std::optional<identify::Description> describe_grass_type(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::grass
