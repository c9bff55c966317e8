// Dig-zone Unity assets (DigZoneData, a MonoBehaviour in Unity's YAML): zone import, and
// export that rewrites only the values of the grid fields (docs/formats/unity-asset.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/zone.hpp"

namespace voxkit::unity {

// The dig-zone package refuses grids over 128 Mi samples.
inline constexpr uint64_t kMaxSamples = uint64_t(128) << 20;

// A top-level field of the DigZoneData document: where its value is in the text.
struct Field {
  std::string key;
  size_t key_at = 0;       // byte offset of the key
  size_t value_begin = 0;  // byte offset of the value (after "key: ")
  size_t value_end = 0;    // one past the value, continuation lines included
  size_t line = 0;         // 1-based line of the key
  bool space_after_colon = false;
};

// The DigZoneData document of an asset: its top-level fields, in file order.
struct ZoneDocument {
  size_t begin = 0, end = 0;  // byte range of the document in the text
  std::vector<Field> fields;
  const Field* find(std::string_view key) const;
};

// Finds the one MonoBehaviour document holding nx, ny, nz and voxelSize. Throws a data
// error when there is none or more than one.
ZoneDocument find_zone_document(std::string_view text);

// Builds a zone from the asset: cells, voxel size, chunk cells, origin, edit box, hole rect,
// height range, grid version, and the three grids (RLE, or the raw grids of 0.3 and earlier).
// `name` goes into the zone's source description. Grids over `max_samples` are refused
// before anything is allocated.
Zone import_asset(std::string_view text, const std::string& name, uint64_t max_samples = kMaxGridSamples);

struct ExportReport {
  int old_grid_version = 0, new_grid_version = 0;
  std::vector<std::string> fields;  // the fields whose values were rewritten
  std::vector<std::string> warnings;
};

// A replacement of text[begin, end) by `value`; `key` names what it is for reports.
struct TextEdit {
  size_t begin = 0, end = 0;
  std::string value;
  std::string key;
};

// The foliage fields of a DigZoneData document (formats/zone/unity_foliage.cpp): terrainTrees,
// surfaceDetails, foliageMask (a Texture2D sub-asset, replaced or appended to `appended`),
// and foliageSignature, foliageDetailSignature and foliageCount set to 0 (never built: the
// editor rebuilds its objects). Throws a usage error when the foliage is older than the grid.
void foliage_edits(std::string_view text, const ZoneDocument& doc, const Zone& zone, std::vector<TextEdit>& edits,
                   std::string& appended, ExportReport* report);

// Returns `text` with the zone written into the DigZoneData document: nx, ny, nz, voxelSize,
// chunkCells, origin, hasOrigin, editBox, holeRect, gridRle, paintRle, baseGridRle and
// _gridVersion (bumped past both the asset's and the zone's), and, when the zone holds baked
// foliage, the foliage fields (foliage_edits). Every other byte is kept.
// Throws a usage error for zones over kMaxSamples, a data error when the asset lacks a field.
std::string export_asset(std::string_view text, const Zone& zone, ExportReport* report = nullptr);

// Lowercase hex of bytes, as Unity writes byte arrays; and the inverse, which accepts either
// case and skips whitespace (folded plain scalars). Decoding throws a data error at `base`
// plus the offset of the bad character.
std::string to_hex(const std::vector<uint8_t>& bytes);
std::vector<uint8_t> from_hex(std::string_view text, size_t base);

// The shortest decimal that reads back as the same float32 ("0.5", "-1.25", "32").
std::string format_float(double value);

}  // namespace voxkit::unity
