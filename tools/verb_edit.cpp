// voxkit edit pack|unpack: the dig-zone package's packed 64-bit edits, shown and made.
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/edit/edit_job.hpp"
#include "formats/mesh/mesh_export.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"
#include "tools/edit_names.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

const Names<edit::Op> kOps{{"dig", edit::Op::Dig},     {"add", edit::Op::Add},   {"smooth", edit::Op::Smooth},
                           {"paint", edit::Op::Paint}, {"tree", edit::Op::Tree}, {"detail", edit::Op::Detail}};

struct EditOptions {
  std::vector<double> pos;
  double radius = 1;
  edit::Op op = edit::Op::Dig;
  uint32_t layer = 0;
  bool world = false, json = false;
  std::string zone;
  edit::Target target = edit::Target::V07;
  std::vector<std::string> edits;
};

nlohmann::json edit_json(uint64_t e, const EditOptions& o, const std::optional<edit::GridLimit>& grid) {
  const edit::Fields f = edit::unpack(e);
  nlohmann::json j = {{"hex", edit::to_hex(e)},
                      {"int64", edit::as_signed(e)},
                      {"x", f.x / 16.0},
                      {"y", f.y / 16.0},
                      {"z", f.z / 16.0},
                      {"radius", f.radius / 8.0},
                      {"op", edit::op_name(f.op)},
                      {"layer", f.layer},
                      {"fields", {{"x", f.x}, {"y", f.y}, {"z", f.z}, {"radius", f.radius}, {"op", f.op}, {"layer", f.layer}}}};
  if (f.op == 4 || f.op == 5) {
    j["spawn"] = {{"yaw_degrees", edit::spawn_yaw_degrees(e)}, {"scale", edit::spawn_scale(e)},
                  {"yaw_index", edit::spawn_yaw_index(e)}, {"scale_index", edit::spawn_scale_index(e)}};
  }
  const auto why = edit::invalid_reason(e, o.target, grid);
  j["valid"] = !why;
  j["invalid"] = why ? nlohmann::json(*why) : nlohmann::json();
  return j;
}

std::string edit_text(uint64_t e, const EditOptions& o, const std::optional<edit::GridLimit>& grid) {
  const edit::Fields f = edit::unpack(e);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s %lld  pos %.4f,%.4f,%.4f  radius %.3f  %s layer %u", edit::to_hex(e).c_str(),
                (long long)edit::as_signed(e), f.x / 16.0, f.y / 16.0, f.z / 16.0, f.radius / 8.0,
                edit::op_name(f.op), f.layer);
  std::string s = buf;
  if (f.op == 4 || f.op == 5) {
    std::snprintf(buf, sizeof buf, "  spawn yaw %.4f scale %.5f", edit::spawn_yaw_degrees(e), edit::spawn_scale(e));
    s += buf;
  }
  if (const auto why = edit::invalid_reason(e, o.target, grid)) s += "  INVALID: " + *why;
  return s;
}

std::optional<edit::GridLimit> grid_of(const Zone* z) {
  if (!z) return std::nullopt;
  return edit::GridLimit{z->meta.cells.nx, z->meta.cells.ny, z->meta.cells.nz};
}

void run_pack(const Context& ctx, const EditOptions& o) {
  if (o.world && o.zone.empty()) throw_usage("edit pack --world needs --zone (its origin and voxel size)");
  std::optional<Zone> zone;
  if (!o.zone.empty()) zone = read_zone_file(o.zone);
  float p[3];
  float r = float(o.radius);
  for (int a = 0; a < 3; ++a) p[a] = float(o.pos[size_t(a)]);
  if (o.world) {
    const ZoneMeta& m = zone->meta;
    for (int a = 0; a < 3; ++a) p[a] = edit::to_grid(o.pos[size_t(a)], m.origin[size_t(a)], m.voxel_size);
    r = float(o.radius) / float(m.voxel_size);
  }
  edit::PackReport rep;
  const uint64_t e = edit::pack(p[0], p[1], p[2], r, o.op, o.layer, &rep);
  if (rep.clamped_position) ctx.warn("the position is outside 0..4095.9375 voxels on some axis: clamped");
  if (rep.clamped_radius) ctx.warn("the radius is outside 0.125..31.875 voxels: clamped");
  const auto grid = grid_of(zone ? &*zone : nullptr);
  if (const auto why = edit::invalid_reason(e, o.target, grid)) throw_usage("the edit is not valid: " + *why);
  ctx.report(o.json ? edit_json(e, o, grid).dump(2) : edit::to_hex(e) + " " + std::to_string(edit::as_signed(e)),
             false, true);
}

