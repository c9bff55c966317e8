// `voxkit info` describers for Stationeers terrain: terrain.dat deltas and Terrain{i}.dat
// base files (formats listed in docs/info-json.md).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::octree_identify {

// terrain.dat: claimed when it starts with maxDepth 10..12 and a node flags byte; damage
// past that is an error.
std::optional<identify::Description> describe_terrain_dat(std::span<const uint8_t> bytes,
                                                          const std::string& name);
// Terrain{i}.dat: claimed when it is a gzip stream whose content starts with a depth of
// 1..24; a damaged node stream is an error, a checksum mismatch is reported.
std::optional<identify::Description> describe_terrain_base(std::span<const uint8_t> bytes,
                                                           const std::string& name);

}  // namespace voxkit::octree_identify
