// The edit jobs: a log applied to (or replayed into) a zone file, a dig-zone Unity asset or a
// raw grid, written back as the same kind, with the report of what changed and, optionally,
// the dirty chunks remeshed; and the difference of two zones.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/edit/edit_log.hpp"
#include "formats/mesh/mesh_job.hpp"
#include "lib/edit/replay.hpp"

namespace voxkit::edit_job {

enum class InputKind { Auto, Zone, Unity, Raw };

struct EditJob {
  std::string input;                          // zone, Unity asset, raw grid ('-' = stdin)
  InputKind kind = InputKind::Auto;           // Auto: by content; raw needs `cells`
  std::string log;                            // the edit log ('-' = stdin)
  std::optional<edit_log::Format> log_format;  // default: detected
  // Replay as LoadEdits does: the spawned foliage the zone records is cleared first (the grid
  // and paint start as the input holds them, as the runtimes start from the asset's). A
  // network log always replays, as a receiver. Otherwise the log is applied on top of the
  // input, spawns included.
  bool replay = false;
  std::string output;                         // "" = report only
  io::OutputOptions out;
  // Raw grids.
  std::optional<Dims> cells;
  std::optional<SampleBox> edit_box;          // raw default: all but the top row
  std::string paint_in, paint_out;
  edit::EditorOptions editor;
  bool vrchat_capacity = false;               // warn past the VRChat runtime's 4096 entries
  uint64_t at = UINT64_MAX;                   // stop after this many edits
  bool skip_invalid = false;                  // count and skip invalid edits instead of failing
  // The runtime chunk blob (formats/zone/chunk_blob.hpp) of the input grid: only the dirty
  // chunks are re-encoded into blob_out.
  std::string blob_in, blob_out;
  std::string mesh_out;                       // remesh the dirty chunks into this file
  MeshJob mesh;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct InvalidEdit {
  uint64_t index = 0;  // 0-based record index in the log
  uint64_t edit = 0;
  std::string why;
};

struct EditReport {
  std::string file, kind, log, log_format;
  bool replay = false, network = false;
  uint64_t records = 0, edits = 0;       // records read; edit records among them processed
  uint64_t changed = 0, unchanged = 0;   // edits that changed something / nothing
  uint64_t resets = 0;
  std::vector<InvalidEdit> invalid;      // skipped (with skip_invalid)
  uint64_t visited = 0;
  uint64_t samples_changed = 0, paint_changed = 0;  // against the input
  std::optional<SampleBox> changed_box;  // of the edits (the package's changed boxes, united)
  std::vector<std::array<uint32_t, 3>> dirty_chunks;
  size_t spawns = 0, erases = 0;
  std::optional<uint64_t> stopped_at;    // --at
  std::optional<edit::NetReport> net;
  std::optional<std::string> output, paint_output, mesh_output, blob_output, backup;
  uint64_t blob_chunks = 0, blob_reencoded = 0;
  uint64_t mesh_chunks = 0, mesh_triangles = 0;
  double seconds = 0;
  std::vector<std::string> warnings;

  nlohmann::json to_json() const;
  std::string to_text() const;
};

// Reads the input and the log, applies or replays, and writes every output (all or
// nothing). An invalid edit stops the run with a data error naming its index in the log and
// what was wrong, unless skip_invalid; a log recorded for another grid is refused.
EditReport run_edit(const EditJob& job);

// Two zones (or assets) compared sample by sample.
struct DiffReport {
  std::string a, b;
  bool same_cells = true;
  uint64_t grid_samples = 0, paint_samples = 0;  // samples that differ
  std::optional<SampleBox> box;                  // their bounding box
  std::vector<std::array<uint32_t, 3>> chunks;   // chunks to remesh (the package's rule)
  bool spawns_differ = false;
  bool differ() const { return !same_cells || grid_samples || paint_samples || spawns_differ; }
  nlohmann::json to_json() const;
  std::string to_text() const;
};
DiffReport run_diff(const std::string& a, const std::string& b, uint64_t max_input = io::kDefaultMaxInput);

}  // namespace voxkit::edit_job
