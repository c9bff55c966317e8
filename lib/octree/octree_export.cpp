// A box of a terrain.dat delta as a dig zone (see lib/octree/octree_export.hpp).
#include "lib/octree/octree_export.hpp"

#include <algorithm>
#include <string>

#include "lib/core/error.hpp"
#include "lib/octree/octree_walk.hpp"

namespace voxkit::octree {

Zone export_zone(const DeltaView& v, const ExportOptions& o, ExportStats* stats) {
  const Box3i& wb = o.box;
  const int64_t size = int64_t(v.size()), org = v.origin();
  // World = octree - (origin, 0, origin).
  const Box3i world{{-org, 0, -org}, {size - 1 - org, size - 1, size - 1 - org}};
  for (int a = 0; a < 3; ++a) {
    if (wb.min[a] > wb.max[a]) throw_usage("export box " + to_string(wb) + " has min > max");
    if (wb.min[a] < world.min[a] || wb.max[a] > world.max[a]) {
      throw_usage("export box " + to_string(wb) + " is not inside the world (" + to_string(world) + ")");
    }
    if (wb.max[a] == wb.min[a]) {
      throw_usage("export box " + to_string(wb) + " must be at least 2 voxels on every axis (zone cells lie between voxels)");
    }
  }
  const uint64_t n[3] = {uint64_t(wb.max[0] - wb.min[0] + 1), uint64_t(wb.max[1] - wb.min[1] + 1),
                         uint64_t(wb.max[2] - wb.min[2] + 1)};
  // Each factor is at most 2^24, so the product fits in 64 bits.
  const uint64_t samples = n[0] * n[1] * n[2];
  if (samples > o.max_samples) {
    throw_usage("export box " + to_string(wb) + " holds " + std::to_string(samples) +
                " voxels, over the zone limit of " + std::to_string(o.max_samples) + " samples");
  }

  Zone z;
  ZoneMeta& m = z.meta;
  m.cells = Dims{uint32_t(n[0] - 1), uint32_t(n[1] - 1), uint32_t(n[2] - 1)};
  m.voxel_size = 1.0;
  m.origin = {double(wb.min[0]), double(wb.min[1]), double(wb.min[2])};
  m.edit_box.min = {0, 0, 0};
  m.edit_box.max = {int32_t(m.cells.nx), int32_t(m.cells.ny), int32_t(m.cells.nz)};
  m.hole = {double(wb.min[0]), double(wb.min[2]), double(wb.max[0]), double(wb.max[2])};
  m.height_min = double(wb.min[1]);
  m.height_max = double(wb.max[1]);
  m.source = o.source;

  const uint8_t fill = ice_to_sdf(o.unmodified == Unmodified::Solid ? 255 : 0);
  z.grid = ByteGrid(m.cells, fill);

  // The box in octree coordinates.
  const Box3i ob{{wb.min[0] + org, wb.min[1], wb.min[2] + org}, {wb.max[0] + org, wb.max[1], wb.max[2] + org}};
  ExportStats st;
  uint8_t* data = z.grid.data.data();
  const Dims& c = m.cells;
  walk(v.nodes, v.max_depth, [&](const NodeRef& nd) {
    ++st.nodes_visited;
    int64_t lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::max(nd.pos[size_t(a)], ob.min[a]);
      hi[a] = std::min(nd.pos[size_t(a)] + nd.size - 1, ob.max[a]);
      if (lo[a] > hi[a]) return false;
    }
    if (!nd.leaf()) return true;
    if (!nd.modified()) return false;
    const uint8_t s = ice_to_sdf(nd.density);
    const uint64_t run = uint64_t(hi[0] - lo[0] + 1);
    for (int64_t zz = lo[2]; zz <= hi[2]; ++zz)
      for (int64_t yy = lo[1]; yy <= hi[1]; ++yy) {
        const uint64_t at = c.index(uint64_t(lo[0] - ob.min[0]), uint64_t(yy - ob.min[1]), uint64_t(zz - ob.min[2]));
        std::fill_n(data + at, run, s);
      }
    st.modified_voxels += run * uint64_t(hi[1] - lo[1] + 1) * uint64_t(hi[2] - lo[2] + 1);
    return false;
  });
  st.unmodified_voxels = samples - st.modified_voxels;
  if (stats) *stats = st;
  return z;
}

}  // namespace voxkit::octree
