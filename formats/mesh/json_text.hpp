// A JSON text written straight into a string, byte for byte as nlohmann/json's dump() (compact)
// or dump(1, '\t') (one tab a level) would print the same values with keys given in sorted
// order: numbers through nlohmann's own shortest-digits formatter, strings through its
// escaper when they need escaping. For the glTF writer's thousands of small per-mesh objects,
// where building json values and dumping them cost more than the rest of the export.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace voxkit::json_text {

class Writer {
 public:
  // `base` tabs are put before the first character and after every newline (pretty only).
  Writer(std::string& out, bool pretty, int base = 0) : out_(out), pretty_(pretty), base_(base) {
    if (pretty_) out_.append(size_t(base_), '\t');
  }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  // Keys must come in sorted (std::map) order to match nlohmann's objects.
  void key(std::string_view k) {
    element();
    string(k);
    out_ += pretty_ ? "\": " : "\":";
    after_key_ = true;
  }
  void value(uint64_t v) {
    element();
    char buf[24];
    char* end = buf + sizeof buf;
    char* p = end;
    do {
      *--p = char('0' + v % 10);
      v /= 10;
    } while (v);
    out_.append(p, size_t(end - p));
  }
  void value(double v) {
    element();
    if (!std::isfinite(v)) {
      out_ += "null";
      return;
    }
    std::array<char, 64> buf;
    const char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v);
    out_.append(buf.data(), size_t(end - buf.data()));
  }
  void value(std::string_view s) {
    element();
    string(s);
    out_ += '"';
  }

 private:
  // Before a value or key: the separator and, in pretty text, the newline and indent. A value
  // right after its key is not an element of its own.
  void element() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
      newline(first_.size());
    }
  }
  void open(char c) {
    element();
    out_ += c;
    first_.push_back(true);
  }
  void close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline(first_.size());
    out_ += c;
  }
  void newline(size_t depth) {
    if (!pretty_) return;
    out_ += '\n';
    out_.append(size_t(base_) + depth, '\t');
  }
  // The opening quote and the characters; the caller closes it.
  void string(std::string_view s) {
    bool plain = true;
    for (unsigned char c : s) plain &= c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    if (plain) {
      out_ += '"';
      out_.append(s);
    } else {
      const std::string quoted = nlohmann::json(std::string(s)).dump();
      out_.append(quoted, 0, quoted.size() - 1);
    }
  }

  std::string& out_;
  bool pretty_;
  int base_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace voxkit::json_text
