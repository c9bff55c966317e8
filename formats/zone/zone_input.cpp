#include "formats/zone/zone_input.hpp"

#include <string_view>

#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"

namespace voxkit {

namespace {
bool is_asset(std::span<const uint8_t> b) {
  const std::string_view text(reinterpret_cast<const char*>(b.data()), b.size());
  return text.substr(0, 5) == "%YAML" && text.find("gridRle:") != std::string_view::npos;
}
}  // namespace

bool looks_like_zone(std::span<const uint8_t> bytes) { return is_zone_file(bytes) || is_asset(bytes); }

std::optional<Zone> read_zone_if_any(std::span<const uint8_t> bytes, const std::string& name) {
  if (is_zone_file(bytes)) return with_source(name, [&] { return read_zone(bytes); });
  if (is_asset(bytes))
    return with_source(name, [&] {
      return unity::import_asset(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), name);
    });
  return std::nullopt;
}

}  // namespace voxkit
