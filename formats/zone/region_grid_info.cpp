#include "formats/zone/region_grid_info.hpp"

#include <algorithm>
#include <vector>

#include "formats/zone/region_grid.hpp"

namespace voxkit {

identify::Description describe_region_grid(std::span<const uint8_t> bytes, const Dims& cells) {
  const RegionGrid g = decode_region_grid(bytes, cells);
  std::vector<uint64_t> points(65536, 0);
  for (uint16_t id : g.ids) ++points[id];
  uint64_t regions = 0, largest_points = 0;
  uint32_t max_id = 0, largest = 0;
  for (uint32_t id = 1; id < 65536; ++id) {
    if (!points[id]) continue;
    ++regions;
    max_id = id;
    if (points[id] > largest_points) largest_points = points[id], largest = id;
  }
  const uint64_t samples = g.ids.size();
  identify::Description d;
  d.format = "region-grid";
  d.summary = "cave-region grid (uint16 per point)";
  d.fields = {{"cells", std::to_string(cells.nx) + " x " + std::to_string(cells.ny) + " x " + std::to_string(cells.nz)},
              {"regions", std::to_string(regions) + (regions == max_id ? " (ids 1.." + std::to_string(max_id) + ")"
                                                                       : " (largest id " + std::to_string(max_id) + ")")},
              {"ice points", std::to_string(points[0]) + " (" + identify::percent(points[0], samples) + ")"},
              {"cave points", std::to_string(samples - points[0]) + " (" +
                                  identify::percent(samples - points[0], samples) + ")"}};
  if (largest) d.fields.emplace_back("largest region", std::to_string(largest) + ": " + std::to_string(largest_points) + " points");
  d.details = {{"cells", {cells.nx, cells.ny, cells.nz}},
               {"samples", samples},
               {"regions", regions},
               {"max_id", max_id},
               {"ids_dense", regions == max_id},
               {"ice_points", points[0]},
               {"cave_points", samples - points[0]},
               {"largest_region", largest ? nlohmann::json{{"id", largest}, {"points", largest_points}}
                                          : nlohmann::json(nullptr)}};
  return d;
}

}  // namespace voxkit
