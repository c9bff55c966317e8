#include "formats/world/manifest_info.hpp"

#include <charconv>

#include "formats/world/manifest.hpp"
#include "lib/core/error.hpp"

namespace voxkit::world {

namespace {

std::string num(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

// A line that is exactly "[world]" or "[saves]" (blanks around allowed).
bool has_manifest_table(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t e = text.find('\n', at);
    if (e == std::string_view::npos) e = text.size();
    std::string_view l = text.substr(at, e - at);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.remove_suffix(1);
    if (l == "[world]" || l == "[saves]") return true;
    at = e + 1;
  }
  return false;
}

}  // namespace

std::optional<identify::Description> describe_manifest(std::span<const uint8_t> bytes, const std::string& name) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  Manifest m;
  try {
    m = parse_manifest(text, name);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Data && identify::has_extension(name, ".toml") && has_manifest_table(text)) throw;
    return std::nullopt;
  }
  identify::Description d;
  d.format = "world-manifest";
  if (m.kind == ManifestKind::Saves) {
    const SavesManifest& s = m.saves;
    d.summary = "voxkit saves manifest";
    d.fields = {{"name", s.name}, {"saves", std::to_string(s.saves.size())}};
    d.details = {{"kind", "saves"}, {"name", s.name}, {"saves", s.saves}};
    return d;
  }
  const WorldManifest& w = m.world;
  const WorldSpec& sp = w.spec;
  std::vector<std::string> jobs;
  if (w.mesh) jobs.push_back("mesh (" + w.mesh->format + ")");
  if (w.foliage) jobs.push_back("foliage");
  if (w.preview) jobs.push_back("preview");
  std::string j;
  for (const auto& x : jobs) j += (j.empty() ? "" : ", ") + x;
  d.summary = "voxkit world manifest";
  d.fields = {{"name", w.name},
              {"height", w.height},
              {"splat", std::to_string(w.splat.size()) + " maps, " + std::to_string(w.layers.size()) + " layers"},
              {"box", "(" + num(sp.min[0]) + ", " + num(sp.min[1]) + ", " + num(sp.min[2]) + ") .. (" + num(sp.max[0]) +
                          ", " + num(sp.max[1]) + ", " + num(sp.max[2]) + ") m"},
              {"voxel size", num(sp.voxel_size) + " m"},
              {"chunks", std::to_string(sp.chunk_cells) + " cells, tiles of " + std::to_string(sp.tile_chunks) +
                             " chunks, halo " + std::to_string(sp.halo_chunks)},
              {"jobs", j.empty() ? "none" : j}};
  d.details = {{"kind", "world"},
               {"name", w.name},
               {"height", w.height},
               {"splat", w.splat},
               {"layers", w.layers},
               {"min", sp.min},
               {"max", sp.max},
               {"voxel_size", sp.voxel_size},
               {"chunk_cells", sp.chunk_cells},
               {"tile_chunks", sp.tile_chunks},
               {"halo_chunks", sp.halo_chunks},
               {"mesh", w.mesh ? nlohmann::json{{"format", w.mesh->format}} : nlohmann::json(nullptr)},
               {"foliage", w.foliage.has_value()},
               {"preview", w.preview.has_value()}};
  return d;
}

}  // namespace voxkit::world
