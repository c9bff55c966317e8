// Splat control images through stb_image, with GDAL (its plug-in) for the rasters stb does not read.
#include "formats/image/splat.hpp"

#include <stb_image.h>

#include <memory>

#include "formats/image/gdal_plugin.hpp"
#include "formats/core/io.hpp"
#include "formats/image/png.hpp"
#include "lib/core/error.hpp"

namespace voxkit::splat {

SplatImage read(const std::string& path) {
  return with_source(io::display_name(path), [&] {
    auto bytes = io::read_all(path, uint64_t(1) << 30);
    int w = 0, h = 0, n = 0;
    if (stbi_info_from_memory(bytes.data(), int(bytes.size()), &w, &h, &n)) {
      if (uint64_t(w) * uint64_t(h) > kMaxTexels) {
        throw_data("control image is larger than the limit of " + std::to_string(kMaxTexels) + " texels",
                   std::nullopt, "", std::to_string(w) + "x" + std::to_string(h));
      }
      stbi_uc* px = stbi_load_from_memory(bytes.data(), int(bytes.size()), &w, &h, &n, 0);
      if (!px) {
        // Say where a damaged PNG is damaged; stb_image only says what it disliked.
        if (png::looks_like_png(bytes)) png::check_structure(bytes);
        throw_data("cannot decode the image", std::nullopt, "image data stb_image can decode",
                   std::string("stb_image: ") + stbi_failure_reason());
      }
      SplatImage img;
      img.width = uint32_t(w);
      img.height = uint32_t(h);
      img.rgba.assign(size_t(w) * h * 4, 0);
      for (size_t t = 0; t < size_t(w) * h; ++t)
        for (int c = 0; c < n && c < 4; ++c) img.rgba[t * 4 + c] = px[t * n + c];
      stbi_image_free(px);
      return img;
    }
    if (png::looks_like_png(bytes)) png::check_structure(bytes);
    if (path == "-") throw_data("not an image stb_image can read");
    return gdal::api().read_image(path);
  });
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace voxkit::splat
