// Jobs over one tile of a world manifest: bake it (reading only its raster window), mesh its
// own chunks, and the world index the merge writes (docs/world.md).
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/image/heightmap.hpp"
#include "formats/mesh/mesh_job.hpp"
#include "formats/world/manifest.hpp"
#include "lib/bake/world_grid.hpp"
#include "lib/core/progress.hpp"

namespace voxkit::world {

// Where a plan keeps each stage's output of tile (i, j), relative to the plan directory.
enum class Stage { Bake, Foliage, Mesh, Preview };
std::string stage_name(Stage s);
std::string tile_output(Stage s, uint32_t i, uint32_t j, const WorldManifest& m);

struct TileBakeResult {
  Zone zone;
  TileBox box;
  heightmap::Info info;              // the source as a whole
  std::array<uint32_t, 2> read{0, 0};  // samples read (the window), x and z
};

// Bakes tile (i, j) in memory: reads the height window (and the splat maps), checks the
// terrain fits the world box, bakes in the world's frame, places the splat maps.
TileBakeResult bake_tile(const WorldManifest& m, uint32_t i, uint32_t j, const Progress& progress = {});

struct TileBakeJob {
  std::string manifest;
  uint32_t i = 0, j = 0;
  std::string output;
  io::OutputOptions out;
};
TileBakeResult run_tile_bake(const TileBakeJob& job, const Progress& progress = {});
nlohmann::json report_json(const TileBakeResult& r, const std::string& output);

struct TileMeshJob {
  std::string manifest;
  uint32_t i = 0, j = 0;
  std::string zone;  // the tile's zone (tile bake's output)
  std::string output;
  io::OutputOptions out;
};
struct TileMeshResult {
  TileBox box;
  MeshJobResult mesh;
};
// Meshes the tile's own chunks with the package's mesher, named and placed as the whole
// world's chunks (chunk_X_Y_Z in world chunks, translations from the world origin), so every
// chunk equals the whole world's bit for bit.
TileMeshResult run_tile_mesh(const TileMeshJob& job, const Progress& progress = {});
// The mesh job a tile's zone gets (the manifest's mesh options, the world frame).
MeshJob tile_mesh_job(const WorldManifest& m, const TileBox& t);

// The world index: per tile its boxes (world metres), cells and output files with their sizes
// and content hashes (XXH3-128, hex), from the plan directory's layout.
struct IndexJob {
  std::string manifest;
  std::string dir;  // the plan directory holding the tiles' outputs
  std::string output;
  io::OutputOptions out;
};
nlohmann::json world_index(const WorldManifest& m, const std::string& dir);
nlohmann::json run_index(const IndexJob& job);

}  // namespace voxkit::world
