// PNG encoding through stb_image_write, into memory (the caller writes the file atomically).
#include "formats/image/png.hpp"

#include <stb_image_write.h>

#include "lib/core/error.hpp"

namespace voxkit::png {

std::vector<uint8_t> encode(const RgbImage& img) {
  if (img.width == 0 || img.height == 0 || img.rgb.size() != size_t(img.width) * img.height * 3) {
    throw_usage("cannot encode an empty picture as PNG");
  }
  std::vector<uint8_t> out;
  auto sink = [](void* ctx, void* data, int size) {
    auto* v = static_cast<std::vector<uint8_t>*>(ctx);
    auto* p = static_cast<uint8_t*>(data);
    v->insert(v->end(), p, p + size);
  };
  if (!stbi_write_png_to_func(sink, &out, int(img.width), int(img.height), 3, img.rgb.data(),
                              int(img.width) * 3)) {
    throw Error(ErrorKind::Io, "PNG encoding failed");
  }
  return out;
}

}  // namespace voxkit::png
