// A small tolerant XML tokenizer over a byte span: elements, text, attributes (skipped),
// comments, CDATA, processing instructions and DOCTYPE. It checks markup structure only;
// text and character references are passed through undecoded, so references XML 1.0
// forbids (the game writes &#xB;) are no obstacle. See docs/formats/world-xml.md.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace voxkit::xml {

enum class Kind { Start, End, Empty, Text, Cdata, Comment, Pi, Doctype, Eof };

struct Token {
  Kind kind = Kind::Eof;
  std::string_view name;  // element name for Start, End and Empty
  uint64_t begin = 0;     // byte offset of the token's first byte
  uint64_t end = 0;       // one past its last byte
};

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view doc) : doc_(doc) {}
  // The next token; throws a data error with the byte offset on malformed markup
  // (unterminated comment, CDATA, tag or quoted value; missing name; '<' inside a tag).
  Token next();

 private:
  std::string_view doc_;
  uint64_t pos_ = 0;
};

// Tokens with their nesting checked: every end tag must close the innermost open element,
// and every element must be closed by the end of the document.
class Walker {
 public:
  explicit Walker(std::string_view doc) : tok_(doc) {}
  // Like Tokenizer::next; after a Start the element is on the stack, after an End it is off.
  Token next();
  // Open elements, outermost first (a Start's own name is last).
  const std::vector<std::string_view>& stack() const { return names_; }
  // Name of the element `up` levels above the innermost one, or "" past the root.
  std::string_view parent(size_t up) const {
    return up < names_.size() ? names_[names_.size() - 1 - up] : std::string_view();
  }

 private:
  Tokenizer tok_;
  std::vector<std::string_view> names_;
  std::vector<uint64_t> opened_at_;
};

}  // namespace voxkit::xml
