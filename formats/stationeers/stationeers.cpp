// Stationeers terrain files: loading a delta from terrain.dat or a .save, and the reset job.
#include "formats/stationeers/stationeers.hpp"

#include <tbb/parallel_invoke.h>

#include <cstdio>
#include <map>

#include "formats/stationeers/world_xml.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"

namespace voxkit::stationeers {

bool is_save_file(const std::string& path) { return path != "-" && zip::is_zip_file(path); }

Loaded load(const std::string& path, bool any_depth) {
  Loaded l;
  l.path = path;
  l.name = io::display_name(path);
  if (is_save_file(path)) {
    l.is_save = true;
    with_source(l.name, [&] {
      // The two members inflate on two cores.
      std::vector<uint8_t> xml;
      tbb::parallel_invoke(
          [&] { l.bytes = save::read_member(path, "terrain.dat", kMaxTerrainBytes, &l.terrain_origin); },
          [&] { xml = save::read_member(path, "world.xml", kMaxWorldBytes, &l.world_origin); });
      l.world = std::string(xml.begin(), xml.end());
    });
    l.view = with_source(l.name + " (terrain.dat)", [&] { return octree::parse(l.bytes, {any_depth}); });
    return l;
  }
  l.bytes = io::read_all(path, kMaxTerrainBytes);
  l.view = with_source(l.name, [&] { return octree::parse(l.bytes, {any_depth}); });
  return l;
}

std::string load_world(const std::string& path) { return io::read_text(path, kMaxWorldBytes); }

std::vector<octree::Room> rooms_of(const std::string& xml, const std::string& name) {
  return with_source(name, [&] { return world_xml::read_rooms(xml); });
}

namespace {

// The target of a job: a save is rewritten in place unless -o names a new one; a bare
// terrain.dat goes to -o, or back into itself with --in-place.
struct Plan {
  bool save_in = false;
  std::string target;
  bool in_place = false;
};

Plan plan_of(const ResetJob& j) {
  Plan p;
  p.save_in = is_save_file(j.input);
  p.target = p.save_in ? (j.output.empty() ? j.input : j.output) : (j.in_place ? j.input : j.output);
  p.in_place = p.target == j.input && !j.dry_run;
  return p;
}

io::OutputOptions output_options(const ResetJob& j, const Plan& p) {
  io::OutputOptions o = j.out;
  if (p.in_place) {
    o.in_place = true;
    o.backup = j.backup;
  }
  return o;
}

// Adds the rooms of world.xml to the keep shapes: one box per room, or their single
// bounding box (--rooms-bbox, --compat).
void add_rooms(const ResetJob& j, const Loaded& in, octree::Region& r, ResetReport& rep) {
  std::string xml, source;
  if (in.world) {
    xml = *in.world;
    source = in.name + " (world.xml)";
  } else if (!j.world.empty()) {
    xml = load_world(j.world);
    source = io::display_name(j.world);
  } else {
    throw_usage("keeping rooms needs a .save or the world file world.xml",
                {{"keep-rooms", "keeping rooms"}, {"world", "the world file"}});
  }
  const auto rooms = rooms_of(xml, source);
  const size_t cells = octree::room_cell_count(rooms);
  rep.rooms = ResetReport::Rooms{rooms.size(), cells, j.margin, j.rooms_bbox || j.compat};
  if (cells == 0) {
    if (!j.reset_all_if_no_rooms) {
      Error e(ErrorKind::Data, source + " has no rooms: a rooms-based reset would reset all terrain");
      e.set_hint("reset-all-if-no-rooms");
      throw e;
    }
    rep.warnings.push_back(source + " has no rooms; resetting all terrain as asked");
  }
  if (j.compat) {
    // With no cells terrain_reset.py keeps the box (0,0,0)-(0,0,0); --compat does the same.
    r.keep.push_back(octree::Shape::make_box(octree::compat_keep_box(rooms, j.margin)));
  } else if (j.rooms_bbox) {
    if (cells > 0) r.keep.push_back(octree::Shape::make_box(octree::rooms_bounding_box(rooms, j.margin)));
  } else {
    for (const auto& b : octree::room_boxes(rooms, j.margin)) r.keep.push_back(octree::Shape::make_box(b));
  }
}

// Writes the reset terrain (and world.xml with zeroed checksums) into the save or into a
// new save: either way the new archive is written beside its target and renamed into place.
void write_save(const ResetJob& j, const Plan& p, const Loaded& in, std::vector<uint8_t> terrain,
                const std::vector<octree::CopyRun>& copies, ResetReport& rep) {
  std::map<std::string, std::vector<uint8_t>> replace;
  replace["terrain.dat"] = std::move(terrain);
  const auto values = world_xml::read_checksums(*in.world);
  size_t nonzero = 0;
  for (auto v : values) nonzero += v != 0;
  rep.checksums = ResetReport::Checksums{values.size(), nonzero, !j.keep_checksums};
  if (!j.keep_checksums && nonzero > 0) {
    const std::string xml = world_xml::replace_checksums(*in.world, {});
    replace["world.xml"] = std::vector<uint8_t>(xml.begin(), xml.end());
  }
  save::RewriteOptions ro;
  ro.previous["terrain.dat"] = {&in.terrain_origin, in.bytes, {}};
  for (const auto& c : copies) ro.previous["terrain.dat"].runs.push_back({c.to, c.from, c.len});
  ro.previous["world.xml"] = {&in.world_origin,
                              {reinterpret_cast<const uint8_t*>(in.world->data()), in.world->size()},
                              {}};
  ro.dry_run = j.dry_run;
  if (p.in_place) {
    ro.backup = j.backup.enabled;
    ro.force_backup = j.backup.force;
  } else if (!j.dry_run) {
    ro.output = p.target;
    ro.force = j.out.force;
  }
  const save::RewriteResult res = save::rewrite(j.input, replace, ro);
  uint64_t reused = 0;
  for (const auto& m : res.replaced) reused += m.reused;
  rep.save = ResetReport::SaveInfo{res.members, res.bytes_before, res.bytes_after, reused, res.written};
  if (!res.backup.empty()) rep.backup = res.backup;
  if (res.written) rep.output = p.target;
}

}  // namespace

ResetReport run_reset(const ResetJob& j) {
  const Plan p = plan_of(j);
  if (!j.dry_run) io::check_output(p.target, output_options(j, p));
  const Loaded in = load(j.input, j.any_depth);
  ResetReport rep;
  rep.file = in.name;
  rep.kind = in.is_save ? "save" : "terrain.dat";
  rep.dry_run = j.dry_run;
  rep.compat = j.compat;
  octree::ResetOptions ro;
  ro.region = j.region;
  ro.compat = j.compat;
  ro.max_output_bytes = j.max_output;
  if (j.keep_rooms) add_rooms(j, in, ro.region, rep);
  for (const auto& sh : ro.region.keep) rep.keep.push_back(sh.describe());
  for (const auto& sh : ro.region.drop) rep.drop.push_back(sh.describe());
  std::vector<octree::CopyRun> copies;
  if (in.is_save) ro.copies = &copies;
  auto out = with_source(in.is_save ? in.name + " (terrain.dat)" : in.name,
                         [&] { return octree::reset(in.view, ro, &rep.stats); });
  if (in.is_save) {
    write_save(j, p, in, std::move(out), copies, rep);
  } else if (!j.dry_run) {
    const std::string bak = io::write_file(p.target, out, output_options(j, p));
    rep.output = p.target == "-" ? std::string("<stdout>") : p.target;
    if (!bak.empty()) rep.backup = bak;
  }
  return rep;
}

nlohmann::json ResetReport::to_json() const {
  const auto& s = stats;
  nlohmann::json j = {
      {"nodes", {{"before", s.nodes_before}, {"after", s.nodes_after}, {"reset", s.nodes_reset},
                 {"kept", s.nodes_before - s.nodes_reset}}},
      {"subtrees_reset", s.subtrees_reset},
      {"modified_leaves", {{"reset", s.modified_leaves_reset}, {"kept", s.modified_leaves_kept},
                           {"split", s.modified_leaves_split}}},
      {"branches_collapsed", s.branches_collapsed},
      {"veins", {{"reset", s.veins_reset}, {"kept", s.veins_kept}}},
      {"bytes", {{"before", s.bytes_before}, {"after", s.bytes_after}}}};
  if (rooms) {
    j["rooms"] = {{"rooms", rooms->rooms}, {"cells", rooms->cells}, {"margin", rooms->margin}, {"bbox", rooms->bbox}};
  }
  if (checksums) {
    j["checksums"] = {{"entries", checksums->entries}, {"nonzero", checksums->nonzero}, {"zeroed", checksums->zeroed}};
  }
  if (save) {
    j["save"] = {{"members", save->members},
                 {"bytes_before", save->bytes_before},
                 {"bytes_after", save->bytes_after},
                 {"backup", backup ? nlohmann::json(*backup) : nlohmann::json()},
                 {"written", save->written},
                 {"reused_bytes", save->reused_bytes}};
  } else if (backup) {
    j["backup"] = *backup;
  }
  j["output"] = output ? nlohmann::json(*output) : nlohmann::json();
  j["file"] = file;
  j["kind"] = kind;
  j["dry_run"] = dry_run;
  j["compat"] = compat;
  j["keep"] = keep;
  j["drop"] = drop;
  return j;
}

std::string ResetReport::to_text() const {
  std::string t;
  auto line = [&t](const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    t += buf;
  };
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  line("%s%s: reset%s\n", dry_run ? "dry run: " : "", file.c_str(), compat ? " (terrain_reset.py compatible)" : "");
  if (rooms) {
    line("  rooms: %zu with %zu cells, margin %lld%s\n", rooms->rooms, rooms->cells, (long long)rooms->margin,
         rooms->bbox ? ", one bounding box" : ", one box each");
  }
  const size_t shown = std::min<size_t>(keep.size(), 20);
  for (size_t i = 0; i < shown; ++i) t += "  keep " + keep[i] + "\n";
  if (keep.size() > shown) line("  ... %zu more kept boxes\n", keep.size() - shown);
  for (const auto& s : drop) t += "  drop " + s + "\n";
  const auto& s = stats;
  line("nodes: %llu -> %llu (%llu reset in %llu subtrees, %llu kept)\n", u(s.nodes_before), u(s.nodes_after),
       u(s.nodes_reset), u(s.subtrees_reset), u(s.nodes_before - s.nodes_reset));
  line("modified leaves: %llu reset, %llu kept\n", u(s.modified_leaves_reset), u(s.modified_leaves_kept));
  if (s.modified_leaves_split) line("modified leaves split at a shape's boundary: %llu\n", u(s.modified_leaves_split));
  if (s.branches_collapsed) line("branches collapsed: %llu\n", u(s.branches_collapsed));
  line("veins: %llu reset, %llu kept\n", u(s.veins_reset), u(s.veins_kept));
  line("bytes: %llu -> %llu\n", u(s.bytes_before), u(s.bytes_after));
  if (checksums) {
    line("world.xml: %zu TerrainChunkChecksums, %s\n", checksums->entries,
         checksums->zeroed ? "set to 0" : "left as they were, as asked");
  }
  if (save && save->written && output) {
    t += "save: " + *output + " written (" + std::to_string(save->bytes_before) + " -> " +
         std::to_string(save->bytes_after) + " bytes)" + (backup ? ", backup " + *backup : std::string()) + "\n";
  }
  return t;
}

}  // namespace voxkit::stationeers
