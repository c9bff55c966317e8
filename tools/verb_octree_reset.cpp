// voxkit octree reset: reset terrain to the base everywhere except what is kept, or only
// inside what is dropped (docs/octree-reset.md).
#include <cstdio>
#include <filesystem>
#include <memory>

#include "formats/io.hpp"
#include "lib/error.hpp"
#include "lib/octree_reset.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct ResetCliOptions {
  std::string input, output;
  std::vector<std::string> keep_box, keep_sphere, keep_radius, drop_box, drop_sphere, drop_radius;
  bool in_place = false, no_backup = false, dry_run = false, compat = false, json = false;
  bool any_depth = false;
};

octree::Region region_of(const ResetCliOptions& o) {
  octree::Region r;
  for (const auto& s : o.keep_box) r.keep.push_back(octree::Shape::make_box(parse_box(s)));
  for (const auto& s : o.keep_sphere) r.keep.push_back(parse_sphere(s));
  for (const auto& s : o.keep_radius) r.keep.push_back(parse_cylinder(s));
  for (const auto& s : o.drop_box) r.drop.push_back(octree::Shape::make_box(parse_box(s)));
  for (const auto& s : o.drop_sphere) r.drop.push_back(parse_sphere(s));
  for (const auto& s : o.drop_radius) r.drop.push_back(parse_cylinder(s));
  return r;
}

nlohmann::json stats_json(const octree::ResetStats& s) {
  return {{"nodes", {{"before", s.nodes_before}, {"after", s.nodes_after}, {"reset", s.nodes_reset},
                     {"kept", s.nodes_before - s.nodes_reset}}},
          {"subtrees_reset", s.subtrees_reset},
          {"modified_leaves", {{"reset", s.modified_leaves_reset}, {"kept", s.modified_leaves_kept},
                               {"split", s.modified_leaves_split}}},
          {"branches_collapsed", s.branches_collapsed},
          {"veins", {{"reset", s.veins_reset}, {"kept", s.veins_kept}}},
          {"bytes", {{"before", s.bytes_before}, {"after", s.bytes_after}}}};
}

void print_text(std::FILE* f, const octree::ResetStats& s) {
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  std::fprintf(f, "nodes: %llu -> %llu (%llu reset in %llu subtrees, %llu kept)\n",
               u(s.nodes_before), u(s.nodes_after), u(s.nodes_reset), u(s.subtrees_reset),
               u(s.nodes_before - s.nodes_reset));
  std::fprintf(f, "modified leaves: %llu reset, %llu kept\n", u(s.modified_leaves_reset),
               u(s.modified_leaves_kept));
  if (s.modified_leaves_split) {
    std::fprintf(f, "modified leaves split at a shape's boundary: %llu\n", u(s.modified_leaves_split));
  }
  if (s.branches_collapsed) std::fprintf(f, "branches collapsed: %llu\n", u(s.branches_collapsed));
  std::fprintf(f, "veins: %llu reset, %llu kept\n", u(s.veins_reset), u(s.veins_kept));
  std::fprintf(f, "bytes: %llu -> %llu\n", u(s.bytes_before), u(s.bytes_after));
}

