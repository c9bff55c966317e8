// Tree, detail and surface-detail instance lists for `voxkit foliage bake`
// (docs/formats/foliage-lists.md): CSV with a header line or JSON, the dig-zone Unity asset's
// terrainTrees and surfaceDetails, and a Unity TerrainData asset's tree instances.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/foliage/foliage.hpp"

namespace voxkit::foliage_io {

// Refused past this many instances, while reading.
inline constexpr uint64_t kMaxInstances = uint64_t(1) << 24;

// The terrain the trees stand on: Unity keeps tree positions normalised to it (0..1 of its
// size from its position). Needed for px/py/pz columns and the Unity assets' trees.
struct Terrain {
  std::optional<std::array<float, 3>> position;  // default (0, 0, 0)
  std::optional<std::array<float, 3>> size;
};

enum class ListFormat { Csv, Json };
// JSON when the first character that is not blank is '[' or '{', else CSV.
ListFormat detect(std::string_view text);

// CSV (a header line naming the columns, then one instance a line; blank lines and lines
// starting with '#' are skipped) or JSON (an array of objects, or an object holding one
// under "trees", "details" or "surfaceDetails"). Unknown columns are refused (a typo would
// otherwise be ignored). Data errors give the byte offset, the line (CSV) or the item
// number (JSON), the column, what was expected and what was found. `id` defaults to the
// instance's place in the list.
//   trees:   x,y,z world metres | px,py,pz terrain-normalised; prototype, rotation
//            (radians), width, height, scale (both), upx,upy,upz
//   details: x,z world metres; prototype, rotation (degrees), width, height, scale
//   surface: x,y,z world metres; nx,ny,nz normal; prototype, rotation (degrees), width,
//            height, scale
std::vector<foliage::TreeInput> read_trees(std::string_view text, const Terrain& terrain,
                                           uint64_t max = kMaxInstances);
std::vector<foliage::DetailInput> read_details(std::string_view text, uint64_t max = kMaxInstances);
std::vector<foliage::SurfaceInput> read_surface(std::string_view text, uint64_t max = kMaxInstances);

// --- Unity assets -------------------------------------------------------------------------

// One item of a YAML block sequence as Unity writes it: its scalar keys, and flow mappings
// ({x: 1, y: 2, z: 3}) flattened to key.x, key.y, ...
struct YamlItem {
  size_t offset = 0;  // of the item's dash in the text
  std::vector<std::pair<std::string, std::string>> values;
  const std::string* find(std::string_view key) const;
};
// The items of the block sequence under `key` (the first key with that name at any
// indent, after `from`); nullopt when the key is absent, empty for "[]".
std::optional<std::vector<YamlItem>> yaml_sequence(std::string_view text, std::string_view key, size_t from = 0,
                                                   uint64_t max = kMaxInstances);

struct AssetFoliage {
  std::vector<foliage::TreeInput> trees;       // terrainTrees (needs the terrain's size)
  std::vector<foliage::SurfaceInput> surface;  // surfaceDetails (positions from the terrain's)
  bool has_trees = false, has_surface = false;
  uint64_t tree_items = 0;                     // terrainTrees entries
};
// The dig-zone asset's terrainTrees and surfaceDetails. Tree positions are terrain-
// normalised and surface-detail positions are metres from the terrain's position; without
// the terrain's size, trees are refused with a message saying what is needed.
AssetFoliage read_asset_foliage(std::string_view text, const Terrain& terrain, bool trees = true, bool surface = true,
                                uint64_t max = kMaxInstances);

struct TerrainDataTrees {
  std::vector<foliage::TreeInput> trees;  // world positions (terrain position + pos01 * size)
  std::array<float, 3> size{0, 0, 0};     // from m_Heightmap: m_Scale * (m_Resolution - 1), m_Scale.y
  uint32_t prototypes = 0;                // m_TreePrototypes entries
  std::optional<uint32_t> detail_prototypes;  // m_DetailPrototypes entries, when listed
};
// A Unity TerrainData asset (YAML): m_TreeInstances, m_TreePrototypes and the size.
TerrainDataTrees read_terrain_data(std::string_view text, const Terrain& terrain, uint64_t max = kMaxInstances);
bool looks_like_terrain_data(std::string_view text);

}  // namespace voxkit::foliage_io
