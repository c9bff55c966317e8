// Camera paths: text <-> CameraStep, every field checked where it is read.
#include "formats/grass/camera_path.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

#include "lib/core/error.hpp"

namespace voxkit::grass {
namespace {

constexpr std::array<const char*, 4> kColumns{"x", "y", "z", "range"};

bool blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s, uint64_t& offset) {
  size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && (blank(s[e - 1]) || s[e - 1] == '\r')) --e;
  offset += b;
  return s.substr(b, e - b);
}

std::string shown(std::string_view s) {
  return "'" + escape_text(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'");
}

bool equals_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

struct Field {
  std::string_view text;
  uint64_t offset;
};

// The comma-separated fields of a row, trimmed, with their offsets; at most 5 are kept (a
// row of more is an error whatever they hold).
std::vector<Field> split(std::string_view body, uint64_t offset) {
  std::vector<Field> fields;
  size_t f = 0;
  while (fields.size() < 5) {
    const size_t comma = body.find(',', f);
    const size_t stop = comma == std::string_view::npos ? body.size() : comma;
    uint64_t at = offset + f;
    const std::string_view field = trim(body.substr(f, stop - f), at);
    fields.push_back({field, at});
    if (comma == std::string_view::npos) break;
    f = comma + 1;
  }
  return fields;
}

}  // namespace

std::string float_text(float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

CameraPath read_camera_path(std::string_view text, uint64_t max_steps) {
  CameraPath path;
  uint64_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  uint64_t line = 0;
  bool first = true;  // no row read yet (blank lines and comments do not count)
  while (pos < text.size()) {
    ++line;
    const size_t nl = text.find('\n', pos);
    const uint64_t end = nl == std::string_view::npos ? text.size() : nl;
    const uint64_t row_start = pos;
    const std::string_view whole = text.substr(pos, end - pos);
    pos = end == text.size() ? end : end + 1;
    uint64_t off = row_start;
    const std::string_view body = trim(whole, off);
    if (body.empty() || body[0] == '#') continue;
    const std::string at = "line " + std::to_string(line) + ": ";
    const bool was_first = first;
    first = false;

    if (body != "clear" && std::isalpha(static_cast<unsigned char>(body[0]))) {
      // A header: only the first row, and only the column names.
      const std::vector<Field> fields = split(body, off);
      bool names = was_first && (fields.size() == 3 || fields.size() == 4);
      for (size_t i = 0; names && i < fields.size(); ++i) names = equals_nocase(fields[i].text, kColumns[i]);
      if (!names)
        throw_data(at + (was_first ? "not a header" : "a row starting with a letter (only the first row may be a header)"),
                   off, was_first ? "x,y,z or x,y,z,range (as a header), 'clear' or numbers x,y,z[,range]"
                                  : "numbers x,y,z[,range] or 'clear'",
                   shown(body));
      path.header = true;
      continue;
    }

    if (path.steps.size() >= max_steps)
      throw_data(at + "too many steps", off, "at most " + std::to_string(max_steps), "more");

    if (body == "clear") {
      CameraStep s;
      s.clear = true;
      s.line = line;
      s.offset = off;
      path.steps.push_back(s);
      continue;
    }

    const std::vector<Field> fields = split(body, off);
    if (fields.size() < 3 || fields.size() > 4)
      throw_data(at + "wrong number of fields", off, "3 (x,y,z) or 4 (x,y,z,range)",
                 fields.size() > 4 ? "more than 4" : std::to_string(fields.size()));
    std::array<float, 4> v{};
    for (size_t i = 0; i < fields.size(); ++i) {
      const Field& f = fields[i];
      const std::string col = std::string("'") + kColumns[i] + "'";
      const char* expected = i == 3 ? "a finite number >= 0" : "a finite number";
      if (f.text.empty()) throw_data(at + col + " is empty", f.offset, expected, "nothing");
      float x = 0;
      const auto r = std::from_chars(f.text.data(), f.text.data() + f.text.size(), x);
      if (r.ec == std::errc::result_out_of_range)
        throw_data(at + col + " is out of the float32 range", f.offset, expected, shown(f.text));
      if (r.ec != std::errc() || r.ptr != f.text.data() + f.text.size())
        throw_data(at + col + " is not a number", f.offset, expected, shown(f.text));
      if (!std::isfinite(x)) throw_data(at + col + " is not finite", f.offset, expected, shown(f.text));
      if (i == 3 && x < 0) throw_data(at + "the range is negative", f.offset, expected, shown(f.text));
      v[i] = x;
    }
    CameraStep s;
    s.x = v[0];
    s.y = v[1];
    s.z = v[2];
    if (fields.size() == 4) s.range = v[3] == 0 ? 0.0f : v[3];  // -0 reads as 0
    s.line = line;
    s.offset = off;
    path.steps.push_back(s);
  }
  return path;
}

std::string write_camera_path(const std::vector<CameraStep>& steps) {
  std::string out = "x,y,z,range\n";
  for (const CameraStep& s : steps) {
    if (s.clear) {
      out += "clear\n";
      continue;
    }
    out += float_text(s.x) + "," + float_text(s.y) + "," + float_text(s.z);
    if (s.range) out += "," + float_text(*s.range);
    out += "\n";
  }
  return out;
}

}  // namespace voxkit::grass
