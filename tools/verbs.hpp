// The verbs of the voxkit CLI: each file tools/verb_*.cpp adds one subcommand.
#pragma once

#include <CLI/CLI.hpp>

#include "tools/context.hpp"

namespace voxkit::cli {

void add_rle_command(CLI::App& app, Context& ctx);
void add_octree_command(CLI::App& app, Context& ctx);

}  // namespace voxkit::cli
