// voxkit octree: what the octree sub-verbs (tools/verb_octree_*.cpp) share: loading a
// terrain.dat or a .save, option parsing for shapes, JSON for boxes.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "formats/stationeers/save_info.hpp"
#include "formats/stationeers/stationeers.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_shapes.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli::octree_verbs {

// Loading terrain.dat or a .save, and rooms: formats/stationeers/stationeers.hpp.
using stationeers::is_save_file;
using stationeers::load;
using stationeers::Loaded;
using stationeers::load_world;
using stationeers::rooms_of;

// "x0,y0,z0,x1,y1,z1" (corners in any order), "x,y,z,r", "x,z,r": usage errors otherwise.
Box3i parse_box(const std::string& s);
octree::Shape parse_sphere(const std::string& s);
octree::Shape parse_cylinder(const std::string& s);

// Boxes as JSON; as text they are to_string(box) (lib/core/box.hpp).
using save_info::box_json;
// log2 of a power of two, or a usage error naming the option.
int log2_option(int64_t v, const char* option);

void add_info(CLI::App& parent, Context& ctx);
void add_reset(CLI::App& parent, Context& ctx);
void add_checksum(CLI::App& parent, Context& ctx);
void add_diff_merge(CLI::App& parent, Context& ctx);
void add_synth(CLI::App& parent, Context& ctx);
void add_export(CLI::App& parent, Context& ctx);
void add_base(CLI::App& parent, Context& ctx);

}  // namespace voxkit::cli::octree_verbs
