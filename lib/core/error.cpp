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

void Error::compose() {
  message_.clear();
  if (!source_.empty()) message_ += source_ + ": ";
  if (offset_) message_ += "offset " + std::to_string(*offset_) + ": ";
  message_ += what_;
  if (!expected_.empty() || !found_.empty()) {
    message_ += " (expected " + (expected_.empty() ? std::string("?") : expected_) +
                ", found " + (found_.empty() ? std::string("?") : found_) + ")";
  }
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

void throw_usage(std::string what) { throw Error(ErrorKind::Usage, std::move(what)); }

}  // namespace voxkit
