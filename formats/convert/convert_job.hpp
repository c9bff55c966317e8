// The convert job (`voxkit convert`, docs/convert.md): voxel data between the systems voxkit
// reads: dig zones, Scrap Mechanic chunks (a batch of 17^3 chunks with their one-sample
// overlap) and ice density modules (with their cave regions). Every conversion goes through
// the zone's SDF bytes; what each direction keeps and loses is in the doc.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/core/grid.hpp"

namespace voxkit::convert {

enum class Kind : uint8_t { Auto, Zone, SmChunks, IceModule };
const char* kind_name(Kind k);  // "auto", "zone", "sm-chunks", "ice-module"

struct Job {
  std::string input, output;
  Kind from = Kind::Auto;  // auto: a zone by its bytes, else Scrap Mechanic chunks
  Kind to = Kind::Zone;
  sm::Form form = sm::Form::B64;                   // chunks written: lua, json, b64 (a line each) or bin
  std::optional<sm::Form> chunk_form;              // chunks read: detected per line when unset
  std::optional<std::array<uint32_t, 3>> chunks;   // chunks read: the chunk grid (x fastest)
  std::optional<Dims> cells;                       // an ice module read: its cells
  double voxel_size = 1.0;                         // a zone made from chunks or a module
  std::array<double, 3> origin{0, 0, 0};
  std::string regions_out;                         // an ice module written: its cave regions too
  uint8_t open_faces = 63;                         // faces whose air is open (caves)
  io::OutputOptions out;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct Report {
  std::string input, output, from, to;
  Dims cells;                               // of the grid converted
  std::array<uint32_t, 3> chunk_grid{0, 0, 0};  // chunks written or read
  uint64_t chunks = 0;
  uint64_t overlap_conflicts = 0;           // shared samples two chunks disagree on (first kept)
  uint64_t painted = 0;                     // samples with a material or paint carried over
  uint32_t regions = 0, closed_regions = 0; // cave regions written
  std::vector<std::string> warnings;
  std::string lost;                         // what this direction cannot carry
  nlohmann::json to_json() const;
  std::string to_text() const;
};

Report run(const Job& job);

}  // namespace voxkit::convert
