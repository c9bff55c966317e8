// voxkit mesh: zones, Unity dig-zone assets, SDF and density grids -> chunk meshes in glTF, OBJ, PLY, STL or FBX.
#include <chrono>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "formats/io.hpp"
#include "formats/mesh_job.hpp"
#include "formats/region_grid.hpp"
#include "lib/error.hpp"
#include "tools/mesh_args.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct MeshCliOptions {
  std::string input, output;
  std::string format, mesher = "surface-nets", cells, convention = "sdf", regions, closed,
                      closed_file, origin, hole, lod, clip_hole, input_kind = "auto", grid;
  std::optional<double> voxel_size;
  std::optional<uint32_t> chunk_cells;
  double lod_error = 0.05;
  bool merge = false, stats = false, json = false;
  CLI::Option* clip_opt = nullptr;
};

Mesher parse_mesher(const std::string& s) {
  if (s == "surface-nets") return Mesher::SurfaceNets;
  if (s == "marching-cubes") return Mesher::MarchingCubes;
  throw_usage("unknown mesher '" + s + "' (expected surface-nets or marching-cubes)");
}

void run(const Context& ctx, const MeshCliOptions& o) {
  using Clock = std::chrono::steady_clock;
  MeshJob job;
  job.format = o.format.empty() ? mesh_format_for_path(o.output) : parse_mesh_format(o.format);
  job.mesher = parse_mesher(o.mesher);
  job.chunk_cells = o.chunk_cells;
  job.merge = o.merge;
  if (o.clip_opt->count()) job.clip_overlap = parse_number(o.clip_hole, "--clip-hole");
  if (!o.hole.empty()) {
    auto v = parse_numbers<double>(o.hole, 4, "--hole");
    job.hole = HoleRect{v[0], v[1], v[2], v[3]};
  }
  if (!o.lod.empty()) job.lods = parse_lod_list(o.lod);
  job.lod_error = o.lod_error;

  MeshInputOptions in;
  in.kind = parse_input_kind(o.input_kind);
  if (!o.grid.empty()) in.grid = parse_zone_grid(o.grid);
  if (!o.cells.empty()) in.cells = parse_cells(o.cells);
  in.convention = parse_convention(o.convention);
  in.regions_path = o.regions;
  if (!o.closed.empty()) in.closed = parse_region_list(o.closed);
  in.closed_path = o.closed_file;
  in.voxel_size = o.voxel_size;
  if (!o.origin.empty()) {
    auto v = parse_numbers<double>(o.origin, 3, "--origin");
    in.origin = std::array<double, 3>{v[0], v[1], v[2]};
  }

  io::check_output(o.output, ctx.out());
  auto t = Clock::now();
  MeshSource src = read_mesh_input(o.input, in);
  double read_s = std::chrono::duration<double>(Clock::now() - t).count();
  MeshJobResult r = run_mesh_job(src, job, ctx.progress("mesh"));
  t = Clock::now();
  io::write_file(o.output, r.bytes, ctx.out());
  double write_s = std::chrono::duration<double>(Clock::now() - t).count();

  nlohmann::json j;
  j["input"] = o.input;
  j["input_kind"] = src.kind;
  j["output"] = o.output;
  j["format"] = std::string(mesh_format_name(job.format));
  j["mesher"] = o.mesher;
  j["chunk_cells"] = job.chunk_cells.value_or(src.chunk_cells);
  j["chunks_meshed"] = r.chunks_meshed;
  j["chunks_exported"] = r.chunks_exported;
  j["meshes"] = r.meshes;
  j["vertices"] = r.lods[0].vertices;
  j["triangles"] = r.lods[0].triangles;
  j["bytes"] = r.bytes.size();
  j["lods"] = nlohmann::json::array();
  for (size_t l = 1; l < r.lods.size(); ++l)
    j["lods"].push_back({{"ratio", r.lods[l].ratio}, {"vertices", r.lods[l].vertices},
                         {"triangles", r.lods[l].triangles}});
  j["seconds"] = {{"read", read_s},         {"mesh", r.mesh_seconds},
                  {"clip", r.clip_seconds}, {"optimise", r.optimise_seconds},
                  {"export", r.export_seconds}, {"write", write_s}};

  const bool stdout_is_output = o.output == "-";
  if (o.json) {
    ctx.report(j.dump(2), stdout_is_output, true);
  } else if (o.stats) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "chunks meshed %llu, exported %llu; %llu vertices, %llu triangles; %zu bytes\n"
                  "seconds: read %.3f, mesh %.3f, clip %.3f, optimise %.3f, export %.3f, write %.3f\n",
                  (unsigned long long)r.chunks_meshed, (unsigned long long)r.chunks_exported,
                  (unsigned long long)r.lods[0].vertices, (unsigned long long)r.lods[0].triangles,
                  r.bytes.size(), read_s, r.mesh_seconds, r.clip_seconds, r.optimise_seconds,
                  r.export_seconds, write_s);
    ctx.report(line, stdout_is_output, true);
  } else {
    ctx.info("mesh: " + std::to_string(r.chunks_exported) + " chunks, " +
             std::to_string(r.lods[0].triangles) + " triangles -> " + o.output);
  }
}

}  // namespace

