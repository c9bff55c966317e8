// The bake jobs over files: read and place a heightmap, fill its NoData, bake it (or re-bake a
// zone from it), place the splat maps, describe the source, write the zone. The verbs `bake`
// and `rebake` are thin wrappers over these (docs/bake.md).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/image/heightmap.hpp"
#include "formats/zone/zone_info.hpp"
#include "lib/bake/bake.hpp"
#include "lib/bake/heightfield.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::bake_job {

// A heightmap with its placement, NoData policy and splat maps.
struct Terrain {
  std::string heightmap;                // any GDAL raster, or a Unity .raw
  heightmap::Options placement;
  NodataFill nodata_fill;               // default: refuse NoData under the zone
  std::vector<std::string> splat;       // up to four RGBA control images, Unity _Control order
  std::vector<std::string> layer_names; // default layer0, layer1, ...
  std::string splat_text;               // the splat list as given, for the zone's source text
};

// Reads and places the heightmap, fills NoData as asked; `info` says what was read.
Heightfield load_terrain(const Terrain& t, heightmap::Info& info);
// Reads the splat maps (if any) and resamples them to the zone's columns, naming the layers.
// The images cover the whole source `hf` is (a window of); `frame` places a tile zone.
void place_splat(const Terrain& t, Zone& zone, const Heightfield& hf, const GridFrame* frame = nullptr);

struct BakeJob {
  Terrain terrain;
  ZoneBoxSpec spec;
  std::string output;
  io::OutputOptions out;
  bool summarize = false;  // also summarise the zone file written (BakeResult::summary)
};

struct BakeResult {
  Zone zone;
  heightmap::Info info;
  std::string name;                    // the heightmap as printed
  std::optional<ZoneSummary> summary;  // with BakeJob::summarize: as `info` describes the file
};

BakeResult run_bake(const BakeJob& job, const Progress& progress = {});

// What `bake --json` prints (docs/bake.md): the output and the heightmap, and under "zone" the
// zone file as `info --json` describes it (zone_summary_json, docs/info-json.md). Needs
// BakeResult::summary.
nlohmann::json report_json(const BakeResult& r, const std::string& output);

struct RebakeJob {
  std::string zone;  // the zone file re-baked
  Terrain terrain;
  double headroom = 2;
  uint64_t max_samples = kMaxGridSamples;
  std::string output;  // the zone itself for an edit in place (out.in_place)
  io::OutputOptions out;
};

struct RebakeResult {
  RebakeStats stats;
  std::string backup;  // made by an edit in place ("" when none)
  bool foliage_dropped = false;  // the zone had baked foliage: it must be baked again
};

RebakeResult run_rebake(const RebakeJob& job, const Progress& progress = {});

}  // namespace voxkit::bake_job
