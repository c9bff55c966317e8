// voxkit octree: what the octree sub-verbs (tools/verb_octree_*.cpp) share: loading a
// terrain.dat or a .save, option parsing for shapes, JSON for boxes.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "formats/save.hpp"
#include "lib/octree.hpp"
#include "lib/octree_shapes.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli::octree_verbs {

// A delta read from a bare terrain.dat or from a .save (terrain.dat + world.xml members).
struct Loaded {
  std::string path, name;            // as given, and as printed
  bool is_save = false;
  std::vector<uint8_t> bytes;        // terrain.dat
  octree::DeltaView view;            // into bytes
  std::optional<std::string> world;  // world.xml, from the save or --world
  // Where the two members came from in the save, so a rewrite can reuse their unchanged
  // compressed blocks without inflating them again.
  save::MemberOrigin terrain_origin, world_origin;
};

// Reads and validates; errors name the file (and the member, for a save).
Loaded load(const std::string& path, bool any_depth);
// Reads a world.xml file given beside a bare terrain.dat.
std::string load_world(const std::string& path);
// The rooms of a world.xml (tolerant reader), as cells for the reset shapes.
std::vector<octree::RoomCells> rooms_of(const std::string& xml, const std::string& name);
// True when the file starts like a ZIP archive.
bool is_zip_file(const std::string& path);

// "x0,y0,z0,x1,y1,z1" (corners in any order), "x,y,z,r", "x,z,r": usage errors otherwise.
octree::Box parse_box(const std::string& s);
octree::Shape parse_sphere(const std::string& s);
octree::Shape parse_cylinder(const std::string& s);

nlohmann::json box_json(const octree::Box& b);
std::string box_text(const octree::Box& b);
// log2 of a power of two, or a usage error naming the option.
int log2_option(int64_t v, const char* option);

void add_info(CLI::App& parent, Context& ctx);
void add_reset(CLI::App& parent, Context& ctx);
void add_checksum(CLI::App& parent, Context& ctx);
void add_diff_merge(CLI::App& parent, Context& ctx);
void add_synth(CLI::App& parent, Context& ctx);
void add_export(CLI::App& parent, Context& ctx);

}  // namespace voxkit::cli::octree_verbs
