// Fuzz target: the zone file's FOLI section payload, for a fixed 6x5x7 zone with 4-cell
// chunks. What decodes must encode back to the same bytes and survive a full re-check.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/zone/zone_foliage.hpp"
#include "lib/core/error.hpp"
#include "lib/foliage/foliage.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxkit::ZoneMeta m;
  m.cells = {6, 5, 7};
  m.chunk_cells = 4;
  voxkit::ZoneFoliage f;
  try {
    f = voxkit::zone_file::decode_foliage(std::span<const uint8_t>(data, size), m);
  } catch (const voxkit::Error&) {
    return 0;
  }
  const auto again = voxkit::zone_file::encode_foliage(f, m);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  voxkit::ByteGrid g(m.cells, 0);
  for (uint64_t i = 0; i < g.data.size(); ++i) g.data[i] = uint8_t(i * 29);
  voxkit::foliage::recheck_all(g, m.chunk_cells, f);
  (void)voxkit::foliage::counts(f, m.cells);
  (void)voxkit::foliage::diff(f, m.cells);
  return 0;
}
