// Stationeers world.xml: a tolerant reader for the rooms, and byte-level surgery on
// <TerrainChunkChecksums> that leaves every other byte as it was.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <string>
#include <vector>

#include "lib/core/box.hpp"

namespace voxkit::world_xml {

// One <Grid> of a <Room>: X, Y, Z as written (10x world voxels).
struct RoomCell {
  int64_t x = 0, y = 0, z = 0;
};
struct Room {
  std::vector<RoomCell> cells;
};

// Reads <Rooms><Room><Grids><Grid><x>..</x><y>..</y><z>..</z></Grid>... Tolerates the
// character references XML forbids (e.g. &#xB;). Throws a data error with the byte offset
// on a malformed rooms section.
std::vector<Room> read_rooms(std::string_view xml);

// The values of <TerrainChunkChecksums>, in order (the <int> children of every such
// element; an empty <int/> reads as 0). Throws a data error with the byte offset on a
// value that is not an integer.
std::vector<int64_t> read_checksums(std::string_view xml);

// Returns `xml` with the <TerrainChunkChecksums> values replaced (one value per existing
// entry, or all zero when `values` is empty); every other byte unchanged. Each value must
// fit a signed 32-bit int (the game's type; pass a uint32 checksum through int32_t).
// Throws a usage error when the count or a value does not fit.
std::string replace_checksums(std::string_view xml, const std::vector<int64_t>& values);

// World-voxel box of one room: each cell's 2x2x2 voxels from floor(X/10), floor(Y/10),
// floor(Z/10), grown by `margin` voxels on every side. A room without cells is empty.
Box3i room_box(const Room& room, int64_t margin);
// One box per room that has cells, in room order.
std::vector<Box3i> room_boxes(const std::vector<Room>& rooms, int64_t margin);
// The single bounding box of every room's cells plus margin: the region the public
// offline reset tool keeps (empty when there are no cells).
Box3i rooms_bbox(const std::vector<Room>& rooms, int64_t margin);

}  // namespace voxkit::world_xml
