// The zone file's HCUT section: the terrain hole cells a zone cuts and their previous values
// (docs/formats/zone.md, "HCUT").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/zone.hpp"

namespace voxkit::zone_file {

inline constexpr uint32_t kHoleCutVersion = 1;
inline constexpr size_t kHoleCutHeaderSize = 72;
// Cells a side of the cut and of the raster it lies in.
inline constexpr uint32_t kMaxHoleCutCells = 1u << 16;

std::vector<uint8_t> encode_hole_cut(const ZoneHoleCut& c);
// Offsets in errors are from the start of the payload. The cut's size is checked against the
// payload length before anything is allocated.
ZoneHoleCut decode_hole_cut(std::span<const uint8_t> payload);
// Why a cut cannot be written (empty when it can).
std::string hole_cut_problem(const ZoneHoleCut& c);

}  // namespace voxkit::zone_file
