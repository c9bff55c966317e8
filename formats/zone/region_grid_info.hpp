// The `info` describer of cave-region grids (docs/info-json.md, "region-grid"). The grid has
// no header, so it is only recognised with the module's cells.
#pragma once

#include <span>

#include "formats/core/identify.hpp"
#include "lib/core/grid.hpp"

namespace voxkit {

// `bytes` as the region grid of `cells` (2 bytes per sample; a data error for any other size):
// the regions, their points, ice points (id 0).
identify::Description describe_region_grid(std::span<const uint8_t> bytes, const Dims& cells);

}  // namespace voxkit
