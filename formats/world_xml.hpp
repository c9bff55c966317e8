// Stationeers world.xml: a tolerant reader for the rooms, and byte-level surgery on
// <TerrainChunkChecksums> that leaves every other byte as it was.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <string>
#include <vector>

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

// The values of <TerrainChunkChecksums>, in order.
std::vector<int64_t> read_checksums(std::string_view xml);

// Returns `xml` with the <TerrainChunkChecksums> values replaced (one value per existing
// entry, or all zero when `values` is empty); every other byte unchanged.
std::string replace_checksums(std::string_view xml, const std::vector<int64_t>& values);

}  // namespace voxkit::world_xml
