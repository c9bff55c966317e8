#include "formats/image/image_versions.hpp"

#include <gdal.h>
#include <zlib.h>

namespace voxkit::image {

std::string gdal_library_version() { return GDALVersionInfo("RELEASE_NAME"); }
std::string zlib_library_version() { return zlibVersion(); }

}  // namespace voxkit::image
