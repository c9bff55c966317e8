// Control images GDAL reads (every raster stb_image does not): the GDAL plug-in's half of
// formats/image/splat.hpp.
#include <gdal_priv.h>

#include <algorithm>
#include <memory>

#include "formats/image/gdal/gdal_messages.hpp"
#include "formats/image/gdal/plugin_internal.hpp"
#include "formats/image/splat.hpp"
#include "lib/core/error.hpp"

namespace voxkit::splat {

SplatImage read_gdal(const std::string& path) {
  GDALAllRegister();
  gdal::GdalMessages gdal_said(path);
  std::unique_ptr<GDALDataset, void (*)(GDALDataset*)> ds(
      GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY),
      [](GDALDataset* d) { GDALClose(d); });
  if (!ds) throw_data("not an image stb_image or GDAL can read (" + gdal_said.take() + ")");
  SplatImage img;
  img.width = uint32_t(ds->GetRasterXSize());
  img.height = uint32_t(ds->GetRasterYSize());
  if (uint64_t(img.width) * img.height > kMaxTexels) {
    throw_data("control image is larger than the limit of " + std::to_string(kMaxTexels) + " texels");
  }
  img.rgba.assign(size_t(img.width) * img.height * 4, 0);
  const int bands = std::min(4, ds->GetRasterCount());
  for (int b = 0; b < bands; ++b) {
    // Clamped to 0..255 by RasterIO; an interleaved write with a 4-byte pixel stride.
    if (ds->GetRasterBand(b + 1)->RasterIO(GF_Read, 0, 0, int(img.width), int(img.height),
                                           img.rgba.data() + b, int(img.width), int(img.height),
                                           GDT_Byte, 4, int64_t(img.width) * 4) != CE_None) {
      throw_data("cannot read band " + std::to_string(b + 1) + ": " + gdal_said.take());
    }
  }
  return img;
}

}  // namespace voxkit::splat
