// Tolerant XML tokenizer: finds markup with memchr and checks only its structure.
#include "formats/stationeers/xml_scan.hpp"

#include <cstring>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit::xml {
namespace {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Name bytes: anything but whitespace and the characters that end a name.
inline bool is_name_char(char c) {
  return !is_space(c) && c != '/' && c != '>' && c != '<' && c != '=' && c != '"' &&
         c != '\'' && c != '\0';
}

std::string shown(std::string_view s) {
  if (s.size() > 24) return std::string(s.substr(0, 24)) + "...";
  return std::string(s);
}

}  // namespace

Token Tokenizer::next() {
  const uint64_t n = doc_.size();
  const char* d = doc_.data();
  Token t;
  t.begin = pos_;
  if (pos_ >= n) {
    t.kind = Kind::Eof;
    t.end = n;
    return t;
  }
  if (d[pos_] != '<') {
    const void* lt = std::memchr(d + pos_, '<', n - pos_);
    pos_ = lt ? uint64_t(static_cast<const char*>(lt) - d) : n;
    t.kind = Kind::Text;
    t.end = pos_;
    return t;
  }
  auto find = [&](uint64_t from, std::string_view what, const char* unterminated) {
    auto at = doc_.find(what, from);
    if (at == std::string_view::npos) {
      throw_data(unterminated, t.begin, "'" + std::string(what) + "'", "the end of the file");
    }
    return uint64_t(at + what.size());
  };
  std::string_view rest = doc_.substr(pos_);
  if (rest.starts_with("<!--")) {
    pos_ = find(pos_ + 4, "-->", "unterminated comment");
    t.kind = Kind::Comment;
  } else if (rest.starts_with("<![CDATA[")) {
    pos_ = find(pos_ + 9, "]]>", "unterminated CDATA section");
    t.kind = Kind::Cdata;
  } else if (rest.starts_with("<?")) {
    pos_ = find(pos_ + 2, "?>", "unterminated processing instruction");
    t.kind = Kind::Pi;
  } else if (rest.starts_with("<!")) {
    // DOCTYPE and friends: up to the '>' outside quotes and the internal subset's brackets.
    uint64_t p = pos_ + 2;
    int depth = 0;
    for (;; ++p) {
      if (p >= n) throw_data("unterminated declaration", t.begin, "'>'", "the end of the file");
      char c = d[p];
      if (c == '"' || c == '\'') {
        const void* q = std::memchr(d + p + 1, c, n - p - 1);
        if (!q) {
          throw_data("unterminated quoted value", p, std::string("a closing ") + c,
                     "the end of the file");
        }
        p = uint64_t(static_cast<const char*>(q) - d);
      } else if (c == '[') {
        ++depth;
      } else if (c == ']') {
        --depth;
      } else if (c == '>' && depth <= 0) {
        break;
      }
    }
    pos_ = p + 1;
    t.kind = Kind::Doctype;
  } else {
    const bool closing = rest.size() > 1 && rest[1] == '/';
    uint64_t p = pos_ + (closing ? 2 : 1);
    const uint64_t name_at = p;
    while (p < n && is_name_char(d[p])) ++p;
    if (p == name_at) {
      throw_data("expected an element name after '<'", name_at, "a name",
                 p < n ? "'" + std::string(1, d[p]) + "'" : std::string("the end of the file"));
    }
    t.name = doc_.substr(name_at, p - name_at);
    // Attributes are skipped: quoted values may hold anything but their own quote.
    bool slash = false;
    for (;; ++p) {
      if (p >= n) {
        throw_data("unterminated tag <" + shown(t.name), t.begin, "'>'", "the end of the file");
      }
      char c = d[p];
      if (c == '>') break;
      if (c == '"' || c == '\'') {
        if (closing) {
          throw_data("end tag </" + shown(t.name) + "> has attributes", p, "'>'",
                     std::string("'") + c + "'");
        }
        const void* q = std::memchr(d + p + 1, c, n - p - 1);
        if (!q) {
          throw_data("unterminated attribute value in <" + shown(t.name), p,
                     std::string("a closing ") + c, "the end of the file");
        }
        p = uint64_t(static_cast<const char*>(q) - d);
        slash = false;
        continue;
      }
      if (c == '<') {
        throw_data("'<' inside the tag <" + shown(t.name), p, "'>'", "'<'");
      }
      if (closing && !is_space(c)) {
        throw_data("unexpected bytes in end tag </" + shown(t.name), p, "'>'",
                   "'" + std::string(1, c) + "'");
      }
      slash = c == '/';
    }
    pos_ = p + 1;
    t.kind = closing ? Kind::End : (slash ? Kind::Empty : Kind::Start);
  }
  t.end = pos_;
  return t;
}

Token Walker::next() {
  Token t = tok_.next();
  if (t.kind == Kind::Start) {
    names_.push_back(t.name);
    opened_at_.push_back(t.begin);
  } else if (t.kind == Kind::End) {
    if (names_.empty()) {
      throw_data("end tag </" + shown(t.name) + "> without an open element", t.begin,
                 "an element to close", "none open");
    }
    if (names_.back() != t.name) {
      throw_data("end tag does not match the element opened at offset " +
                     std::to_string(opened_at_.back()),
                 t.begin, "</" + shown(names_.back()) + ">", "</" + shown(t.name) + ">");
    }
    names_.pop_back();
    opened_at_.pop_back();
  } else if (t.kind == Kind::Eof && !names_.empty()) {
    throw_data("element <" + shown(names_.back()) + "> opened at offset " +
                   std::to_string(opened_at_.back()) + " is not closed",
               t.end, "</" + shown(names_.back()) + ">", "the end of the file");
  }
  return t;
}

}  // namespace voxkit::xml
