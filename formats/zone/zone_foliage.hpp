// The zone file's FOLI section: a zone's foliage anchors, buckets, mask and check state
// (docs/formats/zone.md, "FOLI").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/zone.hpp"

namespace voxkit::zone_file {

inline constexpr uint32_t kFoliageVersion = 1;
inline constexpr size_t kFoliageHeaderSize = 112;
inline constexpr size_t kTreeRecordSize = 68, kSurfaceRecordSize = 76, kDetailRecordSize = 36;

std::vector<uint8_t> encode_foliage(const ZoneFoliage& f, const ZoneMeta& meta);
// Offsets in errors are from the start of the payload. Every count is checked against the
// payload length before anything is allocated; then the buckets, the item order, the mask
// size and the states are checked against the zone's cells and chunks.
ZoneFoliage decode_foliage(std::span<const uint8_t> payload, const ZoneMeta& meta);

}  // namespace voxkit::zone_file
