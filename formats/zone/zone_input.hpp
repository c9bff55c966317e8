// Verbs that read grids (pack, unpack, rle) also take a zone: these tell one by its bytes.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "lib/core/zone.hpp"

namespace voxkit {

// True when `bytes` start as a zone file or a dig-zone Unity asset (a YAML document with the
// package's grid fields).
bool looks_like_zone(std::span<const uint8_t> bytes);

// The zone `bytes` hold when they are a zone file or a dig-zone Unity asset; nothing when they
// are neither; a data error (naming `name`) when they are one but damaged.
std::optional<Zone> read_zone_if_any(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit
