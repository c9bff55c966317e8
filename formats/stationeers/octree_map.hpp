// PNG top views of a terrain.dat: where the terrain is modified (png::encode).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "lib/octree/octree_stats.hpp"

namespace voxkit::octree_map {

// RGB pixels of the map: unmodified columns dark grey, modified ones from dark red (a few
// voxels) to yellow (the most in any pixel), on a log scale. Row 0 is the lowest z.
std::vector<uint8_t> render_rgb(const octree::TopMap& m);

// Encodes render_rgb(m) as a PNG and writes it atomically.
void write_png(const std::string& path, const octree::TopMap& m, io::OutputOptions opts);

}  // namespace voxkit::octree_map
