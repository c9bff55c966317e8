// World and saves manifests from TOML (toml++).
#include "formats/world/manifest.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <toml++/toml.h>

#include "formats/core/io.hpp"
#include "lib/core/error.hpp"

namespace voxkit::world {
namespace fs = std::filesystem;

namespace {

// Byte offset of a 1-based line and column.
uint64_t offset_of(std::string_view text, uint32_t line, uint32_t column) {
  uint64_t at = 0;
  for (uint32_t l = 1; l < line && at < text.size(); ++at)
    if (text[at] == '\n') ++l;
  return std::min<uint64_t>(text.size(), at + (column ? column - 1 : 0));
}

std::string kind_of(const toml::node& v) {
  switch (v.type()) {
    case toml::node_type::string: return "the string \"" + std::string(v.as_string()->get()).substr(0, 40) + "\"";
    case toml::node_type::integer: return std::to_string(v.as_integer()->get());
    case toml::node_type::floating_point: return std::to_string(v.as_floating_point()->get());
    case toml::node_type::boolean: return v.as_boolean()->get() ? "true" : "false";
    case toml::node_type::array: return "an array of " + std::to_string(v.as_array()->size());
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}

// Reads tables key by key; every key must be taken, so unknown ones are refused.
class Reader {
 public:
  Reader(std::string_view text, std::string dir) : text_(text), dir_(std::move(dir)) {}

  [[noreturn]] void fail(const toml::node& v, const std::string& key, const std::string& what,
                         const std::string& expected) const {
    const auto& b = v.source().begin;
    const uint64_t at = b.line ? offset_of(text_, b.line, b.column) : 0;
    throw Error(ErrorKind::Data, "line " + std::to_string(b.line) + ": " + key + ": " + what, at, expected,
                kind_of(v));
  }

  // Calls `take(key, value)` for each entry of `t` (under `prefix`); an entry it does not take
  // (returns false) is an unknown key.
  void each(const toml::table& t, const std::string& prefix,
            const std::function<bool(const std::string&, const toml::node&)>& take) const {
    for (auto&& [k, v] : t) {
      const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
      if (!take(std::string(k.str()), v)) {
        const auto& b = k.source().begin;
        const uint64_t at = b.line ? offset_of(text_, b.line, b.column) : 0;
        throw Error(ErrorKind::Data, "line " + std::to_string(b.line) + ": unknown key " + key +
                                         " (docs/world.md lists the keys)", at);
      }
    }
  }

  const toml::table& table(const toml::node& v, const std::string& key) const {
    if (auto t = v.as_table()) return *t;
    fail(v, key, "not a table", "a table");
  }

  double number(const toml::node& v, const std::string& key) const {
    if (auto i = v.as_integer()) return double(i->get());
    if (auto f = v.as_floating_point(); f && std::isfinite(f->get())) return f->get();
    fail(v, key, "not a finite number", "a number");
  }

  int64_t integer(const toml::node& v, const std::string& key, int64_t lo, int64_t hi) const {
    if (auto i = v.as_integer(); i && i->get() >= lo && i->get() <= hi) return i->get();
    fail(v, key, "not an integer in range", "an integer " + std::to_string(lo) + ".." + std::to_string(hi));
  }

  bool flag(const toml::node& v, const std::string& key) const {
    if (auto b = v.as_boolean()) return b->get();
    fail(v, key, "not a boolean", "true or false");
  }

  std::string text(const toml::node& v, const std::string& key) const {
    if (auto s = v.as_string()) return s->get();
    fail(v, key, "not a string", "a string");
  }

  // A path relative to the manifest's directory (kept as written when absolute).
  std::string path(const toml::node& v, const std::string& key) const {
    const std::string p = text(v, key);
    if (p.empty()) fail(v, key, "an empty path", "a file name");
    return fs::path(p).is_absolute() ? p : (fs::path(dir_) / p).lexically_normal().string();
  }

  template <size_t N>
  std::array<double, N> numbers(const toml::node& v, const std::string& key) const {
    const toml::array* a = v.as_array();
    if (!a || a->size() != N) fail(v, key, "not " + std::to_string(N) + " numbers", "an array of " + std::to_string(N) + " numbers");
    std::array<double, N> out{};
    for (size_t k = 0; k < N; ++k) out[k] = number((*a)[k], key + "[" + std::to_string(k) + "]");
    return out;
  }

  template <size_t N>
  std::vector<std::array<int64_t, N>> int_tuples(const toml::node& v, const std::string& key) const {
    const toml::array* a = v.as_array();
    if (!a) fail(v, key, "not an array", "an array of arrays of " + std::to_string(N) + " integers");
    std::vector<std::array<int64_t, N>> out;
    for (size_t k = 0; k < a->size(); ++k) {
      const toml::array* t = (*a)[k].as_array();
      const std::string at = key + "[" + std::to_string(k) + "]";
      if (!t || t->size() != N) fail((*a)[k], at, "not " + std::to_string(N) + " integers", "an array of " + std::to_string(N) + " integers");
      std::array<int64_t, N> e{};
      for (size_t q = 0; q < N; ++q) e[q] = integer((*t)[q], at, -(int64_t(1) << 40), int64_t(1) << 40);
      out.push_back(e);
    }
    return out;
  }

  std::vector<std::string> strings(const toml::node& v, const std::string& key, bool paths) const {
    const toml::array* a = v.as_array();
    if (!a) fail(v, key, "not an array", "an array of strings");
    std::vector<std::string> out;
    for (size_t k = 0; k < a->size(); ++k) {
      const std::string at = key + "[" + std::to_string(k) + "]";
      out.push_back(paths ? path((*a)[k], at) : text((*a)[k], at));
    }
    return out;
  }

 private:
  std::string_view text_;
  std::string dir_;
};

void read_world(const Reader& r, const toml::table& root, WorldManifest& m) {
  bool have_world = false, have_terrain = false;
  r.each(root, "", [&](const std::string& k, const toml::node& v) {
    if (k == "world") {
      have_world = true;
      bool have_min = false, have_max = false;
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "world." + key;
        if (key == "name") m.name = r.text(x, full);
        else if (key == "min") m.spec.min = r.numbers<3>(x, full), have_min = true;
        else if (key == "max") m.spec.max = r.numbers<3>(x, full), have_max = true;
        else if (key == "voxel_size") m.spec.voxel_size = r.number(x, full);
        else if (key == "chunk_cells") m.spec.chunk_cells = uint32_t(r.integer(x, full, 1, 256));
        else if (key == "tile_chunks") m.spec.tile_chunks = uint32_t(r.integer(x, full, 1, 4096));
        else if (key == "halo_chunks") m.spec.halo_chunks = uint32_t(r.integer(x, full, 1, 16));
        else if (key == "border") m.spec.border_voxels = uint32_t(r.integer(x, full, 0, 64));
        else if (key == "headroom") m.spec.headroom_voxels = r.number(x, full);
        else return false;
        return true;
      });
      if (!have_min || !have_max) throw_data("[world] needs the world box: min = [x, y, z] and max = [x, y, z] (metres)");
    } else if (k == "terrain") {
      have_terrain = true;
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "terrain." + key;
        if (key == "height") m.height = r.path(x, full);
        else if (key == "origin") m.placement.origin = r.numbers<3>(x, full);
        else if (key == "terrain_size") m.placement.terrain_size = r.numbers<3>(x, full);
        else if (key == "terrain_pos") m.placement.terrain_pos = r.numbers<3>(x, full);
        else if (key == "raw_size") {
          const auto s = r.numbers<2>(x, full);
          if (!(s[0] >= 2 && s[1] >= 2 && s[0] <= 65535 && s[1] <= 65535)) r.fail(x, full, "not a size", "2..65535 samples each");
          m.placement.raw_size = std::array<uint32_t, 2>{uint32_t(s[0]), uint32_t(s[1])};
        } else if (key == "nodata") m.nodata_value = r.number(x, full);
        else if (key == "splat") m.splat = r.strings(x, full, true);
        else if (key == "layers") m.layers = r.strings(x, full, false);
        else return false;
        return true;
      });
      if (m.height.empty()) throw_data("[terrain] needs the height source: height = \"FILE\" (any GDAL raster or a VRT, or a Unity .raw)");
    } else if (k == "mesh") {
      MeshStage s;
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "mesh." + key;
        if (key == "format") s.format = r.text(x, full);
        else if (key == "lightmap") s.lightmap = r.flag(x, full);
        else if (key == "lightmap_size") s.lightmap_size = uint32_t(r.integer(x, full, 16, 16384));
        else if (key == "lods") {
          const toml::array* a = x.as_array();
          if (!a) r.fail(x, full, "not an array", "an array of ratios");
          for (size_t q = 0; q < a->size(); ++q) {
            const std::string at = full + "[" + std::to_string(q) + "]";
            const double ratio = r.number((*a)[q], at);
            if (!(ratio > 0 && ratio < 1) || (!s.lods.empty() && !(ratio < s.lods.back())))
              r.fail((*a)[q], at, "not a decreasing ratio", "ratios in (0, 1), each below the one before");
            s.lods.push_back(ratio);
          }
        } else return false;
        return true;
      });
      static const char* formats[] = {"glb", "gltf", "obj", "ply", "stl", "fbx"};
      if (std::find(std::begin(formats), std::end(formats), s.format) == std::end(formats)) {
        throw_data("mesh.format: unknown format \"" + s.format + "\"", std::nullopt, "glb, gltf, obj, ply, stl or fbx", s.format);
      }
      m.mesh = s;
    } else if (k == "foliage") {
      FoliageStage s;
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "foliage." + key;
        if (key == "trees") s.trees = r.path(x, full);
        else if (key == "details") s.details = r.path(x, full);
        else if (key == "surface_details") s.surface_details = r.path(x, full);
        else return false;
        return true;
      });
      if (s.trees.empty() && s.details.empty() && s.surface_details.empty())
        throw_data("[foliage] names no list: give trees, details or surface_details");
      m.foliage = s;
    } else if (k == "preview") {
      PreviewStage s;
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "preview." + key;
        if (key == "view") {
          s.view = r.text(x, full);
          if (s.view != "top" && s.view != "chunks") r.fail(x, full, "not a view a tile has", "\"top\" or \"chunks\"");
        } else if (key == "min_size") s.min_size = uint32_t(r.integer(x, full, 1, 8192));
        else return false;
        return true;
      });
      m.preview = s;
    } else {
      return false;
    }
    return true;
  });
  if (!have_world) throw_data("no [world] table: a world manifest needs [world] and [terrain] (docs/world.md)");
  if (!have_terrain) throw_data("no [terrain] table: a world manifest needs the height source");
  plan_world(m.spec);  // the layout's own checks, with the manifest named
}

