// Stationeers world.xml: a tolerant reader for the rooms, and byte-level surgery on
// <TerrainChunkChecksums> that leaves every other byte as it was.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <string>
#include <vector>

#include "lib/octree/octree_shapes.hpp"

namespace voxkit::world_xml {

// Reads <Rooms><Room><Grids><Grid><x>..</x><y>..</y><z>..</z></Grid>... Tolerates the
// character references XML forbids (e.g. &#xB;). Throws a data error with the byte offset
// on a malformed rooms section.
// (Room boxes: octree::room_box, room_boxes, rooms_bounding_box.)
std::vector<octree::Room> read_rooms(std::string_view xml);

// The values of <TerrainChunkChecksums>, in order (the <int> children of every such
// element; an empty <int/> reads as 0). Throws a data error with the byte offset on a
// value that is not an integer.
std::vector<int64_t> read_checksums(std::string_view xml);

// Returns `xml` with the <TerrainChunkChecksums> values replaced (one value per existing
// entry, or all zero when `values` is empty); every other byte unchanged. Each value must
// fit a signed 32-bit int (the game's type; pass a uint32 checksum through int32_t).
// Throws a usage error when the count or a value does not fit.
std::string replace_checksums(std::string_view xml, const std::vector<int64_t>& values);

}  // namespace voxkit::world_xml
