// Cave region labelling (6-connected flood fill over air points) and effective density.
#include "lib/caves/caves.hpp"

#include <string>

#include "lib/core/error.hpp"

namespace voxkit {

std::vector<uint16_t> CaveLabels::closed_ids() const {
  std::vector<uint16_t> ids;
  for (const CaveRegion& r : list)
    if (r.closed) ids.push_back(r.id);
  return ids;
}

CaveLabels label_caves(const ByteGrid& density, const CaveOptions& opts) {
  const Dims& d = density.cells;
  check_dims(d);
  if (density.data.size() != d.samples())
    throw_usage("density grid holds " + std::to_string(density.data.size()) +
                " points, its dimensions need " + std::to_string(d.samples()));
  CaveLabels out;
  out.regions.cells = d;
  out.regions.ids.assign(d.samples(), 0);
  uint16_t* ids = out.regions.ids.data();
  const int64_t sx = int64_t(d.sx()), sy = int64_t(d.sy()), sz = int64_t(d.sz());
  auto air = [&](uint64_t i) { return !sdf_solid(ice_to_sdf(density.data[i])); };

  std::vector<uint32_t> stack;
  for (uint64_t start = 0; start < d.samples(); ++start) {
    if (ids[start] != 0 || !air(start)) continue;
    if (out.list.size() == 0xffff)
      throw_data("too many cave regions in the density grid", std::nullopt, "at most 65535",
                 "more");
    CaveRegion r;
    r.id = uint16_t(out.list.size() + 1);
    r.first = {uint32_t(start % uint64_t(sx)), uint32_t(start / uint64_t(sx) % uint64_t(sy)),
               uint32_t(start / uint64_t(sx * sy))};
    bool open = false;
    ids[start] = r.id;
    stack.push_back(uint32_t(start));
    while (!stack.empty()) {
      const uint64_t i = stack.back();
      stack.pop_back();
      ++r.points;
      const int64_t x = int64_t(i % uint64_t(sx)), y = int64_t(i / uint64_t(sx) % uint64_t(sy)),
                    z = int64_t(i / uint64_t(sx * sy));
      const uint8_t faces = uint8_t((x == 0 ? kFaceMinX : 0) | (x == sx - 1 ? kFaceMaxX : 0) |
                                    (y == 0 ? kFaceMinY : 0) | (y == sy - 1 ? kFaceMaxY : 0) |
                                    (z == 0 ? kFaceMinZ : 0) | (z == sz - 1 ? kFaceMaxZ : 0));
      if (faces & opts.open_faces) open = true;
      auto visit = [&](bool inside, uint64_t j) {
        if (inside && ids[j] == 0 && air(j)) {
          ids[j] = r.id;
          stack.push_back(uint32_t(j));
        }
      };
      visit(x > 0, i - 1);
      visit(x < sx - 1, i + 1);
      visit(y > 0, i - uint64_t(sx));
      visit(y < sy - 1, i + uint64_t(sx));
      visit(z > 0, i - uint64_t(sx * sy));
      visit(z < sz - 1, i + uint64_t(sx * sy));
    }
    r.closed = !open;
    out.list.push_back(r);
  }
  return out;
}

ByteGrid effective_sdf(const ByteGrid& density, const RegionGrid* regions,
                       std::span<const uint16_t> closed) {
  check_dims(density.cells);
  if (density.data.size() != density.cells.samples())
    throw_usage("density grid holds " + std::to_string(density.data.size()) +
                " points, its dimensions need " + std::to_string(density.cells.samples()));
  if (regions && (!(regions->cells == density.cells) ||
                  regions->ids.size() != density.data.size()))
    throw_usage("the region grid's dimensions differ from the density grid's");
  std::vector<uint8_t> is_closed(65536, 0);
  for (uint16_t id : closed)
    if (id != 0) is_closed[id] = 1;
  ByteGrid out;
  out.cells = density.cells;
  out.data.resize(density.data.size());
  for (size_t i = 0; i < density.data.size(); ++i) {
    const bool solidify = regions && is_closed[regions->ids[i]];
    out.data[i] = ice_to_sdf(solidify ? uint8_t(255) : density.data[i]);
  }
  return out;
}

}  // namespace voxkit
