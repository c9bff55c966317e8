// voxkit bake: heightmap (+ splat maps) -> zone file.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

#include "formats/image/heightmap.hpp"
#include "formats/core/io.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"
#include "tools/bake_options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct BakeOptions {
  TerrainOptions terrain;
  std::string output;
  std::vector<double> box, centre, size;
  ZoneBoxSpec spec;
  bool json = false;
};

nlohmann::json zone_json(const Zone& z, const std::string& output) {
  const ZoneMeta& m = z.meta;
  SampleStats st = sdf_stats(z.grid.data);
  return {
      {"output", output},
      {"cells", {m.cells.nx, m.cells.ny, m.cells.nz}},
      {"samples", m.cells.samples()},
      {"voxel_size", m.voxel_size},
      {"origin", m.origin},
      {"chunk_cells", m.chunk_cells},
      {"border_voxels", m.border_voxels},
      {"edit_box", {{"min", m.edit_box.min}, {"max", m.edit_box.max}}},
      {"hole", {{"min_x", m.hole.min_x}, {"min_z", m.hole.min_z}, {"max_x", m.hole.max_x}, {"max_z", m.hole.max_z}}},
      {"height_range", {m.height_min, m.height_max}},
      {"layers", m.layer_names},
      {"source", m.source},
      {"samples_solid", st.solid},
      {"samples_air", st.air},
      {"samples_band", st.band},
  };
}

}  // namespace

void add_bake_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("bake", "Bake a heightmap (and splat maps) into a dig zone file");
  auto opt = std::make_shared<BakeOptions>();
  cmd->add_option("heightmap", opt->terrain.heightmap, "Heightmap: any GDAL raster, or Unity .raw")->required();
  cmd->add_option("-o,--output", opt->output, "Zone file to write (.vxz, '-' = stdout)")->required();
  opt->terrain.add(cmd);
  auto* box = cmd->add_option("--box", opt->box, "Zone box x0,y0,z0,x1,y1,z1 in world metres")
                  ->delimiter(',')->expected(6);
  auto* centre = cmd->add_option("--center", opt->centre, "Zone centre x,y,z (with --size)")
                     ->delimiter(',')->expected(3);
  auto* size = cmd->add_option("--size", opt->size, "Zone size x,y,z in metres (with --center)")
                   ->delimiter(',')->expected(3);
  box->excludes(centre)->excludes(size);
  centre->needs(size);
  size->needs(centre);
  cmd->add_option("--voxel-size", opt->spec.voxel_size, "Metres per voxel")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--chunk-cells", opt->spec.chunk_cells, "Cells per chunk edge")
      ->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--border", opt->spec.border_voxels, "Border voxels (hole and edit box insets)")
      ->capture_default_str()->check(CLI::Range(0, 1024));
  cmd->add_option("--headroom", opt->spec.headroom_voxels, "Air voxels kept above the band over the terrain")
      ->capture_default_str()->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--depth", opt->spec.depth_voxels, "Whole-terrain bakes: solid voxels below the band")
      ->capture_default_str()->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--max-samples", opt->spec.max_samples, "Refuse zones with more samples")
      ->capture_default_str()->check(CLI::Range(uint64_t(1), kMaxGridSamples));
  cmd->add_flag("--json", opt->json, "Print a JSON summary on stdout");
  cmd->callback([&ctx, opt] {
    io::check_output(opt->output, ctx.out());
    if (!opt->box.empty()) {
      opt->spec.kind = ZoneBoxSpec::Kind::Box;
      opt->spec.min = {opt->box[0], opt->box[1], opt->box[2]};
      opt->spec.max = {opt->box[3], opt->box[4], opt->box[5]};
    } else if (!opt->centre.empty()) {
      opt->spec.kind = ZoneBoxSpec::Kind::Centre;
      opt->spec.centre = {opt->centre[0], opt->centre[1], opt->centre[2]};
      opt->spec.size = {opt->size[0], opt->size[1], opt->size[2]};
    }
    heightmap::Info info;
    Heightfield hf = opt->terrain.load(info);
    const std::string name = io::display_name(opt->terrain.heightmap);
    Zone zone = with_source(name, [&] { return bake_zone(hf, opt->spec, ctx.progress("bake")); });
    opt->terrain.apply_splat(zone, hf);
    zone.meta.source = "voxkit bake " + name + " (" + info.describe() + ")";
    if (opt->terrain.has_splat()) zone.meta.source += ", splat " + opt->terrain.splat;
    write_zone_file(opt->output, zone, ctx.out());
    const ZoneMeta& m = zone.meta;
    ctx.info("bake: " + name + " (" + info.describe() + ") -> " + io::display_name(opt->output) + ": " + std::to_string(m.cells.nx) +
             "x" + std::to_string(m.cells.ny) + "x" + std::to_string(m.cells.nz) + " cells, " +
             std::to_string(m.cells.samples()) + " samples, " + std::to_string(zone.splat.size()) +
             " splat layers");
    if (opt->json) ctx.report(zone_json(zone, opt->output).dump(2), opt->output == "-", true);
  });
}

}  // namespace voxkit::cli