void run_unpack(const Context& ctx, const EditOptions& o) {
  std::optional<Zone> zone;
  if (!o.zone.empty()) zone = read_zone_file(o.zone);
  const auto grid = grid_of(zone ? &*zone : nullptr);
  nlohmann::json list = nlohmann::json::array();
  std::string text;
  size_t invalid = 0;
  for (const auto& s : o.edits) {
    const auto e = edit::parse_edit(s);
    if (!e) throw_usage("'" + s + "' is not an edit (hex 0x..., or a decimal int64)");
    invalid += edit::invalid_reason(*e, o.target, grid).has_value();
    if (o.json) list.push_back(edit_json(*e, o, grid));
    else text += edit_text(*e, o, grid) + "\n";
  }
  ctx.report(o.json ? list.dump(2) : text, false, true);
  if (invalid) throw Error(ErrorKind::Data, std::to_string(invalid) + " of " + std::to_string(o.edits.size()) +
                                                " edits are not valid for the target");
}

const Names<edit_job::InputKind> kEditInputs{{"auto", edit_job::InputKind::Auto},
                                             {"zone", edit_job::InputKind::Zone},
                                             {"unity", edit_job::InputKind::Unity},
                                             {"raw", edit_job::InputKind::Raw}};

struct ApplyOptions {
  edit_job::EditJob job;
  std::vector<uint32_t> cells;
  std::vector<double> edit_box;
  edit_log::Format log_format = edit_log::Format::Int64;
  CLI::Option* log_format_opt = nullptr;
  CLI::Option* at_opt = nullptr;
  CLI::Option* tree_opt = nullptr;
  CLI::Option* detail_opt = nullptr;
  edit::Target target = edit::Target::V07;
  bool vrchat = false;
  bool json = false;
  bool dry_run = false;
  bool in_place = false;
  BackupFlags backup;
  uint64_t at = 0;
  uint32_t tree_prefabs = 31, detail_prefabs = 31;
};

void run_apply(const Context& ctx, ApplyOptions& o, bool replay) {
  edit_job::EditJob job = o.job;
  job.replay = replay;
  if (o.log_format_opt->count()) job.log_format = o.log_format;
  if (!o.cells.empty()) {
    job.cells = cells_of(o.cells);
    job.kind = edit_job::InputKind::Raw;
  }
  if (!o.edit_box.empty()) {
    SampleBox b;
    for (size_t a = 0; a < 3; ++a) {
      b.min[a] = int32_t(o.edit_box[a]);
      b.max[a] = int32_t(o.edit_box[a + 3]);
    }
    job.edit_box = b;
  }
  if (o.at_opt->count()) job.at = o.at;
  job.editor.target = o.target;
  job.editor.tree_prefabs = o.tree_prefabs;
  job.editor.detail_prefabs = o.detail_prefabs;
  job.vrchat_capacity = o.vrchat;
  if (o.in_place) {
    if (!job.output.empty()) throw_usage("--in-place and -o cannot be given together");
    if (job.input == "-") throw_usage("--in-place needs a file, not stdin");
    job.output = job.input;
    job.out = ctx.in_place(o.backup);
  } else {
    if (job.output.empty() && !o.dry_run) throw_usage("give -o OUT, --in-place, or --dry-run");
    if (!job.output.empty() && o.dry_run) throw_usage("--dry-run writes nothing: leave out -o");
    job.out = ctx.out();
  }
  if (!job.mesh_out.empty()) job.mesh.format = mesh_format_for_path(job.mesh_out);
  const auto rep = edit_job::run_edit(job);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool to_stdout = job.output == "-" || job.paint_out == "-" || job.mesh_out == "-" || job.blob_out == "-";
  ctx.report(o.json ? rep.to_json().dump(2) : rep.to_text(), to_stdout, o.json);
}

