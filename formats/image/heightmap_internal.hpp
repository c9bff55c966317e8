// What the heightmap readers share between voxkit and its GDAL plug-in (formats/image/gdal/):
// Unity's placement, the window of samples to read, the placement messages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/image/heightmap.hpp"
#include "lib/core/error.hpp"

namespace voxkit::heightmap::internal {

// What a raster without a placement needs, and the options that give it.
extern const std::string kPlacementFix;
extern const std::vector<Error::Hint> kPlacementHints;

// Unity's placement of a w x d terrain (hf.width, hf.depth set): spacing and origin.
void place_unity_frame(Heightfield& hf, const Options& o);
// World height of a normalised sample (NaN stays NaN).
float unity_height(float v, const Options& o);

// The samples to read: all of them, or those of the window plus one around (clamped).
struct Span {
  uint32_t i0 = 0, i1 = 0, j0 = 0, j1 = 0;  // inclusive, row 0 at min z
};
Span window_span(const Heightfield& hf, const Options& o);

}  // namespace voxkit::heightmap::internal
