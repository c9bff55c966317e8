// voxkit grass residency: a camera path through the engine's grass residency ring
// (formats/grass/residency_job.hpp, docs/grass-residency.md).
#include <memory>

#include "formats/grass/residency_job.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct ResidencyCli {
  grass_residency::Job job;
  CLI::Option* range_opt = nullptr;
  float range = 0;
  std::string output;
  bool json = false, no_resident = false;
};

void run_residency(const Context& ctx, ResidencyCli& o) {
  grass_residency::Job job = o.job;
  if (o.range_opt->count()) job.range = o.range;
  // The resident lists are only printed in JSON.
  job.resident_lists = o.json && !o.no_resident;
  if (!o.output.empty()) io::check_output(o.output, ctx.out(false));
  const grass_residency::Report rep = grass_residency::run(job);
  const std::string full = o.json ? rep.to_json().dump(2) + "\n" : rep.to_text();
  if (o.output.empty()) {
    ctx.report(full, false, o.json);
    return;
  }
  io::write_file(o.output, std::span(reinterpret_cast<const uint8_t*>(full.data()), full.size()), ctx.out(false));
  ctx.report(rep.summary_text(), o.output == "-", false);
}

}  // namespace

void add_grass_residency_command(CLI::App& grass, Context& ctx) {
  auto o = std::make_shared<ResidencyCli>();
  grass_residency::Job& j = o->job;
  auto* cmd = grass.add_subcommand(
      "residency",
      "Run a camera path through the engine's grass residency ring: which cells take, give back and are refused a "
      "slot at each step, and the ring's memory");
  cmd->add_option("--path", j.path,
                  "Camera path: rows x,y,z or x,y,z,range, 'clear' rows, '#' comments, an optional x,y,z[,range] "
                  "header ('-' = stdin)")
      ->required();
  o->range_opt = cmd->add_option("--range", o->range,
                                 "Residency range in metres for rows that give none (also the memory figure's range)");
  cmd->add_option("--capacity", j.capacity, "Ring slots: how many cells may be resident at once")->required();
  cmd->add_option("--cell-size", j.cell_size, "Cell size in metres (>= 1)")->capture_default_str();
  cmd->add_option("--hysteresis", j.hysteresis, "How far past the range a cell survives, as a fraction")
      ->capture_default_str();
  cmd->add_option("--blades-per-cell", j.blades_per_cell, "Blades per cell, for the memory figure (48 bytes each)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print the report as JSON (every step, with its resident cells)");
  cmd->add_flag("--no-resident", o->no_resident, "Leave the resident cells of each step out of the JSON");
  cmd->add_option("-o,--output", o->output, "Write the report to FILE ('-' = stdout); the summary goes to stdout, or to stderr with '-o -'");
  cmd->footer(
      "Example:\n  voxkit grass residency --path camera.csv --range 160 --capacity 256\n"
      "  voxkit grass residency --path camera.csv --range 96 --capacity 9 --json -o ring.json");
  cmd->callback([&ctx, o] { run_residency(ctx, *o); });
}

}  // namespace voxkit::cli
