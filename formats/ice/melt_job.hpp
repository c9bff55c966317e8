// The `voxkit melt` job: read an ice density module, its hits, its cave regions and hardness
// curve; melt; write the module and the closed-region list (all or nothing); and the report
// (docs/melt.md).
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/ice/melt_hits.hpp"
#include "lib/caves/melt.hpp"
#include "lib/core/progress.hpp"

namespace voxkit::ice {

struct MeltJob {
  std::string module;             // raw density module, one byte per point ('-' = stdin)
  Dims cells;
  std::string hits;               // hits file, CSV or JSON ('-' = stdin)
  std::string output;             // the melted module ('-' = stdout)
  std::string regions;            // cave-region grid (uint16 per point), "" for none
  std::vector<uint16_t> closed;   // closed region ids given directly
  std::string closed_path;        // a file listing closed region ids
  std::string regions_out;        // where to write the closed ids after the run, "" for nowhere
  std::string hardness_path;      // hardness samples from a file (else melt.hardness)
  MeltOptions melt;
  bool world = false;             // hit centres and radii in metres: grid = (p - origin) / voxel size
  std::array<double, 3> origin{0, 0, 0};
  bool per_hit = false;           // the report lists every hit
  uint64_t max_hits = kMaxHits;
  io::OutputOptions out;          // the module (binary)
  io::OutputOptions out_text;     // the closed-region list
};

struct MeltReport {
  std::string module, hits, output;
  std::optional<std::string> regions_out;
  Dims cells;
  double voxel_size = 0.25;
  double highlight = 0.1;
  uint32_t chunk_cells = 16;
  bool world = false, per_hit = false;
  std::vector<double> hardness;
  MeltResult result;

  nlohmann::json to_json() const;
  std::string to_text() const;
};

// Runs the job. Usage errors for contradictory inputs (both inputs on stdin, closed regions
// without a region grid, ...), data errors naming the file for bad input; on any error
// nothing is written.
MeltReport run_melt_job(const MeltJob& job, const Progress& progress = {});

}  // namespace voxkit::ice