void add_mesh_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("mesh", "Mesh a zone, Unity dig-zone asset, SDF or density grid into glTF, OBJ, PLY, STL or FBX");
  auto o = std::make_shared<MeshCliOptions>();
  cmd->add_option("input", o->input, "Zone file (.vxz), Unity dig-zone asset, raw grid or Scrap Mechanic chunk ('-' = stdin)")->required();
  cmd->add_option("-o,--output", o->output, "Mesh file ('-' = stdout, then give --format)")->required();
  cmd->add_option("--format", o->format, "glb, gltf, obj, ply, stl or fbx (default: from the output's extension)");
  cmd->add_option("--mesher", o->mesher, "surface-nets or marching-cubes")->capture_default_str();
  cmd->add_option("--chunk-cells", o->chunk_cells, "Cells per chunk edge (default: the input's, 16)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--merge", o->merge, "One mesh for the whole grid, chunk borders welded");
  o->clip_opt = cmd->add_flag("--clip-hole{0.1}", o->clip_hole,
                              "Cut meshes to the terrain hole (a zone's own, or --hole) grown by OVERLAP metres (--clip-hole=OVERLAP, default 0.1)");
  cmd->add_option("--hole", o->hole, "Terrain hole MINX,MINZ,MAXX,MAXZ in world metres (overrides the input's)");
  cmd->add_option("--lod", o->lod, "Extra levels of detail, as decreasing triangle ratios (e.g. 0.5,0.25)");
  cmd->add_option("--lod-error", o->lod_error, "Largest LOD error, as a fraction of a mesh's extent")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--input", o->input_kind,
                  "Input kind: auto (zone by magic, Unity asset by %YAML/DigZoneData fields, raw with --cells), "
                  "raw, sm-chunk, zone or unity")->capture_default_str();
  cmd->add_option("--grid", o->grid, "Zone or Unity asset: mesh the current grid (default, painted) or the baked one");
  cmd->add_option("--cells", o->cells, "Raw grid: cells NX,NY,NZ (samples are one more per axis)");
  cmd->add_option("--convention", o->convention,
                  "Raw grid bytes: sdf, ice or sm; sm without --cells reads a Scrap Mechanic chunk in any form")->capture_default_str();
  cmd->add_option("--regions", o->regions, "Ice module: cave-region grid (uint16 per point)");
  cmd->add_option("--closed", o->closed, "Ice module: regions still closed, e.g. 3,5,7");
  cmd->add_option("--closed-file", o->closed_file, "Ice module: file listing closed regions");
  cmd->add_option("--voxel-size", o->voxel_size, "Metres per cell (default: the zone's; raw grids: 1)");
  cmd->add_option("--origin", o->origin, "World position X,Y,Z of sample 0 (default: the zone's; raw grids: 0,0,0)");
  cmd->add_flag("--stats", o->stats, "Print counts and the time of each stage");
  cmd->add_flag("--json", o->json, "Print the stats as JSON");
  cmd->callback([&ctx, o] { run(ctx, *o); });
}

}  // namespace voxkit::cli
