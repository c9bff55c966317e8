// Heightmap files -> Heightfield: anything GDAL reads, and Unity's 16-bit .raw.
// Placement rules (origins, row order, normalisation) are in docs/bake.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/bake/heightfield.hpp"

namespace voxkit::heightmap {

struct Options {
  // Unity placement for normalised heights: size W,H,L and position X,Y,Z of the terrain.
  // Given: heights are normalised (integer types by their maximum, floats as they are) and
  // world y = Y + normalised * H; the samples span [X, X + W] x [Z, Z + L].
  std::optional<std::array<double, 3>> terrain_size;
  std::array<double, 3> terrain_pos{0, 0, 0};
  // Unity .raw size in samples (width, depth); inferred from a square 2^n+1 file when absent.
  std::optional<std::array<uint32_t, 2>> raw_size;
  // Georeferenced rasters: the projected position (easting, northing, elevation) that becomes
  // world (0, 0, 0). Default: the raster's south-west corner, elevation 0.
  std::optional<std::array<double, 3>> origin;
  // Target CRS for warping ("EPSG:32633", WKT, PROJ string). Empty: a geographic raster is
  // warped to the UTM zone of its centre; a projected one is read as it is.
  std::string t_srs;
  uint64_t max_samples = uint64_t(1) << 28;  // refuse larger rasters (windows: larger windows)
  // Read only the samples of this world rectangle (x0, z0, x1, z1 in metres) and one more
  // around it, keeping their source indices (Heightfield::first_i, first_j). Not for a raster
  // warped on reading.
  std::optional<std::array<double, 4>> window;
};

// What was read, for messages and the zone's source description.
struct Info {
  std::string driver;        // GDAL driver short name, or "Unity RAW"
  uint32_t width = 0, depth = 0;
  std::string crs;           // "EPSG:32633", "" when none
  bool warped = false;       // reprojected from a geographic CRS (or to --t-srs)
  uint64_t nodata = 0;       // samples without data
  std::string describe() const;
};

// True for names ending in .raw or .r16 (case-insensitive).
bool is_unity_raw(const std::string& path);

// Reads a heightmap. Throws a usage error when the placement is missing (no georeferencing
// and no terrain size) and a data error for unreadable, damaged or oversized files (GeoTIFF
// tags GDAL could not use, a file GDAL complained about); GDAL's reasons are in the message,
// and what GDAL said about a file that was read goes to diag::warn.
Heightfield read(const std::string& path, const Options& opts, Info* info = nullptr);

// The files a height source reads and, where it can be told, the world rectangle (x0, z0,
// x1, z1 in metres, pixel edges, placed as read() places them) each covers: the sources of a
// VRT one by one, else the file itself with no rectangle (it covers everything). Used to
// know which tiles a changed file touches.
struct RasterPart {
  std::string path;
  std::optional<std::array<double, 4>> rect;
};
std::vector<RasterPart> raster_parts(const std::string& path, const Options& opts);

// Unity .raw from bytes (16-bit little-endian, row 0 at the terrain's z = 0).
Heightfield from_unity_raw(const std::vector<uint8_t>& bytes, const Options& opts, Info* info = nullptr);

// The raw size from the byte count: a square of side 2^n + 1 (n = 0..15).
std::array<uint32_t, 2> infer_raw_size(uint64_t bytes);

}  // namespace voxkit::heightmap
