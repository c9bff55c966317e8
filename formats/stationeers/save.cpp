// Stationeers .save archives: member listing and reading, and the atomic rewrite that
// replaces some members and copies the raw bytes of every other one.
#include "formats/stationeers/save.hpp"

#include <fcntl.h>
#include <tbb/parallel_for.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "formats/core/io.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"

namespace voxkit::save {
namespace {

[[noreturn]] void throw_io(const std::string& path, const std::string& what, int err = errno) {
  Error e(ErrorKind::Io, what + ": " + std::strerror(err));
  e.set_source(path);
  throw e;
}

class FileSource final : public zip::Source {
 public:
  explicit FileSource(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_io(path, "cannot open");
    struct stat st;
    if (::fstat(fd_, &st) != 0) throw_io(path, "cannot stat");
    if (!S_ISREG(st.st_mode)) {
      ::close(fd_);
      throw_io(path, "cannot read", S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    }
    size_ = uint64_t(st.st_size);
  }
  ~FileSource() override { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  uint64_t size() const override { return size_; }
  void read(uint64_t offset, std::span<uint8_t> out) const override {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, off_t(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw_io(path_, "cannot read");
      if (n == 0) throw_io(path_, "file shrank while reading", EIO);
      done += size_t(n);
    }
  }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

MemberInfo info_of(const zip::Entry& e) {
  MemberInfo m;
  m.name = e.name;
  m.size = e.size;
  m.compressed_size = e.compressed_size;
  m.method = e.method;
  m.crc32 = e.crc32;
  m.flags = e.flags;
  m.offset = e.local_offset;
  return m;
}

std::vector<MemberInfo> list_of(const zip::Source& src) {
  auto a = zip::read_archive(src);
  std::vector<MemberInfo> out;
  out.reserve(a.entries.size());
  for (auto& e : a.entries) out.push_back(info_of(e));
  return out;
}

std::vector<uint8_t> member_of(const zip::Source& src, const std::string& name,
                               uint64_t max_bytes, MemberOrigin* origin = nullptr) {
  auto a = zip::read_archive(src);
  long i = a.find(name);
  if (i < 0) {
    // Offset: the central directory, where the names are listed.
    throw_data("the archive has no member named " + name, a.cd_offset, "a member " + name,
               std::to_string(a.entries.size()) + " members, none of that name");
  }
  const zip::Entry& e = a.entries[size_t(i)];
  if (!origin) return zip::read_entry(src, e, max_bytes);
  *origin = MemberOrigin{};
  origin->method = e.method;
  origin->crc32 = e.crc32;
  origin->size = e.size;
  origin->compressed_size = e.compressed_size;
  origin->data_offset = e.data_offset;
  return zip::read_entry(src, e, max_bytes, &origin->index);
}

// Streams bytes to the temporary file, counting them for progress.
struct Out {
  int fd;
  const std::string& target;
  const Progress& progress;
  uint64_t done = 0, total = 0;

  void write(const uint8_t* p, size_t n) {
    while (n > 0) {
      ssize_t w = ::write(fd, p, std::min<size_t>(n, 1 << 30));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) throw_io(target, "cannot write the temporary file");
      p += w;
      n -= size_t(w);
      done += uint64_t(w);
    }
    if (progress) progress(done, total);
  }
  void write(std::span<const uint8_t> s) { write(s.data(), s.size()); }
  // Copies [offset, offset + n) of the source: in the kernel when it can, else through a
  // buffer.
  void copy(const FileSource& src, uint64_t offset, uint64_t n) {
    constexpr size_t kChunk = 8 << 20;
    while (n > 0) {
      size_t want = size_t(std::min<uint64_t>(n, kChunk));
      loff_t in_off = loff_t(offset);
      ssize_t c = ::copy_file_range(src.fd(), &in_off, fd, nullptr, want, 0);
      if (c < 0 && errno == EINTR) continue;
      if (c <= 0) {
        std::vector<uint8_t> buf(want);
        src.read(offset, buf);
        const uint64_t before = done;
        write(buf.data(), buf.size());
        c = ssize_t(done - before);
      } else {
        done += uint64_t(c);
        if (progress) progress(done, total);
      }
      offset += uint64_t(c);
      n -= uint64_t(c);
    }
  }
};

// The bytes a replaced member is written with.
struct Replacement {
  std::span<const uint8_t> raw;  // new uncompressed bytes
  zip::Compressed packed;        // deflated (method 8) or empty when stored
  uint16_t method = 0;
  uint32_t crc = 0;
  uint64_t reused = 0;           // bytes whose old compressed blocks were kept
  bool keep = false;             // identical to the old contents: copy the old bytes
  std::span<const uint8_t> data() const {
    return method == 8 ? std::span<const uint8_t>(packed.data) : raw;
  }
};

// Members smaller than this are compressed whole: finding their unchanged blocks would cost
// about as much as compressing them.
constexpr uint64_t kMinSplice = 256 << 10;

bool same_member(const MemberOrigin& o, const zip::Entry& e) {
  return o.method == e.method && o.crc32 == e.crc32 && o.size == e.size &&
         o.compressed_size == e.compressed_size && o.data_offset == e.data_offset &&
         !o.index.blocks.empty();
}

// The deflated bytes of a replaced member: the old member's unchanged blocks reused where
// the new contents allow it (see zip::splice), else compressed whole.
zip::Compressed pack(const FileSource& src, const zip::Entry& e, std::span<const uint8_t> now,
                     const RewriteOptions& opts, uint64_t& reused) {
  reused = 0;
  if (!opts.reuse || e.method != 8 || now.size() < kMinSplice || e.size < kMinSplice) {
    return zip::deflate_raw(now, opts.level);
  }
  zip::DeflateIndex own_index;
  std::vector<uint8_t> own_bytes;
  const zip::DeflateIndex* index = &own_index;
  std::span<const uint8_t> old;
  const std::vector<zip::Run>* given = nullptr;
  auto it = opts.previous.find(e.name);
  if (it != opts.previous.end() && it->second.origin && same_member(*it->second.origin, e) &&
      it->second.bytes.size() == e.size) {
    index = &it->second.origin->index;
    old = it->second.bytes;
    if (!it->second.runs.empty()) given = &it->second.runs;
  } else {
    own_bytes = zip::read_entry(src, e, e.size, &own_index);
    old = own_bytes;
  }
  // The old compressed bytes, read in parallel slices into memory that is not zeroed first.
  const size_t cn = size_t(e.compressed_size);
  std::unique_ptr<uint8_t[]> buf(new uint8_t[std::max<size_t>(cn, 1)]);
  constexpr size_t kSlice = 4 << 20;
  tbb::parallel_for(size_t(0), (cn + kSlice - 1) / kSlice, [&](size_t i) {
    const size_t at = i * kSlice, n = std::min(kSlice, cn - at);
    src.read(e.data_offset + at, std::span<uint8_t>(buf.get() + at, n));
  });
  const std::span<const uint8_t> stream(buf.get(), cn);
  const auto runs = given ? *given : zip::common_runs(old, now);
  zip::SpliceStats st;
  auto c = zip::splice(stream, *index, old, now, runs, opts.level, &st);
  reused = st.reused_bytes;
  return c;
}

void need32(uint64_t v, bool zip64_field, const std::string& what) {
  if (v >= 0xffffffffu && !zip64_field) {
    throw_usage(what + " would need ZIP64 fields the archive does not have");
  }
}

// Local header, data and descriptor of a replaced member, from its old local header.
std::vector<uint8_t> new_local(const zip::Entry& e, const Replacement& r) {
  std::vector<uint8_t> h = e.local;
  const uint64_t csize = r.data().size(), size = r.raw.size();
  zip::put16(h.data() + 8, r.method);
  if (r.method == 8 && zip::get16(h.data() + 4) < 20) zip::put16(h.data() + 4, 20);
  zip::put32(h.data() + 14, r.crc);
  const bool z64 = e.local64.size_at >= 0 && e.local64.csize_at >= 0;
  need32(std::max(size, csize), z64, "member " + e.name);
  if (z64) {
    zip::put32(h.data() + 18, 0xffffffffu);
    zip::put32(h.data() + 22, 0xffffffffu);
    zip::put64(h.data() + e.local64.size_at, size);
    zip::put64(h.data() + e.local64.csize_at, csize);
  } else {
    zip::put32(h.data() + 18, uint32_t(csize));
    zip::put32(h.data() + 22, uint32_t(size));
  }
  return h;
}

std::vector<uint8_t> new_descriptor(const zip::Entry& e, const Replacement& r) {
  std::vector<uint8_t> d;
  if (!e.has_descriptor()) return d;
  d.resize(e.descriptor_size);
  uint8_t* p = d.data();
  if (e.descriptor_signature) {
    zip::put32(p, 0x08074b50);
    p += 4;
  }
  zip::put32(p, r.crc);
  const bool wide = e.descriptor_size - (e.descriptor_signature ? 4 : 0) == 20;
  if (wide) {
    zip::put64(p + 4, r.data().size());
    zip::put64(p + 12, r.raw.size());
  } else {
    zip::put32(p + 4, uint32_t(r.data().size()));
    zip::put32(p + 8, uint32_t(r.raw.size()));
  }
  return d;
}

// Central record with the new local offset and, for a replaced member, its new fields.
std::vector<uint8_t> new_central(const zip::Entry& e, uint64_t offset, const Replacement* r) {
  std::vector<uint8_t> c = e.central;
  uint8_t* p = c.data();
  if (e.central64.offset_at >= 0) {
    zip::put64(p + e.central64.offset_at, offset);
  } else {
    need32(offset, false, "the offset of member " + e.name);
    zip::put32(p + 42, uint32_t(offset));
  }
  if (r && !r->keep) {
    zip::put16(p + 10, r->method);
    if (r->method == 8 && zip::get16(p + 6) < 20) zip::put16(p + 6, 20);
    zip::put32(p + 16, r->crc);
    const uint64_t csize = r->data().size(), size = r->raw.size();
    if (e.central64.csize_at >= 0) {
      zip::put64(p + e.central64.csize_at, csize);
    } else {
      need32(csize, false, "member " + e.name);
      zip::put32(p + 20, uint32_t(csize));
    }
    if (e.central64.size_at >= 0) {
      zip::put64(p + e.central64.size_at, size);
    } else {
      need32(size, false, "member " + e.name);
      zip::put32(p + 24, uint32_t(size));
    }
  }
  return c;
}

io::OutputOptions output_options(const RewriteOptions& opts) {
  io::OutputOptions o;
  if (opts.output.empty()) {
    o.in_place = true;
    o.backup.enabled = opts.backup;
    o.backup.force = opts.force_backup;
  } else {
    o.force = opts.force;
  }
  return o;
}

RewriteResult rewrite_impl(const std::string& path,
                           const std::map<std::string, std::vector<uint8_t>>& replace,
                           const RewriteOptions& opts) {
  FileSource src(path);
  const zip::Archive a = zip::read_archive(src);
  const std::string target = opts.output.empty() ? path : opts.output;
  if (!opts.dry_run) io::check_output(target, output_options(opts));

  std::vector<std::optional<Replacement>> plan(a.entries.size());
  for (auto& [name, bytes] : replace) {
    long i = a.find(name);
    if (i < 0) throw_usage("the archive has no member named " + name + " to replace");
    const zip::Entry& e = a.entries[size_t(i)];
    if (e.encrypted()) throw_usage("member " + name + " is encrypted; it cannot be replaced");
    Replacement r;
    r.raw = bytes;
    r.method = e.method == 0 ? 0 : 8;
    // Unchanged contents keep their old bytes, compression included.
    if (bytes.size() == e.size && (e.method == 0 || e.method == 8)) {
      r.crc = zip::crc32(bytes);
      if (r.crc == e.crc32) {
        auto it = opts.previous.find(name);
        const bool known = it != opts.previous.end() && it->second.origin &&
                           same_member(*it->second.origin, e);
        r.keep = known ? std::ranges::equal(it->second.bytes, bytes)
                       : zip::read_entry(src, e, e.size) == bytes;
      }
    }
    if (!r.keep && r.method == 8) {
      r.packed = pack(src, e, bytes, opts, r.reused);
      r.crc = r.packed.crc32;
    } else if (!r.keep) {
      r.crc = zip::crc32(bytes);
    }
    plan[size_t(i)] = std::move(r);
  }

  RewriteResult res;
  res.members = a.entries.size();
  res.bytes_before = a.file_size;
  for (size_t i = 0; i < a.entries.size(); ++i) {
    if (!plan[i]) continue;
    const zip::Entry& e = a.entries[i];
    const Replacement& r = *plan[i];
    MemberChange c;
    c.name = e.name;
    c.old_size = e.size;
    c.old_compressed = e.compressed_size;
    c.method = r.keep ? e.method : r.method;
    c.new_size = r.raw.size();
    c.new_compressed = r.keep ? e.compressed_size : r.data().size();
    c.changed = !r.keep;
    c.reused = r.reused;
    res.replaced.push_back(c);
  }

  // Lay members out in their physical order, gaps between them copied as they are.
  const std::vector<size_t> order = a.physical_order();
  std::vector<uint64_t> new_offset(a.entries.size());
  std::vector<std::vector<uint8_t>> locals(a.entries.size()), descs(a.entries.size());
  uint64_t pos = 0, prev_end = 0;
  for (size_t i : order) {
    const zip::Entry& e = a.entries[i];
    pos += e.local_offset - prev_end;
    new_offset[i] = pos;
    if (plan[i] && !plan[i]->keep) {
      locals[i] = new_local(e, *plan[i]);
      descs[i] = new_descriptor(e, *plan[i]);
      pos += locals[i].size() + plan[i]->data().size() + descs[i].size();
    } else {
      pos += e.end_offset - e.local_offset;
    }
    prev_end = e.end_offset;
  }
  pos += a.cd_offset - prev_end;
  const uint64_t cd_offset = pos;
  std::vector<std::vector<uint8_t>> centrals(a.entries.size());
  for (size_t i = 0; i < a.entries.size(); ++i) {
    centrals[i] = new_central(a.entries[i], new_offset[i], plan[i] ? &*plan[i] : nullptr);
    pos += centrals[i].size();
  }
  const uint64_t cd_size = pos - cd_offset;
  // The end records: copied, with the central directory's size and offset moved.
  std::vector<uint8_t> tail(a.file_size - a.cd_end);
  src.read(a.cd_end, tail);
  const int64_t shift = int64_t(cd_offset) - int64_t(a.cd_offset);
  if (a.zip64) {
    uint8_t* z = tail.data() + (a.zip64_eocd_offset - a.cd_end);
    zip::put64(z + 40, cd_size);
    zip::put64(z + 48, cd_offset);
    zip::put64(tail.data() + (a.zip64_locator_offset - a.cd_end) + 8,
               uint64_t(int64_t(a.zip64_eocd_offset) + shift));
  }
  uint8_t* eocd = tail.data() + (a.eocd_offset - a.cd_end);
  if (zip::get32(eocd + 12) != 0xffffffffu || !a.zip64) {
    need32(cd_size, a.zip64, "the central directory size");
    zip::put32(eocd + 12, uint32_t(std::min<uint64_t>(cd_size, 0xffffffffu)));
  }
  if (zip::get32(eocd + 16) != 0xffffffffu || !a.zip64) {
    need32(cd_offset, a.zip64, "the central directory offset");
    zip::put32(eocd + 16, uint32_t(std::min<uint64_t>(cd_offset, 0xffffffffu)));
  }
  pos += tail.size();
  res.bytes_after = pos;
  if (opts.dry_run) return res;

  // The new archive goes to a temporary file beside the target (the input itself, or -o)
  // and is renamed into place only when complete and read back: a kill at any moment leaves
  // the target as it was.
  io::AtomicOutput dst(target, output_options(opts));
  const int fd = dst.fd();
  Out out{fd, target, opts.progress};
  out.total = pos;
  prev_end = 0;
  for (size_t i : order) {
    const zip::Entry& e = a.entries[i];
    out.copy(src, prev_end, e.local_offset - prev_end);
    if (plan[i] && !plan[i]->keep) {
      out.write(locals[i]);
      out.write(plan[i]->data());
      out.write(descs[i]);
    } else {
      out.copy(src, e.local_offset, e.end_offset - e.local_offset);
    }
    prev_end = e.end_offset;
  }
  out.copy(src, prev_end, a.cd_offset - prev_end);
  for (auto& c : centrals) out.write(c);
  out.write(tail);
  if (out.done != pos) throw_io(target, "wrote an unexpected number of bytes", EIO);
  if (::fsync(fd) != 0) throw_io(target, "cannot write the temporary file");

  // Read back what was written before it replaces the target.
  if (!dst.temp_path().empty()) {
    FileSource check(dst.temp_path());
    zip::Archive b = zip::read_archive(check);
    bool same = b.entries.size() == a.entries.size();
    for (size_t i = 0; same && i < a.entries.size(); ++i)
      same = b.entries[i].name == a.entries[i].name;
    if (!same) throw_data("the rewritten archive does not list the same members");
  }
  dst.commit();
  res.backup = dst.backup_path();
  res.written = true;
  return res;
}

}  // namespace

std::vector<MemberInfo> list_members(const std::string& path) {
  return with_source(path, [&] { return list_of(FileSource(path)); });
}

std::vector<uint8_t> read_member(const std::string& path, const std::string& name,
                                 uint64_t max_bytes) {
  return with_source(path, [&] { return member_of(FileSource(path), name, max_bytes); });
}

std::vector<uint8_t> read_member(const std::string& path, const std::string& name,
                                 uint64_t max_bytes, MemberOrigin* origin) {
  return with_source(path, [&] { return member_of(FileSource(path), name, max_bytes, origin); });
}

std::vector<MemberInfo> list_members(std::span<const uint8_t> archive) {
  return list_of(zip::MemorySource(archive));
}

std::vector<uint8_t> read_member(std::span<const uint8_t> archive, const std::string& name,
                                 uint64_t max_bytes) {
  return member_of(zip::MemorySource(archive), name, max_bytes);
}

bool has_member(const std::string& path, const std::string& name) {
  return with_source(path, [&] { return zip::read_archive(FileSource(path)).find(name) >= 0; });
}

RewriteResult rewrite(const std::string& path,
                      const std::map<std::string, std::vector<uint8_t>>& replace,
                      const RewriteOptions& opts) {
  // A symbolic link stays a link: the file it points to is replaced (io::AtomicOutput).
  return with_source(path, [&] { return rewrite_impl(path, replace, opts); });
}

}  // namespace voxkit::save
