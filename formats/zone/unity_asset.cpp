// Dig-zone Unity assets: locating the DigZoneData document in Unity's YAML subset, reading
// its grid fields, and rewriting only their values.
#include "formats/zone/unity_asset.hpp"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_meta.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"

namespace voxkit::unity {
namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

struct Line {
  size_t begin, end, next;  // end excludes "\r\n" / "\n"; next is the following line's start
};

Line line_at(std::string_view t, size_t pos) {
  size_t nl = t.find('\n', pos);
  size_t next = nl == std::string_view::npos ? t.size() : nl + 1;
  size_t end = nl == std::string_view::npos ? t.size() : nl;
  if (end > pos && t[end - 1] == '\r') --end;
  return {pos, end, next};
}

size_t indent_of(std::string_view t, const Line& l) {
  size_t i = l.begin;
  while (i < l.end && t[i] == ' ') ++i;
  return i - l.begin;
}

// A line deeper than the key that holds only hex digits and spaces: a folded plain scalar.
bool is_hex_continuation(std::string_view t, const Line& l) {
  if (indent_of(t, l) <= 2) return false;
  bool any = false;
  for (size_t i = l.begin; i < l.end; ++i) {
    if (t[i] == ' ') continue;
    if (!is_hex(t[i])) return false;
    any = true;
  }
  return any;
}

const Field* find_any(const ZoneDocument& d, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (const Field* f = d.find(k)) return f;
  return nullptr;
}

std::string where(const Field& f) { return "field '" + f.key + "' (line " + std::to_string(f.line) + ")"; }

[[noreturn]] void bad_field(const Field& f, const std::string& what, std::string expected = {},
                            std::string found = {}) {
  if (found.size() > 48) found = found.substr(0, 45) + "...";
  throw_data(where(f) + ": " + what, f.value_begin, std::move(expected), std::move(found));
}

std::string_view value_of(std::string_view t, const Field& f) {
  return t.substr(f.value_begin, f.value_end - f.value_begin);
}

std::string trimmed(std::string_view v) {
  size_t a = 0, b = v.size();
  while (a < b && (v[a] == ' ' || v[a] == '\t')) ++a;
  while (b > a && (v[b - 1] == ' ' || v[b - 1] == '\t')) --b;
  return std::string(v.substr(a, b - a));
}

int64_t parse_int(std::string_view t, const Field& f, int64_t lo, int64_t hi) {
  std::string s = trimmed(value_of(t, f));
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || v < lo || v > hi) {
    bad_field(f, "is not an integer in range", std::to_string(lo) + ".." + std::to_string(hi), s);
  }
  return v;
}

// Unity's fields are float32: values are read as such, so a round trip through export is exact.
double parse_number(const std::string& s, const Field& f) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !std::isfinite(v) || std::fabs(v) > double(FLT_MAX)) {
    bad_field(f, "holds something that is not a finite float", "a number", s);
  }
  return double(float(v));
}

// The raw grids of 0.3 and earlier (renamed legacy* in 0.4), as the import would use them.
struct LegacyFields {
  const Field *grid = nullptr, *paint = nullptr, *base = nullptr;
};
LegacyFields legacy_fields(const ZoneDocument& d) {
  return {find_any(d, {"legacyGrid", "grid"}), find_any(d, {"legacyPaint", "paint"}),
          find_any(d, {"legacyBaseGrid", "baseGrid"})};
}

