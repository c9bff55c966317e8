// voxkit octree reset: reset terrain to the base everywhere except what is kept, or only
// inside what is dropped (docs/octree-reset.md). The job is stationeers::run_reset.
#include <memory>

#include "formats/stationeers/stationeers.hpp"
#include "lib/core/error.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct ResetCliOptions {
  stationeers::ResetJob job;
  std::vector<std::string> keep_box, keep_sphere, keep_radius, drop_box, drop_sphere, drop_radius;
  BackupFlags backup;
  bool json = false;
};

// The combinations of options a reset refuses, before anything is read.
void check(const stationeers::ResetJob& j) {
  if (j.in_place && !j.output.empty()) throw_usage("octree reset: give -o OUT or --in-place, not both");
  if (j.input == "-" && j.in_place) throw_usage("octree reset: --in-place needs a file, not stdin");
  if (j.margin < 0 || j.margin > 4096) throw_usage("octree reset: --margin must be 0..4096");
  const bool save_in = stationeers::is_save_file(j.input);
  if (!save_in && !j.in_place && j.output.empty() && !j.dry_run) {
    throw_usage("octree reset: give -o OUT, --in-place or --dry-run");
  }
  if (j.region.keep.empty() && j.region.drop.empty() && !j.keep_rooms) {
    throw_usage("octree reset: nothing to keep or drop (give --keep-*, --keep-rooms or --drop-* shapes)");
  }
  if (j.compat && (!j.region.drop.empty() || j.region.keep.size() + (j.keep_rooms ? 1 : 0) != 1 ||
                   (!j.keep_rooms && j.region.keep[0].kind != octree::Shape::Kind::Box))) {
    throw_usage("octree reset --compat keeps exactly one box (--keep-rooms or one --keep-box) and drops nothing");
  }
  if (save_in && !j.output.empty() && j.output == "-") {
    throw_usage("octree reset: a save cannot be written to stdout; name a file");
  }
}

void run(const Context& ctx, ResetCliOptions& o) {
  stationeers::ResetJob& j = o.job;
  for (const auto& s : o.keep_box) j.region.keep.push_back(octree::Shape::make_box(parse_box(s)));
  for (const auto& s : o.keep_sphere) j.region.keep.push_back(parse_sphere(s));
  for (const auto& s : o.keep_radius) j.region.keep.push_back(parse_cylinder(s));
  for (const auto& s : o.drop_box) j.region.drop.push_back(octree::Shape::make_box(parse_box(s)));
  for (const auto& s : o.drop_sphere) j.region.drop.push_back(parse_sphere(s));
  for (const auto& s : o.drop_radius) j.region.drop.push_back(parse_cylinder(s));
  j.out = ctx.out();
  j.backup = o.backup.backup();
  check(j);
  const stationeers::ResetReport rep = stationeers::run_reset(j);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool stdout_is_output = j.output == "-" && !j.dry_run;
  if (o.json) {
    ctx.report(rep.to_json().dump(2), stdout_is_output, true);
  } else {
    ctx.report(rep.to_text(), stdout_is_output, false);
  }
}

}  // namespace

void add_reset(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<ResetCliOptions>();
  auto* c = parent.add_subcommand(
      "reset", "Reset terrain to the base everywhere but the kept shapes, or inside the dropped ones");
  auto& j = o->job;
  c->add_option("input", j.input, ".save (rewritten in place) or terrain.dat ('-' = stdin)")->required();
  c->add_option("-o,--output", j.output, "New terrain.dat ('-' = stdout), or a new .save for a save");
  c->add_flag("--in-place", j.in_place, "Rewrite a terrain.dat input (saves always are, unless -o)");
  add_backup_flags(c, o->backup);
  c->add_flag("-n,--dry-run", j.dry_run, "Report what would change; write nothing");
  auto shape = [&](const char* name, std::vector<std::string>& dst, const char* help) {
    c->add_option(name, dst, help)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  shape("--keep-box", o->keep_box, "Keep a box x0,y0,z0,x1,y1,z1 (world voxels, inclusive; repeatable)");
  shape("--keep-sphere", o->keep_sphere, "Keep a sphere x,y,z,r (repeatable)");
  shape("--keep-radius", o->keep_radius, "Keep columns within r of x,z: trims far terrain (repeatable)");
  shape("--drop-box", o->drop_box, "Reset only inside a box x0,y0,z0,x1,y1,z1 (repeatable)");
  shape("--drop-sphere", o->drop_sphere, "Reset only inside a sphere x,y,z,r (repeatable)");
  shape("--drop-radius", o->drop_radius, "Reset only in columns within r of x,z (repeatable)");
  c->add_flag("--keep-rooms", j.keep_rooms, "Keep the rooms of world.xml (one box per room) plus --margin");
  c->add_flag("--reset-all-if-no-rooms", j.reset_all_if_no_rooms,
              "With --keep-rooms, reset all terrain when world.xml has no rooms (refused otherwise)");
  c->add_option("--margin", j.margin, "Voxels kept around room cells")->capture_default_str();
  c->add_flag("--rooms-bbox", j.rooms_bbox, "Keep the single bounding box of all rooms instead");
  c->add_option("--world-xml", j.world, "world.xml to read rooms from, beside a bare terrain.dat");
  c->add_flag("--keep-checksums", j.keep_checksums,
              "Leave world.xml's TerrainChunkChecksums as they are (default: set to 0)");
  c->add_flag("--compat", j.compat,
              "Write what terrain_reset.py writes: one keep box (--keep-rooms: the rooms' "
              "bounding box), branch flags as read, no top-level rule, no collapse");
  c->add_option("--max-output", j.max_output, "Refuse a reset whose terrain.dat would exceed BYTES")
      ->capture_default_str();
  c->add_flag("--json", o->json, "Print the report as JSON");
  c->add_flag("--any-depth", j.any_depth, "Accept maxDepth 0..24, not only 10..12");
  c->callback([&ctx, o] { run(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
