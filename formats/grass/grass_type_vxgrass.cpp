// The engine's .vxgrass document: a strict reader of the flat YAML subset the engine writes
// (a mapping of camelCase keys and the nested `wind:` mapping), bound as the engine's YAML
// binder does: a zero record, the keys present set, unknown keys ignored (and warned about).
// docs/formats/grass-type.md says exactly what is accepted.
#include <charconv>
#include <cmath>
#include <string>

#include "formats/grass/grass_type_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::grass::internal {

namespace {

// One `key: value` line.
struct Entry {
  size_t line = 0;
  size_t indent = 0;
  size_t key_at = 0;    // byte offset of the key
  std::string key;
  size_t value_at = 0;  // byte offset of the value (or of the end of the line when there is none)
  std::string value;
  bool empty = true;    // no value on the line: a null, or the head of a nested mapping
  bool quoted = false;
};

[[noreturn]] void fail(std::string_view text, size_t at, const std::string& what, std::string expected,
                       std::string found) {
  key_error(text, at, {}, what, std::move(expected), std::move(found));
}

bool space(char c) { return c == ' ' || c == '\t'; }

// What a byte that starts a YAML node this reader does not take is, or nullptr.
const char* unsupported_start(std::string_view rest) {
  const char c = rest[0];
  const bool then_blank = rest.size() == 1 || space(rest[1]);
  if ((c == '-' || c == '?') && then_blank) return c == '-' ? "a sequence" : "a complex key";
  if (c == '[' || c == '{') return "a flow collection";
  if (c == '&' || c == '*' || c == '!') return "an anchor, alias or tag";
  if (c == '|' || c == '>') return "a block scalar";
  if (c == '%' || c == '@' || c == '`') return "a reserved indicator";
  return nullptr;
}

constexpr const char* kSubset = "what a .vxgrass holds: KEY: VALUE, or the nested wind mapping";

// Reads the scalar at line[i..]; `at` is the offset of line[0] in the text.
void read_value(std::string_view text, std::string_view line, size_t i, size_t at, Entry& e) {
  while (i < line.size() && space(line[i])) ++i;
  e.value_at = at + i;
  if (i == line.size() || line[i] == '#') return;  // nothing (a comment needs a blank before it)
  e.empty = false;
  const std::string_view rest = line.substr(i);
  const char q = rest[0];
  if (q == '"' || q == '\'') {
    e.quoted = true;
    size_t j = 1;
    std::string v;
    for (;; ++j) {
      if (j >= rest.size()) {
        fail(text, e.value_at, "a quoted value that does not end on its line", "the closing quote",
             "the end of the line");
      }
      const char c = rest[j];
      if (c == q) {
        if (q == '\'' && j + 1 < rest.size() && rest[j + 1] == '\'') {
          v += '\'';
          ++j;
          continue;
        }
        break;
      }
      if (q == '"' && c == '\\') {
        const size_t esc = j;
        const char n = j + 1 < rest.size() ? rest[++j] : '\0';
        switch (n) {
          case '"': v += '"'; break;
          case '\\': v += '\\'; break;
          case '/': v += '/'; break;
          case 'n': v += '\n'; break;
          case 't': v += '\t'; break;
          case 'r': v += '\r'; break;
          case '0': v += '\0'; break;
          case 'u': {
            unsigned cp = 0;
            bool ok = j + 4 < rest.size();
            for (int k = 1; ok && k <= 4; ++k) {
              const char h = rest[j + k];
              const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
              ok = d >= 0;
              cp = cp * 16 + unsigned(d);
            }
            if (!ok || (cp >= 0xd800 && cp <= 0xdfff)) {
              fail(text, e.value_at + esc, "a \\u escape that is not 4 hex digits of a character",
                   "\\u and 4 hex digits (not a surrogate)", shown(rest.substr(esc, 6)));
            }
            j += 4;
            if (cp < 0x80) {
              v += char(cp);
            } else if (cp < 0x800) {
              v += char(0xc0 | (cp >> 6));
              v += char(0x80 | (cp & 0x3f));
            } else {
              v += char(0xe0 | (cp >> 12));
              v += char(0x80 | ((cp >> 6) & 0x3f));
              v += char(0x80 | (cp & 0x3f));
            }
            break;
          }
          default:
            fail(text, e.value_at + esc, "an escape this reader does not take",
                 "one of \\\" \\\\ \\/ \\n \\t \\r \\0 \\uXXXX", shown(rest.substr(esc, 2)));
        }
        continue;
      }
      v += c;
    }
    size_t k = j + 1;
    while (k < rest.size() && space(rest[k])) ++k;
    if (k < rest.size() && !(rest[k] == '#' && space(rest[k - 1]))) {
      fail(text, e.value_at + k, "text after a quoted value", "the end of the line or a comment",
           shown(rest.substr(k)));
    }
    e.value = std::move(v);
    return;
  }
  if (const char* what = unsupported_start(rest)) {
    fail(text, e.value_at, std::string(what) + " is not part of the .vxgrass subset", kSubset, shown(rest));
  }
  // A plain scalar: up to a comment (" #"), blanks trimmed; ": " inside one is a YAML error.
  size_t end = rest.size();
  for (size_t k = 1; k < rest.size(); ++k) {
    if (rest[k] == '#' && space(rest[k - 1])) {
      end = k;
      break;
    }
  }
  while (end > 0 && space(rest[end - 1])) --end;
  const std::string_view v = rest.substr(0, end);
  for (size_t k = 0; k < v.size(); ++k) {
    if (v[k] == ':' && (k + 1 == v.size() || space(v[k + 1]))) {
      fail(text, e.value_at + k, "a second ':' on one line (a mapping inside a value)", "one KEY: VALUE a line",
           shown(v));
    }
  }
  e.value = std::string(v);
}

// Splits the text into entries, refusing what the subset does not hold.
std::vector<Entry> entries_of(std::string_view text) {
  std::vector<Entry> out;
  size_t pos = text.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
  bool content = false;
  for (size_t line_no = 1; pos < text.size(); ++line_no) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    const size_t at = pos;
    pos = end + 1;
    if (line.size() > kMaxVxgrassLine) {
      fail(text, at, "a line longer than the reader's limit", "at most " + std::to_string(kMaxVxgrassLine) + " bytes",
           std::to_string(line.size()) + " bytes");
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    for (size_t i = 0; i < line.size();) {
      const auto c = uint8_t(line[i]);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        fail(text, at + i, "a control byte in a .vxgrass document", "text", std::string(1, char(c)));
      }
      const size_t n = utf8_length(line, i);
      if (n == 0) fail(text, at + i, "a byte that is not UTF-8", "UTF-8 text", hex_byte(c));
      i += n;
    }
    size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    size_t first = indent;
    while (first < line.size() && space(line[first])) ++first;
    if (first == line.size() || line[first] == '#') continue;  // blank or a comment
    if (first != indent) {
      fail(text, at + indent, "a tab in the indentation (YAML indents with spaces only)", "spaces", "a tab");
    }
    const std::string_view rest = line.substr(indent);
    const bool marker_end = rest.size() == 3 || (rest.size() > 3 && space(rest[3]));
    if (rest.substr(0, 3) == "---" && marker_end) {
      if (content) fail(text, at, "a second document", "one document", "'---'");
      size_t k = 3;
      while (k < rest.size() && space(rest[k])) ++k;
      if (k < rest.size() && rest[k] != '#') {
        fail(text, at + indent + k, "a value after the document marker", "a mapping on the lines below", shown(rest.substr(k)));
      }
      content = true;
      continue;
    }
    if (rest.substr(0, 3) == "..." && marker_end) {
      fail(text, at, "a document end marker is not part of the .vxgrass subset", kSubset, "'...'");
    }
    content = true;
    Entry e;
    e.line = line_no;
    e.indent = indent;
    e.key_at = at + indent;
    if (rest[0] == '"' || rest[0] == '\'') {
      fail(text, e.key_at, "a quoted key is not part of the .vxgrass subset", "a plain key", shown(rest));
    }
    if (const char* what = unsupported_start(rest)) {
      fail(text, e.key_at, std::string(what) + " is not part of the .vxgrass subset", kSubset, shown(rest));
    }
    size_t colon = std::string_view::npos;
    for (size_t k = 0; k < rest.size(); ++k) {
      if (rest[k] == '#' && k > 0 && space(rest[k - 1])) break;
      if (rest[k] == ':' && (k + 1 == rest.size() || space(rest[k + 1]))) {
        colon = k;
        break;
      }
    }
    if (colon == std::string_view::npos) {
      fail(text, e.key_at, "not a KEY: VALUE line", "a key, a colon and a value", shown(rest));
    }
    size_t key_end = colon;
    while (key_end > 0 && space(rest[key_end - 1])) --key_end;
    if (key_end == 0) fail(text, e.key_at, "a value without a key", "a key before the colon", shown(rest));
    e.key = std::string(rest.substr(0, key_end));
    read_value(text, line, indent + colon + 1, at, e);
    out.push_back(std::move(e));
  }
  return out;
}

