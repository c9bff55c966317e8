// What every verb shares: global flags, diagnostics to stderr, progress, exit codes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "formats/io.hpp"
#include "lib/progress.hpp"

namespace voxkit::cli {

// The exit codes of voxkit (docs/exit-codes.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // bad input data, I/O error
  kExitUsage = 2,    // bad command line, refused overwrite, binary to a terminal
};

struct Context {
  bool quiet = false;
  bool force = false;
  int threads = 0;  // 0 = all cores

  // A line of diagnostics on stderr (silenced by -q).
  void info(const std::string& line) const;
  // A warning on stderr (silenced by -q).
  void warn(const std::string& line) const;
  // A progress callback that draws a bar on stderr when it is a terminal and -q is off;
  // otherwise a no-op.
  Progress progress(const std::string& label) const;
  // Output options with -f applied.
  io::OutputOptions out(bool binary = true) const { return {force, binary}; }
};

}  // namespace voxkit::cli
