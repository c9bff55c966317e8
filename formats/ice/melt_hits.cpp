// Hits files (CSV, JSON) and hardness lists: text <-> MeltHit, every value checked where read.
#include "formats/ice/melt_hits.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <optional>

#include "lib/core/error.hpp"

namespace voxkit::ice {
namespace {

enum Col { kX, kY, kZ, kRadius, kAmount, kPower, kTemperature, kDt, kBrake, kCols };
constexpr std::array<const char*, kCols> kNames{"x", "y", "z", "radius", "amount", "power", "temperature", "dt", "brake"};
constexpr const char* kNameList = "x, y, z, radius, amount, power, temperature, dt, brake";

std::optional<Col> column_of(std::string_view name) {
  for (int c = 0; c < kCols; ++c)
    if (name == kNames[size_t(c)]) return Col(c);
  return std::nullopt;
}

// What each column accepts.
const char* expected_of(Col c) {
  switch (c) {
    case kX: case kY: case kZ: return "a finite number";
    case kRadius: case kBrake: return "a finite number > 0";
    default: return "a finite number >= 0";
  }
}

bool in_range(Col c, double v) {
  if (!std::isfinite(v)) return false;
  switch (c) {
    case kX: case kY: case kZ: return true;
    case kRadius: case kBrake: return v > 0;
    default: return v >= 0;
  }
}

std::string shown(std::string_view s) {
  return "'" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'");
}

std::string shortest(double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

bool blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s, size_t& offset) {
  size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && (blank(s[e - 1]) || s[e - 1] == '\r')) --e;
  offset += b;
  return s.substr(b, e - b);
}

// A whole field as a double (decimal or exponent notation; "inf" and "nan" read but are
// then out of range).
std::optional<double> to_number(std::string_view s) {
  double v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// The fields of a hit, by column; checks what a hit must hold as a whole.
using Values = std::array<std::optional<double>, kCols>;

MeltHit to_hit(const Values& v, const std::function<void(const std::string&, const std::string&, const std::string&)>& fail) {
  MeltHit h;
  const bool formula = v[kPower] || v[kTemperature] || v[kDt] || v[kBrake];
  if (v[kAmount] && formula) fail("both an amount and the intensity formula's inputs", "amount, or power, temperature, dt (and brake)", "both");
  if (!v[kAmount] && !(v[kPower] && v[kTemperature] && v[kDt]))
    fail("no amount", "amount, or all of power, temperature and dt", "neither");
  h.centre = {*v[kX], *v[kY], *v[kZ]};
  h.radius = *v[kRadius];
  h.amount = v[kAmount];
  h.power = v[kPower];
  h.temperature = v[kTemperature];
  h.dt = v[kDt];
  h.brake = v[kBrake];
  return h;
}

}  // namespace

HitsFormat detect_hits_format(std::string_view text) {
  size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && (blank(text[i]) || text[i] == '\n' || text[i] == '\r')) ++i;
  return i < text.size() && text[i] == '[' ? HitsFormat::Json : HitsFormat::Csv;
}

std::vector<MeltHit> read_hits(std::string_view text, uint64_t max_hits) {
  return detect_hits_format(text) == HitsFormat::Json ? read_hits_json(text, max_hits) : read_hits_csv(text, max_hits);
}

std::vector<MeltHit> read_hits_csv(std::string_view text, uint64_t max_hits) {
  std::vector<MeltHit> hits;
  std::vector<Col> header;
  std::array<bool, kCols> present{};
  size_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  uint64_t line = 0;
  bool have_header = false;
  while (pos < text.size()) {
    ++line;
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    const size_t line_start = pos;
    std::string_view whole = text.substr(pos, end - pos);
    pos = end == text.size() ? end : end + 1;
    size_t off = line_start;
    const std::string_view body = trim(whole, off);
    if (body.empty() || body[0] == '#') continue;
    const std::string at = "line " + std::to_string(line) + ": ";

    // Split at commas, keeping each field's offset.
    std::vector<std::pair<std::string_view, size_t>> fields;
    size_t f = 0;
    while (true) {
      const size_t comma = body.find(',', f);
      const size_t stop = comma == std::string_view::npos ? body.size() : comma;
      size_t field_off = off + f;
      const std::string_view field = trim(body.substr(f, stop - f), field_off);
      fields.emplace_back(field, field_off);
      if (comma == std::string_view::npos) break;
      f = comma + 1;
    }

    if (!have_header) {
      for (const auto& [name, o] : fields) {
        const auto c = column_of(name);
        if (!c) throw_data(at + "unknown column in the header", o, std::string("one of ") + kNameList, shown(name));
        if (present[*c]) throw_data(at + "column given twice in the header", o, "each column once", shown(name));
        present[*c] = true;
        header.push_back(*c);
      }
      for (Col c : {kX, kY, kZ, kRadius})
        if (!present[c])
          throw_data(at + "the header has no '" + kNames[c] + "' column", line_start, "x, y, z and radius", "no " + std::string(kNames[c]));
      if (!present[kAmount] && !(present[kPower] && present[kTemperature] && present[kDt]))
        throw_data(at + "the header has no amount column", line_start, "amount, or power, temperature and dt",
                   "neither");
      have_header = true;
      continue;
    }

    if (fields.size() != header.size())
      throw_data(at + "wrong number of fields", line_start, std::to_string(header.size()) + " (as the header)",
                 std::to_string(fields.size()));
    if (hits.size() >= max_hits)
      throw_data(at + "too many hits", line_start, "at most " + std::to_string(max_hits), "more");
    Values v;
    for (size_t i = 0; i < fields.size(); ++i) {
      const auto& [field, o] = fields[i];
      const Col c = header[i];
      if (field.empty()) {
        if (c <= kRadius) throw_data(at + "'" + kNames[c] + "' is empty", o, expected_of(c), "nothing");
        continue;
      }
      const auto n = to_number(field);
      if (!n) throw_data(at + "'" + kNames[c] + "' is not a number", o, expected_of(c), shown(field));
      if (!in_range(c, *n)) throw_data(at + "'" + kNames[c] + "' is out of range", o, expected_of(c), shown(field));
      v[c] = *n;
    }
    hits.push_back(to_hit(v, [&](const std::string& what, const std::string& e, const std::string& fnd) {
      throw_data(at + what, line_start, e, fnd);
    }));
  }
  if (!have_header) throw_data("no header line", text.size(), std::string("a header naming the columns (") + kNameList + ")", "none");
  return hits;
}

