// The `info` describer of world and saves manifests (docs/info-json.md, "world-manifest").
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::world {

// A TOML manifest that reads whole (relative paths resolved beside `name`). A `.toml` file
// with a [world] or [saves] table that does not read is a data error (with its line); any
// other file that does not read is not claimed.
std::optional<identify::Description> describe_manifest(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::world
