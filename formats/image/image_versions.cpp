#include "formats/image/image_versions.hpp"

#include <zlib.h>

#include "formats/image/gdal_plugin.hpp"
#include "lib/core/error.hpp"

namespace voxkit::image {

std::string gdal_library_version() {
  try {
    return gdal::api().version();
  } catch (const Error& e) {
    return "unavailable (" + e.reason() + ")";
  }
}
std::string zlib_library_version() { return zlibVersion(); }

}  // namespace voxkit::image
