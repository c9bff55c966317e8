// `voxkit info` descriptions of terrain.dat and Terrain{i}.dat.
#include "formats/stationeers/octree_identify.hpp"

#include "formats/stationeers/terrain_base.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_stats.hpp"

namespace voxkit::octree_identify {

std::optional<identify::Description> describe_terrain_dat(std::span<const uint8_t> bytes,
                                                          const std::string& name) {
  if (bytes.size() < 11) return std::nullopt;
  const int32_t depth = octree::load_i32(bytes.data());
  if (depth < octree::kMinGameDepth || depth > octree::kMaxGameDepth || bytes[4] > 3) return std::nullopt;
  const auto v = octree::parse(bytes);
  const auto s = octree::stats(v);
  identify::Description d;
  d.format = "terrain-dat";
  d.summary = "Stationeers terrain.dat (delta octree), " + std::to_string(v.size()) + "^3 world";
  d.fields.push_back({"maxDepth", std::to_string(v.max_depth)});
  d.fields.push_back({"nodes", std::to_string(s.nodes) + " (" + std::to_string(s.modified_leaves) +
                                   " modified leaves)"});
  d.fields.push_back({"modified", std::to_string(s.modified_volume) + " voxels"});
  d.fields.push_back({"veins", std::to_string(s.veins) + " (" + std::to_string(s.minables) + " minables)"});
  d.fields.push_back({"more", "voxkit octree info " + name});
  d.details = {{"max_depth", v.max_depth},
               {"world_size", v.size()},
               {"nodes", s.nodes},
               {"modified_leaves", s.modified_leaves},
               {"modified_volume", s.modified_volume},
               {"veins", s.veins},
               {"checksum", int32_t(octree::checksum(v.nodes))}};
  return d;
}

std::optional<identify::Description> describe_terrain_base(std::span<const uint8_t> bytes,
                                                           const std::string& name) {
  if (!terrain_base::looks_gzip(bytes)) return std::nullopt;
  std::vector<uint8_t> raw;
  try {
    raw = terrain_base::gunzip(bytes);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (raw.size() < 4) return std::nullopt;
  const int32_t depth = octree::load_i32(raw.data());
  if (depth < 1 || depth > octree::kMaxAnyDepth) return std::nullopt;
  const auto f = terrain_base::decode(bytes, false);
  identify::Description d;
  d.format = "terrain-base";
  d.summary = "Stationeers Terrain{i}.dat base terrain (gzip), depth " + std::to_string(f.depth);
  d.fields.push_back({"nodes", std::to_string(f.nodes_size) + " bytes"});
  d.fields.push_back({"checksum", std::to_string(int32_t(f.computed_checksum)) + " (stored " +
                                      std::to_string(f.stored_checksum) + (f.checksum_ok() ? ", ok)" : ", MISMATCH)")});
  d.details = {{"depth", f.depth},
               {"node_bytes", f.nodes_size},
               {"checksum", int32_t(f.computed_checksum)},
               {"stored_checksum", f.stored_checksum},
               {"checksum_ok", f.checksum_ok()}};
  return d;
}

}  // namespace voxkit::octree_identify
