// voxkit octree checksum: the game's terrain checksum of Terrain{i}.dat base files (verified
// against the stored value) or of a terrain.dat node stream; and world.xml's
// TerrainChunkChecksums checked against the base files (--check) or rewritten from them
// (--update), bare or inside a .save. The world job is stationeers::run_checksums.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "formats/stationeers/world_checksums.hpp"
#include "lib/core/error.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct ChecksumOptions {
  std::vector<std::string> inputs;
  bool json = false, any_depth = false;
  bool check = false, update = false;
  stationeers::ChecksumJob job;
  BackupFlags backup;
};

// A world.xml (by name, or by a '<' as its first byte after whitespace and a UTF-8 BOM) or
// a .save: the inputs of the world mode.
bool looks_world(const std::string& path) {
  if (path == "-") return false;
  if (is_save_file(path)) return true;
  if (path.size() >= 4) {
    std::string ext = path.substr(path.size() - 4);
    for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".xml") return true;
  }
  std::ifstream f(path, std::ios::binary);
  char buf[64];
  f.read(buf, sizeof buf);
  size_t n = size_t(f.gcount()), i = 0;
  if (n >= 3 && uint8_t(buf[0]) == 0xef && uint8_t(buf[1]) == 0xbb && uint8_t(buf[2]) == 0xbf) i = 3;
  while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r')) ++i;
  return i < n && buf[i] == '<';
}

void run_files(const ChecksumOptions& o) {
  auto list = nlohmann::json::array();
  size_t mismatches = 0;
  for (const auto& path : o.inputs) {
    const std::string name = io::display_name(path);
    const auto bytes = io::read_all(path, terrain_base::kMaxInflated);
    nlohmann::json e{{"file", name}};
    if (terrain_base::looks_gzip(bytes)) {
      const auto f = with_source(name, [&] { return terrain_base::decode(bytes, false); });
      const bool ok = f.checksum_ok();
      mismatches += !ok;
      e["kind"] = "base";
      e["depth"] = f.depth;
      e["checksum"] = int32_t(f.computed_checksum);
      e["stored"] = f.stored_checksum;
      e["ok"] = ok;
      if (!o.json) {
        std::printf("%s: %d (stored %d, %s)\n", name.c_str(), int32_t(f.computed_checksum),
                    f.stored_checksum, ok ? "ok" : "MISMATCH");
      }
    } else {
      const auto v = with_source(name, [&] { return octree::parse(bytes, {o.any_depth}); });
      const uint32_t c = octree::checksum(v.nodes);
      e["kind"] = "terrain.dat";
      e["checksum"] = int32_t(c);
      if (!o.json) std::printf("%s: %d (node stream of terrain.dat)\n", name.c_str(), int32_t(c));
    }
    list.push_back(e);
  }
  if (o.json) std::printf("%s\n", nlohmann::json{{"files", list}}.dump(2).c_str());
  if (mismatches) {
    throw_data(std::to_string(mismatches) + " base file(s) with a stored checksum that does not match");
  }
}

void run_world(const Context& ctx, ChecksumOptions& o) {
  if (o.inputs.size() != 1) throw_usage("octree checksum --check/--update: give one world.xml or .save");
  if (o.check && o.update) throw_usage("octree checksum: give --check or --update, not both");
  auto& j = o.job;
  j.input = o.inputs[0];
  j.update = o.update;
  const bool save_in = stationeers::is_save_file(j.input);
  if (!j.update && (!j.output.empty() || j.in_place || j.dry_run || o.backup.no_backup || o.backup.force_backup)) {
    throw_usage("octree checksum: -o, --in-place, --dry-run and the backup flags go with --update");
  }
  if (j.update) {
    if (j.in_place && !j.output.empty()) throw_usage("octree checksum: give -o OUT or --in-place, not both");
    if (j.input == "-" && j.in_place) throw_usage("octree checksum: --in-place needs a file, not stdin");
    if (save_in && j.output == "-") throw_usage("octree checksum: a save cannot be written to stdout; name a file");
    if (!save_in && !j.in_place && j.output.empty() && !j.dry_run) {
      throw_usage("octree checksum --update: give -o OUT, --in-place or --dry-run for a bare world.xml");
    }
  }
  j.out = ctx.out(save_in);
  j.backup = o.backup.backup();
  const auto rep = stationeers::run_checksums(j);
  for (const auto& w : rep.warnings) ctx.warn(w);
  const bool stdout_is_output = j.output == "-" && !j.dry_run;
  ctx.report(o.json ? rep.to_json().dump(2) + "\n" : rep.to_text(), stdout_is_output, o.json);
  if (rep.damaged > 0) {
    throw_data(std::to_string(rep.damaged) + " base file(s) whose own checksum does not match their nodes");
  }
  if (!j.update && rep.differ > 0) throw ExitWith{kExitDiffer};
}

void run_checksum(const Context& ctx, ChecksumOptions& o) {
  const bool world = o.check || o.update || !o.job.base_dir.empty() ||
                     (o.inputs.size() == 1 && looks_world(o.inputs[0]));
  if (world) {
    run_world(ctx, o);
  } else {
    if (!o.job.output.empty() || o.job.in_place || o.job.dry_run) {
      throw_usage("octree checksum: -o, --in-place and --dry-run go with --update of a world.xml or .save");
    }
    run_files(o);
  }
}

}  // namespace

void add_checksum(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<ChecksumOptions>();
  auto* c = parent.add_subcommand(
      "checksum",
      "Terrain checksums: of Terrain{i}.dat base files (verified) or terrain.dat node streams; "
      "world.xml's TerrainChunkChecksums checked against the base files or rewritten from them");
  c->add_option("inputs", o->inputs,
                "Files ('-' = stdin); gzip files are base files. One world.xml or .save: its checksums "
                "against the base files")
      ->required();
  c->add_flag("--check", o->check,
              "Compare world.xml's checksums with the base files' (the default for a world.xml or "
              ".save); exit 3 when some differ");
  c->add_flag("--update", o->update, "Write the base files' checksums into world.xml (a save: in place unless -o)");
  c->add_option("--base-dir", o->job.base_dir,
                "Folder of Terrain{i}.dat (default: a save's own members, else the world.xml's folder)")
      ->type_name("DIR");
  c->add_option("-o,--output", o->job.output, "--update: new world.xml ('-' = stdout) or new .save");
  c->add_flag("--in-place", o->job.in_place, "--update: rewrite a bare world.xml (saves always are, unless -o)");
  c->add_flag("-n,--dry-run", o->job.dry_run, "--update: report what would change; write nothing");
  add_backup_flags(c, o->backup);
  c->add_flag("--json", o->json, "Print JSON");
  c->add_flag("--any-depth", o->any_depth, "Accept terrain.dat maxDepth 0..24");
  c->callback([&ctx, o] { run_checksum(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
