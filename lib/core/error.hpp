// The one error type of lib/ and formats/: a kind (data, I/O, usage) and a message that
// names the source, the byte offset or sample, what was expected and what was found.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace voxkit {

enum class ErrorKind {
  Data,   // input bytes do not follow the format
  Io,     // the operating system refused a read, write or rename
  Usage,  // the caller asked for something impossible (bad option value, existing output)
};

class Error : public std::exception {
 public:
  // `what` says what went wrong; `expected`/`found` are optional and appended as
  // "(expected E, found F)". `offset` is a byte offset into the source, if one applies.
  Error(ErrorKind kind, std::string what, std::optional<uint64_t> offset = std::nullopt,
        std::string expected = {}, std::string found = {});

  ErrorKind kind() const noexcept { return kind_; }
  const std::string& source() const noexcept { return source_; }
  std::optional<uint64_t> offset() const noexcept { return offset_; }
  const std::string& expected() const noexcept { return expected_; }
  const std::string& found() const noexcept { return found_; }
  // What went wrong, without source, offset, expected/found or note.
  const std::string& reason() const noexcept { return what_; }

  // Names the file (or "<stdin>") the error is about, unless one is set already.
  void set_source(const std::string& source);
  // Moves the offset by `base` (a decoder ran over a slice of a larger file).
  void shift_offset(uint64_t base);
  // Puts `context` (e.g. "chunk 12: ") before what went wrong.
  void add_context(const std::string& context);
  // Ends the message with " [NOTE]" (e.g. how the input was taken); notes accumulate.
  void add_note(const std::string& note);
  // What tools/ needs to name the option an error is about, since below tools/ no message
  // names a flag: a stable `key` for the parameter or choice ("cells",
  // "reset-all-if-no-rooms") and the `words` of the message that say it in the library's
  // terms ("the cells"), if any. An error can have several.
  struct Hint {
    std::string key, words;
  };
  Error& set_hint(std::string key, std::string words = {});
  const std::vector<Hint>& hints() const noexcept { return hints_; }
  bool has_hint(std::string_view key) const noexcept;
  // Puts `text` (how the caller sets the option: "--cells") where the message says the hint's
  // words (their last occurrence in the message or its notes), or, with no words in the
  // message, ends it with `text` as a note.
  void name_option(const Hint& hint, const std::string& text);

  // "SOURCE: offset N: WHAT (expected E, found F) [NOTE]", with input bytes escaped (escape_text).
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  void compose();

  ErrorKind kind_;
  std::string what_, expected_, found_, source_, notes_;
  std::vector<Hint> hints_;
  std::optional<uint64_t> offset_;
  std::string message_;
};

// Shorthands for the common cases.
[[noreturn]] void throw_data(std::string what, std::optional<uint64_t> offset = std::nullopt,
                             std::string expected = {}, std::string found = {});
[[noreturn]] void throw_usage(std::string what);
[[noreturn]] void throw_usage(std::string what, const std::vector<Error::Hint>& hints);

// "0x1f": a byte for messages.
std::string hex_byte(uint8_t b);
// "0x0000001f": a 32-bit value (a signature, a CRC-32) for messages.
std::string hex32(uint32_t v);

// Input bytes made safe for a one-line message: a newline becomes "\n", other control
// characters, DEL and bytes that are not part of valid UTF-8 become "\xNN"; printable
// ASCII and valid UTF-8 stay as they are. Escaping an escaped text changes nothing.
std::string escape_text(std::string_view text);

// Runs `f`; an Error that escapes gets `source` as its file name.
template <class F>
decltype(auto) with_source(const std::string& source, F&& f) {
  try {
    return f();
  } catch (Error& e) {
    e.set_source(source);
    throw;
  }
}

}  // namespace voxkit
