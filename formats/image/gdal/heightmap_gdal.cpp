// GDAL rasters as heightmaps (georeferencing, warping, windows) and the parts of a VRT: the
// GDAL plug-in's half of formats/image/heightmap.hpp.
#include <gdal_priv.h>
#include <gdal_utils.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/image/gdal/gdal_messages.hpp"
#include "formats/image/gdal/plugin_internal.hpp"
#include "formats/image/heightmap_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::heightmap {
using namespace internal;

namespace {

struct DatasetCloser {
  void operator()(GDALDataset* d) const { GDALClose(d); }
};
using Dataset = std::unique_ptr<GDALDataset, DatasetCloser>;

std::string crs_name(const OGRSpatialReference& srs) {
  const char* auth = srs.GetAuthorityName(nullptr);
  const char* code = srs.GetAuthorityCode(nullptr);
  if (auth && code) return std::string(auth) + ":" + code;
  const char* name = srs.GetName();
  return name ? name : "unnamed CRS";
}

// The normaliser of an integer data type (Unity placement), 1 for floats.
double type_max(GDALDataType t) {
  switch (t) {
    case GDT_Byte: return 255.0;
    case GDT_UInt16: return 65535.0;
    case GDT_Int16: return 32767.0;
    case GDT_UInt32: return 4294967295.0;
    case GDT_Int32: return 2147483647.0;
    default: return 1.0;
  }
}

// Reprojects `src` to `target` (checked beforehand). A failure is the file's: GDAL could
// not read or transform its samples.
Dataset warp(GDALDataset* src, const std::string& target, gdal::GdalMessages& gdal_said) {
  std::vector<std::string> args{"-of", "MEM", "-t_srs", target, "-r", "bilinear", "-ot",
                                "Float32", "-dstnodata", "nan"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  GDALWarpAppOptions* wo = GDALWarpAppOptionsNew(argv.data(), nullptr);
  if (!wo) throw_usage("bad warp target CRS '" + target + "'");
  // Only band 1 is the heightmap: warp a one-band view of it, never the other bands (a
  // damaged header can claim 65535 of them).
  char of[] = "-of", vrt[] = "VRT", b[] = "-b", one[] = "1";
  char* targs[] = {of, vrt, b, one, nullptr};
  GDALTranslateOptions* to = GDALTranslateOptionsNew(targs, nullptr);
  int usage_error = 0;
  Dataset band1(GDALDataset::FromHandle(
      GDALTranslate("", GDALDataset::ToHandle(src), to, &usage_error)));
  GDALTranslateOptionsFree(to);
  if (!band1) {
    GDALWarpAppOptionsFree(wo);
    throw_data("cannot read band 1 of the raster: " + gdal_said.take());
  }
  GDALDatasetH in = GDALDataset::ToHandle(band1.get());
  GDALDatasetH out = GDALWarp("", nullptr, 1, &in, wo, &usage_error);
  GDALWarpAppOptionsFree(wo);
  Dataset ds(GDALDataset::FromHandle(out));
  if (!ds || gdal_said.failed()) {
    throw_data("cannot warp the raster to " + target + ": " + gdal_said.take());
  }
  return ds;
}

// Where a classic TIFF's first directory holds GeoTIFF tags (the offsets of their entries):
// the tie point, pixel scale or transformation tags, and the GeoKey tags. Other files, and
// TIFFs too damaged to walk, have none.
struct GeoTags {
  std::optional<uint64_t> transform_at, keys_at;
};

GeoTags scan_geotiff_tags(const std::string& path) {
  GeoTags g;
  std::ifstream f(path, std::ios::binary);
  uint8_t h[8];
  if (!f.read(reinterpret_cast<char*>(h), 8)) return g;
  const bool le = h[0] == 'I' && h[1] == 'I';
  if (!le && !(h[0] == 'M' && h[1] == 'M')) return g;
  auto u16 = [&](const uint8_t* p) { return le ? uint32_t(p[0] | p[1] << 8) : uint32_t(p[0] << 8 | p[1]); };
  auto u32 = [&](const uint8_t* p) { return le ? u16(p) | u16(p + 2) << 16 : u16(p) << 16 | u16(p + 2); };
  if (u16(h + 2) != 42) return g;
  const uint64_t ifd = u32(h + 4);
  uint8_t c[2];
  if (!f.seekg(std::streamoff(ifd)) || !f.read(reinterpret_cast<char*>(c), 2)) return g;
  const uint32_t n = std::min<uint32_t>(u16(c), 4096);
  std::vector<uint8_t> e(size_t(n) * 12);
  f.read(reinterpret_cast<char*>(e.data()), std::streamsize(e.size()));
  const size_t got = size_t(f.gcount()) / 12;
  for (size_t i = 0; i < got; ++i) {
    const uint32_t tag = u16(&e[12 * i]);
    const uint64_t at = ifd + 2 + 12 * i;
    if ((tag == 33550 || tag == 33922 || tag == 34264) && !g.transform_at) g.transform_at = at;
    if ((tag == 34735 || tag == 34736 || tag == 34737) && !g.keys_at) g.keys_at = at;
  }
  return g;
}

}  // namespace

Heightfield read_gdal(const std::string& path, const Options& o, Info* info) {
  return with_source(path, [&]() -> Heightfield {
    GDALAllRegister();
    // GDAL's messages about the file: part of the error when they explain it, else warnings.
    gdal::GdalMessages gdal_said(path);
    // A missing placement is the caller's to give, unless GDAL found the file damaged (a
    // GeoTIFF tag it had to ignore): then it is the file's fault.
    auto placement_error = [&](const std::string& what, const std::string& fix,
                               const std::vector<Error::Hint>& hints = {}) {
      if (gdal_said.complained()) throw_data(what + ": the file is damaged (" + gdal_said.take() + ")");
      throw_usage(what + ": " + fix, hints);
    };
    Dataset ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
    if (!ds) {
      if (!io::exists(path)) throw Error(ErrorKind::Io, "cannot open: no such file");
      throw_data("not a raster GDAL can read: " + gdal_said.take("no GDAL driver recognises it"));
    }
    if (gdal_said.failed()) throw_data("GDAL cannot read the raster: " + gdal_said.take());
    if (ds->GetRasterCount() < 1) throw_data("the raster has no band");
    Info in;
    in.driver = ds->GetDriver() ? ds->GetDriver()->GetDescription() : "GDAL";
    double gt[6];
    const bool has_gt = ds->GetGeoTransform(gt) == CE_None;
    const bool geo = has_gt && !o.terrain_size;
    const OGRSpatialReference* srs = ds->GetSpatialRef();
    // Three or more ground control points are georeferencing of another kind (one tie point
    // without a pixel scale is what is left of a damaged one).
    const bool gcps = ds->GetGCPCount() >= 3;
    if (!o.terrain_size && !gcps) {
      // GeoTIFF tags GDAL could not use: the georeferencing is damaged, not absent.
      const GeoTags tags = scan_geotiff_tags(path);
      auto said = [&] { return gdal_said.complained() ? ": " + gdal_said.take() : std::string(); };
      if (!has_gt && tags.transform_at) {
        throw_data("the GeoTIFF's tie point, pixel scale or transformation tags give no "
                   "geotransform" + said(),
                   *tags.transform_at, "a geotransform", "none");
      }
      if (!srs && tags.keys_at) {
        throw_data("the GeoTIFF's GeoKey tags give no CRS" + said(), *tags.keys_at, "a CRS",
                   "none");
      }
    }
    if (!has_gt && srs && !o.terrain_size && !gcps) {
      // A CRS without the pixel-to-map transform: the georeferencing is broken, not absent.
      throw_data("the raster names a CRS (" + crs_name(*srs) + ") but has no geotransform" +
                     (gdal_said.complained() ? " (" + gdal_said.take() + ")" : std::string()),
                 std::nullopt, "a geotransform (GeoTIFF tie point and pixel scale)", "none");
    }
    if (geo && !std::all_of(gt, gt + 6, [](double v) { return std::isfinite(v); })) {
      throw_data("the raster's geotransform is not finite", std::nullopt, "finite numbers",
                 std::to_string(gt[0]) + ", " + std::to_string(gt[1]) + ", " +
                     std::to_string(gt[2]) + ", " + std::to_string(gt[3]) + ", " +
                     std::to_string(gt[4]) + ", " + std::to_string(gt[5]));
    }
    if (geo && srs) in.crs = crs_name(*srs);
    std::string target = o.t_srs;
    if (geo && target.empty() && srs && srs->IsGeographic()) {
      // A local UTM zone from the centre, so metres are metres everywhere in the zone.
      const double cx = gt[0] + gt[1] * ds->GetRasterXSize() / 2 + gt[2] * ds->GetRasterYSize() / 2;
      const double cy = gt[3] + gt[4] * ds->GetRasterXSize() / 2 + gt[5] * ds->GetRasterYSize() / 2;
      OGRSpatialReference wgs;
      wgs.SetWellKnownGeogCS("WGS84");
      wgs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
      OGRSpatialReference src_srs(*srs);
      src_srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
      double lon = cx, lat = cy;
      std::unique_ptr<OGRCoordinateTransformation> ct(OGRCreateCoordinateTransformation(&src_srs, &wgs));
      if (ct) ct->Transform(1, &lon, &lat);
      const int zone = std::clamp(int(std::floor((lon + 180.0) / 6.0)) + 1, 1, 60);
      target = "EPSG:" + std::to_string((lat >= 0 ? 32600 : 32700) + zone);
    }
    if (geo && !target.empty()) {
      if (!srs) {
        placement_error("the raster has no CRS to warp from", "drop the warp target",
                        {{"t-srs", "the warp target"}});
      }
      OGRSpatialReference want;
      if (want.SetFromUserInput(target.c_str()) != OGRERR_NONE) {
        throw_usage("bad warp target CRS '" + target + "' (" + gdal_said.take() + ")");
      }
      ds = warp(ds.get(), target, gdal_said);
      in.warped = true;
      in.crs = target;
      if (ds->GetGeoTransform(gt) != CE_None) throw_data("the warped raster has no geotransform");
    }
    GDALRasterBand* band = ds->GetRasterBand(1);
    const uint32_t w = uint32_t(ds->GetRasterXSize()), d = uint32_t(ds->GetRasterYSize());
    if (w < 2 || d < 2) throw_data("a heightmap needs at least 2x2 pixels", std::nullopt, ">= 2x2",
                                   std::to_string(w) + "x" + std::to_string(d));
    // The placement, before any pixel is read: sample (i, j) has row j = 0 at the min-z edge.
    Heightfield hf;
    hf.width = w;
    hf.depth = d;
    bool flip_x = false, flip_z = false;  // sample i / row j read from the far pixel / row
    std::array<double, 3> org{0, 0, 0};
    if (o.terrain_size) {
      place_unity_frame(hf, o);
      flip_z = true;  // image row 0 is the far (max z) edge
    } else {
      if (!geo) placement_error("the raster has no georeferencing", kPlacementFix, kPlacementHints);
      if (gt[2] != 0 || gt[4] != 0) {
        placement_error("the raster's geotransform is rotated", "warp it north-up first (gdalwarp)");
      }
      if (gt[1] == 0 || gt[5] == 0) {
        throw_data("the raster's pixel size is zero", std::nullopt, "a non-zero pixel size",
                   std::to_string(gt[1]) + " x " + std::to_string(gt[5]));
      }
      // Pixel centres; rows reordered so that sample row 0 is the southern (min z) edge.
      const bool north_up = gt[5] < 0;
      const double south = north_up ? gt[3] + gt[5] * d : gt[3];
      const double west = gt[1] > 0 ? gt[0] : gt[0] + gt[1] * w;
      org = o.origin ? *o.origin : std::array<double, 3>{west, south, 0};
      hf.dx = std::abs(gt[1]);
      hf.dz = std::abs(gt[5]);
      hf.origin_x = west + 0.5 * hf.dx - org[0];
      hf.origin_z = south + 0.5 * hf.dz - org[1];
      flip_x = gt[1] < 0;
      flip_z = north_up;
    }
    if (o.window && in.warped) {
      throw_usage("a window of a raster warped on reading would not match the whole raster's samples: "
                  "warp it first (gdalwarp -t_srs) or name its projected CRS");
    }
    const Span span = window_span(hf, o);
    const uint32_t sw = span.i1 - span.i0 + 1, sd = span.j1 - span.j0 + 1;
    if (uint64_t(sw) * sd > o.max_samples) {
      throw_data("raster of " + std::to_string(sw) + "x" + std::to_string(sd) +
                 " pixels is over the limit of " + std::to_string(o.max_samples) +
                 ": crop it first (gdal_translate -srcwin)");
    }
    // The pixel block holding the span.
    const uint32_t c0 = flip_x ? w - 1 - span.i1 : span.i0, r0 = flip_z ? d - 1 - span.j1 : span.j0;
    // Read in strips of about 4 Mi pixels into a buffer that grows with what the file has
    // delivered: a small file whose header claims 2^28 pixels fails at its first missing strip,
    // not after allocating for all of them.
    std::vector<float> px;
    const uint32_t strip = uint32_t(std::clamp<uint64_t>((uint64_t(4) << 20) / sw, 1, sd));
    for (uint32_t y0 = 0; y0 < sd; y0 += strip) {
      const uint32_t rows = std::min(strip, sd - y0);
      const size_t at = px.size();
      px.resize(at + size_t(sw) * rows);
      if (band->RasterIO(GF_Read, int(c0), int(r0 + y0), int(sw), int(rows), px.data() + at, int(sw),
                         int(rows), GDT_Float32, 0, 0) != CE_None) {
        throw_data("cannot read the raster: " + gdal_said.take(), std::nullopt,
                   std::to_string(w) + "x" + std::to_string(d) + " pixels",
                   "a read error at row " + std::to_string(r0 + y0));
      }
    }
    if (gdal_said.failed()) throw_data("cannot read the raster: " + gdal_said.take());
    int has_nodata = 0;
    const double nodata = band->GetNoDataValue(&has_nodata);
    int has_scale = 0, has_offset = 0;
    double scale = band->GetScale(&has_scale), offset = band->GetOffset(&has_offset);
    if (!has_scale) scale = 1;
    if (!has_offset) offset = 0;
    const GDALDataType type = band->GetRasterDataType();
    const bool unity = o.terrain_size.has_value();
    hf.width = sw;
    hf.depth = sd;
    hf.first_i = span.i0;
    hf.first_j = span.j0;
    hf.source_width = w;
    hf.source_depth = d;
    hf.heights.resize(px.size());
    for (uint32_t j = 0; j < sd; ++j) {
      const uint32_t src = flip_z ? sd - 1 - j : j;
      for (uint32_t i = 0; i < sw; ++i) {
        const uint32_t si = flip_x ? sw - 1 - i : i;
        const float v = px[si + size_t(sw) * src];
        float& h = hf.heights[i + size_t(sw) * j];
        if (std::isnan(v) || (has_nodata && double(v) == float(nodata))) {
          h = NAN;
          ++in.nodata;
        } else if (unity) {
          h = unity_height(float(double(v) / type_max(type)), o);
        } else {
          h = float(double(float(double(v) * scale + offset)) - org[2]);
        }
      }
    }
    in.width = w;
    in.depth = d;
    if (info) *info = in;
    return hf;
  });
}

std::vector<RasterPart> raster_parts_gdal(const std::string& path, const Options& o) {
  GDALAllRegister();
  gdal::GdalMessages gdal_said(path);
  Dataset ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  if (!ds) return {{path, std::nullopt}};
  double gt[6];
  const OGRSpatialReference* srs = ds->GetSpatialRef();
  if (ds->GetGeoTransform(gt) != CE_None || (srs && srs->IsGeographic()) || gt[2] != 0 || gt[4] != 0)
    return {{path, std::nullopt}};
  // The world origin as read() takes it: the given one, or the whole raster's south-west corner.
  auto extent = [](const double* g, int w, int h) {
    const double x0 = g[0], x1 = g[0] + g[1] * w, y0 = g[3], y1 = g[3] + g[5] * h;
    return std::array<double, 4>{std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
  };
  const auto whole = extent(gt, ds->GetRasterXSize(), ds->GetRasterYSize());
  const std::array<double, 2> org = o.origin ? std::array<double, 2>{(*o.origin)[0], (*o.origin)[1]}
                                             : std::array<double, 2>{whole[0], whole[1]};
  std::vector<RasterPart> parts;
  char** files = ds->GetFileList();
  for (char** f = files; f && *f; ++f) {
    const std::string file = *f;
    if (file == path) {
      parts.push_back({file, std::nullopt});  // the VRT (or the raster) itself
      continue;
    }
    Dataset part(GDALDataset::Open(file.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
    double pg[6];
    if (!part || part->GetGeoTransform(pg) != CE_None || pg[2] != 0 || pg[4] != 0) {
      parts.push_back({file, std::nullopt});
      continue;
    }
    const auto e = extent(pg, part->GetRasterXSize(), part->GetRasterYSize());
    parts.push_back({file, std::array<double, 4>{e[0] - org[0], e[1] - org[1], e[2] - org[0], e[3] - org[1]}});
  }
  CSLDestroy(files);
  if (parts.empty()) parts.push_back({path, std::nullopt});
  gdal_said.take();
  return parts;
}

}  // namespace voxkit::heightmap