struct DiffOptions {
  std::string a, b;
  bool json = false;
};

void run_diff(const Context& ctx, const DiffOptions& o) {
  const auto rep = edit_job::run_diff(o.a, o.b);
  ctx.report(o.json ? rep.to_json().dump(2) : rep.to_text(), false, o.json);
  if (rep.differ()) throw ExitWith{kExitDiffer};
}

void add_apply_like(CLI::App* cmd, const Context& ctx, std::shared_ptr<ApplyOptions> o, bool replay) {
  cmd->add_option("input", o->job.input, "Zone (.vxz), dig-zone Unity asset (.asset) or raw grid (with --cells); '-' = stdin")
      ->required();
  cmd->add_option("log", o->job.log, "Edit log: int64 list, text, JSON or .vxlog ('-' = stdin)")->required();
  cmd->add_option("-o,--output", o->job.output, "Where the edited input goes, as the same kind ('-' = stdout)");
  cmd->add_flag("--in-place", o->in_place, "Rewrite the input itself, keeping INPUT.bak");
  add_backup_flags(cmd, o->backup);
  cmd->add_flag("-n,--dry-run", o->dry_run, "Apply and report, write nothing");
  o->log_format_opt = add_enum(cmd, "--log-format", o->log_format, kLogFormats, "log format",
                               "int64, text, json or vxlog (default: detected; a bare int64 list is the fallback)");
  add_enum(cmd, "--from", o->job.kind, kEditInputs, "input kind", "auto, zone, unity or raw (default: by content)")
      ->default_str("auto");
  add_cells(cmd, "--cells", o->cells, "Raw grid: cells NX,NY,NZ (samples are one more per axis)");
  add_numbers(cmd, "--edit-box", o->edit_box, 6,
              "Editable samples X0,Y0,Z0,X1,Y1,Z1, inclusive (raw default: all but the top row; zones: their own)");
  cmd->add_option("--paint", o->job.paint_in, "Raw grid: its paint grid (one byte per sample; default all 0)");
  cmd->add_option("--paint-out", o->job.paint_out, "Raw grid: write the paint grid after the edits");
  cmd->add_option("--blob", o->job.blob_in, "The input grid's runtime chunk blob (as voxkit pack writes it)");
  cmd->add_option("--blob-out", o->job.blob_out, "Write the chunk blob with only the dirty chunks re-encoded");
  cmd->add_option("--mesh", o->job.mesh_out,
                  "Remesh the chunks the edits made dirty into this mesh file (nodes named as voxkit mesh names them; "
                  "zones: the package's mesher, with lightmap UVs into glTF and FBX)");
  cmd->add_flag_function(
      "--iso", [o](int64_t) { o->job.mesh.package = false; },
      "With --mesh: voxkit's Surface Nets (crossing at 127.5) instead of the package's mesher for a zone");
  cmd->add_flag_function("--no-lightmap-uv", [o](int64_t) { o->job.mesh.lightmap = false; },
                         "With --mesh: make no lightmap UVs");
  o->at_opt = cmd->add_option("--at", o->at, "Stop after this many edits (to bisect a log)");
  cmd->add_flag("--skip-invalid", o->job.skip_invalid, "Count and skip invalid edits instead of stopping");
  add_enum(cmd, "--target", o->target, kTargets, "target", "Package version whose validity rules apply: 0.3, 0.6 or 0.7")
      ->default_str("0.7");
  cmd->add_flag("--vrchat", o->vrchat, "Warn when the log exceeds the VRChat runtime's 4096-entry capacity");
  cmd->add_option("--tree-prefabs", o->tree_prefabs, "Length of the scene's tree prefab list (spawns past it are ignored)")
      ->check(CLI::Range(0, 31));
  cmd->add_option("--detail-prefabs", o->detail_prefabs,
                  "Length of the scene's detail prefab list (spawns past it are ignored)")
      ->check(CLI::Range(0, 31));
  cmd->add_flag("--json", o->json, "Print the report as JSON");
  cmd->callback([&ctx, o, replay] { run_apply(ctx, *o, replay); });
}

}  // namespace

