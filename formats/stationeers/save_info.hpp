// `voxkit info` describers for Stationeers .save archives and world.xml documents.
#pragma once

#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "formats/core/identify.hpp"
#include "lib/core/box.hpp"

namespace voxkit::save_info {

// A ZIP holding world.xml or terrain.dat: its members, world.xml's rooms and checksums, and
// terrain.dat's maxDepth. A ZIP without them is not claimed; a damaged one throws.
std::optional<identify::Description> describe_save(std::span<const uint8_t> bytes,
                                                   const std::string& name);

// An XML document whose root is <WorldData>: rooms, cells, their bounding box (margin 0)
// and the terrain chunk checksums.
std::optional<identify::Description> describe_world_xml(std::span<const uint8_t> bytes,
                                                        const std::string& name);

// A room box as JSON ({"min": [x, y, z], "max": [...]}, null when empty) and as text
// ("(x, y, z) .. (x, y, z)", "-" when empty).
nlohmann::json box_json(const Box3i& b);
std::string box_text(const Box3i& b);

}  // namespace voxkit::save_info
