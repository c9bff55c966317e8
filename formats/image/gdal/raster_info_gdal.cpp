// What `info` says about a raster GDAL opens: the GDAL plug-in's half of
// formats/image/raster_info.hpp.
#include <cpl_vsi.h>
#include <gdal.h>
#include <ogr_srs_api.h>

#include <atomic>
#include <cmath>
#include <cstdio>

#include "formats/image/gdal/plugin_internal.hpp"

namespace voxkit::image {
namespace {

std::string g(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

}  // namespace

std::optional<identify::Description> describe_raster_gdal(std::span<const uint8_t> bytes) {
  // Read from memory.
  GDALAllRegister();
  static std::atomic<uint64_t> counter{0};
  const std::string path = "/vsimem/voxkit_info_" + std::to_string(counter++);
  VSILFILE* f = VSIFileFromMemBuffer(path.c_str(), const_cast<GByte*>(bytes.data()), vsi_l_offset(bytes.size()), FALSE);
  if (!f) return std::nullopt;
  VSIFCloseL(f);
  const char* const drivers[] = {"GTiff", "PNG", "JPEG", "BMP", "GIF", "AAIGrid", "EHdr", "ENVI", "HFA", "netCDF",
                                 "XYZ", "VRT", "USGSDEM", "SRTMHGT", "GSBG", "GS7BG", "PNM", nullptr};
  CPLPushErrorHandler(CPLQuietErrorHandler);
  GDALDatasetH ds = GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, drivers, nullptr, nullptr);
  CPLPopErrorHandler();
  std::optional<identify::Description> out;
  if (ds) {
    identify::Description d;
    const int w = GDALGetRasterXSize(ds), h = GDALGetRasterYSize(ds), bands = GDALGetRasterCount(ds);
    const char* drv = GDALGetDriverShortName(GDALGetDatasetDriver(ds));
    GDALRasterBandH b1 = bands > 0 ? GDALGetRasterBand(ds, 1) : nullptr;
    const char* type = b1 ? GDALGetDataTypeName(GDALGetRasterDataType(b1)) : "none";
    d.format = "raster";
    d.summary = std::string("raster (") + drv + ")";
    d.fields = {{"size", std::to_string(w) + " x " + std::to_string(h) + " pixels"},
                {"bands", std::to_string(bands) + " of " + type}};
    d.details = {{"driver", drv}, {"width", w}, {"height", h}, {"bands", bands}, {"type", type}};
    double gt[6];
    if (GDALGetGeoTransform(ds, gt) == CE_None) {
      d.fields.emplace_back("origin", g(gt[0]) + ", " + g(gt[3]));
      d.fields.emplace_back("pixel", g(gt[1]) + " x " + g(gt[5]));
      d.details["geotransform"] = {gt[0], gt[1], gt[2], gt[3], gt[4], gt[5]};
    }
    const char* wkt = GDALGetProjectionRef(ds);
    if (wkt && *wkt) {
      OGRSpatialReferenceH srs = OSRNewSpatialReference(wkt);
      std::string crs = "custom";
      if (srs) {
        OSRAutoIdentifyEPSG(srs);
        const char* auth = OSRGetAuthorityName(srs, nullptr);
        const char* code = OSRGetAuthorityCode(srs, nullptr);
        if (auth && code) crs = std::string(auth) + ":" + code;
        OSRDestroySpatialReference(srs);
      }
      d.fields.emplace_back("crs", crs);
      d.details["crs"] = crs;
    }
    if (b1) {
      int has = 0;
      const double nodata = GDALGetRasterNoDataValue(b1, &has);
      if (has) {
        d.fields.emplace_back("nodata", g(nodata));
        d.details["nodata"] = nodata;
      }
      double mm[2];
      CPLPushErrorHandler(CPLQuietErrorHandler);
      const bool ok = GDALComputeRasterMinMax(b1, FALSE, mm) == CE_None;
      CPLPopErrorHandler();
      if (ok) {
        d.fields.emplace_back("band 1", g(mm[0]) + " .. " + g(mm[1]));
        d.details["min"] = mm[0];
        d.details["max"] = mm[1];
      }
    }
    GDALClose(ds);
    out = std::move(d);
  }
  VSIUnlink(path.c_str());
  return out;
}

}  // namespace voxkit::image
