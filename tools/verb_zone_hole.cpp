// voxkit zone hole-mask: the terrain hole cells a dig zone cuts, as a mask and in the zone.
#include <memory>

#include "formats/bake/hole_mask_job.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct HoleMaskCli {
  hole_mask::Job job;
  std::vector<double> terrain_pos, terrain_size;
  CLI::Option* resolution_opt = nullptr;
  uint32_t resolution = 0;
  bool cut_only = false, player_float = false, json = false;
};

void run_hole_mask(const Context& ctx, HoleMaskCli& o) {
  hole_mask::Job job = o.job;
  auto vec3 = [](const std::vector<double>& v) { return std::array<double, 3>{v[0], v[1], v[2]}; };
  if (!o.terrain_pos.empty()) job.terrain_position = vec3(o.terrain_pos);
  if (!o.terrain_size.empty()) {
    for (double v : o.terrain_size)
      if (!(v > 0)) throw_usage("--terrain-size must be positive on every axis");
    job.terrain_size = vec3(o.terrain_size);
  }
  if (o.resolution_opt->count()) job.resolution = o.resolution;
  job.values = o.cut_only ? hole_mask::MaskValues::Cut : hole_mask::MaskValues::Terrain;
  job.mode = o.player_float ? CutArithmetic::Player : CutArithmetic::Editor;
  job.out = ctx.out();
  const auto rep = hole_mask::run(job);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool to_stdout = job.mask_out == "-" || job.zone_out == "-";
  ctx.report(o.json ? rep.to_json().dump(2) : rep.to_text(), to_stdout, o.json);
}

}  // namespace

void add_zone_hole_mask_command(CLI::App& app, Context& ctx) {
  CLI::App* zone = app.get_subcommand("zone");
  auto o = std::make_shared<HoleMaskCli>();
  auto* cmd = zone->add_subcommand(
      "hole-mask",
      "The terrain hole cells a zone cuts (the package's cut rectangle and the values it puts back), as a mask "
      "at the terrain's holes resolution and recorded in the zone");
  cmd->add_option("zone", o->job.zone, "Zone (.vxz) or dig-zone Unity asset ('-' = stdin)")->required();
  cmd->add_option("-o,--output", o->job.mask_out,
                  "The mask: 8-bit grey PNG (row 0 = the far z edge) when FILE ends in .png, else raw bytes (x "
                  "fastest, z = 0 first); 255 = terrain surface, 0 = hole ('-' = stdout)");
  cmd->add_option("--zone-out", o->job.zone_out, "Also write the zone with the cut recorded (section HCUT)");
  add_numbers(cmd, "--terrain-pos", o->terrain_pos, 3,
              "World position X,Y,Z of the terrain (default: the zone's recorded cut, else its foliage's terrain)");
  add_numbers(cmd, "--terrain-size", o->terrain_size, 3, "Terrain size X,Y,Z in metres (TerrainData.size; default as above)");
  o->resolution_opt = cmd->add_option("--hole-resolution", o->resolution,
                                      "The terrain's holes resolution (TerrainData.holesResolution: heightmap "
                                      "resolution - 1; default: the zone's recorded cut)")
                          ->check(CLI::Range(1u, kMaxHolesResolution));
  cmd->add_option("--holes", o->job.holes,
                  "The terrain's holes before the cut (image at the holes resolution, row 0 = far z edge, or raw "
                  "bytes; non-zero = surface): the values the package records and puts back (default: no holes)");
  cmd->add_flag("--cut-only", o->cut_only, "Mask only the cells the zone cuts (255) against every other cell (0)");
  cmd->add_flag("--player-float", o->player_float,
                "Compute the cut rectangle in float32 as the package's players do (default: the Unity editor's bake)");
  cmd->add_flag("--json", o->json, "Print the report as JSON");
  cmd->footer(
      "Example:\n  voxkit zone hole-mask quarry.vxz --terrain-pos 0,0,0 --terrain-size 1000,600,1000 "
      "--hole-resolution 512 -o holes.png --zone-out quarry-cut.vxz");
  cmd->callback([&ctx, o] { run_hole_mask(ctx, *o); });
}

}  // namespace voxkit::cli
