// PNG top views of a terrain.dat: where the terrain is modified (png::encode).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "lib/bake/preview_text.hpp"
#include "lib/octree/octree_stats.hpp"

namespace voxkit::octree_map {

// RGB pixels of the map, north (max z) up like the zone previews: row 0 is the highest z,
// column 0 the lowest x. Unmodified columns dark grey, modified ones from dark red (a few
// voxels) to yellow (the most in any pixel), on a log scale.
std::vector<uint8_t> render_rgb(const octree::TopMap& m);

// The map inside the preview frame (docs/preview.md): world coordinates (1 m voxels, the
// octree's centre column at x = z = 0, as `octree export --box` takes them) on two edges, a scale bar, a north mark, the count colour bar and the legend.
Framed render(const octree::TopMap& m, const std::string& title);

// Encodes render(m, title) as a PNG and writes it atomically.
void write_png(const std::string& path, const octree::TopMap& m, io::OutputOptions opts,
               const std::string& title = "terrain.dat");

}  // namespace voxkit::octree_map