// "{x: 1, y: 2}" -> {x: 1, y: 2}; every name in `names` must be present.
std::map<std::string, double> parse_flow(std::string_view t, const Field& f, std::initializer_list<const char*> names) {
  std::string s = trimmed(value_of(t, f));
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') bad_field(f, "is not a flow mapping", "{x: .., ...}", s);
  std::map<std::string, double> out;
  std::string body = s.substr(1, s.size() - 2);
  size_t pos = 0;
  while (pos <= body.size()) {
    size_t comma = body.find(',', pos);
    std::string item = trimmed(std::string_view(body).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    size_t colon = item.find(':');
    if (colon == std::string::npos) bad_field(f, "has an entry without a key", "key: value", item);
    out[trimmed(std::string_view(item).substr(0, colon))] = parse_number(trimmed(std::string_view(item).substr(colon + 1)), f);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  for (const char* n : names)
    if (!out.count(n)) bad_field(f, std::string("lacks the component '") + n + "'", n, s);
  return out;
}

// The bytes of a hex field ("" and "[]" are empty arrays).
std::vector<uint8_t> hex_field(std::string_view t, const Field& f) {
  std::string_view v = value_of(t, f);
  std::string s = trimmed(v);
  if (s.empty() || s == "[]" || s == "''" || s == "\"\"") return {};
  return from_hex(v, f.value_begin);
}

const Field& need(const ZoneDocument& d, std::string_view key) {
  if (const Field* f = d.find(key)) return *f;
  throw_data("the DigZoneData document has no field '" + std::string(key) + "'", d.begin,
             std::string(key), "nothing");
}


// Decodes one RLE grid field; an empty field gives an empty grid.
ByteGrid rle_grid(std::string_view t, const Field& f, const Dims& cells) {
  auto bytes = hex_field(t, f);
  ByteGrid g;
  if (bytes.empty()) return g;
  try {
    const uint64_t count = rle::read_count(bytes);
    if (count != cells.samples()) {
      throw_data("RLE sample count does not match nx, ny, nz", 0, std::to_string(cells.samples()), std::to_string(count));
    }
    g.cells = cells;
    g.data = rle::decode(bytes, count);
  } catch (const Error& e) {
    std::string inner = e.what();
    if (inner.compare(0, 7, "offset ") == 0) inner = "stream byte " + inner.substr(7);
    throw_data(where(f) + " holds a bad RLE stream: " + inner, f.value_begin);
  }
  return g;
}

ByteGrid raw_grid(std::string_view t, const Field& f, const Dims& cells) {
  auto bytes = hex_field(t, f);
  ByteGrid g;
  if (bytes.empty()) return g;
  if (bytes.size() != cells.samples()) {
    bad_field(f, "raw grid size does not match nx, ny, nz", std::to_string(cells.samples()) + " bytes",
              std::to_string(bytes.size()) + " bytes");
  }
  g.cells = cells;
  g.data = std::move(bytes);
  return g;
}

}  // namespace

const Field* ZoneDocument::find(std::string_view key) const {
  for (auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

std::string to_hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    s[2 * i] = digits[bytes[i] >> 4];
    s[2 * i + 1] = digits[bytes[i] & 15];
  }
  return s;
}

std::vector<uint8_t> from_hex(std::string_view text, size_t base) {
  std::vector<uint8_t> out;
  out.reserve(text.size() / 2);
  int high = -1;
  size_t high_at = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (!is_hex(c)) {
      std::string found = "' '";
      found[1] = c;
      throw_data("hex byte array holds a character that is not a hex digit", base + i, "0-9, a-f, A-F", found);
    }
    int v = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    if (high < 0) {
      high = v;
      high_at = i;
    } else {
      out.push_back(uint8_t(high << 4 | v));
      high = -1;
    }
  }
  if (high >= 0) throw_data("hex byte array has an odd number of digits", base + high_at, "pairs of digits", "a lone digit");
  return out;
}

std::string format_float(double value) {
  const float f = float(value);
  char buf[48];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, double(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  return buf;
}

ZoneDocument find_zone_document(std::string_view t) {
  std::vector<ZoneDocument> found;
  ZoneDocument cur;
  bool in_mb = false;
  auto finish = [&](size_t end) {
    cur.end = end;
    if (in_mb && cur.find("nx") && cur.find("ny") && cur.find("nz") && cur.find("voxelSize")) found.push_back(cur);
    cur = ZoneDocument{};
    in_mb = false;
  };
  size_t line_no = 0;
  for (size_t pos = 0; pos < t.size();) {
    Line l = line_at(t, pos);
    ++line_no;
    std::string_view s = t.substr(l.begin, l.end - l.begin);
    if (s == "---" || s.rfind("--- ", 0) == 0) {
      finish(l.begin);
      cur.begin = l.begin;
    } else if (!s.empty() && s[0] != ' ' && s.back() == ':' && s[0] != '%') {
      in_mb = s == "MonoBehaviour:";
    } else if (in_mb && s.size() > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ' && s[2] != '-') {
      // A key ends at the first ':' followed by a space or the end of the line.
      size_t colon = std::string_view::npos;
      for (size_t i = 2; i < s.size(); ++i) {
        if (s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' ')) {
          colon = i;
          break;
        }
      }
      if (colon != std::string_view::npos) {
        Field f;
        f.key = std::string(s.substr(2, colon - 2));
        f.key_at = l.begin + 2;
        f.line = line_no;
        f.space_after_colon = colon + 1 < s.size();
        f.value_begin = l.begin + colon + (f.space_after_colon ? 2 : 1);
        f.value_end = l.end;
        // Folded continuation lines of a plain scalar.
        size_t next = l.next;
        while (next < t.size()) {
          Line c = line_at(t, next);
          if (!is_hex_continuation(t, c)) break;
          f.value_end = c.end;
          next = c.next;
          ++line_no;
        }
        cur.fields.push_back(std::move(f));
        pos = next;
        continue;
      }
    }
    pos = l.next;
  }
  finish(t.size());
  if (found.empty()) {
    throw_data("no DigZoneData document: no MonoBehaviour with nx, ny, nz and voxelSize", 0,
               "a dig-zone data asset", "none");
  }
  if (found.size() > 1) {
    throw_data("the asset holds " + std::to_string(found.size()) + " DigZoneData documents", found[1].begin,
               "one", std::to_string(found.size()));
  }
  return found[0];
}

