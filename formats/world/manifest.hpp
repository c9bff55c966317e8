// World manifests (TOML, docs/world.md): a world cut into tiles (its height source, splat
// maps, box, voxel size, chunk and tile sizes, and the jobs wanted per tile), or a set of
// Stationeers saves to reset with one rule. Read with toml++; unknown keys are refused with
// their line, so a misspelt option never passes silently.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/image/heightmap.hpp"
#include "lib/bake/world_grid.hpp"

namespace voxkit::world {

// The per-tile mesh job: the package's mesher over each tile's own chunks.
struct MeshStage {
  std::string format = "glb";     // glb, gltf, obj, ply, stl, fbx
  std::optional<bool> lightmap;   // lightmap UVs (default: as the mesh verb decides)
  uint32_t lightmap_size = 1024;
  std::vector<double> lods;       // extra LOD ratios, decreasing, each in (0, 1)
};

// The per-tile foliage job: anchors baked from world lists into each tile zone.
struct FoliageStage {
  std::string trees;               // CSV/JSON list in world metres (resolved path), or ""
  std::string details;             // top-surface details, or ""
  std::string surface_details;     // surface details, or ""
};

// The per-tile preview job.
struct PreviewStage {
  std::string view = "top";  // top, chunks
  uint32_t min_size = 512;
};

struct WorldManifest {
  std::string path;  // the manifest as given
  std::string dir;   // its directory: relative paths in it are relative to this
  std::string name = "world";
  // Terrain: any GDAL raster (a VRT of many) or a Unity .raw; paths resolved against `dir`.
  std::string height;
  heightmap::Options placement;              // origin, Unity placement, .raw size
  std::optional<double> nodata_value;        // NoData filled with this height (else refused)
  std::vector<std::string> splat;            // up to four control images
  std::vector<std::string> layers;
  WorldSpec spec;
  std::optional<MeshStage> mesh;
  std::optional<FoliageStage> foliage;
  std::optional<PreviewStage> preview;
};

// Reset rule for many saves (octree reset's options, by their manifest names).
struct ResetRule {
  bool keep_rooms = false, rooms_bbox = false, reset_all_if_no_rooms = false, keep_checksums = false;
  bool compat = false, any_depth = false;
  std::optional<int64_t> margin;
  std::vector<std::array<int64_t, 6>> keep_box, drop_box;
  std::vector<std::array<int64_t, 4>> keep_sphere, drop_sphere;
  std::vector<std::array<int64_t, 3>> keep_radius, drop_radius;
};

struct SavesManifest {
  std::string path, dir;
  std::string name = "saves";
  std::vector<std::string> saves;  // resolved paths, in the order given (globs expanded, sorted)
  ResetRule reset;
};

enum class ManifestKind { World, Saves };

struct Manifest {
  ManifestKind kind = ManifestKind::World;
  WorldManifest world;
  SavesManifest saves;
};

// Reads a manifest file. Data errors name the file, the line and the key.
Manifest read_manifest(const std::string& path);
// The same from text; `path` places its relative paths (its directory) and names it.
Manifest parse_manifest(std::string_view text, const std::string& path);
// Reads a world manifest (a usage error for a saves manifest).
WorldManifest read_world_manifest(const std::string& path);

// A path as it is written into a manifest of `dir` (relative to it when it lies below it).
std::string relative_to(const std::string& path, const std::string& dir);

}  // namespace voxkit::world
