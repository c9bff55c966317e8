// voxkit octree checksum: the game's terrain checksum of Terrain{i}.dat base files (verified
// against the stored value) or of a terrain.dat node stream.
#include <cstdio>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "lib/core/error.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct ChecksumOptions {
  std::vector<std::string> inputs;
  bool json = false, any_depth = false;
};

void run_checksum(const Context& ctx, const ChecksumOptions& o) {
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

}  // namespace

void add_checksum(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<ChecksumOptions>();
  auto* c = parent.add_subcommand(
      "checksum", "Terrain checksum of Terrain{i}.dat base files (verified) or terrain.dat node streams");
  c->add_option("inputs", o->inputs, "Files ('-' = stdin); gzip files are base files")->required();
  c->add_flag("--json", o->json, "Print JSON");
  c->add_flag("--any-depth", o->any_depth, "Accept terrain.dat maxDepth 0..24");
  c->callback([&ctx, o] { run_checksum(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