Zone import_asset(std::string_view t, const std::string& name, uint64_t max_samples) {
  ZoneDocument d = find_zone_document(t);
  Zone z;
  ZoneMeta& m = z.meta;
  const int64_t kMaxCells = 1 << 20;
  m.cells.nx = uint32_t(parse_int(t, need(d, "nx"), 1, kMaxCells));
  m.cells.ny = uint32_t(parse_int(t, need(d, "ny"), 1, kMaxCells));
  m.cells.nz = uint32_t(parse_int(t, need(d, "nz"), 1, kMaxCells));
  if (m.cells.samples() > max_samples) {
    throw_data("nx, ny, nz give more samples than the limit", need(d, "nx").value_begin,
               "at most " + std::to_string(max_samples), std::to_string(m.cells.samples()));
  }
  const Field& vs = need(d, "voxelSize");
  m.voxel_size = parse_number(trimmed(value_of(t, vs)), vs);
  if (const Field* f = d.find("chunkCells")) m.chunk_cells = uint32_t(parse_int(t, *f, 1, 1024));
  if (const Field* f = d.find("origin")) {
    auto o = parse_flow(t, *f, {"x", "y", "z"});
    m.origin = {o["x"], o["y"], o["z"]};
  }
  if (const Field* f = d.find("editBox")) {
    auto b = hex_field(t, *f);
    if (!b.empty()) {
      if (b.size() != 24) bad_field(*f, "is not six int32 values", "24 bytes", std::to_string(b.size()) + " bytes");
      for (int i = 0; i < 6; ++i) {
        int32_t v = int32_t(uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 | uint32_t(b[4 * i + 2]) << 16 |
                            uint32_t(b[4 * i + 3]) << 24);
        (i < 3 ? m.edit_box.min[i] : m.edit_box.max[i - 3]) = v;
      }
    }
  }
  if (const Field* f = d.find("holeRect")) {
    auto h = parse_flow(t, *f, {"x", "y", "z", "w"});
    m.hole = {h["x"], h["y"], h["z"], h["w"]};
  }
  if (const Field* f = d.find("heightRange")) {
    auto h = parse_flow(t, *f, {"x", "y"});
    m.height_min = h["x"];
    m.height_max = h["y"];
  }
  if (const Field* f = find_any(d, {"_gridVersion", "gridVersion"})) {
    m.grid_version = uint32_t(std::max<int64_t>(0, parse_int(t, *f, INT32_MIN, INT32_MAX)));
  }
  std::string object_name;
  if (const Field* f = d.find("m_Name")) object_name = trimmed(value_of(t, *f));
  m.source = "Unity asset " + name + (object_name.empty() ? "" : " (" + object_name + ")");
  std::string problem = zone_file::meta_problem(m, max_samples);
  if (!problem.empty()) throw_data("the DigZoneData fields do not describe a valid zone: " + problem, d.begin);

  if (const Field* f = d.find("gridRle")) z.grid = rle_grid(t, *f, m.cells);
  if (const Field* f = d.find("baseGridRle")) z.baked = rle_grid(t, *f, m.cells);
  if (const Field* f = d.find("paintRle")) z.paint = rle_grid(t, *f, m.cells);
  // Assets saved by 0.3 and earlier keep raw grids (renamed legacy* since 0.4); the
  // package reads those in preference when they are not empty.
  const LegacyFields legacy = legacy_fields(d);
  if (legacy.grid && !hex_field(t, *legacy.grid).empty()) {
    z.grid = raw_grid(t, *legacy.grid, m.cells);
    z.paint = legacy.paint ? raw_grid(t, *legacy.paint, m.cells) : ByteGrid{};
    z.baked = legacy.base ? raw_grid(t, *legacy.base, m.cells) : ByteGrid{};
  }
  if (z.grid.data.empty()) {
    const Field* f = d.find("gridRle");
    throw_data("the DigZoneData asset holds no grid: the zone was never baked",
               f ? f->value_begin : d.begin, "a grid", "an empty gridRle");
  }
  return z;
}