bool is_null(const Entry& e) {
  if (e.empty) return true;
  if (e.quoted) return false;
  return e.value == "~" || e.value == "null" || e.value == "Null" || e.value == "NULL";
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto low = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (low(a[i]) != low(b[i])) return false;
  }
  return true;
}

// The engine's FindMember: the camelCase key first, then the member name in any case.
// Returns the index into `names`, or -1.
int find_member(const std::vector<const char*>& names, std::string_view key) {
  for (size_t i = 0; i < names.size(); ++i)
    if (camel(names[i]) == key) return int(i);
  for (size_t i = 0; i < names.size(); ++i)
    if (same_ignoring_case(names[i], key)) return int(i);
  return -1;
}

// .NET's float.Parse(InvariantCulture) on the forms a number is written in here: an optional
// sign, digits with an optional point, an optional exponent; blanks around it. Nothing when
// it is not one; `huge` when it is one too large for a float.
std::optional<float> parse_number(std::string_view s, bool& huge) {
  huge = false;
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  std::string t;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    if (s[i] == '-') t += '-';
    ++i;
  }
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') t += s[i++], ++digits;
  if (i < s.size() && s[i] == '.') {
    if (digits == 0) t += '0';
    t += s[i++];
    size_t frac = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') t += s[i++], ++frac;
    if (frac == 0) t += '0';
    digits += frac;
  }
  if (digits == 0) return std::nullopt;
  bool negative_exponent = false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    t += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      negative_exponent = s[i] == '-';
      t += s[i++];
    }
    size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') t += s[i++], ++exp;
    if (exp == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  float f = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), f);
  if (r.ec == std::errc() && r.ptr == t.data() + t.size() && std::isfinite(f)) return f;
  // Out of a float's range: .NET Core rounds an underflow to zero and an overflow to infinity.
  double d = 0;
  const auto rd = std::from_chars(t.data(), t.data() + t.size(), d);
  const bool underflow = rd.ec == std::errc() ? std::fabs(d) < 1.0 : negative_exponent;
  if (underflow) return t[0] == '-' ? -0.0f : 0.0f;
  huge = true;
  return std::nullopt;
}

