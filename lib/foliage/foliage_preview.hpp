// The foliage view of `voxkit preview`: the mask from above with the trees and surface
// details on it, and the legend that explains its colours.
#pragma once

#include <vector>

#include "lib/bake/preview.hpp"
#include "lib/bake/preview_text.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::foliage {

// One pixel per column, north (max z) up as the top view: standing columns green (lighter
// higher), fallen orange, erased violet, no surface black; surface details and trees as
// single pixels over them (standing white / cyan, fallen red / blue, erased magenta). The
// frame holds the world axes, the anchor-height bar of standing columns and the legend
// (each colour with its count). Throws a usage error when the zone has no baked foliage.
View preview(const Zone& zone);
// The colours of `preview`, each with its count.
std::vector<LegendEntry> legend(const Zone& zone);

}  // namespace voxkit::foliage
