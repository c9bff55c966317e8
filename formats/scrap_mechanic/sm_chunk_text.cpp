// Scrap Mechanic chunks as text: the raw Lua table and the JSON array (parse and write).
#include <charconv>
#include <string>
#include <vector>

#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/core/error.hpp"

namespace voxkit::sm {
namespace {

struct Syntax {
  char open, close;
  const char* what;  // "table" or "array"
  bool lua;          // comments, `return`/assignment prefix, ';' separators, trailing separator
};
constexpr Syntax kLua{'{', '}', "table", true};
constexpr Syntax kJson{'[', ']', "array", false};

std::string describe_at(std::string_view t, size_t i) {
  if (i >= t.size()) return "end of text";
  const auto c = uint8_t(t[i]);
  if (c == '\n') return "a newline";
  if (c > 0x20 && c < 0x7f) return std::string("'") + char(c) + "'";
  return hex_byte(c);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_number_char(char c) { return is_name_char(c) || c == '.' || c == '-' || c == '+'; }

class Parser {
 public:
  Parser(std::string_view t, const Syntax& s) : t_(t), s_(s) {}

  // Reads the whole text; returns the numbers and the offset of each.
  void parse(std::vector<uint32_t>& values, std::vector<uint32_t>& offsets) {
    skip();
    if (s_.lua) prefix();
    if (i_ >= t_.size() || t_[i_] != s_.open) {
      throw_data(std::string("expected the ") + s_.what + "'s opening '" + s_.open + "'", i_,
                 std::string("'") + s_.open + "'", describe_at(t_, i_));
    }
    ++i_;
    skip();
    if (i_ < t_.size() && t_[i_] == s_.close) {
      close_at_ = i_++;
    } else {
      for (;;) {
        if (values.size() == kLuaNumbers) {
          throw_data(std::string("too many numbers in the ") + s_.what, i_,
                     std::to_string(kLuaNumbers) + " numbers", "more");
        }
        offsets.push_back(uint32_t(i_));
        values.push_back(number());
        skip();
        if (i_ >= t_.size()) break;
        const char c = t_[i_];
        if (c == s_.close) {
          close_at_ = i_++;
          break;
        }
        if (c == ',' || (s_.lua && c == ';')) {
          ++i_;
          skip();
          if (s_.lua && i_ < t_.size() && t_[i_] == s_.close) {
            close_at_ = i_++;
            break;
          }
          continue;
        }
        throw_data(std::string("expected ',' or '") + s_.close + "' after a number", i_,
                   std::string("',' or '") + s_.close + "'", describe_at(t_, i_));
      }
    }
    if (close_at_ == SIZE_MAX) {
      throw_data(std::string("text ends inside the ") + s_.what, t_.size(),
                 std::string("'") + s_.close + "'", "end of text");
    }
    skip();
    if (s_.lua && i_ < t_.size() && t_[i_] == ';') {
      ++i_;
      skip();
    }
    if (i_ < t_.size()) {
      throw_data(std::string("unexpected text after the ") + s_.what, i_, "end of text",
                 describe_at(t_, i_));
    }
  }

  size_t close_at() const { return close_at_; }

 private:
  // Whitespace, and in Lua `-- line` and `--[[ long ]]` / `--[==[ long ]==]` comments.
  void skip() {
    for (;;) {
      while (i_ < t_.size() && is_space(t_[i_])) ++i_;
      if (!s_.lua || t_.substr(i_, 2) != "--") return;
      const size_t start = i_;
      i_ += 2;
      if (i_ < t_.size() && t_[i_] == '[') {
        size_t j = i_ + 1, level = 0;
        while (j < t_.size() && t_[j] == '=') ++j, ++level;
        if (j < t_.size() && t_[j] == '[') {
          const std::string end = "]" + std::string(level, '=') + "]";
          const size_t e = t_.find(end, j + 1);
          if (e == std::string_view::npos) {
            throw_data("unfinished long comment", start, "'" + end + "'", "end of text");
          }
          i_ = e + end.size();
          continue;
        }
      }
      while (i_ < t_.size() && t_[i_] != '\n') ++i_;
    }
  }

  // `return`, `local NAME =` or `NAME =` (NAME may be dotted) before the table.
  void prefix() {
    if (i_ >= t_.size() || !is_name_start(t_[i_])) return;
    size_t j = i_;
    while (j < t_.size() && (is_name_char(t_[j]) || t_[j] == '.')) ++j;
    const std::string_view word = t_.substr(i_, j - i_);
    if (word == "return") {
      i_ = j;
      skip();
      return;
    }
    i_ = j;
    skip();
    if (word == "local") {
      if (i_ >= t_.size() || !is_name_start(t_[i_])) {
        throw_data("expected a variable name after 'local'", i_, "a name", describe_at(t_, i_));
      }
      while (i_ < t_.size() && is_name_char(t_[i_])) ++i_;
      skip();
    }
    if (i_ >= t_.size() || t_[i_] != '=') {
      throw_data("expected '=' after the name '" + std::string(word) + "'", i_, "'='",
                 describe_at(t_, i_));
    }
    ++i_;
    skip();
  }

  // A non-negative decimal integer; "23.0" (an integral float, as Lua and Python print
  // them) is read as 23.
  uint32_t number() {
    const size_t start = i_;
    size_t j = i_;
    while (j < t_.size() && is_number_char(t_[j])) ++j;
    const std::string_view tok = t_.substr(start, j - start);
    if (tok.empty()) {
      throw_data("expected a number", start, "an integer", describe_at(t_, start));
    }
    size_t k = 0;
    bool negative = false;
    if (tok[0] == '-') negative = true, k = 1;
    const size_t digits_at = k;
    while (k < tok.size() && tok[k] >= '0' && tok[k] <= '9') ++k;
    const bool has_digits = k > digits_at;
    size_t int_end = k;
    if (has_digits && k < tok.size() && tok[k] == '.') {
      ++k;
      while (k < tok.size() && tok[k] == '0') ++k;
    }
    if (!has_digits || k != tok.size()) {
      throw_data("not an integer", start, "an integer", "'" + std::string(tok.substr(0, 24)) + "'");
    }
    uint32_t v = 0;
    const auto r = std::from_chars(tok.data() + digits_at, tok.data() + int_end, v);
    if (negative || r.ec != std::errc()) v = UINT32_MAX;  // out of range for any field
    i_ = j;
    return v;
  }

  std::string_view t_;
  const Syntax& s_;
  size_t i_ = 0;
  size_t close_at_ = SIZE_MAX;
};

std::string voxel_name(size_t v) {
  return "voxel " + std::to_string(v) + " (x " + std::to_string(v / (kAxis * kAxis)) + ", y " +
         std::to_string(v / kAxis % kAxis) + ", z " + std::to_string(v % kAxis) + ")";
}

std::string shown(std::string_view t, size_t at) {
  size_t j = at;
  while (j < t.size() && is_number_char(t[j]) && j - at < 24) ++j;
  return std::string(t.substr(at, j - at));
}

// Pairs (material, density) -> voxel bytes, each checked against its range.
Chunk from_pairs(std::string_view t, const std::vector<uint32_t>& v,
                 const std::vector<uint32_t>& at) {
  Chunk c;
  for (size_t i = 0; i < kVoxels; ++i) {
    const uint32_t m = v[2 * i], d = v[2 * i + 1];
    if (m > kMaxMaterial) {
      throw_data("material of " + voxel_name(i) + " is out of range", at[2 * i], "0..3",
                 shown(t, at[2 * i]));
    }
    if (d > kMaxDensity) {
      throw_data("density of " + voxel_name(i) + " is out of range", at[2 * i + 1], "0..63",
                 shown(t, at[2 * i + 1]));
    }
    c[i] = uint8_t(m << 6 | d);
  }
  return c;
}

std::string write_list(const Chunk& c, const Syntax& s, const WriteOptions& opts) {
  std::string out;
  out.reserve(kLuaNumbers * 5 + 64);
  // A Lua file is a chunk `dofile` can run; a one-line table is an expression to embed.
  if (s.lua && !opts.one_line) out += "return ";
  out += s.open;
  if (!opts.one_line) out += "\n  ";
  char buf[8];
  for (size_t i = 0; i < kLuaNumbers; ++i) {
    const uint8_t b = c[i / 2];
    const unsigned v = (i & 1) ? (b & 63u) : (b >> 6);
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
    if (i + 1 == kLuaNumbers) break;
    if (opts.one_line) {
      out += ',';
    } else {
      // One line per (x, y) row of 17 voxels.
      out += (i + 1) % (2 * kAxis) == 0 ? ",\n  " : ", ";
    }
  }
  if (!opts.one_line) out += '\n';
  out += s.close;
  if (opts.final_newline) out += '\n';
  return out;
}

}  // namespace

Chunk decode_lua(std::string_view text) {
  std::vector<uint32_t> values, offsets;
  values.reserve(kLuaNumbers);
  offsets.reserve(kLuaNumbers);
  Parser p(text, kLua);
  p.parse(values, offsets);
  if (values.size() != kLuaNumbers) {
    throw_data("wrong number of values in the table", p.close_at(),
               std::to_string(kLuaNumbers) + " (material, density for 4913 voxels)",
               std::to_string(values.size()));
  }
  return from_pairs(text, values, offsets);
}

Chunk decode_json(std::string_view text) {
  std::vector<uint32_t> values, offsets;
  values.reserve(kLuaNumbers);
  offsets.reserve(kLuaNumbers);
  Parser p(text, kJson);
  p.parse(values, offsets);
  if (values.size() == kVoxels) {
    // The other JSON shape: the 4913 voxel bytes themselves.
    Chunk c;
    for (size_t i = 0; i < kVoxels; ++i) {
      if (values[i] > 255) {
        throw_data("byte of " + voxel_name(i) + " is out of range", offsets[i], "0..255",
                   shown(text, offsets[i]));
      }
      c[i] = uint8_t(values[i]);
    }
    return c;
  }
  if (values.size() != kLuaNumbers) {
    throw_data("wrong number of values in the array", p.close_at(),
               std::to_string(kLuaNumbers) + " (material, density pairs) or " +
                   std::to_string(kVoxels) + " (voxel bytes)",
               std::to_string(values.size()));
  }
  return from_pairs(text, values, offsets);
}

std::string encode_lua(const Chunk& c, const WriteOptions& opts) {
  return write_list(c, kLua, opts);
}

std::string encode_json(const Chunk& c, const WriteOptions& opts) {
  return write_list(c, kJson, opts);
}

namespace detail {
// Where Lua text starts: true if, after whitespace, it begins like a table a user pastes.
bool looks_like_lua(std::string_view t) {
  size_t i = 0;
  while (i < t.size() && is_space(t[i])) ++i;
  if (i >= t.size()) return false;
  if (t[i] == '{' || t.substr(i, 2) == "--") return true;
  if (!is_name_start(t[i])) return false;
  size_t j = i;
  while (j < t.size() && (is_name_char(t[j]) || t[j] == '.')) ++j;
  const std::string_view word = t.substr(i, j - i);
  auto next = [&](size_t k) {
    while (k < t.size() && is_space(t[k])) ++k;
    return k;
  };
  size_t k = next(j);
  if (word == "return") return k < t.size() && t[k] == '{';
  if (word == "local") {
    while (k < t.size() && is_name_char(t[k])) ++k;
    k = next(k);
  }
  if (k >= t.size() || t[k] != '=') return false;
  k = next(k + 1);
  return k < t.size() && t[k] == '{';
}
bool looks_like_json(std::string_view t) {
  size_t i = 0;
  while (i < t.size() && is_space(t[i])) ++i;
  return i < t.size() && t[i] == '[';
}
}  // namespace detail

}  // namespace voxkit::sm
