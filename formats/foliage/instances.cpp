// Instance lists (CSV, JSON) and the Unity assets' tree and detail lists.
#include "formats/foliage/instances.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>

#include "formats/core/json_numbers.hpp"
#include "lib/core/error.hpp"

namespace voxkit::foliage_io {
namespace {

enum class Kind { Trees, Details, Surface };

// Every column a list may hold; which a kind accepts is below.
enum Col : int { Id, Prototype, X, Y, Z, Px, Py, Pz, Nx, Ny, Nz, Upx, Upy, Upz, Rotation, Width, Height, Scale, kCols };
constexpr const char* kNames[kCols] = {"id", "prototype", "x", "y", "z", "px", "py", "pz", "nx",
                                       "ny", "nz", "upx", "upy", "upz", "rotation", "width", "height", "scale"};

bool accepts(Kind k, int c) {
  switch (k) {
    case Kind::Trees: return c != Nx && c != Ny && c != Nz;
    case Kind::Details: return c == Id || c == Prototype || c == X || c == Y || c == Z || c == Rotation || c == Width ||
                               c == Height || c == Scale;
    case Kind::Surface: return c != Px && c != Py && c != Pz && c != Upx && c != Upy && c != Upz;
  }
  return false;
}

const char* kind_name(Kind k) { return k == Kind::Trees ? "tree" : k == Kind::Details ? "detail" : "surface detail"; }

std::string accepted_list(Kind k) {
  std::string s;
  for (int c = 0; c < kCols; ++c)
    if (accepts(k, c)) s += (s.empty() ? "" : ", ") + std::string(kNames[c]);
  return s;
}

std::optional<int> column_of(std::string_view name) {
  for (int c = 0; c < kCols; ++c)
    if (name == kNames[c]) return c;
  return std::nullopt;
}

std::string shown(std::string_view s) { return "'" + escape_text(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'"); }

struct Row {
  std::array<std::optional<double>, kCols> v;
  std::array<uint64_t, kCols> at{};  // byte offset of each value
  uint64_t offset = 0;                // of the row
  std::string where;                  // "line 3" or "item 2"
};

using Fail = std::function<void(const Row&, int col, const std::string& what, const std::string& expected,
                                 const std::string& found)>;

[[noreturn]] void fail_row(const Row& r, int col, const std::string& what, const std::string& expected,
                           const std::string& found) {
  throw_data(r.where + (col >= 0 ? std::string(", column ") + kNames[col] : std::string()) + ": " + what,
             col >= 0 ? r.at[size_t(col)] : r.offset, expected, found);
}

void check_row(Kind k, const Row& r) {
  auto need = [&](int c) {
    if (!r.v[size_t(c)]) fail_row(r, -1, std::string("missing ") + kNames[c], std::string("a value for ") + kNames[c], "none");
  };
  for (int c = 0; c < kCols; ++c) {
    if (!r.v[size_t(c)]) continue;
    const double v = *r.v[size_t(c)];
    if (!std::isfinite(v)) fail_row(r, c, "not a finite number", "a finite number", "not finite");
    if (c == Id && !(v >= 0 && v <= 4294967295.0 && v == std::floor(v)))
      fail_row(r, c, "not an id", "an integer 0..4294967295", std::to_string(v));
    if (c == Prototype && !(v >= 0 && v <= 2147483647.0 && v == std::floor(v)))
      fail_row(r, c, "not a prototype index", "an integer 0..2147483647", std::to_string(v));
    if ((c == Width || c == Height || c == Scale) && !(v > 0))
      fail_row(r, c, "not a positive scale", "a number > 0", std::to_string(v));
    if (std::fabs(v) > 1e9 && c != Id) fail_row(r, c, "out of range", "|value| <= 1e9", std::to_string(v));
  }
  const bool world = r.v[X] || r.v[Z] || (k != Kind::Details && r.v[Y]);
  const bool norm = r.v[Px] || r.v[Py] || r.v[Pz];
  if (k == Kind::Trees && world && norm) fail_row(r, -1, "both x,y,z and px,py,pz given", "one position", "both");
  if (k == Kind::Trees && norm) {
    need(Px), need(Py), need(Pz);
  } else {
    need(X), need(Z);
    if (k != Kind::Details) need(Y);
  }
  if (r.v[Scale] && (r.v[Width] || r.v[Height])) fail_row(r, Scale, "scale given with width or height", "one of them", "both");
}

float fv(const Row& r, int c, float dflt) { return r.v[size_t(c)] ? float(*r.v[size_t(c)]) : dflt; }

// --- CSV -------------------------------------------------------------------------------------

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s, uint64_t& off) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1), ++off;
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::optional<double> number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  if (s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

void read_csv(std::string_view text, Kind k, uint64_t max, const std::function<void(const Row&)>& emit) {
  std::vector<int> cols;
  bool header = false;
  uint64_t pos = 0, line = 0, rows = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const uint64_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view s = text.substr(pos, end - pos);
    const uint64_t start = pos;
    pos = end + 1;
    ++line;
    uint64_t off = start;
    std::string_view t = trim(s, off);
    if (t.empty() || t.front() == '#') continue;
    // Split on commas.
    std::vector<std::pair<std::string_view, uint64_t>> cells;
    uint64_t cpos = 0;
    while (true) {
      const size_t comma = s.find(',', cpos);
      const size_t cend = comma == std::string_view::npos ? s.size() : comma;
      uint64_t o = start + cpos;
      cells.push_back({trim(s.substr(cpos, cend - cpos), o), o});
      if (comma == std::string_view::npos) break;
      cpos = comma + 1;
    }
    if (!header) {
      header = true;
      std::array<bool, kCols> seen{};
      for (auto& [name, o] : cells) {
        const auto c = column_of(name);
        if (!c || !accepts(k, *c))
          throw_data("line " + std::to_string(line) + ": unknown column " + shown(name) + " in a " + kind_name(k) + " list", o,
                     "one of " + accepted_list(k), shown(name));
        if (seen[size_t(*c)]) throw_data("line " + std::to_string(line) + ": column " + shown(name) + " appears twice", o);
        seen[size_t(*c)] = true;
        cols.push_back(*c);
      }
      continue;
    }
    if (++rows > max)
      throw_data("more than " + std::to_string(max) + " instances", start, "at most " + std::to_string(max), "more");
    Row r;
    r.offset = start;
    r.where = "line " + std::to_string(line);
    if (cells.size() != cols.size())
      throw_data(r.where + ": " + std::to_string(cells.size()) + " values for " + std::to_string(cols.size()) + " columns",
                 start, std::to_string(cols.size()) + " values", std::to_string(cells.size()));
    for (size_t i = 0; i < cells.size(); ++i) {
      const auto& [cell, o] = cells[i];
      r.at[size_t(cols[i])] = o;
      if (cell.empty()) continue;  // an empty cell is an absent value
      const auto v = number(cell);
      if (!v) fail_row(r, cols[i], "not a number", "a number", shown(cell));
      r.v[size_t(cols[i])] = *v;
    }
    r.v[Id] = r.v[Id] ? r.v[Id] : std::optional<double>(double(rows - 1));
    check_row(k, r);
    emit(r);
  }
  if (!header) throw_data(std::string("no header line: a ") + kind_name(k) + " list starts with its column names", 0,
                          "a header such as x,y,z,prototype", "nothing");
}

// --- JSON ------------------------------------------------------------------------------------

void read_json(std::string_view text, Kind k, uint64_t max, const std::function<void(const Row&)>& emit) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const size_t colon = what.find("parse error at");
    throw_data("not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon)), e.byte ? e.byte - 1 : 0);
  } catch (const nlohmann::json::exception&) {
    // The parser's other refusal: a number too large for a double (1e400).
    json_numbers::throw_out_of_range(text);
  }
  if (j.is_object()) {
    const char* key = k == Kind::Trees ? "trees" : k == Kind::Details ? "details" : "surfaceDetails";
    if (!j.contains(key) || !j[key].is_array())
      throw_data(std::string("a JSON object list must hold the array \"") + key + "\"", 0, std::string("\"") + key + "\": [...]",
                 "no such array");
    j = j[key];
  }
  if (!j.is_array()) throw_data("a JSON list must be an array of objects", 0, "[", j.type_name());
  if (j.size() > max) throw_data("more than " + std::to_string(max) + " instances", 0, "at most " + std::to_string(max),
                                 std::to_string(j.size()));
  uint64_t n = 0;
  for (const auto& item : j) {
    Row r;
    r.where = "item " + std::to_string(n);
    if (!item.is_object()) fail_row(r, -1, "not an object", "an object", item.type_name());
    auto set = [&](int c, const nlohmann::json& v, const std::string& key) {
      if (!accepts(k, c)) fail_row(r, -1, "unknown key \"" + key + "\" in a " + kind_name(k) + " list", "one of " + accepted_list(k), key);
      if (!v.is_number()) fail_row(r, c, "not a number", "a number", v.type_name());
      if (r.v[size_t(c)]) fail_row(r, c, "given twice", "one value", "two");
      r.v[size_t(c)] = v.get<double>();
    };
    auto vec3 = [&](const nlohmann::json& v, int c0, const std::string& key) {
      if (v.is_array() && v.size() == 3) {
        for (int a = 0; a < 3; ++a) set(c0 + a, v[size_t(a)], key);
      } else if (v.is_object() && v.size() == 3 && v.contains("x") && v.contains("y") && v.contains("z")) {
        set(c0, v["x"], key), set(c0 + 1, v["y"], key), set(c0 + 2, v["z"], key);
      } else {
        fail_row(r, -1, "\"" + key + "\" is not three numbers", "[x, y, z] or {\"x\":..,\"y\":..,\"z\":..}", v.dump().substr(0, 40));
      }
    };
    for (const auto& [key, v] : item.items()) {
      if (key == "position") vec3(v, X, key);
      else if (key == "position01") vec3(v, Px, key);
      else if (key == "normal") vec3(v, Nx, key);
      else if (key == "up") vec3(v, Upx, key);
      else if (key == "prototypeIndex") set(Prototype, v, key);
      else if (key == "widthScale") set(Width, v, key);
      else if (key == "heightScale") set(Height, v, key);
      else if (k == Kind::Trees && (key == "color" || key == "lightmapColor")) continue;  // Unity's tints: not used
      else if (const auto c = column_of(key)) set(*c, v, key);
      else fail_row(r, -1, "unknown key \"" + key + "\" in a " + kind_name(k) + " list", "one of " + accepted_list(k) +
                                ", position, position01, normal, up", key);
    }
    if (!r.v[Id]) r.v[Id] = double(n);
    check_row(k, r);
    emit(r);
    ++n;
  }
}

void read_list(std::string_view text, Kind k, uint64_t max, const std::function<void(const Row&)>& emit) {
  if (detect(text) == ListFormat::Json) read_json(text, k, max, emit);
  else read_csv(text, k, max, emit);
}

std::array<float, 3> terrain_size(const Terrain& t, const char* what) {
  if (!t.size)
    throw_usage(std::string(what) + " are terrain-normalised (0..1 of the terrain): the terrain's size is needed",
                {{"terrain-size", "the terrain's size"}});
  return *t.size;
}

}  // namespace