// Sorted matches of a glob pattern's last component (directories are taken as written).
std::vector<std::string> expand(const std::string& pattern) {
  const fs::path p(pattern);
  const std::string name = p.filename().string();
  if (name.find_first_of("*?[") == std::string::npos) return {pattern};
  std::string rx;
  for (char c : name) {
    if (c == '*') rx += "[^/]*";
    else if (c == '?') rx += "[^/]";
    else if (std::string(".+()^$|{}\\").find(c) != std::string::npos) rx += std::string("\\") + c;
    else rx += c;
  }
  const std::regex re(rx);
  std::vector<std::string> out;
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && std::regex_match(e.path().filename().string(), re)) out.push_back((dir / e.path().filename()).string());
  std::sort(out.begin(), out.end());
  return out;
}

void read_saves(const Reader& r, const toml::table& root, SavesManifest& m) {
  r.each(root, "", [&](const std::string& k, const toml::node& v) {
    if (k == "saves") {
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "saves." + key;
        if (key == "name") m.name = r.text(x, full);
        else if (key == "files") {
          for (const std::string& f : r.strings(x, full, true)) {
            auto got = expand(f);
            if (got.empty()) r.fail(x, full, "the pattern " + f + " matches no file", "at least one .save");
            m.saves.insert(m.saves.end(), got.begin(), got.end());
          }
        } else return false;
        return true;
      });
    } else if (k == "reset") {
      ResetRule& rr = m.reset;
      r.each(r.table(v, k), k, [&](const std::string& key, const toml::node& x) {
        const std::string full = "reset." + key;
        if (key == "keep_rooms") rr.keep_rooms = r.flag(x, full);
        else if (key == "rooms_bbox") rr.rooms_bbox = r.flag(x, full);
        else if (key == "reset_all_if_no_rooms") rr.reset_all_if_no_rooms = r.flag(x, full);
        else if (key == "keep_checksums") rr.keep_checksums = r.flag(x, full);
        else if (key == "compat") rr.compat = r.flag(x, full);
        else if (key == "any_depth") rr.any_depth = r.flag(x, full);
        else if (key == "margin") rr.margin = r.integer(x, full, 0, 1 << 20);
        else if (key == "keep_box") rr.keep_box = r.int_tuples<6>(x, full);
        else if (key == "drop_box") rr.drop_box = r.int_tuples<6>(x, full);
        else if (key == "keep_sphere") rr.keep_sphere = r.int_tuples<4>(x, full);
        else if (key == "drop_sphere") rr.drop_sphere = r.int_tuples<4>(x, full);
        else if (key == "keep_radius") rr.keep_radius = r.int_tuples<3>(x, full);
        else if (key == "drop_radius") rr.drop_radius = r.int_tuples<3>(x, full);
        else return false;
        return true;
      });
    } else {
      return false;
    }
    return true;
  });
  if (m.saves.empty()) throw_data("[saves] names no file: files = [\"saves/*.save\", ...]");
  // Each save's output is named by its file name: two saves of one name would collide.
  std::map<std::string, std::string> seen;
  for (const auto& s : m.saves) {
    const std::string n = fs::path(s).filename().string();
    if (auto [it, fresh] = seen.emplace(n, s); !fresh) {
      throw_data("two saves have the file name " + n + " (" + it->second + " and " + s + "): their outputs would collide");
    }
  }
}

}  // namespace

