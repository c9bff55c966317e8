// Reading inputs and writing outputs: "-" is stdin/stdout. The output policy of every verb
// (docs/outputs.md): a regular file is written to a temporary file beside it and renamed
// into place when complete, keeping the mode and owner of the file it replaces; a character
// device or FIFO is written straight through; a symbolic link is followed and its target
// replaced, never the link; a directory is refused. Edits in place keep NAME.bak.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace voxkit::io {

// Default cap on the size of an input read whole into memory (4 GiB).
inline constexpr uint64_t kDefaultMaxInput = uint64_t(4) << 30;

// "<stdin>" for "-", else the path itself: the name used in messages.
std::string display_name(const std::string& path);
// The same for an output: "<stdout>" for "-".
std::string output_name(const std::string& path);

// Reads a file (or stdin for "-") whole. Throws an I/O error naming the file, or a data
// error when it is larger than `max_bytes`.
std::vector<uint8_t> read_all(const std::string& path, uint64_t max_bytes = kDefaultMaxInput);
std::string read_text(const std::string& path, uint64_t max_bytes = kDefaultMaxInput);

bool exists(const std::string& path);

// The backup an edit in place keeps: PATH + suffix, made atomically from the file as it was
// (a hard link where the file system allows, else a copy), never through a symbolic link.
// An existing backup is never replaced unless `force` (--force-backup).
struct Backup {
  bool enabled = true;
  bool force = false;
  std::string suffix = ".bak";
};

struct OutputOptions {
  bool force = false;   // replace an existing file (-f); never implies replacing a backup
  bool binary = true;   // refuse to write to stdout when it is a terminal
  // Set for an edit in place: the target is the input itself, which must exist; it is
  // replaced without -f, and `backup` says what is kept of it.
  bool in_place = false;
  Backup backup{};
};

// What an output path is, as the policy sees it.
enum class TargetKind { Stdout, New, Regular, Device, Directory, DanglingLink, Other };

struct Target {
  TargetKind kind = TargetKind::New;
  std::string path;      // as given
  std::string resolved;  // where the bytes go: symbolic links followed
};

// Classifies `path` (following symbolic links).
Target classify_output(const std::string& path);

// An output written by the policy above. commit() flushes, makes the backup of an edit in
// place and renames the temporary file into place; destroying an uncommitted output removes
// its temporary file, so a failed run leaves nothing behind. For "-", bytes go to stdout.
// The constructor refuses (usage errors, before any work is done) an existing target
// without `force`, binary data to a terminal, a directory, a dangling symbolic link, and an
// existing backup without `backup.force`. Temporary files left beside the target by an
// earlier run that was killed are removed when their process is gone.
class AtomicOutput {
 public:
  AtomicOutput(const std::string& path, OutputOptions opts = {});
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  void write(std::span<const uint8_t> bytes);
  void write(const std::string& text);
  // Everything up to and including the rename. For several outputs that must appear
  // together, use OutputSet.
  void commit();
  const std::string& path() const { return path_; }
  // The backup made by commit() of an edit in place ("" when none).
  const std::string& backup_path() const { return backup_made_; }
  // The temporary file being written ("" when writing straight through), for a caller that
  // reads its output back before committing it.
  const std::string& temp_path() const { return tmp_; }
  // The descriptor being written, flushed: for a caller that writes with write(2).
  int fd();

 private:
  friend class OutputSet;
  void finish_writing();  // flush, fsync, close; no rename
  void make_backup();
  void rename_into_place();
  void discard();

  std::string path_, target_, tmp_, backup_path_, backup_made_;
  OutputOptions opts_;
  std::FILE* f_ = nullptr;
  bool to_stdout_ = false, direct_ = false, committed_ = false, existed_ = false;
  unsigned mode_ = 0;
  int uid_ = -1, gid_ = -1;
};

// Several outputs of one run, all or nothing: each is written to its temporary file, and
// only when every one is complete are they renamed into place. A failure before that leaves
// none of them; a rename that fails after others succeeded removes the new files it made.
class OutputSet {
 public:
  OutputSet() = default;
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  AtomicOutput& add(const std::string& path, OutputOptions opts = {});
  void commit();

 private:
  std::vector<std::unique_ptr<AtomicOutput>> outs_;
};

// Checks what AtomicOutput's constructor checks, without creating anything: lets a verb
// refuse an existing output before it starts long work.
void check_output(const std::string& path, OutputOptions opts = {});

// Writes `bytes` to `path` by the policy above. Returns the backup made ("" when none).
std::string write_file(const std::string& path, std::span<const uint8_t> bytes, OutputOptions opts = {});

}  // namespace voxkit::io
