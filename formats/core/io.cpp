// File input and the output policy: atomic replacement of regular files, straight writes to
// devices and FIFOs, symbolic links followed, backups of edits in place.
#include "formats/core/io.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "lib/core/error.hpp"
#include "lib/core/grid_alloc.hpp"

namespace voxkit::io {
namespace {

[[noreturn]] void throw_io(const std::string& path, const std::string& what, int err = errno) {
  Error e(ErrorKind::Io, what + ": " + std::strerror(err));
  e.set_source(display_name(path));
  throw e;
}

std::string dir_of(const std::string& path) {
  std::string d = std::filesystem::path(path).parent_path().string();
  return d.empty() ? "." : d;
}

std::string base_of(const std::string& path) { return std::filesystem::path(path).filename().string(); }

void sync_dir(const std::string& dir) {
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

// ".NAME.tmp-PID-": the prefix of this process's temporary files for NAME.
std::string temp_prefix(const std::string& name) {
  std::string p = ".";  // built in steps: GCC 12 warns falsely on "." + string
  p += name;
  p += ".tmp-";
  return p;
}

// Removes temporary files for `name` in `dir` whose writing process no longer exists:
// what a run that was killed leaves behind.
void remove_stale_temps(const std::string& dir, const std::string& name) {
  const std::string prefix = temp_prefix(name);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() <= prefix.size() || n.compare(0, prefix.size(), prefix) != 0) continue;
    // PID-XXXXXX
    const std::string rest = n.substr(prefix.size());
    const size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.size() - dash - 1 != 6) continue;
    if (!std::all_of(rest.begin(), rest.begin() + long(dash), [](char c) { return c >= '0' && c <= '9'; })) continue;
    if (dash > 9) continue;
    const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
    if (pid <= 0 || pid == long(::getpid())) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    ::unlinkat(::dirfd(d), n.c_str(), 0);
  }
  ::closedir(d);
}

// Creates a temporary file for `name` in `dir`; returns its descriptor and sets `path`.
int make_temp(const std::string& dir, const std::string& name, std::string& path, const std::string& for_msg) {
  std::string tmpl = (std::filesystem::path(dir) / (temp_prefix(name) + std::to_string(::getpid()) + "-XXXXXX")).string();
  int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) throw_io(for_msg, "cannot create a temporary file beside it");
  path = tmpl;
  return fd;
}

// Beside the file itself: for a symbolic link, beside the file it points to.
std::string backup_name(const Target& t, const OutputOptions& o) { return t.resolved + o.backup.suffix; }

}  // namespace

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }
std::string output_name(const std::string& path) { return path == "-" ? "<stdout>" : path; }

bool exists(const std::string& path) {
  struct stat st;
  return path != "-" && ::stat(path.c_str(), &st) == 0;
}

std::vector<uint8_t> read_all(const std::string& path, uint64_t max_bytes) {
  const bool is_stdin = path == "-";
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io(path, "cannot open");
  std::vector<uint8_t> data;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (uint64_t(st.st_size) > max_bytes) {
      if (!is_stdin) ::close(fd);
      Error e(ErrorKind::Data, "input is too large", std::nullopt,
              "at most " + std::to_string(max_bytes) + " bytes",
              std::to_string(st.st_size) + " bytes");
      e.set_source(display_name(path));
      throw e;
    }
    // The file's room mapped up front (with huge pages where the kernel allows): filling it
    // then costs no page fault per 4 KiB.
    reserve_populated(data, size_t(st.st_size));
  } else if (S_ISDIR(st.st_mode)) {
    if (!is_stdin) ::close(fd);
    throw_io(path, "cannot read", EISDIR);
  }
  // Read into the reserved space first; past it, through a buffer, so a regular file whose
  // size was known costs no reallocation. The buffer is left uninitialised: a short input
  // (a pipe, an empty stdin) touches only the pages it fills.
  constexpr size_t kBuf = size_t(1) << 16;
  const auto buf = std::make_unique_for_overwrite<uint8_t[]>(kBuf);
  for (;;) {
    uint8_t* dst;
    size_t want;
    const bool direct = data.capacity() > data.size();
    if (direct) {
      want = data.capacity() - data.size();
      data.resize(data.capacity());
      dst = data.data() + data.size() - want;
    } else {
      want = kBuf;
      dst = buf.get();
    }
    ssize_t got = ::read(fd, dst, want);
    if (direct) data.resize(data.size() - want + size_t(std::max<ssize_t>(got, 0)));
    if (got < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      if (!is_stdin) ::close(fd);
      throw_io(path, "cannot read", err);
    }
    if (got == 0) break;
    if (!direct) data.insert(data.end(), buf.get(), buf.get() + got);
    if (data.size() > max_bytes) {
      if (!is_stdin) ::close(fd);
      Error e(ErrorKind::Data, "input is too large", std::nullopt,
              "at most " + std::to_string(max_bytes) + " bytes", "more");
      e.set_source(display_name(path));
      throw e;
    }
  }
  if (!is_stdin) ::close(fd);
  return data;
}

