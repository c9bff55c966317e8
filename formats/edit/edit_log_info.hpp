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

// The other encodings, as `detect` tells them apart: JSON or text when the whole file reads
// as a log holding at least one record or naming its grid (nothing otherwise: these are loose
// text formats), and the int64 list only by its name (`.int64`; a data error when it does not
// read, since any multiple of 8 bytes would otherwise pass).
std::optional<identify::Description> describe_edit_list(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::edit_log
