// Dig-zone Unity assets (DigZoneData, a MonoBehaviour in Unity's YAML): zone import; export
// into an existing asset (its values only, or with the objects that follow from the zone:
// chunk meshes, shader textures); and a complete new asset (docs/formats/unity-asset.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/zone.hpp"

namespace voxkit::unity {

// The dig-zone package's limits (DigZoneBaker.Validate): 128 Mi samples, at most 4095 cells
// on an axis, at least 8 x 4 x 8 cells.
inline constexpr uint64_t kMaxSamples = uint64_t(128) << 20;
inline constexpr uint32_t kMaxAxisCells = 4095;
inline constexpr uint32_t kMinCells[3] = {8, 4, 8};
// The guid of the package's DigZoneData script (Runtime/Core/DigZoneData.cs.meta).
inline constexpr const char* kScriptGuid = "1de369fa44d90634c98ae013c6de8c31";

// Throws a usage error, in the package's words, for a zone the package would not bake.
void check_package_limits(const Dims& cells);

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
// height range, grid version, the three grids (RLE, or the raw grids of 0.3 and earlier),
// the terrain cut (cutRect, cutPrevious; its resolution unknown), and the height and splat
// rasters when the asset's textures lie on the zone's columns (as export writes them).
// `name` goes into the zone's source description. Grids over `max_samples` are refused
// before anything is allocated.
Zone import_asset(std::string_view text, const std::string& name, uint64_t max_samples = kMaxGridSamples);

struct ExportReport {
  int old_grid_version = 0, new_grid_version = 0;
  std::vector<std::string> fields;  // the fields whose values were rewritten
  std::vector<std::string> warnings;
  // Sub-assets: chunk meshes written (chunks with a surface), removed (no longer needed),
  // and textures written or removed; the meshes' vertex and triangle totals.
  uint64_t meshes = 0, meshes_removed = 0, textures = 0, textures_removed = 0;
  uint64_t vertices = 0, triangles = 0;
};

// A replacement of text[begin, end) by `value`; `key` names what it is for reports.
struct TextEdit {
  size_t begin = 0, end = 0;
  std::string value;
  std::string key;
};

// Returns `text` with the zone's values written into the DigZoneData document: nx, ny, nz,
// voxelSize, chunkCells, origin, hasOrigin, editBox, holeRect, gridRle, paintRle,
// baseGridRle and _gridVersion (bumped past both the asset's and the zone's), and, when the
// zone holds baked foliage, the foliage fields. Every other byte is kept: the chunk meshes
// and textures still show the old grid (`voxkit edit apply` on an asset writes this way).
// Throws a usage error for zones over kMaxSamples, a data error when the asset lacks a field.
std::string export_asset(std::string_view text, const Zone& zone, ExportReport* report = nullptr);

// How a complete export makes what follows from the zone.
struct ExportOptions {
  std::string asset_name;         // m_Name; empty: the asset's own (update), "DigZone" (new)
  std::string script_guid;        // the DigZoneData script's guid; empty: kScriptGuid (new), kept (update)
  uint32_t lightmap_size = 1024;  // lightmap UVs (uv1) laid out for this many texels a side; 0: none
  float hole_margin = 0.1f;       // metres the chunk meshes run on under the terrain's edge
};

// export_asset and everything that follows from the zone, as the package's baker leaves it:
// the chunk meshes (the Mesh sub-assets chunkMeshes names are replaced in place, keeping
// their ids; the others are added or removed with the ids of docs/formats/unity-asset.md),
// the control textures, layerCount and controlST when the zone has splat layers, the height
// texture, heightRange and heightST when it has heights, and latticeAnchor when the asset
// has none. Checks the package's limits (check_package_limits).
std::string update_asset(std::string_view text, const Zone& zone, const ExportOptions& opts = {},
                         ExportReport* report = nullptr);

// A complete new DigZoneData asset: every field the package serializes, in its order, then the
// sub-assets, with ids that depend only on what they are (the same zone gives the same bytes).
// The terrain the zone cuts is not named (cutTerrain {fileID: 0}); cutRect and cutPrevious
// come from the zone's hole cut.
std::string new_asset(const Zone& zone, const ExportOptions& opts = {}, ExportReport* report = nullptr);

// Lowercase hex of bytes, as Unity writes byte arrays; and the inverse, which accepts either
// case and skips whitespace (folded plain scalars). Decoding throws a data error at `base`
// plus the offset of the bad character.
std::string to_hex(const std::vector<uint8_t>& bytes);
std::vector<uint8_t> from_hex(std::string_view text, size_t base);

// The shortest decimal that reads back as the same float32 ("0.5", "-1.25", "32", "1e-7").
std::string format_float(double value);

}  // namespace voxkit::unity
