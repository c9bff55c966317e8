// The zone file (.vxz): a dig zone in one file of typed, CRC-checked sections
// (docs/formats/zone.md). Reading validates every size and CRC before allocating.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::zone_file {

// "\x89VXZ\r\n\x1a\n": binary, and mangled recognisably by text-mode transfers.
inline constexpr std::array<uint8_t, 8> kMagic{0x89, 'V', 'X', 'Z', '\r', '\n', 0x1a, '\n'};
inline constexpr uint16_t kVersionMajor = 1;  // a reader refuses other majors
// A reader accepts any minor of its major. The writer puts the lowest minor that describes
// what it wrote: kVersionMinor with a FILL section (1.3), else kVersionMinorBase, so a zone
// without the newer section keeps the bytes earlier versions wrote.
inline constexpr uint16_t kVersionMinor = 3;
inline constexpr uint16_t kVersionMinorBase = 2;
inline constexpr size_t kFileHeaderSize = 16;
inline constexpr size_t kSectionHeaderSize = 20;
inline constexpr uint32_t kFlagRequired = 1;  // a reader that does not know the tag must refuse
inline constexpr uint32_t kMaxSections = 4096;
inline constexpr uint64_t kMaxMetaBytes = 1 << 20;  // the JSON header
inline constexpr uint32_t kMaxLayers = 16;

// One section as found in a file: where it is and what it claims.
struct SectionInfo {
  std::array<char, 4> tag{};
  uint32_t flags = 0;
  uint64_t offset = 0;  // of the section header in the file
  uint64_t length = 0;  // of the payload
  uint32_t crc = 0;
  std::string tag_string() const { return std::string(tag.data(), 4); }
};

struct ReadOptions {
  // Cap on the samples of each grid, checked before anything is allocated.
  uint64_t max_samples = kMaxGridSamples;
  // What a reader needs decoded; the sections left out are still found and their lengths and
  // CRCs checked, but stay empty in the Zone (for the mesher: one grid, no textures).
  bool current_grid = true;  // GRID and PAINT
  bool baked_grid = true;    // BAKE
  bool textures = true;      // HGHT and SPLT
};

}  // namespace voxkit::zone_file

namespace voxkit {

// True when `bytes` start with the zone file magic.
bool is_zone_file(std::span<const uint8_t> bytes);

// Reads a whole zone file. Throws a data error naming the section and byte offset.
Zone read_zone(std::span<const uint8_t> bytes, const zone_file::ReadOptions& opts = {});
Zone read_zone_file(const std::string& path, const zone_file::ReadOptions& opts = {});

// Reads only the file header and the META section (which comes first): cheap for `info`.
ZoneMeta read_zone_meta(std::span<const uint8_t> bytes);

// Walks the section table, checking sizes and CRCs, without decoding any payload.
std::vector<zone_file::SectionInfo> list_zone_sections(std::span<const uint8_t> bytes);

// Encodes a zone. Deterministic bytes: sections in a fixed order, the JSON header with sorted
// keys and shortest round-trip numbers, canonical RLE. Throws a usage error when the zone is
// inconsistent (grid sizes against cells, rasters against columns, too many layers).
std::vector<uint8_t> write_zone(const Zone& zone);
// Writes by the output policy of formats/core/io.hpp; returns the backup made ("" when none).
std::string write_zone_file(const std::string& path, const Zone& zone, io::OutputOptions opts = {});

// Checks that the parts of `zone` agree with its metadata; throws a usage error otherwise.
void check_zone(const Zone& zone);

}  // namespace voxkit
