// What every verb shares: global flags, diagnostics to stderr, progress, exit codes, the
// report policy and the flags of edits in place.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "formats/core/io.hpp"
#include "lib/core/error.hpp"
#include "lib/core/progress.hpp"

namespace CLI {
class App;
}

namespace voxkit::cli {

// The exit codes of voxkit (docs/exit-codes.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // bad input data, I/O error
  kExitUsage = 2,    // bad command line, refused overwrite, binary to a terminal
  kExitDiffer = 3,   // a comparing verb found its inputs different
};

// Thrown by a verb (after it printed its report) to end with a code other than 0 that is not
// an error: "the inputs differ".
struct ExitWith {
  int code;
};

// Names the flags an error from lib/ or formats/ is about (its hints) in its message
// (tools/option_names.cpp).
void name_options(Error& e);

// --no-backup and --force-backup of a verb that edits a file in place.
struct BackupFlags {
  bool no_backup = false;
  bool force_backup = false;
  std::string suffix = ".bak";
  io::Backup backup() const { return {!no_backup, force_backup, suffix}; }
};

// Adds --no-backup and --force-backup (and, with `suffix_option`, --backup-suffix).
void add_backup_flags(CLI::App* cmd, BackupFlags& flags, bool suffix_option = false);

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
  io::OutputOptions out(bool binary = true) const {
    io::OutputOptions o;
    o.force = force;
    o.binary = binary;
    return o;
  }
  // Options of an edit in place of an existing file, with the verb's backup flags.
  io::OutputOptions in_place(const BackupFlags& b, bool binary = true) const {
    io::OutputOptions o;
    o.binary = binary;
    o.in_place = true;
    o.backup = b.backup();
    return o;
  }

  // The report policy: a verb's report (its text result or its --json) goes to stdout,
  // unless stdout carries the verb's output ("-o -"), and then to stderr. JSON is always
  // printed; a text report moved to stderr is silenced by -q, like other diagnostics.
  void report(const std::string& text, bool stdout_is_output, bool is_json) const;
  std::FILE* report_stream(bool stdout_is_output) const { return stdout_is_output ? stderr : stdout; }
};

}  // namespace voxkit::cli
