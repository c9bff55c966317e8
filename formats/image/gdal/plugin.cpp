// The GDAL plug-in's entry point: its table of functions (formats/image/gdal_plugin.hpp).
#include <gdal.h>

#include "formats/image/gdal/plugin_internal.hpp"
#include "formats/image/gdal_plugin.hpp"

namespace {

std::string gdal_version() { return GDALVersionInfo("RELEASE_NAME"); }

const voxkit::gdal::Api kApi{voxkit::gdal::kPluginAbi,  voxkit::heightmap::read_gdal,
                             voxkit::heightmap::raster_parts_gdal, voxkit::splat::read_gdal,
                             voxkit::image::describe_raster_gdal, gdal_version};

}  // namespace

extern "C" __attribute__((visibility("default"))) const voxkit::gdal::Api* voxkit_gdal_plugin_api() { return &kApi; }