std::vector<MeltHit> read_hits_json(std::string_view text, uint64_t max_hits) {
  using json = nlohmann::json;
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string why = e.what();
    const size_t b = why.find("] ");
    throw_data("JSON does not parse: " + (b == std::string::npos ? why : why.substr(b + 2)), e.byte > 0 ? e.byte - 1 : 0);
  } catch (const json::exception&) {
    // The parser's other refusal: a number too large for a double (1e400).
    throw_data("JSON holds a number out of range", std::nullopt, "finite numbers", "a number beyond a double's range");
  }
  if (!j.is_array()) throw_data("JSON hits file is not an array", 0, "an array of hit objects", j.type_name());
  if (j.size() > max_hits) throw_data("too many hits", std::nullopt, "at most " + std::to_string(max_hits), std::to_string(j.size()));
  std::vector<MeltHit> hits;
  hits.reserve(j.size());  // the parsed array holds them already
  for (size_t i = 0; i < j.size(); ++i) {
    const json& o = j[i];
    const std::string at = "hit " + std::to_string(i + 1) + " (element " + std::to_string(i) + "): ";
    if (!o.is_object()) throw_data(at + "not an object", std::nullopt, "an object", o.type_name());
    Values v;
    for (const auto& [key, value] : o.items()) {
      const auto c = column_of(key);
      if (!c) throw_data(at + "unknown key", std::nullopt, std::string("one of ") + kNameList, shown(key));
      if (value.is_null()) continue;
      if (!value.is_number()) throw_data(at + "'" + key + "' is not a number", std::nullopt, expected_of(*c), value.type_name());
      const double n = value.get<double>();
      if (!in_range(*c, n)) throw_data(at + "'" + key + "' is out of range", std::nullopt, expected_of(*c), shortest(n));
      v[*c] = n;
    }
    for (Col c : {kX, kY, kZ, kRadius})
      if (!v[c]) throw_data(at + "no '" + kNames[c] + "'", std::nullopt, expected_of(c), "none");
    hits.push_back(to_hit(v, [&](const std::string& what, const std::string& e, const std::string& fnd) {
      throw_data(at + what, std::nullopt, e, fnd);
    }));
  }
  return hits;
}

namespace {

Values values_of(const MeltHit& h) {
  return {h.centre[0], h.centre[1], h.centre[2], h.radius, h.amount, h.power, h.temperature, h.dt, h.brake};
}

}  // namespace

std::string write_hits_csv(const std::vector<MeltHit>& hits) {
  std::string s = "x,y,z,radius,amount,power,temperature,dt,brake\n";
  for (const MeltHit& h : hits) {
    const Values v = values_of(h);
    for (int c = 0; c < kCols; ++c) {
      if (c) s += ',';
      if (v[size_t(c)]) s += shortest(*v[size_t(c)]);
    }
    s += '\n';
  }
  return s;
}

std::string write_hits_json(const std::vector<MeltHit>& hits) {
  std::string s = "[";
  for (size_t i = 0; i < hits.size(); ++i) {
    const Values v = values_of(hits[i]);
    s += i ? ",\n  {" : "\n  {";
    bool first = true;
    for (int c = 0; c < kCols; ++c) {
      if (!v[size_t(c)]) continue;
      s += std::string(first ? "" : ", ") + "\"" + kNames[size_t(c)] + "\": " + shortest(*v[size_t(c)]);
      first = false;
    }
    s += "}";
  }
  s += hits.empty() ? "]\n" : "\n]\n";
  return s;
}

std::vector<double> parse_hardness(std::string_view text, uint64_t max_samples) {
  std::vector<double> out;
  uint64_t line = 1;
  size_t i = 0;
  auto sep = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#'; };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\n') ++line;
    if (sep(c)) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && !sep(text[i])) ++i;
    const std::string_view tok = text.substr(start, i - start);
    const std::string at = "line " + std::to_string(line) + ": ";
    const auto n = to_number(tok);
    if (!n || !(*n > 0) || !std::isfinite(*n))
      throw_data(at + "bad hardness sample", start, "a finite number > 0", shown(tok));
    if (out.size() >= max_samples)
      throw_data(at + "too many hardness samples", start, "at most " + std::to_string(max_samples), "more");
    out.push_back(*n);
  }
  if (out.empty()) throw_data("no hardness samples", text.size(), "at least one number > 0", "none");
  return out;
}

}  // namespace voxkit::ice
