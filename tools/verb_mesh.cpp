// voxkit mesh: zones, Unity dig-zone assets, SDF and density grids -> chunk meshes in glTF, OBJ, PLY, STL or FBX.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "formats/core/io.hpp"
#include "formats/mesh/gltf_foliage.hpp"
#include "formats/mesh/gltf_writer.hpp"
#include "formats/mesh/mesh_job.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct MeshCliOptions {
  std::string input, output;
  MeshJob job;
  MeshInputOptions in;
  std::vector<double> hole, origin;
  std::vector<uint32_t> cells;
  std::string clip_hole;
  CLI::Option *clip_opt = nullptr, *format_opt = nullptr, *grid_opt = nullptr;
  ZoneGrid grid = ZoneGrid::Current;
  bool stats = false, json = false, embed = false;
  bool foliage = false, foliage_nodes = false;
  std::vector<std::string> tree_mesh;
};

// --tree-mesh FILE.glb (every prototype) or P=FILE.glb (prototype P).
void tree_meshes(const std::vector<std::string>& specs, FoliageGltfOptions& fo) {
  for (const std::string& s : specs) {
    const size_t eq = s.find('=');
    if (eq != std::string::npos && eq > 0 && s.find_first_not_of("0123456789") == eq) {
      const unsigned long p = std::stoul(s.substr(0, eq));
      if (p > 0x7fffffffUL) throw_usage("--tree-mesh: prototype " + s.substr(0, eq) + " is out of range");
      fo.tree_mesh[uint32_t(p)] = io::read_all(s.substr(eq + 1), uint64_t(1) << 30);
    } else {
      if (!fo.any_tree_mesh.empty()) throw_usage("--tree-mesh: more than one mesh for every prototype");
      fo.any_tree_mesh = io::read_all(s, uint64_t(1) << 30);
    }
  }
}

