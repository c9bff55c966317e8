// A grass type as JSON (nlohmann::json): the engine's PascalCase member names, GrassType.Of's
// defaults for what is missing, unknown and repeated keys refused; errors carry the line and
// byte offset of the key or value, found by a scan of the (already valid) text.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "formats/core/json_numbers.hpp"
#include "formats/grass/grass_type_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::grass::internal {

namespace {

using nlohmann::json;

// Deeper than this is refused before parsing: a grass type nests three deep (the root, Wind,
// Direction), and anything deeper is an unknown key anyway.
constexpr size_t kMaxDepth = 32;

std::string describe(const json& v) {
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  std::string t = v.dump(-1, ' ', false, json::error_handler_t::replace);
  return t.size() > 40 ? t.substr(0, 37) + "..." : t;
}

struct Member {
  std::string key;
  size_t key_at = 0, value_at = 0;
};

// Walks a text nlohmann has accepted, for the positions of an object's members.
class Scan {
 public:
  explicit Scan(std::string_view s) : s_(s) {}

  size_t root() {
    i_ = s_.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
    ws();
    return i_;
  }

  // The members of the object at `at`, in document order (nothing if it is not an object).
  std::vector<Member> members(size_t at) {
    std::vector<Member> out;
    i_ = at;
    if (!is('{')) return out;
    ++i_;
    ws();
    if (is('}')) return out;
    while (i_ < s_.size()) {
      ws();
      Member m;
      m.key_at = i_;
      const std::string_view raw = string();
      m.key = decode(raw);
      ws();
      ++i_;  // ':'
      ws();
      m.value_at = i_;
      value();
      out.push_back(std::move(m));
      ws();
      if (!is(',')) break;
      ++i_;
    }
    return out;
  }

 private:
  bool is(char c) const { return i_ < s_.size() && s_[i_] == c; }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  std::string_view string() {
    const size_t start = i_++;
    while (i_ < s_.size() && s_[i_] != '"') i_ += s_[i_] == '\\' ? 2 : 1;
    i_ = std::min(i_ + 1, s_.size());
    return s_.substr(start, i_ - start);
  }
  void value() {
    if (is('"')) {
      string();
      return;
    }
    if (is('{') || is('[')) {
      size_t depth = 0;
      while (i_ < s_.size()) {
        const char c = s_[i_];
        if (c == '"') {
          string();
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        ++i_;
        if (depth == 0) return;
      }
      return;
    }
    while (i_ < s_.size() && std::string_view(",}] \t\r\n").find(s_[i_]) == std::string_view::npos) ++i_;
  }
  static std::string decode(std::string_view raw) {
    if (raw.find('\\') == std::string_view::npos) return std::string(raw.substr(1, raw.size() - 2));
    try {
      return json::parse(raw).get<std::string>();
    } catch (const json::exception&) {
      return std::string(raw);
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

// Refuses nesting past kMaxDepth, before the parser builds it.
void check_depth(std::string_view t) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) {
        key_error(t, i, {}, "JSON nested deeper than a grass type can be",
                  "at most " + std::to_string(kMaxDepth) + " levels", "more");
      }
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
}

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  float number(const json& v, size_t at, const std::string& key) const {
    if (v.is_number()) {
      if (auto f = to_float(v.get<double>())) return *f;
      key_error(text_, at, key, "a number too large for a 32-bit float", "a finite number", describe(v));
    }
    key_error(text_, at, key, "not a number", "a finite number", describe(v));
  }

  void no_repeats(const std::vector<Member>& ms, const std::string& prefix) const {
    std::unordered_map<std::string_view, size_t> first;
    for (const Member& m : ms) {
      const auto [it, fresh] = first.emplace(m.key, m.key_at);
      if (!fresh) {
        key_error(text_, m.key_at, prefix + m.key, "a key given twice", "each key once",
                  "line " + std::to_string(line_of(text_, it->second)) + " gave it already");
      }
    }
  }

  void wind(const json& w, const Member& at, GrassWind& out, Scan& scan) const {
    if (!w.is_object()) {
      key_error(text_, at.value_at, kWind, "not an object", "an object of the wind's fields", describe(w));
    }
    const std::vector<Member> ms = scan.members(at.value_at);
    no_repeats(ms, std::string(kWind) + ".");
    for (const Member& m : ms) {
      const std::string path = std::string(kWind) + "." + m.key;
      const json& v = w.at(m.key);
      if (m.key == kDirection) {
        if (!v.is_array() || v.size() != 2) {
          key_error(text_, m.value_at, path, "not a direction", "an array of 2 numbers [X, Z]",
                    v.is_array() ? "an array of " + std::to_string(v.size()) : describe(v));
        }
        out.direction_x = number(v[0], m.value_at, path + "[0]");
        out.direction_z = number(v[1], m.value_at, path + "[1]");
        continue;
      }
      bool known = false;
      for (const WindField& f : wind_fields()) {
        if (m.key == f.name) {
          out.*f.number = number(v, m.value_at, path);
          known = true;
        }
      }
      if (!known) unknown_key(text_, m.key_at, path, m.key, true);
    }
  }

  GrassType read(const json& j) const {
    Scan scan(text_);
    const size_t root_at = scan.root();
    if (!j.is_object()) {
      key_error(text_, root_at, {}, "a grass type is a JSON object", "an object", describe(j));
    }
    const std::vector<Member> ms = scan.members(root_at);
    no_repeats(ms, "");
    GrassType t = default_type("");
    for (const Member& m : ms) {
      const json& v = j.at(m.key);
      if (m.key == kWind) {
        wind(v, m, t.wind, scan);
        continue;
      }
      const Field* field = nullptr;
      for (const Field& f : type_fields())
        if (m.key == f.name) field = &f;
      if (!field) unknown_key(text_, m.key_at, m.key, m.key, false);
      switch (field->kind) {
        case Kind::Text:
          if (!v.is_string()) key_error(text_, m.value_at, m.key, "not a string", "a string", describe(v));
          t.*field->text = v.get<std::string>();
          break;
        case Kind::Number: t.*field->number = number(v, m.value_at, m.key); break;
        case Kind::Flag:
          if (!v.is_boolean()) key_error(text_, m.value_at, m.key, "not true or false", "true or false", describe(v));
          t.*field->flag = v.get<bool>();
          break;
      }
    }
    return t;
  }

 private:
  std::string_view text_;
};

}  // namespace

GrassType decode_json(std::string_view text) {
  check_depth(text);
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string why = e.what();
    if (const size_t at = why.find("] "); why.compare(0, 1, "[") == 0 && at != std::string::npos) why.erase(0, at + 2);
    const size_t at = e.byte > 0 ? std::min<size_t>(e.byte - 1, text.size()) : 0;
    throw_data("line " + std::to_string(line_of(text, at)) + ": not valid JSON: " + why, at);
  } catch (const json::exception&) {
    json_numbers::throw_out_of_range(text);
  }
  return Reader(text).read(j);
}

}  // namespace voxkit::grass::internal
