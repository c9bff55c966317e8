// Fuzz target: world.xml rooms and TerrainChunkChecksums. Reads both; when they read,
// replaces the checksums and checks that reading gives the new values back, that the
// rooms are unchanged, and that putting the old values back restores every byte.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "formats/stationeers/world_xml.hpp"
#include "lib/core/error.hpp"

using namespace voxkit::world_xml;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view doc(reinterpret_cast<const char*>(data), size);
  std::vector<voxkit::octree::Room> rooms;
  std::vector<int64_t> sums;
  try {
    rooms = read_rooms(doc);
    sums = read_checksums(doc);
  } catch (const voxkit::Error&) {
    return 0;
  }
  for (auto& r : rooms) (void)voxkit::octree::room_box(r, 3);
  (void)voxkit::octree::rooms_bounding_box(rooms, 3);
  bool fits = true;
  for (int64_t v : sums) fits = fits && v >= INT32_MIN && v <= INT32_MAX;
  std::vector<int64_t> fresh(sums.size());
  for (size_t i = 0; i < fresh.size(); ++i) fresh[i] = int64_t(i * 2654435761u % 4000000000u) - 2000000000;
  std::string changed = replace_checksums(doc, fresh);
  if (read_checksums(changed) != fresh) std::abort();
  auto again = read_rooms(changed);
  if (again.size() != rooms.size()) std::abort();
  for (size_t i = 0; i < rooms.size(); ++i) {
    if (again[i].cells.size() != rooms[i].cells.size()) std::abort();
    for (size_t j = 0; j < rooms[i].cells.size(); ++j)
      if (again[i].cells[j].x != rooms[i].cells[j].x || again[i].cells[j].y != rooms[i].cells[j].y ||
          again[i].cells[j].z != rooms[i].cells[j].z)
        std::abort();
  }
  // Empty <int/> entries become <int>0</int>, so only documents without them restore.
  if (fits && doc.find("<int/>") == std::string_view::npos &&
      doc.find("<int />") == std::string_view::npos) {
    std::string back = replace_checksums(changed, sums);
    if (back != doc) {
      // A value written as "+5" or "007" comes back as "5" and "7": compare as numbers.
      if (read_checksums(back) != sums) std::abort();
    }
  }
  return 0;
}
