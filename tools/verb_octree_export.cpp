// voxkit octree export: the modified densities of a terrain.dat (or a .save) in a box, as a
// dig zone (.vxz) that `voxkit mesh` can mesh.
#include <cstdio>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree_export.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct ExportCliOptions {
  std::string input, box, output, unmodified = "air";
  bool any_depth = false, json = false;
};

void run_export(const Context& ctx, const ExportCliOptions& o) {
  octree::ExportOptions eo;
  eo.box = parse_box(o.box);
  if (o.unmodified == "air") {
    eo.unmodified = octree::Unmodified::Air;
  } else if (o.unmodified == "solid") {
    eo.unmodified = octree::Unmodified::Solid;
  } else {
    throw_usage("--unmodified must be air or solid, found '" + o.unmodified + "'");
  }
  io::check_output(o.output, ctx.out());
  const Loaded l = load(o.input, o.any_depth);
  eo.source = "stationeers terrain.dat export of " + l.name + ", box " + to_string(eo.box) +
              ", unmodified voxels as " + o.unmodified;
  octree::ExportStats st;
  const Zone z = with_source(l.name, [&] { return octree::export_zone(l.view, eo, &st); });
  write_zone_file(o.output, z, ctx.out());
  if (o.json) {
    nlohmann::json j{{"input", l.name},
                     {"output", o.output},
                     {"box", box_json(eo.box)},
                     {"cells", {z.meta.cells.nx, z.meta.cells.ny, z.meta.cells.nz}},
                     {"unmodified", o.unmodified},
                     {"voxels", {{"modified", st.modified_voxels}, {"unmodified", st.unmodified_voxels}}},
                     {"nodes_visited", st.nodes_visited}};
    ctx.report(j.dump(2), o.output == "-", true);
    return;
  }
  ctx.info("octree export: box " + to_string(eo.box) + ", " + std::to_string(z.meta.cells.nx) + "x" +
           std::to_string(z.meta.cells.ny) + "x" + std::to_string(z.meta.cells.nz) + " cells; " +
           std::to_string(st.modified_voxels) + " modified voxels, " + std::to_string(st.unmodified_voxels) +
           " unmodified as " + o.unmodified + "; " + std::to_string(st.nodes_visited) + " nodes visited");
}

}  // namespace

void add_export(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<ExportCliOptions>();
  auto* c = parent.add_subcommand("export", "The modified densities in a box as a dig zone (.vxz)");
  c->add_option("input", o->input, "terrain.dat or .save ('-' = stdin for terrain.dat)")->required();
  c->add_option("--box", o->box, "World voxel box X0,Y0,Z0,X1,Y1,Z1 (inclusive)")->required();
  c->add_option("-o,--output", o->output, "Zone file (.vxz, '-' = stdout)")->default_val("-");
  c->add_option("--unmodified", o->unmodified, "Voxels the delta does not modify: air or solid")
      ->capture_default_str();
  c->add_flag("--json", o->json, "Print a JSON report");
  c->add_flag("--any-depth", o->any_depth, "Accept maxDepth 0..24");
  c->callback([&ctx, o] { run_export(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