float number_of(std::string_view text, const Entry& e, const std::string& key) {
  if (is_null(e)) key_error(text, e.value_at, key, "no value", "a finite number", e.empty ? "nothing" : shown(e.value));
  bool huge = false;
  if (auto f = parse_number(e.value, huge)) return *f;
  key_error(text, e.value_at, key, huge ? "a number too large for a 32-bit float" : "not a number",
            "a finite number", shown(e.value));
}

bool flag_of(std::string_view text, const Entry& e, const std::string& key) {
  const std::string& v = e.value;
  if (!is_null(e)) {
    if (v == "true" || v == "True" || v == "TRUE" || v == "yes" || v == "on") return true;
    if (v == "false" || v == "False" || v == "FALSE" || v == "no" || v == "off") return false;
  }
  key_error(text, e.value_at, key, "not true or false", "true, True, TRUE, yes, on, false, False, FALSE, no or off",
            e.empty ? "nothing" : shown(v));
}

// MathScalars.Read(text, 2): numbers split at blanks, commas and brackets; fewer than two
// leave the rest at zero, more are refused.
void direction_of(std::string_view text, const Entry& e, const std::string& key, GrassWind& w) {
  if (is_null(e)) key_error(text, e.value_at, key, "no value", "two numbers (X Z)", e.empty ? "nothing" : shown(e.value));
  float n[2] = {0, 0};
  size_t count = 0;
  const std::string& v = e.value;
  for (size_t i = 0; i < v.size();) {
    const auto sep = [](char c) { return c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']'; };
    while (i < v.size() && sep(v[i])) ++i;
    if (i == v.size()) break;
    size_t j = i;
    while (j < v.size() && !sep(v[j])) ++j;
    if (count == 2) key_error(text, e.value_at, key, "more than two numbers", "two numbers (X Z)", shown(v));
    bool huge = false;
    const auto f = parse_number(std::string_view(v).substr(i, j - i), huge);
    if (!f) {
      key_error(text, e.value_at + (e.quoted ? 0 : i), key, huge ? "a number too large for a 32-bit float" : "not a number",
                "two finite numbers (X Z)", shown(std::string_view(v).substr(i, j - i)));
    }
    n[count++] = *f;
    i = j;
  }
  w.direction_x = n[0];
  w.direction_z = n[1];
}

std::vector<const char*> names_of_type() {
  std::vector<const char*> names;
  for (const Field& f : type_fields()) names.push_back(f.name);
  names.push_back(kWind);
  return names;
}

