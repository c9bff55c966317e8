// Fuzz target: the zone file's HCUT section payload. What decodes must encode back to the
// same bytes, and its raster (when the resolution is known) must be buildable.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/zone/zone_hole_cut.hpp"
#include "lib/bake/hole_cut.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxkit::ZoneHoleCut c;
  try {
    c = voxkit::zone_file::decode_hole_cut(std::span<const uint8_t>(data, size));
  } catch (const voxkit::Error&) {
    return 0;
  }
  const auto again = voxkit::zone_file::encode_hole_cut(c);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  // Keep the raster small enough for a quick run: 4096^2 bytes at most.
  if (c.resolution > 0 && c.resolution <= 4096) {
    const auto r = voxkit::hole_raster(c, nullptr, false);
    if (r.size() != uint64_t(c.resolution) * c.resolution) std::abort();
  }
  return 0;
}
