// Old spellings of flags, kept for one release (docs/cli.md): rewritten to today's spelling
// before parsing, each use reported as a warning.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace voxkit::cli {

struct FlagAlias {
  std::string_view verb;      // the verb path it applies to ("pack", "b64 encode")
  std::string_view old_name;  // "--input-format"
  std::string_view new_name;  // "--from"
};

// Every alias there is.
const std::vector<FlagAlias>& flag_aliases();

// A global option whose value is the next word (-j N, --config FILE): the words that scan the
// command line for the verb before CLI11 parses it skip that value.
bool global_takes_value(std::string_view arg);

struct Rewritten {
  std::vector<std::string> args;      // argv with old spellings replaced
  std::vector<std::string> warnings;  // one line per old spelling used
};

Rewritten rewrite_aliases(int argc, char** argv);

}  // namespace voxkit::cli
