// voxkit zone extract: one part of a zone (grid, baked grid, paint, height, splat, chunk blob,
// hole mask) written out on its own.
#include <memory>

#include "formats/bake/zone_extract_job.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

const Names<zone_extract::Part> kParts{{"grid", zone_extract::Part::Grid},   {"baked", zone_extract::Part::Baked},
                                       {"paint", zone_extract::Part::Paint}, {"height", zone_extract::Part::Height},
                                       {"splat", zone_extract::Part::Splat}, {"blob", zone_extract::Part::Blob},
                                       {"hole", zone_extract::Part::Hole}};
const Names<zone_extract::Encoding> kEncodings{{"raw", zone_extract::Encoding::Raw},
                                               {"rle", zone_extract::Encoding::Rle},
                                               {"png", zone_extract::Encoding::Png}};

struct ExtractCli {
  zone_extract::Job job;
  zone_extract::Encoding encoding = zone_extract::Encoding::Raw;
  CLI::Option* format_opt = nullptr;
  bool json = false;
};

}  // namespace

void add_zone_extract_command(CLI::App& app, Context& ctx) {
  CLI::App* zone = app.get_subcommand("zone");
  auto o = std::make_shared<ExtractCli>();
  auto* cmd = zone->add_subcommand(
      "extract", "Write one part of a zone on its own: a grid (raw or RLE), the chunk blob, height, splat or hole mask");
  cmd->add_option("zone", o->job.zone, "Zone (.vxz) or dig-zone Unity asset ('-' = stdin)")->required();
  add_enum(cmd, "--part", o->job.part, kParts, "part",
           "grid (current SDF), baked (as baked), paint, height (per column), splat (layer weights), blob (runtime "
           "chunk blob of the grid), hole (the recorded terrain hole mask)")
      ->required();
  cmd->add_option("-o,--output", o->job.output, "Output file ('-' = stdout)")->capture_default_str();
  o->format_opt = add_enum(cmd, "--to", o->encoding, kEncodings, "format",
                           "raw, rle (grids) or png (height: 16-bit grey over the height range; splat: an RGBA "
                           "control map; hole: a grey mask); default by the output's extension, else raw");
  cmd->add_option("--group", o->job.group, "Splat PNG: which four layers (0 = layers 0-3, 1 = 4-7, ...)")
      ->check(CLI::Range(0u, 3u));
  cmd->add_flag("--json", o->json, "Report as JSON");
  cmd->footer(
      "Examples:\n  voxkit zone extract z.vxz --part grid -o grid.rle\n"
      "  voxkit zone extract z.vxz --part splat -o control.png\n"
      "  voxkit zone extract z.vxz --part blob -o chunks.bin");
  cmd->callback([&ctx, o] {
    zone_extract::Job job = o->job;
    if (o->format_opt->count()) job.encoding = o->encoding;
    job.out = ctx.out();
    const auto rep = zone_extract::run(job);
    ctx.report(o->json ? rep.to_json().dump(2) + "\n" : rep.to_text(), job.output == "-", o->json);
  });
}

}  // namespace voxkit::cli
