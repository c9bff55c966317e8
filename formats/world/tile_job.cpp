// Tile jobs: bake (the raster window only), mesh (own chunks in the world's frame), index.
#include "formats/world/tile_job.hpp"

#include <xxhash.h>

#include <cstdio>
#include <filesystem>

#include "formats/bake/bake_job.hpp"
#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_info.hpp"
#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"

namespace voxkit::world {
namespace fs = std::filesystem;

std::string stage_name(Stage s) {
  switch (s) {
    case Stage::Bake: return "bake";
    case Stage::Foliage: return "foliage";
    case Stage::Mesh: return "mesh";
    case Stage::Preview: return "preview";
  }
  return "?";
}

std::string tile_output(Stage s, uint32_t i, uint32_t j, const WorldManifest& m) {
  const std::string base = "tiles/" + stage_name(s) + "/tile_" + std::to_string(i) + "_" + std::to_string(j);
  switch (s) {
    case Stage::Bake:
    case Stage::Foliage: return base + ".vxz";
    case Stage::Mesh: return base + "." + (m.mesh ? m.mesh->format : std::string("glb"));
    case Stage::Preview: return base + ".png";
  }
  return base;
}

namespace {

bake_job::Terrain terrain_of(const WorldManifest& m) {
  bake_job::Terrain t;
  t.heightmap = m.height;
  t.placement = m.placement;
  if (m.nodata_value) {
    t.nodata_fill.kind = NodataFill::Kind::Value;
    t.nodata_fill.value = *m.nodata_value;
  }
  t.splat = m.splat;
  t.layer_names = m.layers;
  return t;
}

std::string tile_label(uint32_t i, uint32_t j) { return "tile " + std::to_string(i) + "," + std::to_string(j); }

}  // namespace

TileBakeResult bake_tile(const WorldManifest& m, uint32_t i, uint32_t j, const Progress& progress) {
  const WorldGrid w = plan_world(m.spec);
  TileBakeResult r;
  r.box = tile_box(w, i, j);
  bake_job::Terrain t = terrain_of(m);
  t.placement.window = tile_read_rect(w, r.box);
  // The window's samples only: the limit is on what is read, the source may be far larger.
  t.placement.max_samples = uint64_t(1) << 30;
  Heightfield hf = bake_job::load_terrain(t, r.info);
  r.read = {hf.width, hf.depth};
  r.zone = with_source(io::display_name(m.height), [&] { return bake_tile(w, r.box, hf, progress); });
  const GridFrame f = tile_frame(w, r.box);
  bake_job::place_splat(t, r.zone, hf, &f);
  r.zone.meta.source = "voxkit tile " + std::to_string(i) + "," + std::to_string(j) + " of " + m.name + " (" +
                       io::display_name(m.height) + ", " + r.info.describe() + ")";
  return r;
}

TileBakeResult run_tile_bake(const TileBakeJob& job, const Progress& progress) {
  io::check_output(job.output, job.out);
  const WorldManifest m = read_world_manifest(job.manifest);
  TileBakeResult r = bake_tile(m, job.i, job.j, progress);
  write_zone_file(job.output, r.zone, job.out);
  return r;
}

nlohmann::json report_json(const TileBakeResult& r, const std::string& output) {
  const auto& c = r.zone.meta.cells;
  return {{"output", output},
          {"tile", {r.box.i, r.box.j}},
          {"core_cells", {r.box.core_min[0], r.box.core_min[1], r.box.core_max[0], r.box.core_max[1]}},
          {"zone_cells", {r.box.zone_min[0], r.box.zone_min[1], r.box.zone_max[0], r.box.zone_max[1]}},
          {"cells", {c.nx, c.ny, c.nz}},
          {"origin", r.zone.meta.origin},
          {"samples_read", {r.read[0], r.read[1]}},
          {"source_samples", {r.info.width, r.info.depth}}};
}

MeshJob tile_mesh_job(const WorldManifest& m, const TileBox& t) {
  const WorldGrid w = plan_world(m.spec);
  MeshJob job;
  const MeshStage s = m.mesh.value_or(MeshStage{});
  job.format = parse_mesh_format(s.format);
  job.package = true;
  job.lightmap = s.lightmap;
  job.lightmap_size = s.lightmap_size;
  job.lods = s.lods;
  job.chunk_cells = w.spec.chunk_cells;
  const auto first = t.own_chunk_first(w), count = t.own_chunk_count(w);
  const uint32_t cc = w.spec.chunk_cells, cy = (w.cells.ny + cc - 1) / cc;
  std::vector<std::array<int32_t, 3>> only;
  // The package's chunk order (x fastest, then y, then z), as a whole-world mesh lists them.
  for (uint32_t z = 0; z < count[1]; ++z)
    for (uint32_t y = 0; y < cy; ++y)
      for (uint32_t x = 0; x < count[0]; ++x) only.push_back({int32_t(first[0] + x), int32_t(y), int32_t(first[1] + z)});
  job.only_chunks = std::move(only);
  job.chunk_offset = {int32_t(t.zone_min[0] / cc), 0, int32_t(t.zone_min[1] / cc)};
  job.frame_origin = w.origin;
  return job;
}

TileMeshResult run_tile_mesh(const TileMeshJob& job, const Progress& progress) {
  io::check_output(job.output, job.out);
  const WorldManifest m = read_world_manifest(job.manifest);
  const WorldGrid w = plan_world(m.spec);
  TileMeshResult r;
  r.box = tile_box(w, job.i, job.j);
  Zone zone = read_zone_file(job.zone);
  // The zone must be this tile's: its cells and chunking as the manifest lays the tile out.
  const ZoneMeta want = tile_meta(w, r.box);
  if (zone.meta.cells.nx != want.cells.nx || zone.meta.cells.ny != want.cells.ny ||
      zone.meta.cells.nz != want.cells.nz || zone.meta.chunk_cells != want.chunk_cells ||
      zone.meta.voxel_size != want.voxel_size) {
    const auto& c = zone.meta.cells;
    throw Error(ErrorKind::Usage,
                io::display_name(job.zone) + " is not " + tile_label(job.i, job.j) + " of " + io::display_name(job.manifest),
                std::nullopt,
                std::to_string(want.cells.nx) + "x" + std::to_string(want.cells.ny) + "x" + std::to_string(want.cells.nz) +
                    " cells in chunks of " + std::to_string(want.chunk_cells),
                std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" + std::to_string(c.nz) + " cells in chunks of " +
                    std::to_string(zone.meta.chunk_cells));
  }
  MeshSource src = zone_mesh_source(std::move(zone), ZoneGrid::Current, "zone");
  r.mesh = run_mesh_job(src, tile_mesh_job(m, r.box), progress);
  io::write_file(job.output, r.mesh.bytes, job.out);
  return r;
}

namespace {

std::string hash128(const std::vector<uint8_t>& bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

}  // namespace

nlohmann::json world_index(const WorldManifest& m, const std::string& dir) {
  const WorldGrid w = plan_world(m.spec);
  std::vector<Stage> stages{Stage::Bake};
  if (m.foliage) stages.push_back(Stage::Foliage);
  if (m.mesh) stages.push_back(Stage::Mesh);
  if (m.preview) stages.push_back(Stage::Preview);
  nlohmann::json tiles = nlohmann::json::array();
  for (uint32_t j = 0; j < w.tiles_z(); ++j)
    for (uint32_t i = 0; i < w.tiles_x(); ++i) {
      const TileBox t = tile_box(w, i, j);
      nlohmann::json files = nlohmann::json::object();
      for (Stage s : stages) {
        const std::string rel = tile_output(s, i, j, m);
        const std::string path = (fs::path(dir) / rel).string();
        if (!io::exists(path)) {
          throw Error(ErrorKind::Usage, tile_label(i, j) + ": its " + stage_name(s) + " output " + rel +
                                            " is missing: run the plan's jobs first");
        }
        const std::vector<uint8_t> bytes = io::read_all(path);
        files[stage_name(s)] = {{"path", rel}, {"bytes", bytes.size()}, {"xxh3_128", hash128(bytes)}};
      }
      const auto core = t.core_rect(w), zr = t.zone_rect(w);
      tiles.push_back({{"tile", {i, j}},
                       {"core", {{"cells", {t.core_min[0], t.core_min[1], t.core_max[0], t.core_max[1]}},
                                 {"metres", {core[0], core[1], core[2], core[3]}}}},
                       {"zone", {{"cells", {t.zone_min[0], t.zone_min[1], t.zone_max[0], t.zone_max[1]}},
                                 {"metres", {zr[0], zr[1], zr[2], zr[3]}}}},
                       {"files", files}});
    }
  return {{"world", m.name},
          {"format", "voxkit world index 1"},
          {"origin", w.origin},
          {"cells", {w.cells.nx, w.cells.ny, w.cells.nz}},
          {"voxel_size", w.spec.voxel_size},
          {"chunk_cells", w.spec.chunk_cells},
          {"tile_chunks", w.spec.tile_chunks},
          {"halo_chunks", w.spec.halo_chunks},
          {"tiles_x", w.tiles_x()},
          {"tiles_z", w.tiles_z()},
          {"hash", "XXH3-128 of each file's bytes, hex, high 64 bits first"},
          {"tiles", tiles}};
}

nlohmann::json run_index(const IndexJob& job) {
  io::check_output(job.output, job.out);
  const WorldManifest m = read_world_manifest(job.manifest);
  nlohmann::json index = world_index(m, job.dir);
  const std::string text = index.dump(1) + "\n";
  io::write_file(job.output, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), job.out);
  return index;
}

}  // namespace voxkit::world
