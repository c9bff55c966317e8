// The zone file's JSON header (section META): ZoneMeta <-> canonical JSON text.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "lib/core/zone.hpp"

namespace voxkit::zone_file {

// Canonical JSON: sorted keys, no whitespace, shortest round-trip numbers, UTF-8.
std::string meta_to_json(const ZoneMeta& meta);

// Parses and validates a META payload. Data errors carry offsets relative to the payload.
ZoneMeta meta_from_json(std::span<const uint8_t> payload, uint64_t max_samples);

// What is wrong with `meta` (empty when nothing): cells within limits, finite positive
// voxel size, finite origin and rectangles, edit box inside the samples, at most 16 layers.
std::string meta_problem(const ZoneMeta& meta, uint64_t max_samples);

}  // namespace voxkit::zone_file
