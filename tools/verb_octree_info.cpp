// voxkit octree info: what a terrain.dat (or a save's) holds, as text or JSON, and a PNG
// top view of where the terrain is modified.
#include <cstdio>
#include <memory>

#include "formats/stationeers/octree_map.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree_stats.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct InfoOptions {
  std::string input;
  bool json = false;
  bool any_depth = false;
  int64_t block = 64;
  size_t list = 20;
  std::string map;
  int64_t map_cell = 0;  // 0: world size / 1024, at least 1
};

void run_info(const Context& ctx, const InfoOptions& o) {
  const int block_log2 = log2_option(o.block, "--block");
  if (!o.map.empty()) io::check_output(o.map, ctx.out());
  const Loaded in = load(o.input, o.any_depth);
  const auto& v = in.view;
  const auto s = octree::stats(v);
  const auto regions = octree::modified_regions(v, block_log2);
  const uint32_t sum = octree::checksum(v.nodes);
  if (!o.map.empty()) {
    const int64_t cell = o.map_cell ? o.map_cell : std::max<int64_t>(1, int64_t(v.size() / 1024));
    log2_option(cell, "--map-cell");
    const std::string name = io::display_name(o.input);
    octree_map::write_png(o.map, octree::top_map(v, cell), ctx.out(), name.substr(name.find_last_of('/') + 1));
    ctx.info("octree info: map " + o.map + " (" + std::to_string(v.size() / uint64_t(cell)) +
             " px, " + std::to_string(cell) + " voxels per pixel)");
  }

  // For a save: its rooms and the checksums world.xml holds.
  nlohmann::json world;
  if (in.world) {
    const auto rooms = rooms_of(*in.world, in.name + " (world.xml)");
    const auto sums = with_source(in.name + " (world.xml)", [&] { return world_xml::read_checksums(*in.world); });
    size_t nonzero = 0;
    for (auto c : sums) nonzero += c != 0;
    world = nlohmann::json::object();
    world["rooms"] = rooms.size();
    world["room_cells"] = octree::room_cell_count(rooms);
    world["checksums"] = sums.size();
    world["nonzero_checksums"] = nonzero;
  }
  if (o.json) {
    nlohmann::json j;
    if (!world.is_null()) j["world"] = world;
    j["file"] = in.name;
    j["kind"] = in.is_save ? "save" : "terrain.dat";
    j["bytes"] = in.bytes.size();
    j["max_depth"] = v.max_depth;
    j["world_size"] = v.size();
    j["origin_offset"] = {v.origin(), 0, v.origin()};
    j["nodes"] = {{"total", s.nodes},
                  {"branches", s.branches},
                  {"leaves", s.leaves},
                  {"modified_branches", s.modified_branches},
                  {"modified_leaves", s.modified_leaves},
                  {"unflagged_ancestors", s.unflagged_ancestors}};
    auto& depths = j["by_depth"] = nlohmann::json::array();
    for (size_t d = 0; d < s.by_depth.size(); ++d) {
      depths.push_back({{"depth", d},
                        {"size", v.size() >> d},
                        {"branches", s.by_depth[d].branches},
                        {"leaves", s.by_depth[d].leaves},
                        {"modified_leaves", s.by_depth[d].modified_leaves}});
    }
    j["modified"] = {{"volume", s.modified_volume},
                     {"air_volume", s.air_volume},
                     {"solid_volume", s.solid_volume},
                     {"bounds", s.any_modified ? box_json(s.modified_bounds) : nlohmann::json()}};
    auto list = nlohmann::json::array();
    for (const auto& r : regions) {
      auto e = box_json(r.bounds);
      e["volume"] = r.volume;
      e["blocks"] = r.blocks;
      list.push_back(e);
    }
    j["regions"]["block"] = o.block;
    j["regions"]["count"] = regions.size();
    j["regions"]["list"] = list;
    j["veins"] = {{"count", s.veins}, {"minables", s.minables}};
    j["checksum"] = {{"unsigned", sum}, {"signed", int32_t(sum)}};
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  std::printf("%s: %s, %zu bytes\n", in.name.c_str(), in.is_save ? "save, terrain.dat" : "terrain.dat",
              in.bytes.size());
  if (!world.is_null()) {
    std::printf("world.xml: %d rooms (%d cells), %d TerrainChunkChecksums (%d non-zero)\n",
                world["rooms"].get<int>(), world["room_cells"].get<int>(), world["checksums"].get<int>(),
                world["nonzero_checksums"].get<int>());
  }
  std::printf("world: maxDepth %d, %llu^3 voxels, world = octree - (%lld, 0, %lld)\n", v.max_depth,
              (unsigned long long)v.size(), (long long)v.origin(), (long long)v.origin());
  std::printf("nodes: %llu (%llu branches, %llu leaves); modified: %llu branches, %llu leaves\n",
              (unsigned long long)s.nodes, (unsigned long long)s.branches,
              (unsigned long long)s.leaves, (unsigned long long)s.modified_branches,
              (unsigned long long)s.modified_leaves);
  std::printf("%-6s %8s %12s %12s %16s\n", "depth", "size", "branches", "leaves", "modified leaves");
  for (size_t d = 0; d < s.by_depth.size(); ++d) {
    const auto& c = s.by_depth[d];
    if (c.branches == 0 && c.leaves == 0) continue;
    std::printf("%-6zu %8llu %12llu %12llu %16llu\n", d, (unsigned long long)(v.size() >> d),
                (unsigned long long)c.branches, (unsigned long long)c.leaves,
                (unsigned long long)c.modified_leaves);
  }
  std::printf("modified volume: %llu voxels (%llu dug to air, %llu solid)\n",
              (unsigned long long)s.modified_volume, (unsigned long long)s.air_volume,
              (unsigned long long)s.solid_volume);
  if (s.any_modified) std::printf("modified bounds: %s\n", to_string(s.modified_bounds).c_str());
  if (s.unflagged_ancestors) {
    std::printf("warning: %llu modified nodes under a branch without IS_MODIFIED\n",
                (unsigned long long)s.unflagged_ancestors);
  }
  std::printf("modified regions (%lld-voxel blocks, 26-connected): %zu\n", (long long)o.block,
              regions.size());
  for (size_t i = 0; i < regions.size() && i < o.list; ++i) {
    std::printf("  %s  %llu voxels\n", to_string(regions[i].bounds).c_str(),
                (unsigned long long)regions[i].volume);
  }
  if (regions.size() > o.list) std::printf("  ... %zu more (--list N, or --json)\n", regions.size() - o.list);
  std::printf("veins: %llu (%llu minables)\n", (unsigned long long)s.veins,
              (unsigned long long)s.minables);
  std::printf("checksum: %d (0x%08x)\n", int32_t(sum), sum);
}

}  // namespace

void add_info(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<InfoOptions>();
  auto* c = parent.add_subcommand("info", "World size, node counts, modified volume and regions, veins");
  c->add_option("input", o->input, "terrain.dat or .save ('-' = stdin)")->required();
  c->add_flag("--json", o->json, "Print JSON (docs/octree-cli.md)");
  c->add_flag("--any-depth", o->any_depth, "Accept maxDepth 0..24, not only 10..12");
  c->add_option("--block", o->block, "Block edge for modified regions (power of two)")->capture_default_str();
  c->add_option("--list", o->list, "Regions listed in text output")->capture_default_str();
  c->add_option("--map", o->map, "Write a PNG top view of modified terrain");
  c->add_option("--map-cell", o->map_cell, "Voxels per map pixel (power of two; default size/1024)");
  c->callback([&ctx, o] { run_info(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
