// Diagnostics and the terminal progress bar.
#include "tools/context.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>

namespace voxkit::cli {

void Context::info(const std::string& line) const {
  if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
}

void Context::warn(const std::string& line) const {
  if (!quiet) std::fprintf(stderr, "voxkit: warning: %s\n", line.c_str());
}

void add_backup_flags(CLI::App* cmd, BackupFlags& flags, bool suffix_option) {
  cmd->add_flag("--no-backup", flags.no_backup, "Keep no backup of the file edited in place");
  cmd->add_flag("--force-backup", flags.force_backup,
                "Replace an existing backup (by default an existing backup is never replaced)");
  if (suffix_option) {
    cmd->add_option("--backup-suffix", flags.suffix, "Backup name suffix")->capture_default_str();
  }
}

void Context::report(const std::string& text, bool stdout_is_output, bool is_json) const {
  if (stdout_is_output && quiet && !is_json) return;
  std::FILE* f = report_stream(stdout_is_output);
  std::fputs(text.c_str(), f);
  if (!text.empty() && text.back() != '\n') std::fputc('\n', f);
  std::fflush(f);
}

Progress Context::progress(const std::string& label) const {
  if (quiet || !::isatty(STDERR_FILENO)) return {};
  struct State {
    std::mutex mu;
    int last_percent = -1;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  };
  auto state = std::make_shared<State>();
  return [state, label](uint64_t done, uint64_t total) {
    if (total == 0) return;
    int percent = int(done * 100 / total);
    std::lock_guard<std::mutex> lock(state->mu);
    if (percent == state->last_percent) return;
    state->last_percent = percent;
    // Only bother the terminal for work that takes a moment.
    auto elapsed = std::chrono::steady_clock::now() - state->start;
    if (elapsed < std::chrono::milliseconds(300) && percent < 100) return;
    int bars = percent / 4;
    std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%", label.c_str(), bars,
                 "=========================", 25 - bars, "", percent);
    if (done >= total) std::fprintf(stderr, "\n");
    std::fflush(stderr);
  };
}

}  // namespace voxkit::cli