ListFormat detect(std::string_view text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '[' || c == '{' ? ListFormat::Json : ListFormat::Csv;
  }
  return ListFormat::Csv;
}

std::vector<foliage::TreeInput> read_trees(std::string_view text, const Terrain& terrain, uint64_t max) {
  std::vector<foliage::TreeInput> out;
  read_list(text, Kind::Trees, max, [&](const Row& r) {
    foliage::TreeInput t;
    t.id = uint32_t(*r.v[Id]);
    t.prototype = uint32_t(fv(r, Prototype, 0));
    if (r.v[Px]) {
      const auto size = terrain_size(terrain, "px,py,pz positions");
      t.source = {fv(r, Px, 0), fv(r, Py, 0), fv(r, Pz, 0)};
      t.normalized = true;
      t.position = foliage::terrain_point(terrain.position.value_or(std::array<float, 3>{0, 0, 0}), t.source, size);
    } else {
      t.position = t.source = {fv(r, X, 0), fv(r, Y, 0), fv(r, Z, 0)};
    }
    t.rotation = fv(r, Rotation, 0);
    t.width = fv(r, Width, fv(r, Scale, 1));
    t.height = fv(r, Height, fv(r, Scale, 1));
    t.up = {fv(r, Upx, 0), fv(r, Upy, 0), fv(r, Upz, 0)};
    out.push_back(t);
  });
  return out;
}

