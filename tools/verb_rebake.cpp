// voxkit rebake: re-bake a sculpted zone from a changed heightmap, keeping sculpted samples.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

#include "formats/bake/bake_job.hpp"
#include "formats/core/io.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"
#include "tools/bake_options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct RebakeOptions {
  TerrainOptions terrain;
  std::string zone, output;
  bool in_place = false, json = false;
  BackupFlags backup;
  double headroom = 2;
  uint64_t max_samples = kMaxGridSamples;
};

}  // namespace

void add_rebake_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("rebake", "Re-bake a zone from a new heightmap, keeping sculpted samples and paint");
  auto opt = std::make_shared<RebakeOptions>();
  cmd->add_option("zone", opt->zone, "Zone file (.vxz)")->required();
  opt->terrain.add(cmd);
  auto* out = cmd->add_option("-o,--output", opt->output, "Zone file to write");
  auto* in_place = cmd->add_flag("--in-place", opt->in_place, "Rewrite ZONE itself, keeping ZONE.bak");
  out->excludes(in_place);
  add_backup_flags(cmd, opt->backup, true);
  cmd->add_option("--headroom", opt->headroom, "Air voxels kept above the band when the top must grow")
      ->capture_default_str()->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--max-samples", opt->max_samples, "Refuse to grow past this many samples")
      ->capture_default_str()->check(CLI::Range(uint64_t(1), kMaxGridSamples));
  cmd->add_flag("--json", opt->json, "Print the counts as JSON (on stderr when the zone goes to stdout)");
  cmd->callback([&ctx, opt] {
    if (!opt->in_place && opt->output.empty()) throw_usage("rebake needs -o NEW.vxz or --in-place");
    if (opt->in_place && opt->zone == "-") throw_usage("--in-place needs a zone file, not stdin");
    const std::string target = opt->in_place ? opt->zone : opt->output;
    const io::OutputOptions out_opts = opt->in_place ? ctx.in_place(opt->backup) : ctx.out();
    io::check_output(target, out_opts);
    bake_job::RebakeJob job;
    job.zone = opt->zone;
    job.terrain = opt->terrain.get();
    job.headroom = opt->headroom;
    job.max_samples = opt->max_samples;
    job.output = target;
    job.out = out_opts;
    const bake_job::RebakeResult r = bake_job::run_rebake(job, ctx.progress("rebake"));
    const RebakeStats& st = r.stats;
    const std::string& backup = r.backup;
    ctx.info("rebake: " + std::to_string(st.kept) + " sculpted samples kept, " + std::to_string(st.changed) +
             " samples changed by the new terrain, of " + std::to_string(st.samples) +
             (st.grown_cells ? ", top grown by " + std::to_string(st.grown_cells) + " cells" : std::string()) +
             (backup.empty() ? std::string() : " (backup " + backup + ")"));
    if (r.foliage_dropped) ctx.warn("the zone's baked foliage was dropped: the terrain changed, run voxkit foliage bake again");
    if (opt->json) {
      nlohmann::json j = {{"output", target},      {"kept", st.kept},
                          {"changed", st.changed}, {"samples", st.samples},
                          {"grown_cells", st.grown_cells},
                          {"backup", backup.empty() ? nlohmann::json(nullptr) : nlohmann::json(backup)}};
      ctx.report(j.dump(2), target == "-", true);
    }
  });
}

}  // namespace voxkit::cli
