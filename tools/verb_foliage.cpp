// voxkit foliage bake|check: the dig-zone package's foliage anchors (formats/foliage/foliage_job.hpp).
#include <memory>
#include <nlohmann/json.hpp>

#include "formats/foliage/foliage_job.hpp"
#include "lib/core/error.hpp"
#include "tools/edit_names.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {


std::array<float, 3> vec3(const std::vector<double>& v) { return {float(v[0]), float(v[1]), float(v[2])}; }

struct BakeCli {
  foliage_job::BakeJob job;
  std::vector<double> terrain_pos, terrain_size;
  uint32_t tree_prototypes = 0, detail_prototypes = 0;
  CLI::Option *tree_protos_opt = nullptr, *detail_protos_opt = nullptr;
  bool json = false;
};

struct CheckCli {
  foliage_job::CheckJob job;
  edit_log::Format log_format = edit_log::Format::Int64;
  CLI::Option* log_format_opt = nullptr;
  bool json = false;
};

void run_bake(const Context& ctx, BakeCli& o) {
  foliage_job::BakeJob job = o.job;
  if (!o.terrain_pos.empty()) job.terrain.position = vec3(o.terrain_pos);
  if (!o.terrain_size.empty()) {
    for (double v : o.terrain_size)
      if (!(v > 0)) throw_usage("--terrain-size must be positive on every axis");
    job.terrain.size = vec3(o.terrain_size);
  }
  if (o.tree_protos_opt->count()) job.tree_prototypes = o.tree_prototypes;
  if (o.detail_protos_opt->count()) job.detail_prototypes = o.detail_prototypes;
  job.out = ctx.out();
  const auto rep = foliage_job::run_bake(job);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool to_stdout = job.output == "-" || job.mask_out == "-";
  ctx.report(o.json ? rep.to_json().dump(2) : rep.to_text(), to_stdout, o.json);
}

void run_check(const Context& ctx, CheckCli& o) {
  foliage_job::CheckJob job = o.job;
  if (o.log_format_opt->count()) job.log_format = o.log_format;
  job.out = ctx.out();
  const auto rep = foliage_job::run_check(job);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool to_stdout = job.output == "-" || job.mask_out == "-";
  ctx.report(o.json ? rep.to_json().dump(2) : rep.to_text(), to_stdout, o.json);
}

}  // namespace

void add_foliage_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("foliage", "Foliage anchors of a dig zone: bake trees, details and the mask; check what stands");
  cmd->require_subcommand(1);

  auto b = std::make_shared<BakeCli>();
  auto* bake = cmd->add_subcommand(
      "bake", "Bake tree, detail and surface-detail anchors, their buckets and the foliage mask into a zone");
  bake->add_option("zone", b->job.zone, "Zone (.vxz) or dig-zone Unity asset ('-' = stdin)")->required();
  bake->add_option("-o,--output", b->job.output, "The zone with its foliage (.vxz; '-' = stdout)")->default_val("-");
  bake->add_option("--trees", b->job.trees,
                   "Trees: CSV or JSON list, a Unity TerrainData asset, or a dig-zone asset (default: the input asset's)");
  bake->add_option("--details", b->job.details, "Top-surface details: CSV or JSON list (world x, z)");
  bake->add_option("--surface-details", b->job.surface,
                   "Surface details: CSV or JSON list, or a dig-zone asset (default: the input asset's)");
  add_numbers(bake, "--terrain-pos", b->terrain_pos, 3, "World position X,Y,Z of the terrain (terrain-normalised trees)");
  add_numbers(bake, "--terrain-size", b->terrain_size, 3,
              "Terrain size X,Y,Z in metres (terrain-normalised trees; a TerrainData asset gives its own)");
  b->tree_protos_opt = bake->add_option("--tree-prototypes", b->tree_prototypes,
                                        "Tree prototypes the terrain has: trees naming one past them are skipped");
  b->detail_protos_opt = bake->add_option("--detail-prototypes", b->detail_prototypes,
                                          "Detail prototypes the terrain has: details naming one past them are skipped");
  bake->add_option("--mask-out", b->job.mask_out, "Also write the foliage mask: raw RGBA bytes, or PNG when FILE ends in .png");
  bake->add_flag("--json", b->json, "Print the report (counts per chunk) as JSON");
  bake->footer("Example:\n  voxkit foliage bake quarry.vxz --trees trees.csv --details grass.csv -o quarry-foliage.vxz --mask-out mask.png");
  bake->callback([&ctx, b] { run_bake(ctx, *b); });

  auto c = std::make_shared<CheckCli>();
  auto* check = cmd->add_subcommand(
      "check", "Which trees, columns and surface details still stand after the zone's edits or an edit log");
  check->add_option("zone", c->job.zone, "Zone (.vxz) with baked foliage ('-' = stdin)")->required();
  check->add_option("--log", c->job.log, "Edit log applied first, as the runtime applies it ('-' = stdin)");
  c->log_format_opt = add_enum(check, "--log-format", c->log_format, kLogFormats, "log format",
                               "int64, text, json or vxlog (default: detected)");
  add_enum(check, "--target", c->job.editor.target, kTargets, "target", "Package version whose validity rules apply: 0.3, 0.6 or 0.7")
      ->default_str("0.7");
  check->add_flag("--full", c->job.full, "Re-check every chunk (by default only the chunks the edits reach)");
  check->add_option("-o,--output", c->job.output, "Write the zone after the log, with the checked foliage ('-' = stdout)");
  check->add_option("--mask-out", c->job.mask_out, "Write the updated mask: raw RGBA bytes, or PNG when FILE ends in .png");
  check->add_flag("--json", c->json, "Print the report as JSON (with the ids that fell)");
  check->footer("Example:\n  voxkit foliage check quarry-foliage.vxz --log digs.txt --json");
  check->callback([&ctx, c] { run_check(ctx, *c); });
}

}  // namespace voxkit::cli
