// Preview pictures of a zone (RGB, 8 bits a channel): a hillshaded top view of the surface,
// a vertical slice through the SDF, and chunk occupancy. Encoding to PNG is formats/png.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/core/zone.hpp"

namespace voxkit {

struct RgbImage {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel, row 0 at the top
};

// Height of the top surface in each column (voxels above sample 0): the highest crossing
// from solid to air, interpolated between the two samples; -1 where the column has no solid.
std::vector<float> top_surface(const ByteGrid& grid);

// Top view, north (max z) up: the top surface's height as colour, shaded by a light from the
// north-west; columns with sculpted samples (current != baked) are tinted red.
RgbImage preview_top(const Zone& zone);

// Vertical slice at x = index (axis 'x', the picture spans z) or z = index (spans x), up is
// up: solid in browns (darker deeper), air in blues, the surface as a dark line.
// Throws a usage error for an index outside the grid.
RgbImage preview_slice(const Zone& zone, char axis, uint32_t index);

// Chunk columns seen from above (north up), one square of `cell` pixels per chunk column:
// red where a chunk is sculpted, green (brighter with more chunks) where chunks hold
// surface, grey where every chunk is uniform.
RgbImage preview_chunks(const Zone& zone, uint32_t cell = 12);

// Nearest-neighbour enlargement by an integer factor.
RgbImage upscale(const RgbImage& img, uint32_t factor);

}  // namespace voxkit
