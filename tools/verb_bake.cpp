// voxkit bake: heightmap (+ splat maps) -> zone file.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

#include "formats/bake/bake_job.hpp"
#include "formats/core/io.hpp"
#include "lib/core/error.hpp"
#include "tools/bake_options.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct BakeOptions {
  TerrainOptions terrain;
  bake_job::BakeJob job;
  std::vector<double> box, centre, size;
  bool json = false;
};

}  // namespace

void add_bake_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("bake", "Bake a heightmap (and splat maps) into a dig zone file");
  auto opt = std::make_shared<BakeOptions>();
  opt->terrain.add(cmd);
  cmd->add_option("-o,--output", opt->job.output, "Zone file to write (.vxz, '-' = stdout)")->default_val("-");
  auto* box = cmd->add_option("--box", opt->box, "Zone box x0,y0,z0,x1,y1,z1 in world metres")
                  ->delimiter(',')->expected(6);
  auto* centre = cmd->add_option("--center", opt->centre, "Zone centre x,y,z (with --size)")
                     ->delimiter(',')->expected(3);
  auto* size = cmd->add_option("--size", opt->size, "Zone size x,y,z in metres (with --center)")
                   ->delimiter(',')->expected(3);
  box->excludes(centre)->excludes(size);
  centre->needs(size);
  size->needs(centre);
  cmd->add_option("--voxel-size", opt->job.spec.voxel_size, "Metres per voxel")
      ->capture_default_str()->check(kPositive);
  cmd->add_option("--chunk-cells", opt->job.spec.chunk_cells, "Cells per chunk edge")
      ->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--border", opt->job.spec.border_voxels, "Border voxels (hole and edit box insets)")
      ->capture_default_str()->check(CLI::Range(0, 1024));
  cmd->add_option("--headroom", opt->job.spec.headroom_voxels, "Air voxels kept above the band over the terrain")
      ->capture_default_str()->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--depth", opt->job.spec.depth_voxels, "Whole-terrain bakes: solid voxels below the band")
      ->capture_default_str()->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--max-samples", opt->job.spec.max_samples, "Refuse zones with more samples")
      ->capture_default_str()->check(CLI::Range(uint64_t(1), kMaxGridSamples));
  cmd->add_flag("--json", opt->json, "Print a JSON summary (on stderr when the zone goes to stdout)");
  cmd->callback([&ctx, opt] {
    bake_job::BakeJob& job = opt->job;
    if (!opt->box.empty()) {
      job.spec.kind = ZoneBoxSpec::Kind::Box;
      job.spec.min = {opt->box[0], opt->box[1], opt->box[2]};
      job.spec.max = {opt->box[3], opt->box[4], opt->box[5]};
    } else if (!opt->centre.empty()) {
      job.spec.kind = ZoneBoxSpec::Kind::Centre;
      job.spec.centre = {opt->centre[0], opt->centre[1], opt->centre[2]};
      job.spec.size = {opt->size[0], opt->size[1], opt->size[2]};
    }
    job.terrain = opt->terrain.get();
    job.out = ctx.out();
    job.summarize = opt->json;
    const bake_job::BakeResult r = bake_job::run_bake(job, ctx.progress("bake"));
    const ZoneMeta& m = r.zone.meta;
    ctx.info("bake: " + r.name + " (" + r.info.describe() + ") -> " + io::output_name(job.output) + ": " +
             std::to_string(m.cells.nx) + "x" + std::to_string(m.cells.ny) + "x" + std::to_string(m.cells.nz) +
             " cells, " + std::to_string(m.cells.samples()) + " samples, " + std::to_string(r.zone.splat.size()) +
             " splat layers");
    if (opt->json) ctx.report(bake_job::report_json(r, job.output).dump(2), job.output == "-", true);
  });
}

}  // namespace voxkit::cli
