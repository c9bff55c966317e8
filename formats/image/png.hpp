// PNG encoding of preview pictures (stb_image_write).
#pragma once

#include <cstdint>
#include <vector>

#include "lib/bake/preview.hpp"

namespace voxkit::png {

std::vector<uint8_t> encode(const RgbImage& img);

}  // namespace voxkit::png