void add_edit_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("edit", "The dig-zone package's packed 64-bit edits: pack, unpack, apply, replay, diff");
  cmd->require_subcommand(1);
  auto o = std::make_shared<EditOptions>();

  auto* pack = cmd->add_subcommand("pack", "Pack one edit as the package does (float32, round half to even)");
  add_numbers(pack, "--pos", o->pos, 3, "Position X,Y,Z in grid voxels (with --world: world metres)")->required();
  pack->add_option("--radius", o->radius, "Radius in voxels (with --world: metres)")->required()->check(CLI::Range(0.0, 1e6));
  add_enum(pack, "--op", o->op, kOps, "op", "dig, add, smooth, paint, tree or detail")->required();
  pack->add_option("--layer", o->layer,
                   "Paint value (paint, add), smooth strength x31 (smooth), prefab index + 1 (tree, detail; 0 erases)")
      ->capture_default_str()
      ->check(CLI::Range(0, 31));
  pack->add_flag("--world", o->world, "--pos and --radius are world metres, converted with --zone's origin and voxel size");
  pack->add_option("--zone", o->zone, "Zone file (.vxz): its placement for --world, its grid for the validity check");
  add_enum(pack, "--target", o->target, kTargets, "target",
           "Package version the edit is for: 0.3, 0.6 or 0.7 (which ops and layers are valid)")
      ->default_str("0.7");
  pack->add_flag("--json", o->json, "Print the edit and its fields as JSON");
  pack->callback([&ctx, o] { run_pack(ctx, *o); });

  auto* unpack = cmd->add_subcommand("unpack", "Show the fields of packed edits (hex or signed decimal)");
  unpack->add_option("edits", o->edits, "Edits: 0x0114... or -8426233528410177216")->required();
  unpack->add_option("--zone", o->zone, "Zone file (.vxz): positions past its grid are reported invalid");
  add_enum(unpack, "--target", o->target, kTargets, "target", "Package version to check the edits against: 0.3, 0.6 or 0.7")
      ->default_str("0.7");
  unpack->add_flag("--json", o->json, "Print the fields as JSON");
  unpack->callback([&ctx, o] { run_unpack(ctx, *o); });

  auto* apply = cmd->add_subcommand(
      "apply", "Apply an edit log to a zone, Unity asset or raw grid as the package's runtime does");
  add_apply_like(apply, ctx, std::make_shared<ApplyOptions>(), false);
  auto* replay = cmd->add_subcommand(
      "replay", "Replay a log as a late joiner loads it (spawns cleared first); network records as a receiver gets them");
  add_apply_like(replay, ctx, std::make_shared<ApplyOptions>(), true);

  auto d = std::make_shared<DiffOptions>();
  auto* diff = cmd->add_subcommand("diff", "Which samples and chunks two zones differ in (exit 3 when they differ)");
  diff->add_option("a", d->a, "First zone or asset")->required();
  diff->add_option("b", d->b, "Second zone or asset")->required();
  diff->add_flag("--json", d->json, "Print the report as JSON");
  diff->callback([&ctx, d] { run_diff(ctx, *d); });
}

}  // namespace voxkit::cli