std::vector<foliage::DetailInput> read_details(std::string_view text, uint64_t max) {
  std::vector<foliage::DetailInput> out;
  read_list(text, Kind::Details, max, [&](const Row& r) {
    foliage::DetailInput d;
    d.id = uint32_t(*r.v[Id]);
    d.prototype = uint32_t(fv(r, Prototype, 0));
    d.x = fv(r, X, 0);
    d.z = fv(r, Z, 0);
    d.rotation = fv(r, Rotation, 0);
    d.width = fv(r, Width, fv(r, Scale, 1));
    d.height = fv(r, Height, fv(r, Scale, 1));
    out.push_back(d);
  });
  return out;
}

std::vector<foliage::SurfaceInput> read_surface(std::string_view text, uint64_t max) {
  std::vector<foliage::SurfaceInput> out;
  read_list(text, Kind::Surface, max, [&](const Row& r) {
    foliage::SurfaceInput s;
    s.id = uint32_t(*r.v[Id]);
    s.prototype = uint32_t(fv(r, Prototype, 0));
    s.position = s.source = {fv(r, X, 0), fv(r, Y, 0), fv(r, Z, 0)};
    s.normal = {fv(r, Nx, 0), fv(r, Ny, 0), fv(r, Nz, 0)};
    s.rotation = fv(r, Rotation, 0);
    s.width = fv(r, Width, fv(r, Scale, 1));
    s.height = fv(r, Height, fv(r, Scale, 1));
    out.push_back(s);
  });
  return out;
}

