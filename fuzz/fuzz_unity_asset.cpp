// Fuzz target: DigZoneData asset import and export. Imports, exports the zone back into the
// same text, and checks that importing the result gives the same grids.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "formats/zone/unity_asset.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  voxkit::Zone zone;
  try {
    zone = voxkit::unity::import_asset(text, "fuzz");
  } catch (const voxkit::Error&) {
    return 0;
  }
  std::string out;
  try {
    out = voxkit::unity::export_asset(text, zone);
  } catch (const voxkit::Error&) {
    return 0;  // e.g. an asset of 0.3 without RLE fields
  }
  voxkit::Zone back = voxkit::unity::import_asset(out, "fuzz");
  if (back.grid.data != zone.grid.data || back.baked.data != zone.baked.data ||
      back.paint.data != zone.paint.data || !(back.meta.cells == zone.meta.cells) ||
      !(back.meta.edit_box == zone.meta.edit_box)) {
    std::abort();
  }
  return 0;
}
