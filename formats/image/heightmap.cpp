// Heightmap readers: Unity .raw files here, GDAL rasters through the GDAL plug-in
// (formats/image/gdal/heightmap_gdal.cpp), loaded only when one is read.
#include "formats/image/heightmap.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "formats/core/io.hpp"
#include "formats/image/gdal_plugin.hpp"
#include "formats/image/heightmap_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::heightmap {
namespace internal {

const std::string kPlacementFix = "give the terrain size W,H,L (and the terrain position X,Y,Z)";
const std::vector<Error::Hint> kPlacementHints{{"terrain-size", "the terrain size"},
                                               {"terrain-pos", "the terrain position"}};

void place_unity_frame(Heightfield& hf, const Options& o) {
  const auto& size = *o.terrain_size;
  if (!(size[0] > 0) || !(size[2] > 0) || !(size[1] >= 0)) {
    throw_usage("the terrain size W,H,L needs positive W and L and H >= 0");
  }
  hf.dx = size[0] / (hf.width - 1);
  hf.dz = size[2] / (hf.depth - 1);
  hf.origin_x = o.terrain_pos[0];
  hf.origin_z = o.terrain_pos[2];
}

float unity_height(float v, const Options& o) {
  return std::isnan(v) ? v : float(o.terrain_pos[1] + double(v) * (*o.terrain_size)[1]);
}

Span window_span(const Heightfield& hf, const Options& o) {
  Span s{0, hf.width - 1, 0, hf.depth - 1};
  if (!o.window) return s;
  const auto& win = *o.window;
  if (!(win[2] >= win[0]) || !(win[3] >= win[1])) throw_usage("the raster window to read is empty");
  auto range = [](double a, double b, double n, uint32_t& lo, uint32_t& hi) {
    const double l = std::clamp(std::floor(a) - 1, 0.0, n - 1), h = std::clamp(std::ceil(b) + 1, 0.0, n - 1);
    lo = uint32_t(l);
    hi = std::max(uint32_t(h), std::min(lo + 1, uint32_t(n - 1)));
    if (hi == lo) lo = hi - 1;  // at least two samples
  };
  range(hf.u_of(win[0]), hf.u_of(win[2]), double(hf.width), s.i0, s.i1);
  range(hf.v_of(win[1]), hf.v_of(win[3]), double(hf.depth), s.j0, s.j1);
  return s;
}

}  // namespace internal

using namespace internal;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string Info::describe() const {
  std::ostringstream s;
  s << driver << " " << width << "x" << depth;
  if (!crs.empty()) s << ", " << crs << (warped ? " (warped)" : "");
  if (nodata) s << ", " << nodata << " NoData samples";
  return s.str();
}

bool is_unity_raw(const std::string& path) {
  std::string l = lower(path);
  auto ends = [&](const char* e) {
    std::string s(e);
    return l.size() >= s.size() && l.compare(l.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".raw") || ends(".r16");
}

std::array<uint32_t, 2> infer_raw_size(uint64_t bytes) {
  if (bytes % 2 == 0) {
    const uint64_t n = bytes / 2;
    for (uint32_t k = 0; k <= 15; ++k) {
      const uint64_t side = (uint64_t(1) << k) + 1;
      if (side * side == n) return {uint32_t(side), uint32_t(side)};
    }
  }
  throw Error(ErrorKind::Data,
              "cannot infer the .raw heightmap size from its " + std::to_string(bytes) +
                  " bytes: give its size W,H",
              std::nullopt, "2 * (2^n+1)^2 bytes (e.g. 8421378 for 2049x2049)", std::to_string(bytes))
      .set_hint("raw-size", "its size");
}

namespace {

// A Unity .raw of `file_bytes` bytes (rows from z = 0) that `read_bytes(offset, count, out)`
// delivers: checks the size, places the terrain, keeps the window's samples.
template <class ReadBytes>
Heightfield unity_raw(uint64_t file_bytes, const Options& o, Info* info, ReadBytes&& read_rows) {
  auto size = o.raw_size ? *o.raw_size : infer_raw_size(file_bytes);
  const uint64_t n = uint64_t(size[0]) * size[1];
  if (size[0] < 2 || size[1] < 2) throw_usage("a Unity .raw heightmap needs at least 2x2 samples");
  if (file_bytes != n * 2) {
    throw Error(ErrorKind::Data,
                "raw heightmap size does not match the given size " + std::to_string(size[0]) + "x" +
                    std::to_string(size[1]),
                std::nullopt, std::to_string(n * 2) + " bytes", std::to_string(file_bytes))
        .set_hint("raw-size", "the given size");
  }
  if (!o.terrain_size) {
    throw_usage("a .raw heightmap has no placement: " + kPlacementFix, kPlacementHints);
  }
  Heightfield hf;
  hf.width = size[0];
  hf.depth = size[1];
  place_unity_frame(hf, o);
  const Span span = window_span(hf, o);
  const uint32_t sw = span.i1 - span.i0 + 1, sd = span.j1 - span.j0 + 1;
  if (uint64_t(sw) * sd > o.max_samples) {
    throw_data("raw heightmap of " + std::to_string(sw) + "x" + std::to_string(sd) +
               " samples is over the limit of " + std::to_string(o.max_samples));
  }
  std::vector<uint8_t> rows(size_t(size[0]) * 2 * sd);
  read_rows(uint64_t(span.j0) * size[0] * 2, rows.size(), rows.data());
  hf.width = sw;
  hf.depth = sd;
  hf.first_i = span.i0;
  hf.first_j = span.j0;
  hf.source_width = size[0];
  hf.source_depth = size[1];
  hf.heights.resize(size_t(sw) * sd);
  for (uint32_t j = 0; j < sd; ++j)
    for (uint32_t i = 0; i < sw; ++i) {
      const uint8_t* b = &rows[(size_t(j) * size[0] + span.i0 + i) * 2];
      hf.heights[i + size_t(sw) * j] = unity_height(float(double(b[0] | (b[1] << 8)) / 65535.0), o);
    }
  if (info) {
    info->driver = "Unity RAW";
    info->width = size[0];
    info->depth = size[1];
  }
  return hf;
}

}  // namespace

Heightfield from_unity_raw(const std::vector<uint8_t>& bytes, const Options& o, Info* info) {
  return unity_raw(bytes.size(), o, info, [&](uint64_t at, size_t count, uint8_t* out) {
    std::copy_n(bytes.data() + at, count, out);
  });
}

Heightfield read(const std::string& path, const Options& o, Info* info) {
  if (is_unity_raw(path)) {
    return with_source(io::display_name(path), [&] {
      if (!o.window) return from_unity_raw(io::read_all(path), o, info);
      // A window: only its rows are read.
      std::ifstream f(path, std::ios::binary);
      if (!f) throw Error(ErrorKind::Io, io::exists(path) ? "cannot open for reading" : "cannot open: no such file");
      f.seekg(0, std::ios::end);
      const uint64_t bytes = uint64_t(f.tellg());
      return unity_raw(bytes, o, info, [&](uint64_t at, size_t count, uint8_t* out) {
        f.seekg(std::streamoff(at));
        if (!f.read(reinterpret_cast<char*>(out), std::streamsize(count)))
          throw Error(ErrorKind::Io, "read error at byte " + std::to_string(at));
      });
    });
  }
  return gdal::api().read_heightmap(path, o, info);
}

std::vector<RasterPart> raster_parts(const std::string& path, const Options& o) {
  if (is_unity_raw(path) || o.terrain_size || !o.t_srs.empty()) return {{path, std::nullopt}};
  return gdal::api().raster_parts(path, o);
}

}  // namespace voxkit::heightmap
