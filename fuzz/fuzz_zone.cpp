// Fuzz target: zone file reader. Reads, then checks that write -> read -> write is a fixed point.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxkit::zone_file::ReadOptions opts;
  // The CLI reads zones with the default cap (ReadOptions::max_samples).
  voxkit::Zone zone;
  try {
    zone = voxkit::read_zone(std::span<const uint8_t>(data, size), opts);
  } catch (const voxkit::Error&) {
    return 0;
  }
  // The header alone must read the same metadata.
  if (voxkit::read_zone_meta(std::span<const uint8_t>(data, size)).cells != zone.meta.cells) std::abort();
  auto written = voxkit::write_zone(zone);
  auto again = voxkit::read_zone(written, opts);
  if (again.grid.data != zone.grid.data || again.baked.data != zone.baked.data ||
      again.paint.data != zone.paint.data || again.height.values != zone.height.values ||
      again.filled.values != zone.filled.values ||
      again.splat.size() != zone.splat.size() || again.unknown_sections.size() != zone.unknown_sections.size() ||
      again.foliage.mask != zone.foliage.mask || again.foliage.trees.size() != zone.foliage.trees.size()) {
    std::abort();
  }
  if (voxkit::write_zone(again) != written) std::abort();
  return 0;
}
