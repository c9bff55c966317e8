// voxkit octree reset: reset terrain to the base everywhere except what is kept, or only
// inside what is dropped (docs/octree-reset.md).
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "formats/io.hpp"
#include "formats/save.hpp"
#include "formats/world_xml.hpp"
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
  bool keep_rooms = false, rooms_bbox = false, keep_checksums = false;
  int64_t margin = 3;
  std::string world;  // world.xml beside a bare terrain.dat (rooms only)
};

// Adds the rooms of world.xml to the keep shapes: one box per room, or their single
// bounding box (--rooms-bbox, --compat). Refuses a world without rooms unless forced.
void add_rooms(const Context& ctx, const ResetCliOptions& o, const Loaded& in, octree::Region& r,
               nlohmann::json& report) {
  std::string xml;
  std::string source;
  if (in.world) {
    xml = *in.world;
    source = in.name + " (world.xml)";
  } else if (!o.world.empty()) {
    xml = load_world(o.world);
    source = io::display_name(o.world);
  } else {
    throw_usage("octree reset --keep-rooms needs a .save or --world world.xml");
  }
  const auto rooms = rooms_of(xml, source);
  const size_t cells = octree::room_cell_count(rooms);
  auto& jr = report["rooms"] = nlohmann::json::object();
  jr["rooms"] = rooms.size();
  jr["cells"] = cells;
  jr["margin"] = o.margin;
  jr["bbox"] = o.rooms_bbox || o.compat;
  if (cells == 0) {
    if (!ctx.force) {
      throw_data(source + " has no rooms: a rooms-based reset would reset all terrain "
                 "(-f/--force to do it anyway)");
    }
    ctx.warn(source + " has no rooms; resetting as forced");
  }
  if (o.rooms_bbox || o.compat) {
    // With no cells terrain_reset.py keeps the box (0,0,0)-(0,0,0); --compat does the same.
    if (cells > 0 || o.compat) r.keep.push_back(octree::Shape::make_box(octree::rooms_bounding_box(rooms, o.margin)));
  } else {
    for (const auto& b : octree::room_boxes(rooms, o.margin)) r.keep.push_back(octree::Shape::make_box(b));
  }
}

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

// Writes the reset terrain (and world.xml with zeroed checksums) back into a save:
// in place through save::rewrite (backup first), or into a copy named by -o.
nlohmann::json write_save(const Context& ctx, const ResetCliOptions& o, const Loaded& in,
                          std::vector<uint8_t> terrain, const std::vector<octree::CopyRun>& copies) {
  std::map<std::string, std::vector<uint8_t>> replace;
  replace["terrain.dat"] = std::move(terrain);
  nlohmann::json rep;
  const auto values = world_xml::read_checksums(*in.world);
  size_t nonzero = 0;
  for (auto v : values) nonzero += v != 0;
  auto& jc = rep["checksums"] = nlohmann::json::object();
  jc["entries"] = values.size();
  jc["nonzero"] = nonzero;
  jc["zeroed"] = !o.keep_checksums;
  if (!o.keep_checksums && nonzero > 0) {
    const std::string xml = world_xml::replace_checksums(*in.world, {});
    replace["world.xml"] = std::vector<uint8_t>(xml.begin(), xml.end());
  }
  save::RewriteOptions ro;
  ro.previous["terrain.dat"] = {&in.terrain_origin, in.bytes, {}};
  for (const auto& c : copies) ro.previous["terrain.dat"].runs.push_back({c.to, c.from, c.len});
  ro.previous["world.xml"] = {&in.world_origin,
                              {reinterpret_cast<const uint8_t*>(in.world->data()), in.world->size()},
                              {}};
  ro.dry_run = o.dry_run;
  ro.force_backup = ctx.force;
  std::string target = o.input;
  if (!o.output.empty() && !o.dry_run) {
    // A new save: copy the input, then rewrite the copy (no backup of a fresh file).
    io::write_file(o.output, io::read_all(o.input), ctx.out());
    target = o.output;
    ro.backup = false;
  } else {
    ro.backup = !o.no_backup;
  }
  save::RewriteResult res;
  try {
    res = save::rewrite(target, replace, ro);
  } catch (...) {
    if (target != o.input) std::filesystem::remove(target);
    throw;
  }
  auto& js = rep["save"] = nlohmann::json::object();
  js["members"] = res.members;
  js["bytes_before"] = res.bytes_before;
  js["bytes_after"] = res.bytes_after;
  js["backup"] = res.backup.empty() ? nlohmann::json() : nlohmann::json(res.backup);
  js["written"] = res.written;
  uint64_t reused = 0;
  for (const auto& m : res.replaced) reused += m.reused;
  js["reused_bytes"] = reused;
  rep["output"] = res.written ? nlohmann::json(target) : nlohmann::json();
  return rep;
}

