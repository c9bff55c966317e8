// The grass scatter job (`voxkit grass scatter`, docs/grass.md): a grass type over a surface
// (a zone, a dig-zone asset or a heightmap with splat maps), a box of cells scattered as the
// Vixen engine scatters them, the blades written out and counted by refusal.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "formats/bake/bake_job.hpp"
#include "formats/core/io.hpp"
#include "formats/grass/blade_io.hpp"
#include "formats/grass/grass_surface.hpp"
#include "lib/grass/scatter.hpp"

namespace voxkit::grass {

struct ScatterJob {
  std::string type;                     // .vxgrass, .toml or .json
  std::string surface;                  // zone, dig-zone asset or heightmap
  bake_job::Terrain terrain;            // a heightmap's placement and splat maps
  std::array<int32_t, 4> cells{0, 0, 0, 0};  // X0, Z0, X1, Z1, inclusive (any order)
  bool cells_given = false;
  float cell_size = 32.0f;
  float density_scale = 1.0f;
  uint32_t capacity = 0;                // blades kept per cell; 0 = all
  std::string output;                   // blades; "" = none
  std::optional<BladeFormat> format;    // default: by the output's extension
  bool blades_in_report = false;        // each blade in the JSON report
  std::optional<std::array<int32_t, 2>> explain;  // one cell, candidate by candidate
  uint64_t max_candidates = uint64_t(1) << 32;    // refuse larger boxes
  io::OutputOptions out;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct ScatterReport {
  std::string type_name, surface, output;
  SurfaceReport surface_info;
  ScatterSetup setup;
  std::vector<CellResult> cells;   // blades dropped unless the report lists them
  std::vector<Trace> explained;    // with `explain`
  std::array<int32_t, 2> explained_cell{0, 0};
  std::array<uint64_t, 4> totals{};
  uint64_t candidates = 0, written = 0, over_capacity = 0;
  double seconds_scatter = 0, seconds_total = 0;
  std::vector<std::string> warnings;
  nlohmann::json to_json(bool blades) const;
  std::string to_text() const;
};

ScatterReport run_scatter(const ScatterJob& job);

}  // namespace voxkit::grass
