// The `info` describer of .vxlog edit logs (docs/info-json.md, "edit-log").
#pragma once

#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::edit_log {

// Nothing unless `bytes` start with the .vxlog magic; a data error when they do but the log
// is damaged.
std::optional<identify::Description> describe_vxlog(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::edit_log