// --- YAML block sequences --------------------------------------------------------------------

const std::string* YamlItem::find(std::string_view key) const {
  for (const auto& [k, v] : values)
    if (k == key) return &v;
  return nullptr;
}

namespace {

size_t indent_of(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  return i;
}

std::string_view strip(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "key: value" (value a scalar or a flow mapping) into the item.
void add_pair(YamlItem& item, std::string_view s, size_t at) {
  const size_t colon = s.find(':');
  if (colon == std::string_view::npos) throw_data("a sequence item's line is not key: value", at, "key: value", shown(s));
  const std::string key(strip(s.substr(0, colon)));
  std::string_view v = strip(s.substr(colon + 1));
  if (!v.empty() && v.front() == '{') {
    if (v.back() != '}') throw_data("flow mapping of " + shown(key) + " is not closed on its line", at, "}", shown(v));
    v = v.substr(1, v.size() - 2);
    while (!strip(v).empty()) {
      const size_t comma = v.find(',');
      const std::string_view part = v.substr(0, comma);
      const size_t c2 = part.find(':');
      if (c2 == std::string_view::npos) throw_data("flow mapping entry is not key: value", at, "key: value", shown(part));
      item.values.push_back({key + "." + std::string(strip(part.substr(0, c2))), std::string(strip(part.substr(c2 + 1)))});
      if (comma == std::string_view::npos) break;
      v = v.substr(comma + 1);
    }
    return;
  }
  item.values.push_back({key, std::string(v)});
}

}  // namespace

std::optional<std::vector<YamlItem>> yaml_sequence(std::string_view text, std::string_view key, size_t from, uint64_t max) {
  // Find "key:" at the start of a line (after spaces).
  size_t pos = from;
  size_t key_indent = 0, after = 0;
  bool found = false;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    const std::string_view line = text.substr(pos, end - pos);
    const size_t ind = indent_of(line);
    const std::string_view rest = line.substr(ind);
    if (rest.size() > key.size() && rest.substr(0, key.size()) == key && rest[key.size()] == ':') {
      const std::string_view v = strip(rest.substr(key.size() + 1));
      if (v == "[]") return std::vector<YamlItem>{};
      if (!v.empty()) throw_data("the value of " + shown(key) + " is not a block sequence", pos + ind, "a list of items", shown(v));
      key_indent = ind;
      after = end + 1;
      found = true;
      break;
    }
    pos = end + 1;
  }
  if (!found) return std::nullopt;
  std::vector<YamlItem> items;
  size_t dash_indent = std::string::npos;
  pos = after;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    const std::string_view line = text.substr(pos, end - pos);
    const size_t ind = indent_of(line);
    const std::string_view rest = strip(line.substr(ind));
    if (rest.empty()) {
      pos = end + 1;
      continue;
    }
    const bool dash = rest.size() >= 1 && rest[0] == '-' && (rest.size() == 1 || rest[1] == ' ');
    if (dash_indent == std::string::npos) {
      if (!dash || ind < key_indent) break;  // an empty sequence written as nothing
      dash_indent = ind;
    }
    if (dash && ind == dash_indent) {
      if (items.size() >= max)
        throw_data("more than " + std::to_string(max) + " items under " + shown(key), pos, "at most " + std::to_string(max), "more");
      items.push_back({});
      items.back().offset = pos + ind;
      const std::string_view first = strip(rest.substr(1));
      if (!first.empty()) add_pair(items.back(), first, pos + ind + 2);
    } else if (ind > dash_indent) {
      add_pair(items.back(), rest, pos + ind);
    } else {
      break;
    }
    pos = end + 1;
  }
  return items;
}

