// The terrain hole mask job (`voxkit zone hole-mask`, docs/hole-mask.md): the hole cells of a
// terrain a dig zone cuts, as the package's baker cuts them, written as a mask at the
// terrain's holes resolution and recorded in the zone (section HCUT).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "formats/core/io.hpp"
#include "lib/bake/hole_cut.hpp"

namespace voxkit::hole_mask {

enum class MaskValues : uint8_t { Terrain, Cut };

struct Job {
  std::string zone;                          // zone file or dig-zone Unity asset ('-' = stdin)
  // The terrain; unset parts come from the zone's recorded cut, then from its foliage's
  // terrain placement. The resolution has no default but the recorded cut's.
  std::optional<std::array<double, 3>> terrain_position, terrain_size;
  std::optional<uint32_t> resolution;
  std::string holes;                         // the terrain's holes before the cut (PNG/image or raw)
  MaskValues values = MaskValues::Terrain;   // the terrain after the cut, or the cut cells only
  CutArithmetic mode = CutArithmetic::Editor;
  std::string mask_out;                      // PNG when the name ends in .png, else raw bytes
  std::string zone_out;                      // the zone with the cut recorded (optional)
  io::OutputOptions out;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct Report {
  std::string zone, mask_output, zone_output;
  ZoneHoleCut cut;  // previous values cleared
  HoleRect world;
  bool recomputed = false;       // computed from the terrain (else the zone's recorded cut)
  uint64_t cells_cut = 0, cells_already_holes = 0;
  std::vector<std::string> warnings;
  nlohmann::json to_json() const;
  std::string to_text() const;
};

Report run(const Job& job);

// Reads a terrain hole raster of `resolution`^2 cells: an image (row 0 = the terrain's far z
// edge, as a map; the first channel, non-zero = surface) or raw bytes (x fastest, z = 0 first).
std::vector<uint8_t> read_holes(const std::string& path, uint32_t resolution);
// The mask bytes, 255 where the raster holds 1 and 0 elsewhere: PNG (8-bit grey, row 0 = the
// far z edge) when `path` ends in .png, else raw (x fastest, z = 0 first).
std::vector<uint8_t> mask_bytes(const std::vector<uint8_t>& raster, uint32_t resolution, const std::string& path);

}  // namespace voxkit::hole_mask
