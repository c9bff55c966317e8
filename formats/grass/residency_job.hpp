// The grass residency job (`voxkit grass residency`, docs/grass-residency.md): a camera path
// run through the engine's residency ring (lib/grass/residency.hpp), step by step, with what
// each step created, evicted and refused, and the panel's memory figure.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/grass/camera_path.hpp"
#include "lib/grass/residency.hpp"

namespace voxkit::grass_residency {

// Refused (a usage error) when the report would list more resident cells than this over all
// steps (steps x resident cells; only when the resident lists are asked for).
inline constexpr uint64_t kMaxListedResident = uint64_t(1) << 25;

struct Job {
  std::string path;                 // the camera path ('-' = stdin)
  std::optional<float> range;       // for rows without a range of their own
  int64_t capacity = 0;             // ring slots, 1 .. grass::kMaxRingCapacity
  float cell_size = grass::kDefaultCellSize;
  float hysteresis = grass::kDefaultHysteresis;
  uint64_t blades_per_cell = 4096;  // for the memory figure only
  bool resident_lists = true;       // keep every step's resident cells (for to_json)
  uint64_t max_input = io::kDefaultMaxInput;
  uint64_t max_steps = grass::kMaxCameraSteps;
};

struct Step {
  uint64_t index = 0, line = 0;
  bool clear = false;                       // a `clear` row: `cleared` holds what it dropped
  float x = 0, y = 0, z = 0, range = 0;     // the view and the range used (not for clear)
  std::vector<grass::CellSlot> created, evicted, cleared;
  uint64_t refused = 0;
  uint64_t resident_count = 0;
  std::vector<grass::CellSlot> resident;    // insertion order; empty unless resident_lists
  bool changed() const { return clear ? !cleared.empty() : !created.empty() || !evicted.empty() || refused; }
};

struct Report {
  std::string path;
  int64_t capacity = 0;
  float cell_size = 0, hysteresis = 0;
  uint64_t blades_per_cell = 0;
  std::optional<float> range;         // the job's default range
  bool resident_lists = false;
  std::vector<Step> steps;
  uint64_t total_created = 0, total_evicted = 0, total_cleared = 0, max_refused = 0, max_resident = 0;
  uint64_t changed_steps = 0;
  // The memory figure at `memory_range`: the job's range, else the largest range of a row
  // (unset when the path has no view step and no range is given).
  std::optional<float> memory_range;
  std::optional<uint64_t> memory_bytes;

  nlohmann::json to_json() const;
  std::string to_text() const;
  // The summary lines of to_text() alone.
  std::string summary_text() const;
};

// Reads the path (data errors name the file, line and offset) and runs it. Usage errors for
// the ring's parameters (capacity, cell size, hysteresis, a range that is negative or too
// large) and for a row without a range when the job gives none.
Report run(const Job& job);

}  // namespace voxkit::grass_residency
