// The CLI described from its own declarations: JSON, man pages, bash and zsh completion.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace voxkit::cli {

// Every verb (by its path, "octree reset"), its options (names, value counts, choices,
// hidden aliases) and the examples of its help.
nlohmann::json describe_cli(const CLI::App& app);

// The options given on the command line (and, as comments, the defaults of the others) as a
// TOML file that --config reads back: global options first, then [verb] or [verb.sub].
std::string config_text(const CLI::App& app);

// Writes DIR/cli.json, DIR/man1/voxkit*.1, DIR/completion/voxkit.bash and DIR/completion/_voxkit.
void generate_docs(const CLI::App& app, const std::string& dir);

}  // namespace voxkit::cli
