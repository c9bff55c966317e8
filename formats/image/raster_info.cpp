#include "formats/image/raster_info.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>

#include "formats/image/gdal_plugin.hpp"
#include "formats/image/heightmap.hpp"

namespace voxkit::image {

std::optional<identify::Description> describe_raster(std::span<const uint8_t> bytes, const std::string& name) {
  if (heightmap::is_unity_raw(name)) {
    // Unity .raw: 16-bit little-endian heights, a square of side 2^n + 1 when not told.
    const uint64_t n = bytes.size() / 2;
    uint64_t side = 0;
    for (uint64_t s = 2; s <= 32769; s = (s - 1) * 2 + 1)
      if (s * s == n && bytes.size() % 2 == 0) side = s;
    if (side == 0) return std::nullopt;
    uint16_t lo = 65535, hi = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint16_t v = uint16_t(bytes[2 * i] | bytes[2 * i + 1] << 8);
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
    identify::Description d;
    d.format = "raster";
    d.summary = "Unity .raw heightmap, 16-bit little-endian";
    d.fields = {{"size", std::to_string(side) + " x " + std::to_string(side) + " samples"},
                {"values", std::to_string(lo) + " .. " + std::to_string(hi) + " of 65535"}};
    d.details = {{"driver", "Unity RAW"}, {"width", side}, {"height", side}, {"bands", 1}, {"type", "UInt16"},
                 {"min", lo}, {"max", hi}};
    return d;
  }
  // Anything GDAL opens (its plug-in).
  return gdal::api().describe_raster(bytes);
}

}  // namespace voxkit::image
