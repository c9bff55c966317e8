// voxkit melt: apply melt hits to an ice density module (formats/ice/melt_job.hpp).
#include <memory>
#include <nlohmann/json.hpp>

#include "formats/ice/melt_job.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct MeltCliOptions {
  ice::MeltJob job;
  std::vector<uint32_t> cells;
  std::vector<double> origin;
  bool json = false;
};

void run(const Context& ctx, MeltCliOptions& o) {
  ice::MeltJob& job = o.job;
  job.cells = cells_of(o.cells);
  if (!o.origin.empty()) job.origin = {o.origin[0], o.origin[1], o.origin[2]};
  if (!o.origin.empty() && !job.world) throw_usage("--origin applies to hits in metres (--world)");
  job.out = ctx.out();
  job.out_text = ctx.out(false);
  const ice::MeltReport rep = ice::run_melt_job(job, ctx.progress("melt"));
  const bool stdout_is_output = job.output == "-" || job.regions_out == "-";
  if (o.json)
    ctx.report(rep.to_json().dump(2), stdout_is_output, true);
  else
    ctx.report(rep.to_text(), stdout_is_output, false);
}

}  // namespace

void add_melt_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("melt", "Melt an ice density module with hits: litres, solid count, opened caves, chunks to remesh");
  auto o = std::make_shared<MeltCliOptions>();
  ice::MeltJob& j = o->job;
  cmd->add_option("module", j.module, "Density module, 0 empty .. 255 solid, one byte per point ('-' = stdin)")->required();
  cmd->add_option("hits", j.hits, "Hits file: CSV with a header, or a JSON array of objects ('-' = stdin)")->required();
  cmd->add_option("-o,--output", j.output, "The melted module, same raw form ('-' = stdout)")->default_val("-");
  add_cells(cmd, "--cells", o->cells, "Cells NX,NY,NZ of the module")->required();
  cmd->add_option("--regions", j.regions, "Ice module: cave-region grid (uint16 per point)");
  cmd->add_option("--closed", j.closed, "Ice module: regions still closed, e.g. 3,5,7")
      ->delimiter(',')
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--closed-file", j.closed_path, "Ice module: file listing closed regions");
  cmd->add_option("--regions-out", j.regions_out, "Write the regions still closed after the melt, one id per line");
  cmd->add_option("--voxel-size", j.melt.voxel_size, "Metres per cell (litres, depth, --world)")
      ->capture_default_str()
      ->check(kPositive);
  cmd->add_flag("--world", j.world, "Hit centres and radii are in metres (grid = (p - origin) / voxel size)");
  add_numbers(cmd, "--origin", o->origin, 3, "With --world: world position X,Y,Z of point 0 (default 0,0,0)");
  cmd->add_option("--hardness", j.melt.hardness, "Hardness samples from the top face down, e.g. 1,1.5,3 (default: 1)")
      ->delimiter(',')
      ->check(kPositive);
  cmd->add_option("--hardness-file", j.hardness_path, "Hardness samples from a file (numbers separated by commas or blanks)");
  cmd->add_option("--hardness-step", j.melt.hardness_step,
                  "Metres between hardness samples (default: the samples span the module's height)")
      ->check(kPositive);
  cmd->add_option("--brake", j.melt.brake, "Water brake of hits that give none")->capture_default_str()->check(kPositive);
  cmd->add_option("--highlight", j.melt.highlight, "Remaining fraction at or below which the highlight is raised")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--start-solid", j.melt.start_solid,
                  "Solid points of the module at its start, for the remaining fraction (default: the input's count)");
  cmd->add_flag("--keep-border", j.melt.keep_border, "Leave the outer points of the grid unchanged, as the prototype does");
  cmd->add_flag("--per-hit", j.per_hit, "Report every hit");
  cmd->add_flag("--json", o->json, "Print the report as JSON");
  cmd->callback([&ctx, o] { run(ctx, *o); });
}

}  // namespace voxkit::cli