std::string read_text(const std::string& path, uint64_t max_bytes) {
  auto bytes = read_all(path, max_bytes);
  return std::string(bytes.begin(), bytes.end());
}

Target classify_output(const std::string& path) {
  Target t;
  t.path = t.resolved = path;
  if (path == "-") {
    t.kind = TargetKind::Stdout;
    return t;
  }
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) throw_io(path, "cannot look at the output");
    t.kind = TargetKind::New;
    return t;
  }
  if (S_ISLNK(st.st_mode)) {
    if (::stat(path.c_str(), &st) != 0) {
      if (errno != ENOENT) throw_io(path, "cannot follow the symbolic link");
      t.kind = TargetKind::DanglingLink;
      return t;
    }
    std::error_code ec;
    auto real = std::filesystem::canonical(path, ec);
    if (ec) throw_io(path, "cannot follow the symbolic link", ec.value());
    t.resolved = real.string();
  }
  if (S_ISREG(st.st_mode)) t.kind = TargetKind::Regular;
  else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) t.kind = TargetKind::Device;
  else if (S_ISDIR(st.st_mode)) t.kind = TargetKind::Directory;
  else t.kind = TargetKind::Other;
  return t;
}

void check_output(const std::string& path, OutputOptions opts) {
  const Target t = classify_output(path);
  switch (t.kind) {
    case TargetKind::Stdout:
      if (opts.in_place) throw_usage("an edit in place needs a file, not stdin");
      if (opts.binary && ::isatty(STDOUT_FILENO)) {
        throw_usage("refusing to write binary data to a terminal; redirect it or name an output file",
                    {{"output", "name an output file"}});
      }
      return;
    case TargetKind::Directory:
      throw_usage("output " + path + " is a directory");
    case TargetKind::DanglingLink:
      throw_usage("output " + path + " is a symbolic link to a file that does not exist; remove the link or name another output");
    case TargetKind::Other:
      throw_usage("output " + path + " is not a regular file, a character device or a FIFO");
    case TargetKind::Device:
      if (opts.in_place) throw_usage(path + " is not a regular file; it cannot be edited in place");
      return;
    case TargetKind::New:
      if (opts.in_place) throw_io(path, "cannot edit in place", ENOENT);
      return;
    case TargetKind::Regular:
      if (!opts.in_place && !opts.force) {
        throw_usage("output " + path + " exists; use the force option to overwrite it",
                    {{"force", "the force option"}});
      }
      break;
  }
  if (opts.in_place && opts.backup.enabled) {
    const std::string bak = backup_name(t, opts);
    struct stat st;
    if (::lstat(bak.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) throw_usage("backup " + bak + " is a directory");
      if (!opts.backup.force) {
        throw_usage("backup " + bak + " exists; use the backup's force option to replace it",
                    {{"force-backup", "the backup's force option"}});
      }
    } else if (errno != ENOENT) {
      throw_io(bak, "cannot look at the backup");
    }
  }
}

AtomicOutput::AtomicOutput(const std::string& path, OutputOptions opts) : path_(path), opts_(opts) {
  check_output(path, opts);
  const Target t = classify_output(path);
  if (t.kind == TargetKind::Stdout) {
    to_stdout_ = true;
    f_ = stdout;
    return;
  }
  target_ = t.resolved;
  if (t.kind == TargetKind::Device) {
    int fd = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw_io(path, "cannot open");
    f_ = ::fdopen(fd, "wb");
    if (!f_) {
      ::close(fd);
      throw_io(path, "cannot open");
    }
    direct_ = true;
    return;
  }
  if (opts.in_place && opts.backup.enabled) backup_path_ = backup_name(t, opts);
  struct stat st;
  existed_ = t.kind == TargetKind::Regular && ::stat(target_.c_str(), &st) == 0;
  const std::string dir = dir_of(target_), name = base_of(target_);
  remove_stale_temps(dir, name);
  int fd = make_temp(dir, name, tmp_, path);
  if (existed_) {
    // The replacement keeps the permissions and owner of the file it replaces.
    mode_ = st.st_mode & 07777;
    uid_ = int(st.st_uid);
    gid_ = int(st.st_gid);
    if (::fchown(fd, st.st_uid, st.st_gid) != 0) {
      // Not allowed to give it away: at least the group, if that is ours to set.
      [[maybe_unused]] int ignored = ::fchown(fd, uid_t(-1), st.st_gid);
    }
    ::fchmod(fd, mode_);
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    ::close(fd);
    ::unlink(tmp_.c_str());
    throw_io(path, "cannot open the temporary file");
  }
}

AtomicOutput::~AtomicOutput() { discard(); }