namespace {

float item_float(const YamlItem& it, std::string_view key, const char* list, size_t index, std::optional<float> dflt = {}) {
  const std::string* v = it.find(key);
  if (!v) {
    if (dflt) return *dflt;
    throw_data(std::string(list) + " item " + std::to_string(index) + " has no " + std::string(key), it.offset,
               std::string(key), "none");
  }
  const auto n = number(*v);
  if (!n || !std::isfinite(*n) || std::fabs(*n) > 1e9)
    throw_data(std::string(list) + " item " + std::to_string(index) + ": " + std::string(key) + " is not a number",
               it.offset, "a finite number", shown(*v));
  return float(*n);
}

std::array<float, 3> item_vec(const YamlItem& it, const std::string& key, const char* list, size_t index,
                              std::optional<float> dflt = {}) {
  return {item_float(it, key + ".x", list, index, dflt), item_float(it, key + ".y", list, index, dflt),
          item_float(it, key + ".z", list, index, dflt)};
}

uint32_t item_index(const YamlItem& it, std::string_view key, const char* list, size_t index) {
  const float v = item_float(it, key, list, index);
  // Negative or fractional indices are bad prototypes: the bake skips them (kept as past any list).
  return v >= 0 && v == std::floor(v) && v < 2147483648.0f ? uint32_t(v) : UINT32_MAX;
}

std::array<uint8_t, 4> item_colour(const YamlItem& it, const std::string& key, const char* list, size_t index) {
  std::array<uint8_t, 4> c{255, 255, 255, 255};
  const char* parts[4] = {".r", ".g", ".b", ".a"};
  for (int k = 0; k < 4; ++k) {
    if (!it.find(key + parts[k])) continue;
    const float v = item_float(it, key + parts[k], list, index);
    if (!(v >= 0 && v <= 255 && v == std::floor(v)))
      throw_data(std::string(list) + " item " + std::to_string(index) + ": " + key + parts[k] + " is not a colour byte",
                 it.offset, "an integer 0..255", std::to_string(v));
    c[size_t(k)] = uint8_t(v);
  }
  return c;
}

std::vector<foliage::TreeInput> trees_of(const std::vector<YamlItem>& items, const char* list, const char* proto_key,
                                         const std::array<float, 3>& tp, const std::array<float, 3>& size) {
  std::vector<foliage::TreeInput> out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const YamlItem& it = items[i];
    foliage::TreeInput t;
    t.id = uint32_t(i);
    t.prototype = item_index(it, proto_key, list, i);
    t.source = item_vec(it, "position", list, i);
    t.normalized = true;
    t.position = foliage::terrain_point(tp, t.source, size);
    t.color = item_colour(it, "color", list, i);
    t.lightmap_color = item_colour(it, "lightmapColor", list, i);
    t.rotation = item_float(it, "rotation", list, i, 0.0f);
    t.width = item_float(it, "widthScale", list, i, 1.0f);
    t.height = item_float(it, "heightScale", list, i, 1.0f);
    if (it.find("up.x")) t.up = item_vec(it, "up", list, i);
    out.push_back(t);
  }
  return out;
}

}  // namespace