void run(const Context& ctx, MeshCliOptions& o) {
  using Clock = std::chrono::steady_clock;
  MeshJob& job = o.job;
  job.measure_acmr = o.stats || o.json;
  if (!o.format_opt->count()) job.format = mesh_format_for_path(o.output);
  if (o.clip_opt->count()) {
    char* end = nullptr;
    const double v = std::strtod(o.clip_hole.c_str(), &end);
    if (o.clip_hole.empty() || end != o.clip_hole.c_str() + o.clip_hole.size() || !(v >= 0) || !std::isfinite(v))
      throw_usage("--clip-hole: '" + o.clip_hole + "' is not an overlap of 0 or more metres");
    job.clip_overlap = v;
  }
  if (!o.hole.empty()) job.hole = HoleRect{o.hole[0], o.hole[1], o.hole[2], o.hole[3]};
  check_lod_order(job.lods);

  MeshInputOptions& in = o.in;
  if (o.grid_opt->count()) in.grid = o.grid;
  if (!o.cells.empty()) in.cells = cells_of(o.cells);
  if (!o.origin.empty()) in.origin = std::array<double, 3>{o.origin[0], o.origin[1], o.origin[2]};
  if (in.voxel_size && !(*in.voxel_size > 0)) throw_usage("--voxel-size must be positive");

  if ((o.foliage_nodes || !o.tree_mesh.empty()) && !o.foliage) throw_usage("--foliage-nodes and --tree-mesh go with --foliage");
  if (o.foliage && job.format != MeshFormat::Glb && job.format != MeshFormat::Gltf)
    throw_usage("--foliage adds trees to glTF outputs (.glb, .gltf) only");
  FoliageGltfOptions fo;
  if (o.foliage) tree_meshes(o.tree_mesh, fo);
  if (job.ply_ascii && job.format != MeshFormat::Ply) throw_usage("--ascii is for PLY outputs");
  if (o.embed && job.format != MeshFormat::Gltf) throw_usage("--embed is for .gltf outputs");
  // A .gltf file gets its buffer as NAME.bin beside it (made as a .glb, then split); on
  // stdout, or with --embed, the buffer is a data URI inside it.
  const MeshFormat written = job.format;
  std::string bin_path;
  if (job.format == MeshFormat::Gltf && o.output != "-" && !o.embed) {
    bin_path = std::filesystem::path(o.output).replace_extension(".bin").string();
    if (o.foliage) job.format = MeshFormat::Glb;  // trees are added to a glb, then split
    io::check_output(bin_path, ctx.out());
  }
  io::check_output(o.output, ctx.out());
  auto t = Clock::now();
  MeshSource src = read_mesh_input(o.input, in);
  double read_s = std::chrono::duration<double>(Clock::now() - t).count();
  if (o.foliage && src.foliage.empty())
    throw_usage(io::display_name(o.input) + " holds no baked foliage (voxkit foliage bake makes it)");
  // Straight into the output (and a .gltf's .bin) as it is made, unless the file is rewritten
  // afterwards (trees added).
  double write_s = 0;
  std::unique_ptr<io::AtomicOutput> streamed;
  io::OutputSet separate;
  io::AtomicOutput* gltf_out = nullptr;
  io::AtomicOutput* bin_out = nullptr;
  auto timed = [&write_s](io::AtomicOutput*& out, const std::function<io::AtomicOutput*()>& open) {
    return [&write_s, &out, open](const uint8_t* data, size_t size) {
      const auto w = Clock::now();
      if (!out) out = open();
      out->write(std::span<const uint8_t>(data, size));
      write_s += std::chrono::duration<double>(Clock::now() - w).count();
    };
  };
  if (!o.foliage && bin_path.empty()) {
    streamed = std::make_unique<io::AtomicOutput>(o.output, ctx.out());
    gltf_out = streamed.get();
    job.sink = timed(gltf_out, [] { return nullptr; });
  } else if (!o.foliage) {
    // The .bin is made only when there is a buffer (a scene without meshes has none).
    gltf_out = &separate.add(o.output, ctx.out());
    job.sink = timed(gltf_out, [] { return nullptr; });
    job.bin_sink = timed(bin_out, [&] { return &separate.add(bin_path, ctx.out()); });
    job.bin_uri = std::filesystem::path(bin_path).filename().string();
  }
  MeshJobResult r = with_source(io::display_name(o.input), [&] { return run_mesh_job_freeing_grids(src, job, ctx.progress("mesh")); });
  r.export_seconds -= write_s;
  FoliageGltfReport frep;
  if (o.foliage) {
    fo.instancing = !o.foliage_nodes;
    fo.origin = src.origin;
    fo.voxel_size = src.voxel_size;
    fo.right_handed = job.right_handed;
    r.bytes = add_foliage(r.bytes, job.format, src.foliage, fo, &frep);
  }
  t = Clock::now();
  uint64_t bytes = r.byte_count;
  if (streamed) {
    streamed->commit();
  } else if (!bin_path.empty() && !o.foliage) {
    separate.commit();
    if (!bin_out) bin_path.clear();
  } else if (!bin_path.empty()) {
    const auto sep = gltf_writer::separate_buffer(r.bytes, std::filesystem::path(bin_path).filename().string());
    io::OutputSet set;
    set.add(o.output, ctx.out()).write(sep.gltf);
    if (sep.bin_size) set.add(bin_path, ctx.out()).write(std::span<const uint8_t>(r.bytes).subspan(sep.bin_offset, sep.bin_size));
    set.commit();
    bytes = sep.gltf.size() + sep.bin_size;
    job.format = written;
  } else {
    io::write_file(o.output, r.bytes, ctx.out());
    bytes = r.bytes.size();
  }
  write_s += std::chrono::duration<double>(Clock::now() - t).count();

  nlohmann::json j;
  j["input"] = o.input;
  j["input_kind"] = src.kind;
  j["output"] = o.output;
  j["buffer"] = bin_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(bin_path);
  j["format"] = std::string(mesh_format_name(job.format));
  j["mesher"] = r.package ? "package" : job.mesher == Mesher::SurfaceNets ? "surface-nets" : "marching-cubes";
  if (r.lightmap) {
    const auto& l = *r.lightmap;
    j["lightmap"] = {{"size", job.lightmap_size},
                     {"meshes", l.meshes},
                     {"charts", l.charts},
                     {"vertices_split", l.vertices_out - l.vertices_in},
                     {"texels_per_metre", {{"min", l.texels_per_metre_min}, {"max", l.texels_per_metre_max}}},
                     {"coverage_mean", l.coverage_mean},
                     {"area_distortion", {{"max", l.area_distortion_max}, {"mean", l.area_distortion_mean}}}};
  } else {
    j["lightmap"] = nullptr;
  }
  j["chunk_cells"] = job.chunk_cells.value_or(src.chunk_cells);
  j["chunks_meshed"] = r.chunks_meshed;
  j["chunks_exported"] = r.chunks_exported;
  j["meshes"] = r.meshes;
  j["vertices"] = r.lods[0].vertices;
  j["triangles"] = r.lods[0].triangles;
  j["bytes"] = bytes;
  j["vertex_order"] = {{"method", r.vertex_order}, {"acmr", r.acmr}};
  j["trees"] = o.foliage ? nlohmann::json({{"instances", frep.trees}, {"prototypes", frep.prototypes},
                                           {"instancing", !o.foliage_nodes}})
                         : nlohmann::json(nullptr);
  j["lods"] = nlohmann::json::array();
  for (size_t l = 1; l < r.lods.size(); ++l)
    j["lods"].push_back({{"ratio", r.lods[l].ratio}, {"vertices", r.lods[l].vertices},
                         {"triangles", r.lods[l].triangles}});
  j["seconds"] = {{"read", read_s},         {"mesh", r.mesh_seconds},
                  {"clip", r.clip_seconds}, {"optimise", r.optimise_seconds}, {"lightmap", r.lightmap_seconds},
                  {"export", r.export_seconds}, {"write", write_s}};

  const bool stdout_is_output = o.output == "-";
  if (o.json) {
    ctx.report(j.dump(2), stdout_is_output, true);
  } else if (o.stats) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "chunks meshed %llu, exported %llu; %llu vertices, %llu triangles; %llu bytes\n"
                  "vertex order: %s, ACMR %.3f (vertex shader runs per triangle, 16-entry FIFO cache)\n"
                  "seconds: read %.3f, mesh %.3f, clip %.3f, optimise %.3f, lightmap %.3f, export %.3f, write %.3f\n",
                  (unsigned long long)r.chunks_meshed, (unsigned long long)r.chunks_exported,
                  (unsigned long long)r.lods[0].vertices, (unsigned long long)r.lods[0].triangles,
                  (unsigned long long)bytes, r.vertex_order.c_str(), r.acmr, read_s, r.mesh_seconds, r.clip_seconds, r.optimise_seconds,
                  r.lightmap_seconds, r.export_seconds, write_s);
    std::string text = std::string(r.package ? "mesher: package\n" : "") + line;
    if (r.lightmap) {
      const auto& l = *r.lightmap;
      std::snprintf(line, sizeof line,
                    "lightmap UVs at %u: %llu charts over %llu meshes, %llu vertices split; %.1f-%.1f texels/m; "
                    "coverage %.0f%%; area distortion mean %.3f, max %.3f\n",
                    job.lightmap_size, (unsigned long long)l.charts, (unsigned long long)l.meshes,
                    (unsigned long long)(l.vertices_out - l.vertices_in), l.texels_per_metre_min,
                    l.texels_per_metre_max, 100 * l.coverage_mean, l.area_distortion_mean, l.area_distortion_max);
      text += line;
    }
    ctx.report(text, stdout_is_output, true);
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
  cmd->add_option("-o,--output", o->output, "Mesh file ('-' = stdout, then give --to)")->default_val("-");
  o->format_opt = add_enum(cmd, "--to", o->job.format, kMeshFormats, "mesh format",
                           "glb, gltf, obj, ply, stl or fbx (default: from the output's extension)");
  auto* mesher = cmd->add_option_function<std::string>(
         "--mesher",
         [o](const std::string& name) {
           o->job.package = name == "package";
           for (const auto& [n, v] : kMeshers)
             if (n == name) o->job.mesher = v;
         },
         "package (the dig-zone package's own mesher: its vertices, normals, order and hole cut, chunk-local "
         "frames), surface-nets (voxkit's, crossing at 127.5) or marching-cubes (default: package for zones and "
         "dig-zone assets unless --merge, surface-nets otherwise; docs/meshing.md)")
      ->check(CLI::IsMember({"surface-nets", "marching-cubes", "package"}));
  auto* iso = cmd->add_flag_function(
      "--iso",
      [o](int64_t) {
        o->job.package = false;
        o->job.mesher = Mesher::SurfaceNets;
      },
      "voxkit's Surface Nets (crossing at 127.5, normals from the sample gradient) instead of the package's mesher "
      "for a dig zone; same as --mesher surface-nets");
  iso->excludes(mesher);
  auto* lm_size = cmd->add_option_function<uint32_t>(
         "--lightmap-size", [o](uint32_t n) { o->job.lightmap_size = n; o->job.lightmap = true; },
         "Add lightmap UVs (TEXCOORD_1: charts apart by 2 texels or more) laid out for an N x N lightmap "
         "(default: 1024, on with the package's mesher into glTF and FBX)")
      ->check(CLI::Range(16, 16384));
  cmd->add_flag_function("--no-lightmap-uv", [o](int64_t) { o->job.lightmap = false; }, "Make no lightmap UVs")
      ->excludes(lm_size);
  cmd->add_flag_function(
      "--player-float",
      [o](int64_t) { o->job.arithmetic = package::FloatMode::Player; },
      "With --mesher package: strict float32, as the package's players compute (default: the Unity editor's bake)");
  cmd->add_option("--chunk-cells", o->job.chunk_cells, "Cells per chunk edge (default: the input's, 16)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--merge", o->job.merge, "One mesh for the whole grid, chunk borders welded");
  o->clip_opt = cmd->add_flag("--clip-hole{0.1}", o->clip_hole,
                              "Cut meshes to the terrain hole (a zone's own, or --hole) grown by OVERLAP metres (--clip-hole=OVERLAP, default 0.1)");
  add_numbers(cmd, "--hole", o->hole, 4, "Terrain hole MINX,MINZ,MAXX,MAXZ in world metres (overrides the input's)");
  add_lod_list(cmd, "--lod", o->job.lods, "Extra levels of detail, as decreasing triangle ratios (e.g. 0.5,0.25)");
  cmd->add_option("--lod-error", o->job.lod_error, "Largest LOD error, as a fraction of a mesh's extent")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  add_enum(cmd, "--from", o->in.kind, kInputKinds, "input kind",
           "Input kind: auto (zone by magic, Unity asset by %YAML/DigZoneData fields, raw with --cells), "
           "raw, sm-chunk, zone or unity")
      ->default_str("auto");
  o->grid_opt = add_enum(cmd, "--grid", o->grid, kZoneGrids, "grid",
                         "Zone or Unity asset: mesh the current grid (default, painted) or the baked one");
  add_cells(cmd, "--cells", o->cells, "Raw grid: cells NX,NY,NZ (samples are one more per axis)");
  add_enum(cmd, "--convention", o->in.convention, kConventions, "convention",
           "Raw grid bytes: sdf, ice or sm; sm without --cells reads a Scrap Mechanic chunk in any form")
      ->default_str("sdf");
  cmd->add_option("--regions", o->in.regions_path, "Ice module: cave-region grid (uint16 per point)");
  cmd->add_option("--closed", o->in.closed, "Ice module: regions still closed, e.g. 3,5,7")
      ->delimiter(',')
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--closed-file", o->in.closed_path, "Ice module: file listing closed regions");
  cmd->add_option("--voxel-size", o->in.voxel_size, "Metres per cell (default: the zone's; raw grids: 1)");
  add_numbers(cmd, "--origin", o->origin, 3, "World position X,Y,Z of sample 0 (default: the zone's; raw grids: 0,0,0)");
  cmd->add_option("--max-output", o->job.max_output_bytes, "Refuse a mesh file estimated larger than BYTES")
      ->capture_default_str();
  cmd->add_flag("--foliage", o->foliage,
                "Add the zone's standing trees (voxkit foliage bake), as EXT_mesh_gpu_instancing instances (glTF only)");
  cmd->add_flag("--foliage-nodes", o->foliage_nodes, "With --foliage: one node per tree instead of the instancing extension");
  cmd->add_option("--tree-mesh", o->tree_mesh,
                  "With --foliage: a GLB whose first mesh stands for the trees (P=FILE.glb: of prototype P; default: a marker cone)");
  cmd->add_flag("--ascii", o->job.ply_ascii, "PLY as text (format ascii 1.0) instead of binary little-endian");
  cmd->add_flag("--embed", o->embed,
                "A .gltf file with its buffer inside (a base64 data URI) instead of NAME.bin beside it");
  cmd->add_flag("--stats", o->stats, "Print counts and the time of each stage");
  cmd->add_flag("--json", o->json, "Print the stats as JSON");
  cmd->callback([&ctx, o] { run(ctx, *o); });
}

}  // namespace voxkit::cli