std::vector<const char*> names_of_wind() {
  std::vector<const char*> names{kDirection};
  for (const WindField& f : wind_fields()) names.push_back(f.name);
  return names;
}

}  // namespace

GrassType decode_vxgrass(std::string_view text, Warnings& warnings) {
  const std::vector<Entry> entries = entries_of(text);
  GrassType t = zero_type();
  if (entries.empty()) {
    warnings.add("it has no fields, so every field is zero (what a save that did not finish looks like)");
    return t;
  }
  static const std::vector<const char*> type_names = names_of_type(), wind_names = names_of_wind();
  const size_t root = entries[0].indent;
  std::vector<size_t> seen_type(type_names.size(), 0), seen_wind(wind_names.size(), 0);
  for (size_t i = 0; i < entries.size();) {
    const Entry& e = entries[i];
    if (e.indent != root) {
      key_error(text, e.key_at, e.key, "an indent other than the mapping's",
                "an indent of " + std::to_string(root) + " spaces", std::to_string(e.indent) + " spaces");
    }
    // The nested lines under this key, if it has none of its own value.
    size_t end = i + 1;
    while (end < entries.size() && entries[end].indent > root) ++end;
    if (end > i + 1 && !e.empty) {
      const Entry& c = entries[i + 1];
      key_error(text, c.key_at, c.key, "indented under a key that has a value on its line",
                "an indent of " + std::to_string(root) + " spaces", std::to_string(c.indent) + " spaces");
    }
    const size_t child = end > i + 1 ? entries[i + 1].indent : 0;
    for (size_t k = i + 1; k < end; ++k) {
      const Entry& c = entries[k];
      if (c.indent == child) {
        if (k + 1 < end && entries[k + 1].indent > child) {
          const Entry& d = entries[k + 1];
          key_error(text, d.key_at, d.key,
                    c.empty ? "nesting deeper than the wind mapping" : "indented under a key that has a value on its line",
                    "an indent of " + std::to_string(child) + " spaces", std::to_string(d.indent) + " spaces");
        }
        continue;
      }
      key_error(text, c.key_at, c.key, "an indent that matches neither the mapping nor the one it is in",
                "an indent of " + std::to_string(child) + " or " + std::to_string(root) + " spaces",
                std::to_string(c.indent) + " spaces");
    }
    const int m = find_member(type_names, e.key);
    if (m < 0) {
      warnings.add("line " + std::to_string(e.line) + ": unknown key '" + e.key + "' ignored, as the engine does");
      i = end;
      continue;
    }
    if (seen_type[size_t(m)]) {
      key_error(text, e.key_at, e.key, "a second value for " + std::string(type_names[size_t(m)]),
                "each field once", "line " + std::to_string(seen_type[size_t(m)]) + " set it already");
    }
    seen_type[size_t(m)] = e.line;
    if (size_t(m) == type_fields().size()) {  // Wind
      if (end == i + 1) {
        key_error(text, e.value_at, e.key, "the wind is not a mapping", "the wind's fields on the lines below",
                  e.empty ? "nothing" : shown(e.value));
      }
      t.wind = zero_type().wind;
      for (size_t k = i + 1; k < end; ++k) {
        const Entry& c = entries[k];
        const std::string path = e.key + "." + c.key;
        const int w = find_member(wind_names, c.key);
        if (w < 0) {
          warnings.add("line " + std::to_string(c.line) + ": unknown key '" + path + "' ignored, as the engine does");
          continue;
        }
        if (seen_wind[size_t(w)]) {
          key_error(text, c.key_at, path, "a second value for Wind." + std::string(wind_names[size_t(w)]),
                    "each field once", "line " + std::to_string(seen_wind[size_t(w)]) + " set it already");
        }
        seen_wind[size_t(w)] = c.line;
        if (w == 0) {
          direction_of(text, c, path, t.wind);
        } else {
          t.wind.*wind_fields()[size_t(w) - 1].number = number_of(text, c, path);
        }
      }
      i = end;
      continue;
    }
    const Field& f = type_fields()[size_t(m)];
    if (end > i + 1) {
      key_error(text, e.key_at, e.key, std::string(f.name) + " is not a mapping", "a value on the key's line",
                "a nested mapping");
    }
    switch (f.kind) {
      case Kind::Text: t.*f.text = is_null(e) ? std::string() : e.value; break;
      case Kind::Number: t.*f.number = number_of(text, e, e.key); break;
      case Kind::Flag: t.*f.flag = flag_of(text, e, e.key); break;
    }
    i = end;
  }
  return t;
}

}  // namespace voxkit::grass::internal