AssetFoliage read_asset_foliage(std::string_view text, const Terrain& terrain, bool want_trees, bool want_surface,
                                uint64_t max) {
  AssetFoliage a;
  const auto tp = terrain.position.value_or(std::array<float, 3>{0, 0, 0});
  auto trees = want_trees ? yaml_sequence(text, "terrainTrees", 0, max) : std::nullopt;
  if (trees) {
    a.has_trees = true;
    a.tree_items = trees->size();
    if (!trees->empty()) a.trees = trees_of(*trees, "terrainTrees", "prototypeIndex", tp, terrain_size(terrain, "the asset's terrainTrees"));
  }
  auto surf = want_surface ? yaml_sequence(text, "surfaceDetails", 0, max) : std::nullopt;
  if (surf) {
    a.has_surface = true;
    for (size_t i = 0; i < surf->size(); ++i) {
      const YamlItem& it = (*surf)[i];
      foliage::SurfaceInput s;
      s.id = uint32_t(i);
      s.prototype = item_index(it, "prototypeIndex", "surfaceDetails", i);
      const auto p = item_vec(it, "position", "surfaceDetails", i);
      for (int k = 0; k < 3; ++k) s.position[size_t(k)] = tp[size_t(k)] + p[size_t(k)];
      s.source = p;
      s.terrain_relative = true;
      s.normal = item_vec(it, "normal", "surfaceDetails", i, 0.0f);
      s.rotation = item_float(it, "rotation", "surfaceDetails", i, 0.0f);
      s.width = item_float(it, "width", "surfaceDetails", i, 1.0f);
      s.height = item_float(it, "height", "surfaceDetails", i, 1.0f);
      a.surface.push_back(s);
    }
  }
  return a;
}

bool looks_like_terrain_data(std::string_view text) {
  return text.find("\nTerrainData:") != std::string_view::npos || text.rfind("TerrainData:", 0) == 0;
}

TerrainDataTrees read_terrain_data(std::string_view text, const Terrain& terrain, uint64_t max) {
  TerrainDataTrees out;
  const size_t doc = text.find("TerrainData:");
  if (doc == std::string_view::npos || !looks_like_terrain_data(text))
    throw_data("not a Unity TerrainData asset (no TerrainData document)", 0, "TerrainData:", "none");
  // The size: m_Heightmap's m_Scale and m_Resolution.
  const size_t hm = text.find("m_Heightmap:", doc);
  if (hm == std::string_view::npos) throw_data("TerrainData has no m_Heightmap (its size)", doc, "m_Heightmap:", "none");
  auto scalar_after = [&](std::string_view key) -> std::pair<std::string_view, size_t> {
    const size_t k = text.find(std::string(key) + ":", hm);
    if (k == std::string_view::npos) throw_data("m_Heightmap has no " + std::string(key), hm, std::string(key), "none");
    const size_t e = text.find('\n', k);
    return {strip(text.substr(k + key.size() + 1, (e == std::string_view::npos ? text.size() : e) - k - key.size() - 1)), k};
  };
  const auto [res_text, res_at] = scalar_after("m_Resolution");
  const auto res = number(res_text);
  if (!res || *res < 2 || *res > 65536 || *res != std::floor(*res))
    throw_data("m_Resolution is not a heightmap resolution", res_at, "an integer 2..65536", shown(res_text));
  const auto [scale_text, scale_at] = scalar_after("m_Scale");
  YamlItem sc;
  add_pair(sc, "m_Scale: " + std::string(scale_text), scale_at);
  const auto scale = item_vec(sc, "m_Scale", "m_Heightmap", 0);
  const float cells = float(*res - 1);
  out.size = {scale[0] * cells, scale[1], scale[2] * cells};
  if (terrain.size) out.size = *terrain.size;
  if (auto protos = yaml_sequence(text, "m_TreePrototypes", doc, max)) out.prototypes = uint32_t(protos->size());
  if (auto protos = yaml_sequence(text, "m_DetailPrototypes", doc, max)) out.detail_prototypes = uint32_t(protos->size());
  const auto tp = terrain.position.value_or(std::array<float, 3>{0, 0, 0});
  if (auto trees = yaml_sequence(text, "m_TreeInstances", doc, max))
    out.trees = trees_of(*trees, "m_TreeInstances", "index", tp, out.size);
  return out;
}

}  // namespace voxkit::foliage_io
