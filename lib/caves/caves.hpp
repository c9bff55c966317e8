// Cave regions of ice density modules (0 empty .. 255 solid, surface 128): labelling the
// air into regions, finding the enclosed pockets, and the effective density to mesh, in
// which a point of a still-closed region counts as solid ice.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/grid.hpp"

namespace voxkit {

// One region id per point, in the same layout as the density grid: 0 is solid ice.
struct RegionGrid {
  Dims cells;
  std::vector<uint16_t> ids;
};

// Faces of the module box; air touching an open face is open air.
enum CaveFace : uint8_t {
  kFaceMinX = 1, kFaceMaxX = 2, kFaceMinY = 4, kFaceMaxY = 8, kFaceMinZ = 16, kFaceMaxZ = 32,
  kAllFaces = 63,
};

struct CaveOptions {
  uint8_t open_faces = kAllFaces;  // CaveFace bits
};

struct CaveRegion {
  uint16_t id = 0;
  uint64_t points = 0;
  std::array<uint32_t, 3> first{0, 0, 0};  // its first point in sample order
  bool closed = false;                      // touches no open face
};

struct CaveLabels {
  RegionGrid regions;
  std::vector<CaveRegion> list;  // region id i at list[i - 1]
  std::vector<uint16_t> closed_ids() const;
};

// A point is air when its density is 128 or less (it is ice above 128, as ice_to_sdf and
// sdf_solid agree). Air points are grouped into 6-connected regions with ids 1, 2, ...
// in the order of each region's first point in sample order (x fastest, then y, then z),
// open air included; a region is closed when it touches none of the open faces. Throws a
// data error when the air splits into more than 65535 regions.
CaveLabels label_caves(const ByteGrid& density, const CaveOptions& opts = {});

// The SDF byte grid to mesh (lib/core/grid.hpp ice_to_sdf), where every point whose region id
// is listed in `closed` becomes solid ice (density 255) first. `regions` may be null (no
// region grid: the plain conversion). Throws a usage error when the region grid's
// dimensions or size do not match the density grid's.
ByteGrid effective_sdf(const ByteGrid& density, const RegionGrid* regions,
                       std::span<const uint16_t> closed);

}  // namespace voxkit
