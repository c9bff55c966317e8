#include "formats/core/json_numbers.hpp"

#include <cmath>
#include <cstdlib>

#include "lib/core/error.hpp"

namespace voxkit::json_numbers {
namespace {

bool number_byte(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

std::string number_token(std::string_view t, size_t at) {
  size_t end = at;
  while (end < t.size() && number_byte(t[end])) ++end;
  return std::string(t.substr(at, end - at));
}

std::optional<size_t> overflowing_number(std::string_view t) {
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::string number = number_token(t, i);
      if (!std::isfinite(std::strtod(number.c_str(), nullptr))) return i;
      i += number.size() - 1;
    }
  }
  return std::nullopt;
}

void throw_out_of_range(std::string_view text) {
  const auto at = overflowing_number(text);
  std::string number = at ? number_token(text, *at) : "?";
  if (number.size() > 40) number = number.substr(0, 37) + "...";
  throw_data("a JSON number out of range", at.value_or(0), "a finite number", number);
}

}  // namespace voxkit::json_numbers
