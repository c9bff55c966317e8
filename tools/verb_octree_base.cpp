// voxkit octree base: write a Terrain{i}.dat base file (gzip, with its checksum) from a node
// stream: a terrain.dat's, a raw one, or another base file's. The job is
// stationeers::run_base_write.
#include <memory>

#include "formats/stationeers/base_write.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

const Names<stationeers::NodeSource> kNodeSources{{"auto", stationeers::NodeSource::Auto},
                                                  {"terrain-dat", stationeers::NodeSource::TerrainDat},
                                                  {"nodes", stationeers::NodeSource::Nodes},
                                                  {"base", stationeers::NodeSource::Base}};

struct BaseCliOptions {
  stationeers::BaseWriteJob job;
  bool json = false;
};

void run(const Context& ctx, BaseCliOptions& o) {
  auto& j = o.job;
  if (j.from != stationeers::NodeSource::Nodes && j.depth != 0) {
    throw_usage("octree base: --max-depth goes with --from nodes (the other inputs carry their depth)");
  }
  j.out = ctx.out();
  const auto rep = stationeers::run_base_write(j);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool stdout_is_output = j.output == "-";
  ctx.report(o.json ? rep.to_json().dump(2) : rep.to_text(), stdout_is_output, o.json);
}

}  // namespace

void add_base(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<BaseCliOptions>();
  auto* c = parent.add_subcommand(
      "base", "Write a Terrain{i}.dat base file (gzip, with its checksum) from a node stream");
  auto& j = o->job;
  c->add_option("input", j.input, "terrain.dat, raw node stream (--from nodes) or base file ('-' = stdin)")
      ->required();
  j.output = "-";
  c->add_option("-o,--output", j.output, "The base file to write ('-' = stdout)")->capture_default_str();
  add_enum(c, "--from", j.from, kNodeSources, "input kind",
           "auto, terrain-dat, nodes or base (default: a gzip stream is a base file, else terrain.dat)");
  c->add_option("--max-depth", j.depth, "Tree depth of a raw node stream (--from nodes; 10 for a 1024^3 block)")
      ->check(CLI::Range(1, 24));
  c->add_option("--level", j.level,
                "zlib level 0..9 (default: 6, or the level that reproduces the --like file or a base input)")
      ->check(CLI::Range(0, 9));
  c->add_option("--like", j.like,
                "A base file whose gzip header and level to follow (default: the input, when it is a base file)");
  c->add_flag("--json", o->json, "Print the report as JSON");
  c->add_flag("--any-depth", j.any_depth, "Accept terrain.dat maxDepth 0..24");
  c->callback([&ctx, o] { run(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
