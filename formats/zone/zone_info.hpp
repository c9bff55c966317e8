// What a zone file holds, for `voxkit info`: dimensions, sizes, sample classes, solid volume,
// chunks with a surface, sculpted and painted samples, as text or JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "formats/core/identify.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit {

struct ZoneSummary {
  ZoneMeta meta;
  uint64_t samples = 0;
  uint64_t decoded_bytes = 0;  // grids, height and splat rasters in memory
  uint64_t stored_bytes = 0;   // the file
  std::vector<zone_file::SectionInfo> sections;
  uint64_t solid = 0, air = 0, band = 0;  // band: inside the +-2 voxel band (not saturated)
  double solid_volume_m3 = 0;
  uint64_t chunks = 0, chunks_with_surface = 0;  // at the zone's chunk cells
  std::optional<uint64_t> sculpted;  // current != baked; none without a baked grid
  std::optional<uint64_t> painted;   // paint != 0; none when never painted
  bool has_height = false;
  size_t splat_layers = 0;
  uint64_t filled_columns = 0;  // columns whose surface came from filled NoData (FILL)
  size_t unknown_sections = 0;
  // Baked foliage (FOLI), as last checked.
  bool has_foliage = false;
  ZoneHoleCut hole_cut;  // previous values dropped; empty when none is stored
  uint64_t trees = 0, details = 0, surface_details = 0;
  foliage::Counts foliage_counts;
};

// Summarises a decoded zone; `file` is the encoded file (for sizes and sections).
ZoneSummary summarize_zone(const Zone& zone, std::span<const uint8_t> file);

// Solid volume: each sample stands for the part of its voxel-sized cell inside the zone
// (halved at each zone face it lies on) and is solid by clamp(0.5 - d, 0, 1), d its SDF
// distance in voxels: exact for a plane through the cell. Integer sums: deterministic.
double solid_volume_m3(const ByteGrid& grid, double voxel_size);

// Chunks (chunk packer layout: own samples plus one on every side) holding both solid and air.
uint64_t chunks_with_surface(const ByteGrid& grid, uint32_t chunk_cells);

// Text lines (label, value) and the JSON details of `info` (docs/info-json.md, "zone").
std::vector<std::pair<std::string, std::string>> zone_summary_fields(const ZoneSummary& s);
nlohmann::json zone_summary_json(const ZoneSummary& s);

// The `info` describer: nothing unless `bytes` start with the zone magic; a data error when
// they do but the file is damaged.
std::optional<identify::Description> describe_zone(std::span<const uint8_t> bytes, const std::string& name);

// The `info` describer of the dig-zone package's Unity asset (a YAML document with the grid
// fields): the same summary as a zone file's, without sections.
std::optional<identify::Description> describe_unity_asset(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit
