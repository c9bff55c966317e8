// The ordered list of describers behind `voxkit info`, and the text and JSON forms.
#include "formats/core/identify.hpp"

#include <algorithm>
#include <cstdio>

#include "formats/edit/edit_log_info.hpp"
#include "formats/foliage/instances_info.hpp"
#include "formats/grass/grass_info.hpp"
#include "formats/ice/melt_hits_info.hpp"
#include "formats/image/raster_info.hpp"
#include "formats/mesh/mesh_info.hpp"
#include "formats/world/manifest_info.hpp"
#include "formats/zone/chunk_blob.hpp"
#include "formats/stationeers/octree_identify.hpp"
#include "formats/zone/rle_stream.hpp"
#include "formats/stationeers/save_info.hpp"
#include "formats/scrap_mechanic/sm_chunk_info.hpp"
#include "formats/zone/zone_info.hpp"

namespace voxkit::identify {

const std::vector<Entry>& describers() {
  // One line per describer, in three bands. First the formats with a magic or a fixed
  // structure at the start. Then the text formats: each claims a file only when it reads whole
  // under its format (or by its file name), most specific first, so that the loose ones (an
  // edit list, a camera path, an instance list, an OBJ) come after those with a signature
  // (glTF's asset, a manifest's tables). Last the formats that only their size or GDAL tell
  // (a binary STL, any raster, a bare RLE stream).
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
      {"glb", mesh_info::describe_glb},
      {"ply", mesh_info::describe_ply},
      {"unity-terrain-data", foliage_io::describe_terrain_data},
      {"grass-type", grass::describe_grass_type},
      {"gltf", mesh_info::describe_gltf},
      {"world-manifest", world::describe_manifest},
      {"edit-log", edit_log::describe_edit_list},
      {"melt-hits", ice::describe_hits},
      {"camera-path", grass::describe_camera_path},
      {"foliage-list", foliage_io::describe_list},
      {"obj", mesh_info::describe_obj},
      {"stl", mesh_info::describe_stl},
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

bool has_extension(const std::string& name, std::string_view ext) {
  if (name.size() < ext.size()) return false;
  for (size_t i = 0; i < ext.size(); ++i) {
    char c = name[name.size() - ext.size() + i];
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c != ext[i]) return false;
  }
  return true;
}

std::string known_formats() {
  std::string s;
  std::vector<std::string> seen;
  for (const auto& e : describers()) {
    if (std::find(seen.begin(), seen.end(), e.format) != seen.end()) continue;  // one id, several describers
    seen.emplace_back(e.format);
    s += (s.empty() ? "" : ", ") + std::string(e.format);
  }
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