void run_reset(const Context& ctx, ResetCliOptions& o) {
  if (o.in_place && !o.output.empty()) throw_usage("octree reset: give -o OUT or --in-place, not both");
  if (o.input == "-" && o.in_place) throw_usage("octree reset: --in-place needs a file, not stdin");
  if (o.margin < 0 || o.margin > 4096) throw_usage("octree reset: --margin must be 0..4096");
  const bool save_in = is_zip_file(o.input);
  if (!save_in && !o.in_place && o.output.empty() && !o.dry_run) {
    throw_usage("octree reset: give -o OUT, --in-place or --dry-run");
  }
  octree::ResetOptions ro;
  ro.region = region_of(o);
  ro.compat = o.compat;
  if (ro.region.keep.empty() && ro.region.drop.empty() && !o.keep_rooms) {
    throw_usage("octree reset: nothing to keep or drop (give --keep-*, --keep-rooms or --drop-* shapes)");
  }
  if (o.compat && (!ro.region.drop.empty() || ro.region.keep.size() + (o.keep_rooms ? 1 : 0) != 1 ||
                   (!o.keep_rooms && ro.region.keep[0].kind != octree::Shape::Kind::Box))) {
    throw_usage("octree reset --compat keeps exactly one box (--keep-rooms or one --keep-box) and drops nothing");
  }
  // For a save the target is the save itself (or -o, a new save).
  const std::string target = save_in ? (o.output.empty() ? o.input : o.output)
                                     : (o.in_place ? o.input : o.output);
  const bool rewrite_input = target == o.input;
  const std::string backup = o.input + ".bak";
  if (!o.dry_run) {
    io::check_output(target, rewrite_input ? io::OutputOptions{true, true} : ctx.out());
    if (rewrite_input && !o.no_backup) io::check_output(backup, ctx.out());
  }
  const Loaded in = load(o.input, o.any_depth);
  nlohmann::json report = nlohmann::json::object();
  if (o.keep_rooms) add_rooms(ctx, o, in, ro.region, report);
  octree::ResetStats st;
  std::vector<octree::CopyRun> copies;
  if (in.is_save) ro.copies = &copies;
  auto out = octree::reset(in.view, ro, &st);
  if (in.is_save) {
    report.update(write_save(ctx, o, in, std::move(out), copies));
  } else {
    if (!o.dry_run) {
      if (rewrite_input && !o.no_backup) io::write_file(backup, in.bytes, ctx.out());
      io::write_file(target, out, rewrite_input ? io::OutputOptions{true, true} : ctx.out());
      report["output"] = io::display_name(target);
      if (rewrite_input && !o.no_backup) report["backup"] = backup;
    } else {
      report["output"] = nlohmann::json();
    }
  }
  if (o.json) {
    auto j = stats_json(st);
    j.update(report);
    j["file"] = in.name;
    j["kind"] = in.is_save ? "save" : "terrain.dat";
    j["dry_run"] = o.dry_run;
    j["compat"] = o.compat;
    j["keep"] = nlohmann::json::array();
    j["drop"] = nlohmann::json::array();
    for (const auto& sh : ro.region.keep) j["keep"].push_back(sh.describe());
    for (const auto& sh : ro.region.drop) j["drop"].push_back(sh.describe());
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  const bool to_stdout = !in.is_save && target == "-";
  if (ctx.quiet && to_stdout) return;
  std::FILE* f = to_stdout ? stderr : stdout;
  std::fprintf(f, "%s%s: reset%s\n", o.dry_run ? "dry run: " : "", in.name.c_str(),
               o.compat ? " (terrain_reset.py compatible)" : "");
  if (report.contains("rooms")) {
    std::fprintf(f, "  rooms: %d with %d cells, margin %lld%s\n", report["rooms"]["rooms"].get<int>(),
                 report["rooms"]["cells"].get<int>(), (long long)o.margin,
                 report["rooms"]["bbox"].get<bool>() ? ", one bounding box" : ", one box each");
  }
  const size_t shown = std::min<size_t>(ro.region.keep.size(), 20);
  for (size_t i = 0; i < shown; ++i) std::fprintf(f, "  keep %s\n", ro.region.keep[i].describe().c_str());
  if (ro.region.keep.size() > shown) std::fprintf(f, "  ... %zu more kept boxes\n", ro.region.keep.size() - shown);
  for (const auto& s : ro.region.drop) std::fprintf(f, "  drop %s\n", s.describe().c_str());
  print_text(f, st);
  if (report.contains("checksums")) {
    const auto& c = report["checksums"];
    std::fprintf(f, "world.xml: %d TerrainChunkChecksums, %s\n", c["entries"].get<int>(),
                 c["zeroed"].get<bool>() ? "set to 0" : "left as they were (--keep-checksums)");
  }
  if (report.contains("save")) {
    const auto& sv = report["save"];
    if (sv["written"].get<bool>()) {
      std::fprintf(f, "save: %s written (%llu -> %llu bytes)%s%s\n", report["output"].get<std::string>().c_str(),
                   sv["bytes_before"].get<unsigned long long>(), sv["bytes_after"].get<unsigned long long>(),
                   sv["backup"].is_null() ? "" : ", backup ",
                   sv["backup"].is_null() ? "" : sv["backup"].get<std::string>().c_str());
    }
  }
}

}  // namespace