std::string relative_to(const std::string& path, const std::string& dir) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec), base = fs::absolute(dir.empty() ? "." : dir, ec);
  fs::path rel = abs.lexically_normal().lexically_relative(base.lexically_normal());
  return rel.empty() ? path : rel.string();
}

Manifest parse_manifest(std::string_view text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    const uint64_t at = b.line ? offset_of(text, b.line, b.column) : 0;
    throw_data("line " + std::to_string(b.line) + ": not valid TOML: " + std::string(e.description()), at);
  }
  const std::string dir = fs::path(path).parent_path().string();
  Reader r(text, dir.empty() ? "." : dir);
  Manifest m;
  if (root.contains("saves") || root.contains("reset")) {
    m.kind = ManifestKind::Saves;
    m.saves.path = path;
    m.saves.dir = dir.empty() ? "." : dir;
    read_saves(r, root, m.saves);
  } else {
    m.kind = ManifestKind::World;
    m.world.path = path;
    m.world.dir = dir.empty() ? "." : dir;
    read_world(r, root, m.world);
  }
  return m;
}

Manifest read_manifest(const std::string& path) {
  return with_source(io::display_name(path), [&] {
    const std::string text = io::read_text(path, uint64_t(16) << 20);
    return parse_manifest(text, path);
  });
}

WorldManifest read_world_manifest(const std::string& path) {
  Manifest m = read_manifest(path);
  if (m.kind != ManifestKind::World) {
    throw_usage(io::display_name(path) + " is a saves manifest: tiles need a world manifest ([world], [terrain])");
  }
  return std::move(m.world);
}

}  // namespace voxkit::world
