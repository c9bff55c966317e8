// Grass types: choosing the syntax, validating, the shared helpers of the three readers, and
// the TOML and JSON writers (docs/formats/grass-type.md).
#include "formats/grass/grass_type_io.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "formats/core/io.hpp"
#include "formats/grass/grass_type_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::grass {

namespace internal {

const std::vector<Field>& type_fields() {
  static const std::vector<Field> fields = {
      {"Name", Kind::Text, &GrassType::name},
      {"Mesh", Kind::Text, &GrassType::mesh},
      {"Albedo", Kind::Text, &GrassType::albedo},
      {"Layer", Kind::Text, &GrassType::layer},
      {"MinWeight", Kind::Number, nullptr, &GrassType::min_weight},
      {"MaxWeight", Kind::Number, nullptr, &GrassType::max_weight},
      {"Density", Kind::Number, nullptr, &GrassType::density},
      {"Jitter", Kind::Number, nullptr, &GrassType::jitter},
      {"MinScale", Kind::Number, nullptr, &GrassType::min_scale},
      {"MaxScale", Kind::Number, nullptr, &GrassType::max_scale},
      {"RandomYaw", Kind::Flag, nullptr, nullptr, &GrassType::random_yaw},
      {"AlignToNormal", Kind::Number, nullptr, &GrassType::align_to_normal},
      {"MaxSlope", Kind::Number, nullptr, &GrassType::max_slope},
      {"StartCullDistance", Kind::Number, nullptr, &GrassType::start_cull_distance},
      {"EndCullDistance", Kind::Number, nullptr, &GrassType::end_cull_distance},
  };
  return fields;
}

const std::vector<WindField>& wind_fields() {
  static const std::vector<WindField> fields = {
      {"Strength", &GrassWind::strength}, {"Frequency", &GrassWind::frequency}, {"Speed", &GrassWind::speed},
      {"Flutter", &GrassWind::flutter},   {"Height", &GrassWind::height},
  };
  return fields;
}

std::string camel(std::string_view pascal) {
  std::string s(pascal);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = char(s[0] - 'A' + 'a');
  return s;
}

size_t line_of(std::string_view text, size_t offset) {
  size_t line = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

size_t offset_of(std::string_view text, size_t line, size_t column) {
  size_t pos = 0;
  for (size_t l = 1; l < line && pos < text.size(); ++pos) l += text[pos] == '\n';
  for (size_t c = 1; c < column && pos < text.size() && text[pos] != '\n'; ++c) {
    const size_t n = utf8_length(text, pos);
    pos += n ? n : 1;
  }
  return std::min(pos, text.size());
}

std::string shown(std::string_view t) {
  if (t.size() > 40) return "'" + std::string(t.substr(0, 37)) + "...'";
  return "'" + std::string(t) + "'";
}

void key_error(std::string_view text, size_t offset, const std::string& key, const std::string& what,
               std::string expected, std::string found) {
  std::string where = "line " + std::to_string(line_of(text, offset));
  if (!key.empty()) where += ", key '" + key + "'";
  throw_data(where + ": " + what, offset, std::move(expected), std::move(found));
}

namespace {

// Edits between two short keys (insertions, deletions, substitutions), in any case.
size_t distance(std::string_view a, std::string_view b) {
  const auto low = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (low(a[i - 1]) == low(b[j - 1]) ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

void unknown_key(std::string_view text, size_t offset, const std::string& path, const std::string& key, bool wind) {
  std::vector<const char*> names;
  if (wind) {
    names.push_back(kDirection);
    for (const WindField& f : wind_fields()) names.push_back(f.name);
  } else {
    for (const Field& f : type_fields()) names.push_back(f.name);
    names.push_back(kWind);
  }
  std::string known, guess;
  size_t best = 3;  // at most 2 edits away
  for (const char* n : names) {
    known += (known.empty() ? "" : ", ") + std::string(n);
    if (key.size() <= 64) {
      const size_t d = distance(key, n);
      if (d < best) best = d, guess = n;
    }
  }
  std::string what = "an unknown key";
  if (!guess.empty()) what += " (did you mean " + guess + "? keys are the engine's member names, case-sensitive)";
  key_error(text, offset, path, what, "one of " + known, shown(key));
}

std::optional<float> to_float(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  const float f = static_cast<float>(v);
  if (!std::isfinite(f)) return std::nullopt;
  return f;
}

size_t utf8_length(std::string_view t, size_t i) {
  const auto b = [&](size_t k) { return k < t.size() ? uint8_t(t[k]) : uint8_t(0); };
  const uint8_t c = b(i);
  const auto cont = [&](size_t k) { return (b(k) & 0xc0) == 0x80; };
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const uint8_t c1 = b(i + 1);
    if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f)) return 0;  // overlong, surrogate
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const uint8_t c1 = b(i + 1);
    if ((c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f)) return 0;  // overlong, past U+10FFFF
    return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

bool valid_utf8(std::string_view t) {
  for (size_t i = 0; i < t.size();) {
    const size_t n = utf8_length(t, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void Warnings::add(std::string w) {
  if (!out_) return;
  if (kept_ < kMaxGrassTypeWarnings) {
    out_->push_back(std::move(w));
    ++kept_;
  } else {
    ++dropped_;
  }
}

void Warnings::finish() {
  if (out_ && dropped_) out_->push_back(std::to_string(dropped_) + " more warnings like these were left out");
}

}  // namespace internal

using namespace internal;

const char* syntax_name(GrassTypeSyntax syntax) {
  switch (syntax) {
    case GrassTypeSyntax::Vxgrass: return "vxgrass";
    case GrassTypeSyntax::Toml: return "TOML";
    case GrassTypeSyntax::Json: return "JSON";
  }
  return "?";
}

std::optional<GrassTypeSyntax> syntax_of_extension(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return std::nullopt;
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
  if (ext == "vxgrass") return GrassTypeSyntax::Vxgrass;
  if (ext == "toml") return GrassTypeSyntax::Toml;
  if (ext == "json") return GrassTypeSyntax::Json;
  return std::nullopt;
}

GrassTypeSyntax detect_syntax(std::string_view text) {
  if (text.substr(0, 3) == "\xef\xbb\xbf") text.remove_prefix(3);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line[0] == '{') return GrassTypeSyntax::Json;
    if (line[0] == '#') continue;
    if (line[0] == '[') return GrassTypeSyntax::Toml;
    const size_t eq = line.find('='), colon = line.find(':');
    if (eq != std::string_view::npos && (colon == std::string_view::npos || eq < colon)) return GrassTypeSyntax::Toml;
    return GrassTypeSyntax::Vxgrass;
  }
  return GrassTypeSyntax::Vxgrass;
}

GrassType decode_grass_type(std::string_view text, GrassTypeSyntax syntax, const std::string& source_name,
                            std::vector<std::string>* warnings) {
  return with_source(source_name, [&] {
    if (text.size() > kMaxGrassTypeBytes) {
      throw_data(std::string("a grass type (") + syntax_name(syntax) + ") is too large", std::nullopt,
                 "at most " + std::to_string(kMaxGrassTypeBytes) + " bytes", std::to_string(text.size()) + " bytes");
    }
    switch (syntax) {
      case GrassTypeSyntax::Toml: return decode_toml(text);
      case GrassTypeSyntax::Json: return decode_json(text);
      case GrassTypeSyntax::Vxgrass: break;
    }
    Warnings w(warnings);
    GrassType t = decode_vxgrass(text, w);
    w.finish();
    return t;
  });
}

GrassType parse_grass_type(std::string_view text, GrassTypeSyntax syntax, const std::string& source_name,
                           std::vector<std::string>* warnings) {
  GrassType t = decode_grass_type(text, syntax, source_name, warnings);
  if (auto why = validate(t)) {
    Error e(ErrorKind::Data, "the engine refuses this grass type: " + *why);
    e.set_source(source_name);
    throw e;
  }
  return t;
}

GrassType read_grass_type(const std::string& path, std::vector<std::string>* warnings) {
  const std::string text = io::read_text(path, kMaxGrassTypeBytes);
  const auto by_name = path == "-" ? std::nullopt : syntax_of_extension(path);
  return parse_grass_type(text, by_name ? *by_name : detect_syntax(text), io::display_name(path), warnings);
}

// --- writers ------------------------------------------------------------------------------

namespace {

std::string number(float v, const char* field) {
  if (!std::isfinite(v)) {
    throw_usage(std::string("a grass type's ") + field + " is not a finite number, which TOML and JSON cannot "
                "hold so that it reads back");
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  // Always a float in form, so a reader sees the type's intent ("24.0", not "24").
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

// A basic string for TOML and a string for JSON: both take the same escapes.
std::string quoted(const std::string& s, const char* field) {
  if (!valid_utf8(s)) {
    throw_usage(std::string("a grass type's ") + field + " is not UTF-8 text, which TOML and JSON must be");
  }
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = uint8_t(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

// One writer for both: `toml` picks "Key = v" lines and a [Wind] table, else a JSON object.
std::string write(const GrassType& t, bool toml) {
  std::string out = toml ? "" : "{\n";
  const char* indent = toml ? "" : "  ";
  const auto entry = [&](const char* in, const char* key, const std::string& value, bool last) {
    out += in;
    if (toml) {
      out += std::string(key) + " = " + value + "\n";
    } else {
      out += std::string("\"") + key + "\": " + value + (last ? "\n" : ",\n");
    }
  };
  for (const Field& f : type_fields()) {
    std::string v;
    switch (f.kind) {
      case Kind::Text: v = quoted(t.*f.text, f.name); break;
      case Kind::Number: v = number(t.*f.number, f.name); break;
      case Kind::Flag: v = t.*f.flag ? "true" : "false"; break;
    }
    entry(indent, f.name, v, false);
  }
  const std::string dir =
      "[" + number(t.wind.direction_x, "wind direction") + ", " + number(t.wind.direction_z, "wind direction") + "]";
  if (toml) {
    out += "\n[Wind]\n";
  } else {
    out += "  \"Wind\": {\n";
  }
  const char* wind_indent = toml ? "" : "    ";
  entry(wind_indent, kDirection, dir, false);
  const auto& wf = wind_fields();
  for (size_t i = 0; i < wf.size(); ++i) {
    entry(wind_indent, wf[i].name, number(t.wind.*wf[i].number, wf[i].name), i + 1 == wf.size());
  }
  if (!toml) out += "  }\n}\n";
  return out;
}

}  // namespace

std::string write_grass_type_toml(const GrassType& type) { return write(type, true); }
std::string write_grass_type_json(const GrassType& type) { return write(type, false); }

}  // namespace voxkit::grass
