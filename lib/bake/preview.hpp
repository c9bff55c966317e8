// Preview pictures of a zone (RGB, 8 bits a channel): a hillshaded top view of the surface,
// a vertical slice through the SDF, and chunk occupancy, each with the frame that explains
// it (lib/bake/preview_text.hpp). Encoding to PNG is formats/png. docs/preview.md.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/bake/preview_text.hpp"
#include "lib/core/zone.hpp"

namespace voxkit {

// A picture (one pixel per sample column, chunk, ...) and its frame: world axes, colour bars
// and legend; the caller sets the title and calls frame_picture.
struct View {
  RgbImage img;
  MapFrame frame;
};

// Height of the top surface in each column (voxels above sample 0): the highest crossing
// from solid to air, interpolated between the two samples; -1 where the column has no solid.
std::vector<float> top_surface(const ByteGrid& grid);

// Top view, north (max z) up: one pixel per column, row 0 = z = nz. The top surface's
// height as colour, hillshaded by a light from the north-west (normals from the surface
// smoothed over about 1.5 columns, so the flat triangles of a coarse heightmap do not show
// as a checkerboard); columns with sculpted samples (current != baked) tinted red. `filled`
// ((nx+1)(nz+1) bytes, x fastest, non-zero = the column's height came from filled NoData)
// draws those columns hatched.
View view_top(const Zone& zone, const std::vector<uint8_t>* filled = nullptr);

// Vertical slice at x = index (axis 'x', the picture spans z) or z = index (spans x), up is
// up: solid in browns (darker deeper), air in blues, the surface as a dark line.
// Throws a usage error for an index outside the grid.
View view_slice(const Zone& zone, char axis, uint32_t index);

// Chunk columns seen from above (north up), one square of `cell` pixels per chunk column:
// red where a chunk is sculpted, green (brighter with more chunks) where chunks hold
// surface, grey where every chunk is uniform.
View view_chunks(const Zone& zone, uint32_t cell = 12);

// Nearest-neighbour enlargement by an integer factor.
RgbImage upscale(const RgbImage& img, uint32_t factor);
// Enlarges the view's picture and scales its axes to match.
void enlarge(View& v, uint32_t factor);

}  // namespace voxkit