void AtomicOutput::discard() {
  if (to_stdout_ || committed_) return;
  if (f_) std::fclose(f_);
  f_ = nullptr;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
}

int AtomicOutput::fd() {
  if (std::fflush(f_) != 0) throw_io(to_stdout_ ? std::string("<stdout>") : path_, "cannot write");
  return ::fileno(f_);
}

void AtomicOutput::write(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) {
    throw_io(to_stdout_ ? std::string("<stdout>") : path_, "cannot write");
  }
}

void AtomicOutput::write(const std::string& text) {
  write(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void AtomicOutput::finish_writing() {
  if (!f_) return;
  if (to_stdout_) {
    if (std::fflush(stdout) != 0) throw_io("<stdout>", "cannot write");
    return;
  }
  if (std::fflush(f_) != 0 || (!direct_ && ::fsync(::fileno(f_)) != 0)) throw_io(path_, "cannot write");
  const int rc = std::fclose(f_);
  f_ = nullptr;
  if (rc != 0) throw_io(path_, "cannot write");
}

void AtomicOutput::make_backup() {
  if (backup_path_.empty()) return;
  const std::string& bak = backup_path_;
  struct stat st;
  if (!opts_.backup.force && ::lstat(bak.c_str(), &st) == 0) {
    throw_usage("backup " + bak + " appeared meanwhile; use the backup's force option to replace it",
                {{"force-backup", "the backup's force option"}});
  }
  // The backup is made under a temporary name and renamed over NAME.bak: rename replaces a
  // symbolic link there, never the file it points to.
  const std::string dir = dir_of(bak), name = base_of(bak);
  remove_stale_temps(dir, name);
  std::string tmp;
  int fd = make_temp(dir, name, tmp, bak);
  ::close(fd);
  ::unlink(tmp.c_str());
  if (::link(target_.c_str(), tmp.c_str()) != 0) {
    // No hard links here (or another file system): copy the bytes.
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw_io(bak, "cannot create the backup");
    int in = ::open(target_.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw_io(path_, "cannot read for the backup", err);
    }
    std::vector<char> buf(1 << 20);
    for (;;) {
      ssize_t got = ::read(in, buf.data(), buf.size());
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        const int err = errno;
        ::close(in), ::close(fd), ::unlink(tmp.c_str());
        throw_io(path_, "cannot read for the backup", err);
      }
      if (got == 0) break;
      for (ssize_t off = 0; off < got;) {
        ssize_t put = ::write(fd, buf.data() + off, size_t(got - off));
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) {
          const int err = errno;
          ::close(in), ::close(fd), ::unlink(tmp.c_str());
          throw_io(bak, "cannot write the backup", err);
        }
        off += put;
      }
    }
    ::close(in);
    if (::fchown(fd, uid_t(uid_), gid_t(gid_)) != 0) {
      [[maybe_unused]] int ignored = ::fchown(fd, uid_t(-1), gid_t(gid_));
    }
    ::fchmod(fd, mode_t(mode_));
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      throw_io(bak, "cannot write the backup", err);
    }
  }
  if (::rename(tmp.c_str(), bak.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw_io(bak, "cannot rename the backup into place", err);
  }
  sync_dir(dir);
  backup_made_ = bak;
}

void AtomicOutput::rename_into_place() {
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) throw_io(path_, "cannot rename into place");
  tmp_.clear();
  committed_ = true;
  sync_dir(dir_of(target_));
}

void AtomicOutput::commit() {
  if (committed_) return;
  finish_writing();
  if (to_stdout_ || direct_) {
    committed_ = true;
    return;
  }
  make_backup();
  rename_into_place();
}

AtomicOutput& OutputSet::add(const std::string& path, OutputOptions opts) {
  outs_.push_back(std::make_unique<AtomicOutput>(path, opts));
  return *outs_.back();
}

void OutputSet::commit() {
  for (auto& o : outs_) o->finish_writing();
  for (auto& o : outs_) {
    if (!o->to_stdout_ && !o->direct_) o->make_backup();
  }
  for (size_t i = 0; i < outs_.size(); ++i) {
    AtomicOutput& o = *outs_[i];
    if (o.to_stdout_ || o.direct_) {
      o.committed_ = true;
      continue;
    }
    try {
      o.rename_into_place();
    } catch (...) {
      // Take back the new files already in place; replaced ones cannot be restored.
      for (size_t j = 0; j < i; ++j) {
        AtomicOutput& p = *outs_[j];
        if (!p.to_stdout_ && !p.direct_ && !p.existed_) ::unlink(p.target_.c_str());
      }
      throw;
    }
  }
}

std::string write_file(const std::string& path, std::span<const uint8_t> bytes, OutputOptions opts) {
  AtomicOutput out(path, opts);
  out.write(bytes);
  out.commit();
  return out.backup_path();
}

}  // namespace voxkit::io
