// The GDAL and zlib this build runs with, for `voxkit --version`.
#pragma once

#include <string>

namespace voxkit::image {

std::string gdal_library_version();  // GDAL's release name, e.g. "3.6.2"
std::string zlib_library_version();  // zlibVersion()

}  // namespace voxkit::image
