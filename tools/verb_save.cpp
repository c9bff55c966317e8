// voxkit save list|extract|replace|rooms: Stationeers .save archives and their world.xml.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/save_info.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct SaveOptions {
  std::string save;
  std::string member;
  std::string output = "-";
  std::vector<std::string> replacements;  // MEMBER=FILE
  uint64_t max_bytes = io::kDefaultMaxInput;
  bool json = false, dry_run = false, no_backup = false, force_backup = false, recompress = false;
  int level = 1;
  int64_t margin = 3;
};

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// world.xml from a .save (a ZIP) or a plain XML file.
std::string load_world_xml(const std::string& path, uint64_t max_bytes) {
  auto bytes = io::read_all(path, max_bytes);
  if (zip::starts_like_zip(bytes)) {
    bytes = with_source(io::display_name(path),
                        [&] { return save::read_member(bytes, "world.xml", max_bytes); });
  }
  return std::string(bytes.begin(), bytes.end());
}

void run_list(const Context& ctx, const SaveOptions& o) {
  auto members = save::list_members(o.save);
  if (o.json) {
    nlohmann::json j = {{"file", o.save}, {"members", nlohmann::json::array()}};
    for (auto& m : members) {
      j["members"].push_back({{"name", m.name}, {"method", m.method}, {"size", m.size},
                              {"compressed_size", m.compressed_size},
                              {"crc32", hex32(m.crc32).substr(2)}, {"data_descriptor", (m.flags & 8) != 0},
                              {"offset", m.offset}});
    }
    print(j.dump(2) + "\n");
    return;
  }
  std::string out;
  for (auto& m : members) {
    // A name is bytes from the archive: control characters must not reach the terminal.
    out += escape_text(m.name) + "\t" + (m.method == 0 ? "stored" : m.method == 8 ? "deflate"
                                                                     : "method " + std::to_string(m.method)) +
           "\t" + std::to_string(m.size) + "\t" + std::to_string(m.compressed_size) + "\t" +
           hex32(m.crc32).substr(2) + "\n";
  }
  print(out);
  ctx.info("save: " + std::to_string(members.size()) + " members");
}

void run_replace(const Context& ctx, const SaveOptions& o) {
  std::map<std::string, std::vector<uint8_t>> replace;
  for (const auto& r : o.replacements) {
    auto eq = r.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == r.size()) {
      throw_usage("expected MEMBER=FILE, found '" + r + "'");
    }
    std::string name = r.substr(0, eq);
    if (replace.count(name)) throw_usage("member " + name + " given twice");
    replace[name] = io::read_all(r.substr(eq + 1), o.max_bytes);
  }
  save::RewriteOptions ro;
  ro.backup = !o.no_backup;
  ro.force_backup = o.force_backup;
  ro.dry_run = o.dry_run;
  ro.level = o.level;
  ro.reuse = !o.recompress;
  ro.progress = ctx.progress("save");
  auto res = save::rewrite(o.save, replace, ro);
  if (o.json) {
    nlohmann::json j = {{"file", o.save},         {"dry_run", o.dry_run},
                        {"written", res.written}, {"backup", res.backup.empty() ? nlohmann::json(nullptr) : nlohmann::json(res.backup)},
                        {"members", res.members}, {"bytes_before", res.bytes_before},
                        {"bytes_after", res.bytes_after}, {"replaced", nlohmann::json::array()}};
    for (auto& c : res.replaced) {
      j["replaced"].push_back({{"name", c.name}, {"changed", c.changed}, {"method", c.method},
                               {"old_size", c.old_size}, {"new_size", c.new_size},
                               {"old_compressed_size", c.old_compressed},
                               {"new_compressed_size", c.new_compressed},
                               {"reused_bytes", c.reused}});
    }
    print(j.dump(2) + "\n");
    return;
  }
  for (auto& c : res.replaced) {
    ctx.info("save: " + c.name + ": " + (c.changed ? "" : "unchanged, ") +
             std::to_string(c.old_size) + " -> " + std::to_string(c.new_size) + " bytes (" +
             std::to_string(c.old_compressed) + " -> " + std::to_string(c.new_compressed) +
             " compressed" +
             (c.reused ? ", " + std::to_string(c.reused) + " bytes' old compressed blocks kept" : "") +
             ")");
  }
  ctx.info(std::string("save: ") + (o.dry_run ? "would write " : "wrote ") +
           std::to_string(res.bytes_after) + " bytes (was " + std::to_string(res.bytes_before) +
           ")" + (res.backup.empty() ? "" : "; backup " + res.backup));
}

