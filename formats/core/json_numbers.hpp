// The JSON parser refuses a number too large for a double (1e400) without saying where:
// these find it in the text, for a message with its offset.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace voxkit::json_numbers {

// Offset of the first number outside a string that does not fit a double.
std::optional<size_t> overflowing_number(std::string_view text);
// The number token that starts at `at` (digits, sign, point, exponent).
std::string number_token(std::string_view text, size_t at);
// Throws the data error for a text the parser refused for a number out of range: its offset
// and the number (shortened past 40 characters).
[[noreturn]] void throw_out_of_range(std::string_view text);

}  // namespace voxkit::json_numbers
