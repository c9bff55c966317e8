// The `info` describer of `voxkit melt` hits files (docs/info-json.md, "melt-hits").
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::ice {

// A CSV or JSON hits file that reads whole and holds at least one hit (a loose text format:
// nothing otherwise).
std::optional<identify::Description> describe_hits(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::ice