void run_reset(const Context& ctx, ResetCliOptions& o) {
  if (o.in_place && !o.output.empty()) throw_usage("octree reset: give -o OUT or --in-place, not both");
  if (!o.in_place && o.output.empty() && !o.dry_run) {
    throw_usage("octree reset: give -o OUT, --in-place or --dry-run");
  }
  octree::ResetOptions ro;
  ro.region = region_of(o);
  ro.compat = o.compat;
  if (ro.region.keep.empty() && ro.region.drop.empty()) {
    throw_usage("octree reset: nothing to keep or drop (give --keep-* or --drop-* shapes)");
  }
  if (o.compat && (ro.region.keep.size() != 1 || !ro.region.drop.empty() ||
                   ro.region.keep[0].kind != octree::Shape::Kind::Box)) {
    throw_usage("octree reset --compat keeps exactly one box (the rooms' bounding box) and drops nothing");
  }
  if (o.input == "-" && o.in_place) throw_usage("octree reset: --in-place needs a file, not stdin");
  const std::string target = o.in_place ? o.input : o.output;
  const std::string backup = o.input + ".bak";
  if (!o.dry_run) {
    io::check_output(target, o.in_place ? io::OutputOptions{true, true} : ctx.out());
    if (o.in_place && !o.no_backup) io::check_output(backup, ctx.out());
  }
  const Loaded in = load(o.input, o.any_depth);
  octree::ResetStats st;
  const auto out = octree::reset(in.view, ro, &st);
  if (!o.dry_run) {
    if (o.in_place && !o.no_backup) io::write_file(backup, in.bytes, ctx.out());
    io::write_file(target, out, o.in_place ? io::OutputOptions{true, true} : ctx.out());
  }
  if (o.json) {
    auto j = stats_json(st);
    j["file"] = in.name;
    j["dry_run"] = o.dry_run;
    j["compat"] = o.compat;
    j["keep"] = nlohmann::json::array();
    j["drop"] = nlohmann::json::array();
    for (const auto& sh : ro.region.keep) j["keep"].push_back(sh.describe());
    for (const auto& sh : ro.region.drop) j["drop"].push_back(sh.describe());
    j["output"] = o.dry_run ? nlohmann::json() : nlohmann::json(io::display_name(target));
    if (o.in_place && !o.no_backup && !o.dry_run) j["backup"] = backup;
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  if (ctx.quiet && target == "-") return;
  std::FILE* f = target == "-" ? stderr : stdout;
  std::fprintf(f, "%s%s: reset%s\n", o.dry_run ? "dry run: " : "", in.name.c_str(),
               o.compat ? " (terrain_reset.py compatible)" : "");
  for (const auto& s : ro.region.keep) std::fprintf(f, "  keep %s\n", s.describe().c_str());
  for (const auto& s : ro.region.drop) std::fprintf(f, "  drop %s\n", s.describe().c_str());
  print_text(f, st);
}

}  // namespace

void add_reset(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<ResetCliOptions>();
  auto* c = parent.add_subcommand(
      "reset", "Reset terrain to the base everywhere but the kept shapes, or inside the dropped ones");
  c->add_option("input", o->input, "terrain.dat ('-' = stdin)")->required();
  c->add_option("-o,--output", o->output, "New terrain.dat ('-' = stdout)");
  c->add_flag("--in-place", o->in_place, "Rewrite the input (after copying it to INPUT.bak)");
  c->add_flag("--no-backup", o->no_backup, "With --in-place: make no .bak copy");
  c->add_flag("--dry-run", o->dry_run, "Report what would change; write nothing");
  auto shape = [&](const char* name, std::vector<std::string>& dst, const char* help) {
    c->add_option(name, dst, help)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  shape("--keep-box", o->keep_box, "Keep a box x0,y0,z0,x1,y1,z1 (world voxels, inclusive; repeatable)");
  shape("--keep-sphere", o->keep_sphere, "Keep a sphere x,y,z,r (repeatable)");
  shape("--keep-radius", o->keep_radius, "Keep columns within r of x,z: trims far terrain (repeatable)");
  shape("--drop-box", o->drop_box, "Reset only inside a box x0,y0,z0,x1,y1,z1 (repeatable)");
  shape("--drop-sphere", o->drop_sphere, "Reset only inside a sphere x,y,z,r (repeatable)");
  shape("--drop-radius", o->drop_radius, "Reset only in columns within r of x,z (repeatable)");
  c->add_flag("--compat", o->compat,
              "Write what terrain_reset.py writes: one keep box, branch flags as read, no "
              "top-level rule, no collapse");
  c->add_flag("--json", o->json, "Print the report as JSON");
  c->add_flag("--any-depth", o->any_depth, "Accept maxDepth 0..24, not only 10..12");
  c->callback([&ctx, o] { run_reset(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