std::string export_asset(std::string_view t, const Zone& z, ExportReport* report) {
  const Dims& c = z.meta.cells;
  if (c.samples() > kMaxSamples) {
    throw_usage("the zone has " + std::to_string(c.samples()) + " samples, over the dig-zone package's limit of " +
                std::to_string(kMaxSamples) + " (128 Mi): use a smaller zone or a larger voxel size");
  }
  check_zone(z);
  for (double v : {z.meta.voxel_size, z.meta.origin[0], z.meta.origin[1], z.meta.origin[2], z.meta.hole.min_x,
                   z.meta.hole.min_z, z.meta.hole.max_x, z.meta.hole.max_z}) {
    if (!(std::fabs(v) <= double(FLT_MAX))) throw_usage("a zone number does not fit Unity's float: " + std::to_string(v));
  }
  if (!(float(z.meta.voxel_size) > 0)) throw_usage("the zone's voxel size is too small for Unity's float");
  ZoneDocument d = find_zone_document(t);
  const Field* version = find_any(d, {"_gridVersion", "gridVersion"});
  if (!d.find("gridRle") || !version) {
    throw_data("the DigZoneData document has no gridRle or _gridVersion field: it was saved by DigHoleIt 0.3 or "
               "earlier; open and save it with a current version first", d.begin);
  }

  std::vector<TextEdit> edits;
  auto field_edit = [](const Field& f, std::string value) {
    // "key:" -> "key: value"
    if (!f.space_after_colon && !value.empty()) value.insert(value.begin(), ' ');
    return TextEdit{f.value_begin, f.value_end, std::move(value), f.key};
  };
  auto set = [&](const char* key, std::string value) { edits.push_back(field_edit(need(d, key), std::move(value))); };
  set("nx", std::to_string(c.nx));
  set("ny", std::to_string(c.ny));
  set("nz", std::to_string(c.nz));
  set("voxelSize", format_float(z.meta.voxel_size));
  set("chunkCells", std::to_string(z.meta.chunk_cells));
  const auto& o = z.meta.origin;
  set("origin", "{x: " + format_float(o[0]) + ", y: " + format_float(o[1]) + ", z: " + format_float(o[2]) + "}");
  if (d.find("hasOrigin")) set("hasOrigin", "1");
  std::vector<uint8_t> box;
  for (int i = 0; i < 6; ++i) {
    uint32_t v = uint32_t(i < 3 ? z.meta.edit_box.min[i] : z.meta.edit_box.max[i - 3]);
    for (int k = 0; k < 4; ++k) box.push_back(uint8_t(v >> (8 * k)));
  }
  set("editBox", to_hex(box));
  const auto& h = z.meta.hole;
  set("holeRect", "{x: " + format_float(h.min_x) + ", y: " + format_float(h.min_z) + ", z: " + format_float(h.max_x) +
                      ", w: " + format_float(h.max_z) + "}");
  auto encode = [](const ByteGrid& g) { return g.data.empty() ? std::string() : to_hex(rle::encode(g.data)); };
  set("gridRle", encode(z.grid));
  set("paintRle", encode(z.paint));
  set("baseGridRle", encode(z.baked));
  // A non-empty raw grid of an old version would win over the RLE fields when Unity loads.
  const LegacyFields legacy = legacy_fields(d);
  if (legacy.grid && !hex_field(t, *legacy.grid).empty()) {
    for (const Field* f : {legacy.grid, legacy.paint, legacy.base})
      if (f) edits.push_back(field_edit(*f, ""));
  }
  const int64_t old_version = parse_int(t, *version, INT32_MIN, INT32_MAX);
  const int64_t new_version = std::min<int64_t>(INT32_MAX, std::max<int64_t>(old_version, z.meta.grid_version) + 1);
  edits.push_back(field_edit(*version, std::to_string(new_version)));
  std::string appended;
  if (!z.foliage.empty()) foliage_edits(t, d, z, edits, appended, report);

  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(t.size() + c.samples() / 8 + appended.size());
  size_t pos = 0;
  for (auto& e : edits) {
    out.append(t.substr(pos, e.begin - pos));
    out += e.value;
    pos = e.end;
    if (report) report->fields.push_back(e.key);
  }
  out.append(t.substr(pos));
  out += appended;
  if (report) {
    report->old_grid_version = int(old_version);
    report->new_grid_version = int(new_version);
  }
  return out;
}

}  // namespace voxkit::unity
