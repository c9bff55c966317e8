// The foliage jobs (docs/foliage.md): bake a zone's foliage anchors, buckets and mask from
// instance lists, and check which trees, columns and surface details still stand after the
// zone's edits or an edit log applied on the fly.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/edit/edit_log.hpp"
#include "formats/foliage/instances.hpp"
#include "lib/edit/replay.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit::foliage_job {

struct BakeJob {
  std::string zone;             // zone file (.vxz) or dig-zone Unity asset ('-' = stdin)
  // Instance sources: CSV/JSON lists, a TerrainData asset (trees), the dig-zone asset
  // (trees, surface details). Without --trees a dig-zone asset input gives its own trees and
  // surface details.
  std::string trees, details, surface;
  foliage_io::Terrain terrain;
  std::optional<uint32_t> tree_prototypes, detail_prototypes;
  std::string output;           // the zone with its foliage ('-' = stdout)
  std::string mask_out;         // raw RGBA bytes, or PNG when the name ends in .png
  io::OutputOptions out;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct BakeReport {
  std::string zone, output, mask_output;
  std::string trees_from, details_from, surface_from;
  foliage::BakeStats stats;
  foliage::Counts counts;
  foliage::ChunkCounts chunks;
  std::array<uint32_t, 3> chunk_counts{0, 0, 0};
  uint32_t mask_width = 0, mask_height = 0;
  std::string backup;
  double seconds = 0;
  std::vector<std::string> warnings;
  nlohmann::json to_json() const;
  std::string to_text() const;
};

BakeReport run_bake(const BakeJob& job);

struct CheckJob {
  std::string zone;                        // zone file with baked foliage
  std::string log;                         // optional edit log applied on the fly
  std::optional<edit_log::Format> log_format;
  edit::EditorOptions editor;
  bool full = false;                       // re-check every chunk (the reference result)
  std::string output;                      // the zone after the log, with the checked state
  std::string mask_out;
  io::OutputOptions out;
  uint64_t max_input = io::kDefaultMaxInput;
};

struct CheckReport {
  std::string zone, log, output, mask_output;
  uint64_t edits = 0, erases = 0, erased_items = 0;
  uint64_t chunks = 0, rechecked = 0;      // chunks in the zone, chunks re-checked
  std::string reach;                       // how the chunks to re-check were found
  bool restarted = false;                  // the state went back to the baked one first
  foliage::Counts counts;
  foliage::Diff diff;
  std::string backup;
  double seconds = 0, check_seconds = 0;
  std::vector<std::string> warnings;
  nlohmann::json to_json() const;
  std::string to_text() const;
};

// Exit status: the report says; a foliage that differs from the baked state is not an error.
CheckReport run_check(const CheckJob& job);

// The mask as written by --mask-out: raw RGBA rows (row 0 = columns z = 0), or a PNG.
std::vector<uint8_t> mask_bytes(const ZoneFoliage& f, const std::string& path);

}  // namespace voxkit::foliage_job
