// Unity YAML text helpers of the dig-zone asset: finding the DigZoneData document and the
// other documents, reading and replacing values, hex byte arrays, floats, and putting an
// export's edits together.
#include "formats/zone/unity_yaml.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "lib/core/error.hpp"

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

// A line that separates documents: "---" alone or followed by a space (Unity's "--- !u!").
bool is_separator(std::string_view s) { return s == "---" || s.rfind("--- ", 0) == 0; }

// Parses "--- !u!CLASS &ID" (maybe followed by " stripped"); other separators give 0, 0.
void parse_header(std::string_view s, Document& d) {
  if (s.rfind("--- !u!", 0) != 0) return;
  const std::string line(s.substr(7));
  char* end = nullptr;
  errno = 0;
  const long cls = std::strtol(line.c_str(), &end, 10);
  if (errno || end == line.c_str() || std::strncmp(end, " &", 2) != 0) return;
  const char* idp = end + 2;
  errno = 0;
  const long long id = std::strtoll(idp, &end, 10);
  if (errno || end == idp || (*end && *end != ' ')) return;
  d.class_id = int(cls);
  d.id = id;
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
  char buf[64];
  int p = 1;
  for (; p <= 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, double(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  std::string s = buf;
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;
  const int exponent = std::atoi(s.c_str() + e + 1);
  if (exponent >= 0 && exponent < 16) {
    // A whole number %g put in exponent form ("2e+01"): Unity writes "20".
    std::snprintf(buf, sizeof buf, "%.0f", double(f));
    return buf;
  }
  // Unity writes exponents without leading zeros ("1e-7", not "1e-07").
  size_t digits = e + 2;
  while (digits + 1 < s.size() && s[digits] == '0') s.erase(digits, 1);
  return s;
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

const Field* find_any(const ZoneDocument& d, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (const Field* f = d.find(k)) return f;
  return nullptr;
}

std::string where(const Field& f) { return "field '" + f.key + "' (line " + std::to_string(f.line) + ")"; }

[[noreturn]] void bad_field(const Field& f, const std::string& what, std::string expected, std::string found) {
  if (found.size() > 48) found = found.substr(0, 45) + "...";
  throw_data(where(f) + ": " + what, f.value_begin, std::move(expected), std::move(found));
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

std::vector<Document> list_documents(std::string_view t) {
  std::vector<Document> docs;
  for (size_t pos = 0; pos < t.size();) {
    const Line l = line_at(t, pos);
    const std::string_view s = t.substr(l.begin, l.end - l.begin);
    if (is_separator(s)) {
      if (!docs.empty()) docs.back().end = l.begin;
      Document d;
      d.begin = l.begin;
      d.end = t.size();
      parse_header(s, d);
      docs.push_back(d);
    }
    pos = l.next;
  }
  return docs;
}

const Document* find_document(const std::vector<Document>& docs, int64_t id) {
  for (const auto& d : docs)
    if (d.id == id && d.class_id != 0) return &d;
  return nullptr;
}

std::string eol_of(std::string_view t) { return t.find("\r\n") != std::string_view::npos ? "\r\n" : "\n"; }

std::string trimmed(std::string_view v) {
  size_t a = 0, b = v.size();
  while (a < b && (v[a] == ' ' || v[a] == '\t')) ++a;
  while (b > a && (v[b - 1] == ' ' || v[b - 1] == '\t' || v[b - 1] == '\r')) --b;
  return std::string(v.substr(a, b - a));
}

std::string_view value_of(std::string_view t, const Field& f) {
  return t.substr(f.value_begin, f.value_end - f.value_begin);
}

std::string trimmed_value(std::string_view t, const Field& f) { return trimmed(value_of(t, f)); }

std::optional<int64_t> local_id(std::string_view value) {
  const std::string v = trimmed(value);
  if (v.rfind("{fileID: ", 0) != 0 || v.back() != '}' || v.find("guid") != std::string::npos) return std::nullopt;
  const std::string num = trimmed(std::string_view(v).substr(9, v.size() - 10));
  char* end = nullptr;
  errno = 0;
  const long long id = std::strtoll(num.c_str(), &end, 10);
  if (num.empty() || *end || errno) return std::nullopt;
  return id;
}

std::string file_ref(int64_t id) { return "{fileID: " + std::to_string(id) + "}"; }

size_t block_end(const ZoneDocument& d, const Field& f) {
  for (size_t i = 0; i + 1 < d.fields.size(); ++i)
    if (&d.fields[i] == &f) return d.fields[i + 1].key_at - 2;
  return d.end;
}

std::vector<std::string> sequence_items(std::string_view t, const ZoneDocument& d, const Field& f) {
  std::vector<std::string> items;
  const size_t end = block_end(d, f);
  for (size_t pos = line_at(t, f.key_at).next; pos < end;) {
    const Line l = line_at(t, pos);
    const std::string_view s = t.substr(l.begin, l.end - l.begin);
    if (s.rfind("  - ", 0) == 0) items.push_back(trimmed(s.substr(4)));
    pos = l.next;
  }
  return items;
}

std::map<std::string, std::string> block_mapping(std::string_view t, const ZoneDocument& d, const Field& f) {
  std::map<std::string, std::string> out;
  const size_t end = block_end(d, f);
  for (size_t pos = line_at(t, f.key_at).next; pos < end;) {
    const Line l = line_at(t, pos);
    const std::string_view s = t.substr(l.begin, l.end - l.begin);
    const size_t colon = s.find(':');
    if (indent_of(t, l) == 4 && colon != std::string_view::npos) out[trimmed(s.substr(4, colon - 4))] = trimmed(s.substr(colon + 1));
    pos = l.next;
  }
  return out;
}

TextEdit value_edit(const Field& f, std::string value) {
  // "key:" -> "key: value"
  if (!f.space_after_colon && !value.empty()) value.insert(value.begin(), ' ');
  return TextEdit{f.value_begin, f.value_end, std::move(value), f.key};
}

TextEdit sequence_edit(const ZoneDocument& d, const Field& f, const std::vector<std::vector<std::string>>& items,
                       const std::string& eol) {
  TextEdit e;
  e.begin = f.key_at + f.key.size() + 1;
  e.end = block_end(d, f);
  e.key = f.key;
  if (items.empty()) {
    e.value = " []" + eol;
    return e;
  }
  e.value = eol;
  for (const auto& lines : items)
    for (size_t i = 0; i < lines.size(); ++i) e.value += (i == 0 ? "  - " : "    ") + lines[i] + eol;
  return e;
}

IdPool::IdPool(const std::vector<Document>& docs) {
  for (const auto& d : docs)
    if (d.class_id != 0) taken_.insert(d.id);
}

int64_t IdPool::claim(int64_t preferred, int64_t step) {
  int64_t id = preferred;
  while (taken_.count(id) || id == 0) id += step;
  taken_.insert(id);
  return id;
}

ExportState::ExportState(std::string_view t, const Zone& z, const ExportOptions& o, ExportReport* r)
    : text(t), doc(find_zone_document(t)), docs(list_documents(t)), zone(z), opts(o), eol(eol_of(t)), ids(docs),
      report(r) {}

void ExportState::warn(const std::string& w) const {
  if (report) report->warnings.push_back(w);
}

void ExportState::replace_document(const Document& d, std::string value, const std::string& key) {
  edits.push_back({d.begin, d.end, std::move(value), key});
}

std::string apply_edits(const ExportState& s) {
  std::vector<TextEdit> edits = s.edits;
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  size_t size = s.text.size();
  for (size_t i = 0; i < edits.size(); ++i) {
    if (i > 0 && edits[i].begin < edits[i - 1].end) {
      throw_data("the asset uses one object or value for two things (" + edits[i - 1].key + " and " + edits[i].key + ")",
                 edits[i].begin);
    }
    size += edits[i].value.size();
  }
  for (const auto& [id, doc] : s.added) size += doc.size();
  std::string out;
  out.reserve(size + 2);
  size_t pos = 0;
  for (const auto& e : edits) {
    out.append(s.text.substr(pos, e.begin - pos));
    out += e.value;
    pos = e.end;
    // Sub-asset edits ("object ...") are counted by the writers, not listed as fields.
    if (s.report && e.key.rfind("object ", 0) != 0 &&
        std::find(s.report->fields.begin(), s.report->fields.end(), e.key) == s.report->fields.end())
      s.report->fields.push_back(e.key);
  }
  out.append(s.text.substr(pos));
  if (!s.added.empty() && !out.empty() && out.back() != '\n') out += s.eol;
  for (const auto& [id, doc] : s.added) out += doc;
  return out;
}

std::string sort_documents(std::string_view t) {
  std::vector<Document> docs = list_documents(t);
  if (docs.empty()) return std::string(t);
  std::string out(t.substr(0, docs.front().begin));
  std::stable_sort(docs.begin(), docs.end(), [](const Document& a, const Document& b) { return a.id < b.id; });
  for (const auto& d : docs) out.append(t.substr(d.begin, d.end - d.begin));
  return out;
}

}  // namespace voxkit::unity
