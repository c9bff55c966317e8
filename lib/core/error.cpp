// Error composition for lib/ and formats/.
#include "lib/core/error.hpp"

namespace voxkit {

Error::Error(ErrorKind kind, std::string what, std::optional<uint64_t> offset,
             std::string expected, std::string found)
    : kind_(kind),
      what_(std::move(what)),
      expected_(std::move(expected)),
      found_(std::move(found)),
      offset_(offset) {
  compose();
}

void Error::set_source(const std::string& source) {
  if (source_.empty()) {
    source_ = source;
    compose();
  }
}

void Error::shift_offset(uint64_t base) {
  if (offset_) {
    *offset_ += base;
    compose();
  }
}

void Error::add_context(const std::string& context) {
  what_.insert(0, context);
  compose();
}

void Error::add_note(const std::string& note) {
  notes_ += " [" + note + "]";
  compose();
}

Error& Error::set_hint(std::string key, std::string words) {
  hints_.push_back({std::move(key), std::move(words)});
  return *this;
}

bool Error::has_hint(std::string_view key) const noexcept {
  for (const auto& h : hints_)
    if (h.key == key) return true;
  return false;
}

void Error::name_option(const Hint& hint, const std::string& text) {
  const auto replace_in = [&](std::string& s) {
    if (hint.words.empty()) return false;
    const size_t at = s.rfind(hint.words);
    if (at == std::string::npos) return false;
    s.replace(at, hint.words.size(), text);
    return true;
  };
  if (!replace_in(what_) && !replace_in(notes_)) notes_ += " [" + text + "]";
  compose();
}

void Error::compose() {
  std::string m;
  if (!source_.empty()) m += source_ + ": ";
  if (offset_) m += "offset " + std::to_string(*offset_) + ": ";
  m += what_;
  if (!expected_.empty() || !found_.empty()) {
    m += " (expected " + (expected_.empty() ? std::string("?") : expected_) + ", found " +
         (found_.empty() ? std::string("?") : found_) + ")";
  }
  m += notes_;
  // Names, tags and text from the input can hold any byte: the message stays one line.
  message_ = escape_text(m);
}

void throw_data(std::string what, std::optional<uint64_t> offset, std::string expected,
                std::string found) {
  throw Error(ErrorKind::Data, std::move(what), offset, std::move(expected), std::move(found));
}

std::string hex_byte(uint8_t b) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x00";
  s[2] = digits[b >> 4];
  s[3] = digits[b & 15];
  return s;
}

std::string hex32(uint32_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 0; i < 8; ++i) s[9 - size_t(i)] = digits[(v >> (4 * i)) & 15];
  return s;
}

namespace {

// The length of the valid UTF-8 sequence (2..4 bytes) starting at t[i], or 0.
size_t utf8_length(std::string_view t, size_t i) {
  const auto b = [&](size_t k) { return uint8_t(t[k]); };
  const uint8_t c = b(i);
  size_t n = 0;
  uint32_t cp = 0;
  if (c >= 0xc2 && c <= 0xdf) n = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef) n = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > t.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (b(i + k) & 0x3f);
  }
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not valid.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff)) {
    return 0;
  }
  // C1 control characters (U+0080..U+009F) steer terminals too.
  if (cp < 0xa0) return 0;
  return n;
}

}  // namespace

std::string escape_text(std::string_view t) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(t.size());
  for (size_t i = 0; i < t.size();) {
    const auto c = uint8_t(t[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (const size_t n = c >= 0x80 ? utf8_length(t, i) : 0) {
      out.append(t.substr(i, n));
      i += n;
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 15];
      ++i;
    }
  }
  return out;
}

void throw_usage(std::string what) { throw Error(ErrorKind::Usage, std::move(what)); }

void throw_usage(std::string what, const std::vector<Error::Hint>& hints) {
  Error e(ErrorKind::Usage, std::move(what));
  for (const auto& h : hints) e.set_hint(h.key, h.words);
  throw e;
}

}  // namespace voxkit
