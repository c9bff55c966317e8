// The `voxkit mesh` pipeline over a read input: mesh the chunks, clip to the terrain hole,
// make LODs, merge, optimise the vertex order, export. Each stage timed separately.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/mesh/mesh_export.hpp"
#include "lib/mesh/package_zone.hpp"
#include "formats/mesh/mesh_input.hpp"
#include "lib/mesh/mesh.hpp"
#include "lib/mesh/mesh_ops.hpp"
#include "lib/core/progress.hpp"

namespace voxkit {

struct MeshJob {
  MeshFormat format = MeshFormat::Glb;
  Mesher mesher = Mesher::SurfaceNets;
  // The dig-zone package's own mesher (lib/mesh/package_mesher.hpp) instead of `mesher`:
  // chunk meshes in the package's frame, vertex order and arithmetic, no vertex reordering.
  // Unset: the package's for dig zones (zone files, dig-zone assets) unless merging, else
  // `mesher`.
  std::optional<bool> package;
  package::FloatMode arithmetic = package::FloatMode::Editor;
  // Lightmap UVs (TEXCOORD_1) per mesh; unset: with the package's mesher, into the formats
  // that hold a second UV set (glTF, FBX).
  std::optional<bool> lightmap;
  uint32_t lightmap_size = 1024;
  std::optional<uint32_t> chunk_cells;  // default: the input's
  bool merge = false;
  std::optional<double> clip_overlap;   // set: clip to the hole grown by this many metres
  std::optional<HoleRect> hole;         // overrides the input's hole
  std::vector<double> lods;             // extra LOD ratios, each in (0, 1), decreasing
  double lod_error = 0.05;
  // Triangle order for the vertex cache (docs/mesh-export.md, "Vertex order").
  VertexCacheMethod vertex_cache = VertexCacheMethod::Fifo;
  // Measure the written order's cache miss ratio (MeshJobResult::acmr): a pass over every
  // index, on one core for a merged mesh; off, acmr stays 0.
  bool measure_acmr = true;
  bool right_handed = true;
  bool ply_ascii = false;  // PLY as text
  uint64_t max_output_bytes = kDefaultMaxMeshBytes;  // MeshExportOptions::max_output_bytes
  // Mesh only these chunks (e.g. the ones an edit made dirty), in the order given.
  std::optional<std::vector<std::array<int32_t, 3>>> only_chunks;
  // A tile of a larger grid (the package's mesher only): the chunks are named and placed as
  // chunks of that grid, their indices plus `chunk_offset`, from `frame_origin` (the larger
  // grid's sample 0), so a tile's chunks equal the whole grid's bit for bit.
  std::array<int32_t, 3> chunk_offset{0, 0, 0};
  std::optional<std::array<double, 3>> frame_origin;
  // Set: the file is handed to it in pieces (export_meshes_to) instead of kept in
  // MeshJobResult::bytes.
  MeshSink sink;
  // With `sink` and a .gltf: its buffer goes to `bin_sink` as a file named `bin_uri`.
  MeshSink bin_sink;
  std::string bin_uri;
};

struct LodStats {
  double ratio = 1;
  uint64_t vertices = 0, triangles = 0;
};

// Whether the job meshes `src` with the package's mesher, and whether it adds lightmap UVs.
bool uses_package_mesher(const MeshSource& src, const MeshJob& job);
bool makes_lightmap_uv(const MeshSource& src, const MeshJob& job);

struct MeshJobResult {
  std::vector<uint8_t> bytes;    // the file, unless MeshJob::sink took it
  uint64_t byte_count = 0;       // its size either way
  uint64_t chunks_meshed = 0;    // chunks with a surface
  uint64_t chunks_exported = 0;  // after the clip
  uint64_t meshes = 0;           // objects in the file (1 with --merge)
  std::vector<LodStats> lods;    // lods[0]: the full mesh
  bool package = false;          // meshed with the package's mesher
  std::optional<package::LightmapTotals> lightmap;  // when lightmap UVs were made (all levels)
  // The triangle order written: "package" (the package mesher's own), "fifo", "full" or
  // "none" (VertexCacheMethod), and its average cache miss ratio over the full meshes
  // (vertex_cache_acmr, weighted by triangles).
  std::string vertex_order;
  double acmr = 0;
  double mesh_seconds = 0, clip_seconds = 0, optimise_seconds = 0, lightmap_seconds = 0, export_seconds = 0;
};

// Runs the pipeline. Parallel over chunks; the bytes do not depend on the thread count.
MeshJobResult run_mesh_job(const MeshSource& src, const MeshJob& job, const Progress& progress = {});
// The same job for a caller done with the source's grids: src.sdf and src.paint are freed
// once the chunks are meshed, so the peak holds the grids or the meshes and the file, not
// all of them. The other fields of `src` are left as they are.
MeshJobResult run_mesh_job_freeing_grids(MeshSource& src, const MeshJob& job, const Progress& progress = {});



}  // namespace voxkit
