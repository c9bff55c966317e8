// `voxkit info` describers for Stationeers .save archives and world.xml documents.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::save_info {

// A ZIP holding world.xml or terrain.dat: its members, world.xml's rooms and checksums, and
// terrain.dat's maxDepth. A ZIP without them is not claimed; a damaged one throws.
std::optional<identify::Description> describe_save(std::span<const uint8_t> bytes,
                                                   const std::string& name);

// An XML document whose root is <WorldData>: rooms, cells, their bounding box (margin 0)
// and the terrain chunk checksums.
std::optional<identify::Description> describe_world_xml(std::span<const uint8_t> bytes,
                                                        const std::string& name);

}  // namespace voxkit::save_info
