// The verbs of the voxkit CLI: each file tools/verb_*.cpp adds one subcommand.
#pragma once

#include <CLI/CLI.hpp>

#include "tools/context.hpp"

namespace voxkit::cli {

void add_rle_command(CLI::App& app, Context& ctx);
void add_zone_command(CLI::App& app, Context& ctx);
// zone hole-mask (tools/verb_zone_hole.cpp), added under the zone command.
void add_zone_hole_mask_command(CLI::App& app, Context& ctx);
// zone extract (tools/verb_zone_extract.cpp), added under the zone command.
void add_zone_extract_command(CLI::App& app, Context& ctx);
void add_pack_commands(CLI::App& app, Context& ctx);
void add_info_command(CLI::App& app, Context& ctx);
void add_b64_command(CLI::App& app, Context& ctx);
void add_lz4_command(CLI::App& app, Context& ctx);
void add_chunk_command(CLI::App& app, Context& ctx);
void add_edit_command(CLI::App& app, Context& ctx);
void add_foliage_command(CLI::App& app, Context& ctx);
void add_save_command(CLI::App& app, Context& ctx);
void add_mesh_command(CLI::App& app, Context& ctx);
void add_caves_command(CLI::App& app, Context& ctx);
void add_melt_command(CLI::App& app, Context& ctx);
void add_octree_command(CLI::App& app, Context& ctx);
void add_bake_command(CLI::App& app, Context& ctx);
void add_rebake_command(CLI::App& app, Context& ctx);
void add_preview_command(CLI::App& app, Context& ctx);
void add_grass_command(CLI::App& app, Context& ctx);
void add_convert_command(CLI::App& app, Context& ctx);
void add_tile_command(CLI::App& app, Context& ctx);
void add_plan_command(CLI::App& app, Context& ctx);
// grass residency (tools/verb_grass_residency.cpp), added under the grass command.
void add_grass_residency_command(CLI::App& grass, Context& ctx);

// Examples and the global flags at the end of every verb's --help (tools/help_footer.cpp).
void add_help_footers(CLI::App& app);

}  // namespace voxkit::cli