void run_rooms(const Context& ctx, const SaveOptions& o) {
  const std::string doc = load_world_xml(o.save, o.max_bytes);
  auto rooms = with_source(io::display_name(o.save), [&] { return world_xml::read_rooms(doc); });
  auto sums = with_source(io::display_name(o.save), [&] { return world_xml::read_checksums(doc); });
  const Box3i all = octree::rooms_bounding_box(rooms, o.margin);
  if (o.json) {
    nlohmann::json j = {{"file", o.save}, {"margin", o.margin}, {"rooms", nlohmann::json::array()},
                        {"checksums", sums.size()}};
    for (auto& r : rooms) {
      nlohmann::json jr = {{"cells", r.cells.size()}};
      const Box3i b = octree::room_box(r, o.margin);
      jr["box"] = save_info::box_json(b);
      j["rooms"].push_back(jr);
    }
    j["bbox"] = save_info::box_json(all);
    print(j.dump(2) + "\n");
    return;
  }
  std::string out;
  for (size_t i = 0; i < rooms.size(); ++i) {
    const Box3i b = octree::room_box(rooms[i], o.margin);
    out += "room " + std::to_string(i + 1) + "\t" + std::to_string(rooms[i].cells.size()) +
           " cells\t" + save_info::box_text(b) + "\n";
  }
  out += "all rooms\t" + save_info::box_text(all) + "\n";
  print(out);
  ctx.info("save: " + std::to_string(rooms.size()) + " rooms, " + std::to_string(sums.size()) +
           " terrain chunk checksums, margin " + std::to_string(o.margin));
}

}  // namespace

void add_save_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("save", "Stationeers .save archives: list, extract, replace "
                                         "members; rooms of world.xml");
  cmd->require_subcommand(1);
  auto opt = std::make_shared<SaveOptions>();

  auto* list = cmd->add_subcommand("list", "List the members of a .save, in archive order");
  list->add_option("save", opt->save, "The .save file")->required();
  list->add_flag("--json", opt->json, "Print JSON: {file, members: [{name, method, size, "
                                      "compressed_size, crc32, data_descriptor, offset}]}");
  list->callback([&ctx, opt] { run_list(ctx, *opt); });

  auto* ext = cmd->add_subcommand("extract", "Write one member's uncompressed bytes");
  ext->add_option("save", opt->save, "The .save file")->required();
  ext->add_option("member", opt->member, "Member name, e.g. terrain.dat")->required();
  ext->add_option("-o,--output", opt->output, "Output file ('-' = stdout)")->capture_default_str();
  ext->add_option("--max-input", opt->max_bytes, "Refuse a member larger than this")
      ->capture_default_str();
  ext->callback([&ctx, opt] {
    io::check_output(opt->output, ctx.out());
    auto bytes = save::read_member(opt->save, opt->member, opt->max_bytes);
    io::write_file(opt->output, bytes, ctx.out());
    ctx.info("save: " + opt->member + ": " + std::to_string(bytes.size()) + " bytes");
  });

  auto* rep = cmd->add_subcommand(
      "replace", "Replace members in place; every other member is kept byte for byte");
  rep->add_option("save", opt->save, "The .save file (rewritten atomically)")->required();
  rep->add_option("replacements", opt->replacements, "MEMBER=FILE, one or more")->required();
  rep->add_flag("-n,--dry-run", opt->dry_run, "Report what would change; write nothing");
  rep->add_flag("--no-backup", opt->no_backup, "Do not keep the old file as SAVE.bak");
  rep->add_flag("--force-backup", opt->force_backup, "Replace an existing SAVE.bak");
  rep->add_option("--level", opt->level, "zlib level for deflated members")
      ->capture_default_str()
      ->check(CLI::Range(1, 9));
  rep->add_flag("--recompress", opt->recompress,
                "Compress replaced members whole instead of keeping the old compressed blocks "
                "of their unchanged parts");
  rep->add_option("--max-input", opt->max_bytes, "Refuse replacement files larger than this")
      ->capture_default_str();
  rep->add_flag("--json", opt->json, "Print JSON: {file, dry_run, written, backup, members, "
                                     "bytes_before, bytes_after, replaced: [...]}");
  rep->callback([&ctx, opt] { run_replace(ctx, *opt); });

  auto* rooms = cmd->add_subcommand(
      "rooms", "Rooms of world.xml (from a .save or a world.xml) as world-voxel boxes");
  rooms->add_option("save", opt->save, "A .save or a world.xml ('-' = stdin)")->required();
  rooms->add_option("--margin", opt->margin, "Voxels added around every cell")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(0), int64_t(1) << 20));
  rooms->add_option("--max-input", opt->max_bytes, "Refuse a world.xml larger than this")
      ->capture_default_str();
  rooms->add_flag("--json", opt->json, "Print JSON: {file, margin, rooms: [{cells, box}], "
                                       "bbox, checksums}");
  rooms->callback([&ctx, opt] { run_rooms(ctx, *opt); });
}

}  // namespace voxkit::cli
