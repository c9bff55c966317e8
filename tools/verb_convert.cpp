// voxkit convert: voxel data between dig zones, Scrap Mechanic chunks and ice density modules.
#include <memory>

#include "formats/convert/convert_job.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

const Names<convert::Kind> kKinds{{"zone", convert::Kind::Zone},
                                  {"sm-chunks", convert::Kind::SmChunks},
                                  {"ice-module", convert::Kind::IceModule}};

struct ConvertCli {
  convert::Job job;
  std::vector<uint32_t> chunks, cells;
  std::vector<double> origin;
  sm::Form chunk_form = sm::Form::B64;
  CLI::Option* chunk_form_opt = nullptr;
  bool json = false;
};

}  // namespace

void add_convert_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ConvertCli>();
  auto* cmd = app.add_subcommand(
      "convert", "Convert voxel data between dig zones, Scrap Mechanic chunks and ice density modules");
  cmd->add_option("input", o->job.input,
                  "Input: a zone (.vxz or dig-zone asset), Scrap Mechanic chunks (one a line, or 4913-byte records) "
                  "or an ice module (raw densities, with --cells) ('-' = stdin)")
      ->required();
  cmd->add_option("-o,--output", o->job.output, "Output file ('-' = stdout)")->default_val("-");
  add_enum(cmd, "--to", o->job.to, kKinds, "kind", "What to write: zone, sm-chunks or ice-module")->required();
  add_enum(cmd, "--from", o->job.from, kKinds, "kind",
           "What the input is (default: a zone by its bytes, an ice module with --cells, else chunks)");
  add_enum(cmd, "--form", o->job.form, kChunkForms, "chunk form",
           "Chunks written: b64 (default), lua, json (one a line) or bin (4913-byte records)");
  o->chunk_form_opt = add_enum(cmd, "--chunk-form", o->chunk_form, kChunkForms, "chunk form",
                               "Chunks read: their form (default: detected, line by line)");
  cmd->add_option("--chunks", o->chunks, "Chunks read: the chunk grid NX,NY,NZ (batch order x fastest, then y, then z)")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(1u, 4096u));
  add_cells(cmd, "--cells", o->cells, "An ice module read: its cells NX,NY,NZ");
  cmd->add_option("--voxel-size", o->job.voxel_size, "A zone written from chunks or a module: metres per voxel (default 1)")
      ->check(kPositive);
  add_numbers(cmd, "--origin", o->origin, 3, "A zone written from chunks or a module: world position X,Y,Z of sample 0");
  cmd->add_option("--regions", o->job.regions_out, "An ice module written: also its cave regions (u16 region grid)");
  cmd->add_flag("--json", o->json, "Report as JSON");
  cmd->footer(
      "Examples:\n  voxkit convert z.vxz --to sm-chunks -o chunks.txt\n"
      "  voxkit convert chunks.txt --to zone --chunks 4,2,4 -o z.vxz\n"
      "  voxkit convert z.vxz --to ice-module -o module.raw --regions module.regions");
  cmd->callback([&ctx, o] {
    convert::Job job = o->job;
    if (!o->chunks.empty()) job.chunks = std::array<uint32_t, 3>{o->chunks[0], o->chunks[1], o->chunks[2]};
    if (!o->cells.empty()) job.cells = cells_of(o->cells);
    if (!o->origin.empty()) job.origin = {o->origin[0], o->origin[1], o->origin[2]};
    if (o->chunk_form_opt->count()) job.chunk_form = o->chunk_form;
    job.out = ctx.out(false);
    const auto rep = convert::run(job);
    for (const auto& w : rep.warnings) ctx.warn(w);
    ctx.report(o->json ? rep.to_json().dump(2) + "\n" : rep.to_text(), job.output == "-", o->json);
  });
}

}  // namespace voxkit::cli
