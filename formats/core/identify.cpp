// The ordered list of describers behind `voxkit info`, and the text and JSON forms.
#include "formats/core/identify.hpp"

#include <algorithm>
#include <cstdio>

#include "formats/edit/edit_log_info.hpp"
#include "formats/grass/grass_info.hpp"
#include "formats/image/raster_info.hpp"
#include "formats/zone/chunk_blob.hpp"
#include "formats/stationeers/octree_identify.hpp"
#include "formats/zone/rle_stream.hpp"
#include "formats/stationeers/save_info.hpp"
#include "formats/scrap_mechanic/sm_chunk_info.hpp"
#include "formats/zone/zone_info.hpp"

namespace voxkit::identify {

const std::vector<Entry>& describers() {
  // One line per format; formats with a magic first, loose ones (a bare RLE stream) last.
  static const std::vector<Entry> list = {
      {"zone", describe_zone},
      {"unity-asset", describe_unity_asset},
      {"chunk-blob", chunk_blob::describe},
      {"stationeers-save", save_info::describe_save},
      {"world-xml", save_info::describe_world_xml},
      {"terrain-base", octree_identify::describe_terrain_base},
      {"sm-chunk", sm::describe_sm_chunk},
      {"terrain-dat", octree_identify::describe_terrain_dat},
      {"edit-log", edit_log::describe_vxlog},
      {"grass-type", grass::describe_grass_type},
      {"raster", image::describe_raster},
      {"rle", rle_stream::describe},
  };
  return list;
}

std::optional<Description> identify(std::span<const uint8_t> bytes, const std::string& name) {
  for (const auto& e : describers()) {
    if (auto d = e.describe(bytes, name)) return d;
  }
  return std::nullopt;
}

std::string known_formats() {
  std::string s;
  for (const auto& e : describers()) s += (s.empty() ? "" : ", ") + std::string(e.format);
  return s;
}

nlohmann::json to_json(const Description& d, const std::string& name, uint64_t size) {
  return {{"file", name}, {"size", size}, {"format", d.format}, {"summary", d.summary},
          {"details", d.details}};
}

std::string to_text(const Description& d, const std::string& name) {
  std::string out = name + ": " + d.summary + "\n";
  size_t width = 0;
  for (const auto& f : d.fields) width = std::max(width, f.first.size());
  for (const auto& f : d.fields) {
    out += "  " + f.first + std::string(width - f.first.size() + 2, ' ') + f.second + "\n";
  }
  return out;
}

std::string percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", 100.0 * double(part) / double(whole));
  return buf;
}

}  // namespace voxkit::identify
