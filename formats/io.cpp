// File input and atomic file output.
#include "formats/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>

#include "lib/error.hpp"

namespace voxkit::io {
namespace {

[[noreturn]] void throw_io(const std::string& path, const std::string& what) {
  Error e(ErrorKind::Io, what + ": " + std::strerror(errno));
  e.set_source(display_name(path));
  throw e;
}

}  // namespace

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

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
    data.reserve(size_t(st.st_size));
  } else if (S_ISDIR(st.st_mode)) {
    if (!is_stdin) ::close(fd);
    errno = EISDIR;
    throw_io(path, "cannot read");
  }
  // Read into the reserved space first; past it, through a buffer, so a regular file whose
  // size was known costs no reallocation.
  std::vector<uint8_t> buf(1 << 16);
  for (;;) {
    uint8_t* dst;
    size_t want;
    const bool direct = data.capacity() > data.size();
    if (direct) {
      want = data.capacity() - data.size();
      data.resize(data.capacity());
      dst = data.data() + data.size() - want;
    } else {
      want = buf.size();
      dst = buf.data();
    }
    ssize_t got = ::read(fd, dst, want);
    if (direct) data.resize(data.size() - want + size_t(std::max<ssize_t>(got, 0)));
    if (got < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      if (!is_stdin) ::close(fd);
      errno = err;
      throw_io(path, "cannot read");
    }
    if (got == 0) break;
    if (!direct) data.insert(data.end(), buf.data(), buf.data() + got);
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

void check_output(const std::string& path, OutputOptions opts) {
  if (path == "-") {
    if (opts.binary && ::isatty(STDOUT_FILENO)) {
      throw_usage("refusing to write binary data to a terminal; redirect it or use -o FILE");
    }
    return;
  }
  if (!opts.force && exists(path)) {
    throw_usage("output " + path + " exists; use -f to overwrite it");
  }
}

AtomicOutput::AtomicOutput(const std::string& path, OutputOptions opts) : path_(path) {
  check_output(path, opts);
  if (path == "-") {
    to_stdout_ = true;
    f_ = stdout;
    return;
  }
  std::filesystem::path target(path);
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw_io(path, "cannot create a temporary file beside the output");
  tmp_ = tmpl;
  // mkstemp makes the file 0600; give it the permissions a plain create would.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    ::close(fd);
    ::unlink(tmp_.c_str());
    throw_io(path, "cannot open the temporary file");
  }
}

AtomicOutput::~AtomicOutput() {
  if (to_stdout_ || committed_) return;
  if (f_) std::fclose(f_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
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

void AtomicOutput::commit() {
  if (committed_) return;
  if (to_stdout_) {
    if (std::fflush(stdout) != 0) throw_io("<stdout>", "cannot write");
    committed_ = true;
    return;
  }
  if (std::fflush(f_) != 0 || ::fsync(::fileno(f_)) != 0) throw_io(path_, "cannot write");
  if (std::fclose(f_) != 0) {
    f_ = nullptr;
    throw_io(path_, "cannot write");
  }
  f_ = nullptr;
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) throw_io(path_, "cannot rename into place");
  committed_ = true;
}

void write_file(const std::string& path, std::span<const uint8_t> bytes, OutputOptions opts) {
  AtomicOutput out(path, opts);
  out.write(bytes);
  out.commit();
}

}  // namespace voxkit::io
