// voxkit grass: the Vixen engine's grass, offline. `grass scatter` (here), `grass residency`
// (tools/verb_grass_residency.cpp), `grass type` (here).
#include <memory>

#include "formats/core/io.hpp"
#include "formats/grass/grass_type_io.hpp"
#include "formats/grass/scatter_job.hpp"
#include "lib/core/error.hpp"
#include "tools/bake_options.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

const Names<grass::BladeFormat> kBladeFormats{{"raw", grass::BladeFormat::Raw},
                                              {"csv", grass::BladeFormat::Csv},
                                              {"json", grass::BladeFormat::Json},
                                              {"glb", grass::BladeFormat::Glb}};

struct ScatterCli {
  grass::ScatterJob job;
  TerrainOptions terrain;
  std::vector<int32_t> cells, explain;
  grass::BladeFormat format = grass::BladeFormat::Raw;
  CLI::Option* format_opt = nullptr;
  bool json = false;
};

void run_scatter(const Context& ctx, ScatterCli& o) {
  grass::ScatterJob job = o.job;
  job.terrain = o.terrain.get();
  if (!o.cells.empty()) {
    job.cells = {o.cells[0], o.cells[1], o.cells[2], o.cells[3]};
    job.cells_given = true;
  }
  if (!o.explain.empty()) job.explain = std::array<int32_t, 2>{o.explain[0], o.explain[1]};
  if (o.format_opt->count()) job.format = o.format;
  if (!(job.cell_size > 0.0f) || !std::isfinite(job.cell_size)) throw_usage("--cell-size must be a positive number of metres");
  if (!std::isfinite(job.density_scale)) throw_usage("--scale must be a number (0..1)");
  job.out = ctx.out();
  const grass::ScatterReport rep = grass::run_scatter(job);
  for (const auto& w : rep.warnings) ctx.warn(w);
  ctx.report(o.json ? rep.to_json(job.blades_in_report).dump(2) + "\n" : rep.to_text(), job.output == "-", o.json);
}

struct TypeCli {
  std::string path;
  std::string to = "toml";
};

}  // namespace

void add_grass_command(CLI::App& app, Context& ctx) {
  CLI::App* grass = app.add_subcommand("grass", "The Vixen engine's grass offline: scatter, residency, types");
  grass->require_subcommand(1);

  auto o = std::make_shared<ScatterCli>();
  auto* sc = grass->add_subcommand(
      "scatter",
      "Scatter a grass type over a surface cell by cell as the engine does: blades and, per cell, what refused the "
      "rest");
  sc->add_option("type", o->job.type, "Grass type: the engine's .vxgrass, or TOML/JSON with its field names")
      ->required();
  sc->add_option("surface", o->job.surface,
                 "Surface: a zone (.vxz), a dig-zone Unity asset, or a heightmap (GDAL raster or Unity .raw; "
                 "layers from --splat/--layers)")
      ->required();
  sc->add_option("--cells", o->cells, "Cells X0,Z0,X1,Z1 (inclusive; negative allowed: --cells=-1,-1,0,0)")
      ->delimiter(',')
      ->expected(4)
      ->type_name("INT x 4");
  sc->add_option("--explain", o->explain, "Say why cell X,Z grew what it grew, candidate by candidate")
      ->delimiter(',')
      ->expected(2)
      ->type_name("INT x 2");
  sc->add_option("--scale", o->job.density_scale, "Density scale, the scalability setting (0..1, default 1)")
      ->type_name("FLOAT");
  sc->add_option("--cell-size", o->job.cell_size, "Cell size in metres (default 32, at least 1)")->type_name("FLOAT");
  sc->add_option("--capacity", o->job.capacity,
                 "Blades kept per cell, the lowest candidate indices first (default: all)")
      ->type_name("N");
  sc->add_option("-o,--output", o->job.output,
                 "Blades: .csv, .json, .glb (EXT_mesh_gpu_instancing, to look at), else the engine's 48-byte "
                 "records ('-' = stdout)");
  o->format_opt = add_enum(sc, "--to", o->format, kBladeFormats, "blade format",
                           "Blade format: raw, csv, json or glb (default: by the output's extension)");
  sc->add_flag("--json", o->json, "Report as JSON: per cell its coordinates, placed count and counts per refusal");
  sc->add_flag("--blades", o->job.blades_in_report, "With --json: each blade too");
  o->terrain.add(sc, false);
  sc->callback([&ctx, o] { run_scatter(ctx, *o); });

  auto t = std::make_shared<TypeCli>();
  auto* ty = grass->add_subcommand("type", "Read a grass type, check it as the engine does, and print it in full");
  ty->add_option("type", t->path, "Grass type (.vxgrass, .toml, .json; '-' = stdin)")->required();
  ty->add_option("--to", t->to, "Print as toml or json (default toml)")
      ->check(CLI::IsMember({"toml", "json"}, CLI::ignore_case));
  ty->callback([&ctx, t] {
    std::vector<std::string> warnings;
    const grass::GrassType g = grass::read_grass_type(t->path, &warnings);
    for (const auto& w : warnings) ctx.warn(w);
    const bool json = t->to == "json" || t->to == "JSON";
    ctx.report(json ? grass::write_grass_type_json(g) : grass::write_grass_type_toml(g), false, json);
  });

  add_grass_residency_command(*grass, ctx);
}

}  // namespace voxkit::cli
