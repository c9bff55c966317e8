// Reading inputs and writing outputs: "-" is stdin/stdout, outputs go through a temporary
// file in the target's directory and are renamed into place only when complete.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace voxkit::io {

// Default cap on the size of an input read whole into memory (4 GiB).
inline constexpr uint64_t kDefaultMaxInput = uint64_t(4) << 30;

// "<stdin>" for "-", else the path itself: the name used in messages.
std::string display_name(const std::string& path);

// Reads a file (or stdin for "-") whole. Throws an I/O error naming the file, or a data
// error when it is larger than `max_bytes`.
std::vector<uint8_t> read_all(const std::string& path, uint64_t max_bytes = kDefaultMaxInput);
std::string read_text(const std::string& path, uint64_t max_bytes = kDefaultMaxInput);

bool exists(const std::string& path);

struct OutputOptions {
  bool force = false;   // replace an existing file
  bool binary = true;   // refuse to write to stdout when it is a terminal
};

// An output file written atomically: bytes go to a temporary file beside the target,
// commit() flushes and renames it into place; destroying an uncommitted output removes the
// temporary file, so a failed run leaves nothing behind. For "-", bytes go to stdout.
// The constructor refuses an existing target without `force` and binary data to a
// terminal (usage errors), before any work is done.
class AtomicOutput {
 public:
  AtomicOutput(const std::string& path, OutputOptions opts = {});
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  void write(std::span<const uint8_t> bytes);
  void write(const std::string& text);
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  bool to_stdout_ = false, committed_ = false;
};

// Checks what AtomicOutput's constructor checks, without creating anything: lets a verb
// refuse an existing output before it starts long work.
void check_output(const std::string& path, OutputOptions opts = {});

// Writes `bytes` to `path` atomically.
void write_file(const std::string& path, std::span<const uint8_t> bytes, OutputOptions opts = {});

}  // namespace voxkit::io