void add_reset(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<ResetCliOptions>();
  auto* c = parent.add_subcommand(
      "reset", "Reset terrain to the base everywhere but the kept shapes, or inside the dropped ones");
  c->add_option("input", o->input, ".save (rewritten in place) or terrain.dat ('-' = stdin)")->required();
  c->add_option("-o,--output", o->output, "New terrain.dat ('-' = stdout), or a new .save for a save");
  c->add_flag("--in-place", o->in_place, "Rewrite a terrain.dat input (saves always are, unless -o)");
  c->add_flag("--no-backup", o->no_backup, "Make no INPUT.bak before rewriting the input");
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
  c->add_flag("--keep-rooms", o->keep_rooms, "Keep the rooms of world.xml (one box per room) plus --margin");
  c->add_option("--margin", o->margin, "Voxels kept around room cells")->capture_default_str();
  c->add_flag("--rooms-bbox", o->rooms_bbox, "Keep the single bounding box of all rooms instead");
  c->add_option("--world", o->world, "world.xml to read rooms from, beside a bare terrain.dat");
  c->add_flag("--keep-checksums", o->keep_checksums,
              "Leave world.xml's TerrainChunkChecksums as they are (default: set to 0)");
  c->add_flag("--compat", o->compat,
              "Write what terrain_reset.py writes: one keep box (--keep-rooms: the rooms' "
              "bounding box), branch flags as read, no top-level rule, no collapse");
  c->add_flag("--json", o->json, "Print the report as JSON");
  c->add_flag("--any-depth", o->any_depth, "Accept maxDepth 0..24, not only 10..12");
  c->callback([&ctx, o] { run_reset(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
