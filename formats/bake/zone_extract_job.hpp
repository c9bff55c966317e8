// The zone extract job (`voxkit zone extract`, docs/zone-extract.md): one part of a zone file
// (or a dig-zone Unity asset) written out on its own: a grid as raw samples or an RLE stream,
// the runtime chunk blob, the height and splat rasters as raw values or PNG, the terrain hole
// mask the zone records.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "formats/core/io.hpp"

namespace voxkit::zone_extract {

enum class Part : uint8_t { Grid, Baked, Paint, Height, Splat, Blob, Hole };
enum class Encoding : uint8_t { Raw, Rle, Png };

struct Job {
  std::string zone;                 // zone file or dig-zone Unity asset ('-' = stdin)
  Part part = Part::Grid;
  std::optional<Encoding> encoding;  // default: by the output's extension (.rle, .png), else raw
  uint32_t group = 0;               // splat PNG: layers 4*group .. 4*group+3
  std::string output = "-";
  io::OutputOptions out;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct Report {
  std::string zone, output, part, encoding;
  uint64_t values = 0;   // samples, columns or texels written
  uint64_t bytes = 0;    // of the output
  std::string shape;     // "257 x 129 x 257 samples, x fastest then y then z" and the like
  std::string note;      // what the values mean
  nlohmann::json to_json() const;
  std::string to_text() const;
};

Report run(const Job& job);

const char* part_name(Part p);

}  // namespace voxkit::zone_extract
