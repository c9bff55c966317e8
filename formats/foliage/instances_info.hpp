// `info` describers of the foliage inputs of `voxkit foliage bake` (docs/info-json.md,
// "foliage-list", "unity-terrain-data").
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::foliage_io {

// A CSV or JSON instance list that reads whole as trees, details or surface details (which
// of them it reads as is in the description) and holds at least one instance; nothing
// otherwise (a loose text format). Terrain-normalised tree positions (px, py, pz) are
// described as given.
std::optional<identify::Description> describe_list(std::span<const uint8_t> bytes, const std::string& name);

// A Unity TerrainData asset (YAML with m_TreeInstances): its trees, prototypes and size; a
// data error when it looks like one but does not read.
std::optional<identify::Description> describe_terrain_data(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::foliage_io
