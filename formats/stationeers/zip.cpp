// ZIP structure reader (end records, central directory, local headers) with every size
// checked against the file, plus raw deflate/inflate over zlib and a small archive writer.
#include "formats/stationeers/zip.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "lib/core/error.hpp"

namespace voxkit::zip {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEocdSig = 0x06054b50,
                   kZip64EocdSig = 0x06064b50, kZip64LocatorSig = 0x07064b50,
                   kDescriptorSig = 0x08074b50;
constexpr uint32_t kMax32 = 0xffffffffu;
constexpr uint16_t kMax16 = 0xffffu;

std::vector<uint8_t> read_bytes(const Source& src, uint64_t offset, uint64_t n) {
  std::vector<uint8_t> v(n);
  src.read(offset, v);
  return v;
}

// Finds the ZIP64 extended-information field in an extra block and the positions of the
// values the 32-bit fields defer to it. Malformed extra blocks end the search: they are
// copied through untouched, and only a missing ZIP64 value is an error.
Zip64Field find_zip64(const uint8_t* extra, uint32_t len, uint32_t base, bool want_size,
                      bool want_csize, bool want_offset) {
  Zip64Field z;
  uint32_t p = 0;
  while (p + 4 <= len) {
    uint16_t id = get16(extra + p), n = get16(extra + p + 2);
    if (p + 4 + n > len) break;
    if (id == 1) {
      uint32_t q = p + 4, end = p + 4 + n;
      auto take = [&](int32_t& at, bool want) {
        if (want && q + 8 <= end) {
          at = int32_t(base + q);
          q += 8;
        }
      };
      take(z.size_at, want_size);
      take(z.csize_at, want_csize);
      take(z.offset_at, want_offset);
      return z;
    }
    p += 4 + n;
  }
  return z;
}

}  // namespace

void MemorySource::read(uint64_t offset, std::span<uint8_t> out) const {
  if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
}

std::vector<size_t> Archive::physical_order() const {
  std::vector<size_t> order(entries.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return entries[x].local_offset < entries[y].local_offset;
  });
  return order;
}

long Archive::find(const std::string& name) const {
  long found = -1;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].name != name) continue;
    if (found >= 0) {
      throw_data("the archive holds two members named " + name, entries[i].local_offset,
                 "one member of that name",
                 "a second one (the first's local header is at offset " +
                     std::to_string(entries[size_t(found)].local_offset) + ")");
    }
    found = long(i);
  }
  return found;
}

Archive read_archive(const Source& src) {
  Archive a;
  const uint64_t n = src.size();
  a.file_size = n;
  if (n < 22) {
    throw_data("not a ZIP archive: too short for an end of central directory record", 0,
               "at least 22 bytes", std::to_string(n) + " bytes");
  }
  // The end record sits in the last 22 + 65535 bytes; prefer one whose comment ends the file.
  const uint64_t tail_len = std::min<uint64_t>(n, 22 + 65535);
  const uint64_t tail_at = n - tail_len;
  auto tail = read_bytes(src, tail_at, tail_len);
  long eocd = -1;
  for (int pass = 0; pass < 2 && eocd < 0; ++pass) {
    for (long i = long(tail_len) - 22; i >= 0; --i) {
      if (get32(&tail[size_t(i)]) != kEocdSig) continue;
      uint64_t end = uint64_t(i) + 22 + get16(&tail[size_t(i) + 20]);
      if (pass == 0 ? end == tail_len : end <= tail_len) {
        eocd = i;
        break;
      }
    }
  }
  if (eocd < 0) {
    throw_data("not a ZIP archive: no end of central directory record", n,
               "the signature " + hex32(kEocdSig) + " in the last " + std::to_string(tail_len) +
                   " bytes",
               "none");
  }
  const uint8_t* e = &tail[size_t(eocd)];
  a.eocd_offset = tail_at + uint64_t(eocd);
  uint16_t disk = get16(e + 4), cd_disk = get16(e + 6);
  uint64_t count = get16(e + 10), disk_count = get16(e + 8);
  a.cd_size = get32(e + 12);
  a.cd_offset = get32(e + 16);
  uint64_t cd_limit = a.eocd_offset;
  // A ZIP64 locator right before the end record points at the ZIP64 end record.
  if (a.eocd_offset >= 20) {
    auto loc = read_bytes(src, a.eocd_offset - 20, 20);
    if (get32(loc.data()) == kZip64LocatorSig) {
      a.zip64 = true;
      a.zip64_locator_offset = a.eocd_offset - 20;
      uint64_t rec = get64(loc.data() + 8);
      if (rec > a.zip64_locator_offset || a.zip64_locator_offset - rec < 56) {
        throw_data("ZIP64 end record offset out of range", a.zip64_locator_offset + 8,
                   "a 56-byte record before the locator", std::to_string(rec));
      }
      auto r = read_bytes(src, rec, 56);
      if (get32(r.data()) != kZip64EocdSig) {
        throw_data("bad ZIP64 end record signature", rec, hex32(kZip64EocdSig),
                   hex32(get32(r.data())));
      }
      a.zip64_eocd_offset = rec;
      disk = uint16_t(std::min<uint32_t>(get32(r.data() + 16), 1));
      cd_disk = uint16_t(std::min<uint32_t>(get32(r.data() + 20), 1));
      disk_count = get64(r.data() + 24);
      count = get64(r.data() + 32);
      a.cd_size = get64(r.data() + 40);
      a.cd_offset = get64(r.data() + 48);
      cd_limit = rec;
    }
  }
  if (disk != 0 || cd_disk != 0 || disk_count != count) {
    throw_data("split (multi-disk) archives are not supported", a.eocd_offset + 4,
               "disk 0 holding all " + std::to_string(count) + " members",
               "disk " + std::to_string(disk) + ", directory on disk " + std::to_string(cd_disk) +
                   ", " + std::to_string(disk_count) + " members on this disk");
  }
  if (a.cd_offset > cd_limit || a.cd_size > cd_limit - a.cd_offset) {
    throw_data("central directory runs past the end records", a.eocd_offset + 12,
               "at most " + std::to_string(cd_limit) + " as its end",
               std::to_string(a.cd_offset) + " + " + std::to_string(a.cd_size));
  }
  if (a.cd_size > kMaxCentralDirectory || count > kMaxEntries || count * 46 > a.cd_size) {
    throw_data("member count does not fit the central directory", a.eocd_offset + 10,
               "at most " + std::to_string(std::min<uint64_t>(a.cd_size / 46, kMaxEntries)),
               std::to_string(count));
  }
  a.cd_end = a.cd_offset + a.cd_size;
  auto cd = read_bytes(src, a.cd_offset, a.cd_size);

  uint64_t p = 0;
  a.entries.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    Entry& en = a.entries[i];
    const uint64_t at = a.cd_offset + p;
    if (p + 46 > cd.size()) {
      throw_data("truncated central directory record", at, "46 bytes",
                 std::to_string(cd.size() - p) + " bytes left in the directory");
    }
    const uint8_t* r = cd.data() + p;
    if (get32(r) != kCentralSig) {
      throw_data("bad central directory signature", at, hex32(kCentralSig), hex32(get32(r)));
    }
    uint64_t len = 46 + uint64_t(get16(r + 28)) + get16(r + 30) + get16(r + 32);
    if (p + len > cd.size()) {
      throw_data("central directory record runs past the directory", at,
                 std::to_string(cd.size() - p) + " bytes at most", std::to_string(len));
    }
    en.central.assign(r, r + len);
    en.name.assign(reinterpret_cast<const char*>(r + 46), get16(r + 28));
    en.flags = get16(r + 8);
    en.method = get16(r + 10);
    en.mod_time = get16(r + 12);
    en.mod_date = get16(r + 14);
    en.crc32 = get32(r + 16);
    en.compressed_size = get32(r + 20);
    en.size = get32(r + 24);
    en.local_offset = get32(r + 42);
    const bool big_size = en.size == kMax32, big_csize = en.compressed_size == kMax32,
               big_offset = en.local_offset == kMax32;
    if (big_size || big_csize || big_offset) {
      en.central64 = find_zip64(r + 46 + get16(r + 28), get16(r + 30), 46 + get16(r + 28),
                                big_size, big_csize, big_offset);
      const Zip64Field& z = en.central64;
      if ((big_size && z.size_at < 0) || (big_csize && z.csize_at < 0) ||
          (big_offset && z.offset_at < 0)) {
        throw_data("member " + en.name + " lacks the ZIP64 field its sizes refer to", at,
                   "a ZIP64 extra field (id 0x0001) with the 0xffffffff values",
                   "none, or one too short");
      }
      if (big_size) en.size = get64(r + z.size_at);
      if (big_csize) en.compressed_size = get64(r + z.csize_at);
      if (big_offset) en.local_offset = get64(r + z.offset_at);
    }
    p += len;
  }
  if (p != cd.size()) {
    throw_data("central directory has bytes after its last record", a.cd_offset + p,
               std::to_string(a.cd_size) + " bytes of records", std::to_string(p));
  }

  for (Entry& en : a.entries) {
    const uint64_t lo = en.local_offset;
    if (lo > a.cd_offset || a.cd_offset - lo < 30) {
      throw_data("local header of " + en.name + " is outside the member area", lo,
                 "below " + std::to_string(a.cd_offset), std::to_string(lo));
    }
    auto fixed = read_bytes(src, lo, 30);
    if (get32(fixed.data()) != kLocalSig) {
      throw_data("bad local header signature for " + en.name, lo, hex32(kLocalSig),
                 hex32(get32(fixed.data())));
    }
    uint64_t hlen = 30 + uint64_t(get16(&fixed[26])) + get16(&fixed[28]);
    if (hlen > a.cd_offset - lo) {
      throw_data("local header of " + en.name + " runs into the central directory", lo,
                 "at most " + std::to_string(a.cd_offset - lo) + " bytes",
                 std::to_string(hlen) + " bytes");
    }
    en.local = read_bytes(src, lo, hlen);
    const uint8_t* l = en.local.data();
    // In a local header the ZIP64 field holds both sizes, uncompressed first; it may be
    // there (zeroed) even when the sizes follow in a data descriptor.
    en.local64 = find_zip64(l + 30 + get16(l + 26), get16(l + 28), 30 + get16(l + 26), true,
                            true, false);
    en.data_offset = lo + hlen;
    if (en.compressed_size > a.cd_offset - en.data_offset) {
      throw_data("data of " + en.name + " runs into the central directory", en.data_offset,
                 "at most " + std::to_string(a.cd_offset - en.data_offset) + " bytes",
                 std::to_string(en.compressed_size));
    }
    uint64_t data_end = en.data_offset + en.compressed_size;
    en.end_offset = data_end;
    if (en.has_descriptor()) {
      const uint64_t room = a.cd_offset - data_end;
      auto d = read_bytes(src, data_end, std::min<uint64_t>(room, 24));
      // The signature is optional and the sizes are 4 or 8 bytes: take the layout whose
      // values match the central directory, else the one the headers suggest.
      auto matches = [&](bool sig, bool wide) {
        const uint64_t need = (sig ? 4 : 0) + 4 + (wide ? 16 : 8);
        if (need > d.size()) return false;
        const uint8_t* q = d.data() + (sig ? 4 : 0);
        if (sig && get32(d.data()) != kDescriptorSig) return false;
        const uint64_t cs = wide ? get64(q + 4) : get32(q + 4);
        const uint64_t us = wide ? get64(q + 12) : get32(q + 8);
        return get32(q) == en.crc32 && cs == en.compressed_size && us == en.size;
      };
      bool sig = d.size() >= 4 && get32(d.data()) == kDescriptorSig;
      bool wide = en.local64.size_at >= 0;
      bool found = false;
      for (int k = 0; k < 4 && !found; ++k) {
        const bool s2 = !(k & 1), w2 = k & 2;
        if (matches(s2, w2)) {
          sig = s2;
          wide = w2;
          found = true;
        }
      }
      en.descriptor_signature = sig;
      en.descriptor_size = (sig ? 4 : 0) + 4 + (wide ? 16 : 8);
      if (en.descriptor_size > room) {
        throw_data("data descriptor of " + en.name + " runs into the central directory",
                   data_end, "at most " + std::to_string(room) + " bytes",
                   std::to_string(en.descriptor_size) + " bytes");
      }
      en.end_offset = data_end + en.descriptor_size;
    }
  }
  const std::vector<size_t> order = a.physical_order();
  for (size_t i = 1; i < order.size(); ++i) {
    const Entry& prev = a.entries[order[i - 1]];
    const Entry& cur = a.entries[order[i]];
    if (cur.local_offset < prev.end_offset) {
      throw_data("members " + prev.name + " and " + cur.name + " overlap", cur.local_offset,
                 "a start at or after " + std::to_string(prev.end_offset),
                 std::to_string(cur.local_offset));
    }
  }
  return a;
}

std::vector<uint8_t> read_entry(const Source& src, const Entry& e, uint64_t max_bytes,
                                DeflateIndex* index) {
  if (index) *index = DeflateIndex{};
  if (e.encrypted()) {
    throw_data("member " + e.name + " is encrypted", e.local_offset,
               "flag bit 0 clear (not encrypted)", "flags " + hex32(e.flags));
  }
  if (e.size > max_bytes) {
    throw_data("member " + e.name + " is too large", e.local_offset,
               "at most " + std::to_string(max_bytes) + " bytes", std::to_string(e.size));
  }
  std::vector<uint8_t> out;
  if (e.method == 0) {
    if (e.compressed_size != e.size) {
      throw_data("stored member " + e.name + " has different sizes", e.local_offset,
                 std::to_string(e.size) + " bytes stored", std::to_string(e.compressed_size));
    }
    out = read_bytes(src, e.data_offset, e.size);
  } else if (e.method == 8) {
    // Deflate cannot expand more than ~1032:1; a larger claim is a lie, caught before the
    // output is allocated.
    if (e.size / 1032 > e.compressed_size + 1) {
      throw_data("member " + e.name + " claims more than its deflate data can hold",
                 e.local_offset, "at most " + std::to_string((e.compressed_size + 1) * 1032),
                 std::to_string(e.size));
    }
    auto in = read_bytes(src, e.data_offset, e.compressed_size);
    out.resize(e.size);
    const InflateStatus st = inflate_raw(in, out, index);
    const uint64_t at = e.data_offset + st.in_used;
    if (st.overflow) {
      throw_data("member " + e.name + " inflates past its declared size", at,
                 std::to_string(e.size) + " bytes", "more");
    }
    if (st.rc == Z_DATA_ERROR) {
      throw_data("corrupt deflate data in " + e.name, at, "valid deflate data",
                 "zlib: " + st.message);
    }
    if (st.rc == Z_MEM_ERROR) throw_data("out of memory inflating " + e.name, at);
    if (st.rc != Z_STREAM_END) {
      throw_data("deflate data of " + e.name + " ends early", at,
                 std::to_string(e.size) + " bytes", std::to_string(st.out_used));
    }
    if (st.out_used != e.size) {
      throw_data("member " + e.name + " inflates to fewer bytes than declared", at,
                 std::to_string(e.size), std::to_string(st.out_used));
    }
  } else {
    throw_data("member " + e.name + " uses unsupported compression method " +
                   std::to_string(e.method), e.local_offset, "0 (stored) or 8 (deflate)",
               std::to_string(e.method));
  }
  uint32_t c = 0;
  if (index && !index->blocks.empty()) {
    for (size_t k = 0; k < index->blocks.size(); ++k) {
      const auto& b = index->blocks[k];
      const uint64_t end = k + 1 < index->blocks.size() ? index->blocks[k + 1].out : index->size;
      c = k == 0 ? b.crc : uint32_t(crc32_combine(c, b.crc, z_off_t(end - b.out)));
    }
  } else {
    c = crc32(out);
  }
  if (c != e.crc32) {
    throw_data("CRC-32 mismatch in member " + e.name, e.data_offset, hex32(e.crc32), hex32(c));
  }
  return out;
}

void Writer::add(const std::string& name, std::span<const uint8_t> data, const Options& o) {
  Compressed c;
  if (o.method == 8) {
    c = deflate_raw(data, o.level);
  } else {
    c.data.assign(data.begin(), data.end());
    c.crc32 = crc32(data);
  }
  if (c.data.size() >= kMax32 || data.size() >= kMax32 || out_.size() >= kMax32) {
    throw_usage("member " + name + " is too large for a ZIP archive without ZIP64");
  }
  const uint16_t version = o.method == 8 ? 20 : 10;
  const uint16_t flags = o.descriptor ? 8 : 0;
  uint8_t h[30];
  put32(h, kLocalSig);
  put16(h + 4, version);
  put16(h + 6, flags);
  put16(h + 8, o.method);
  put16(h + 10, o.mod_time);
  put16(h + 12, o.mod_date);
  put32(h + 14, o.descriptor ? 0 : c.crc32);
  put32(h + 18, o.descriptor ? 0 : uint32_t(c.data.size()));
  put32(h + 22, o.descriptor ? 0 : uint32_t(data.size()));
  put16(h + 26, uint16_t(name.size()));
  put16(h + 28, uint16_t(o.extra.size()));
  const uint32_t local_offset = uint32_t(out_.size());
  out_.insert(out_.end(), h, h + 30);
  out_.insert(out_.end(), name.begin(), name.end());
  out_.insert(out_.end(), o.extra.begin(), o.extra.end());
  out_.insert(out_.end(), c.data.begin(), c.data.end());
  if (o.descriptor) {
    uint8_t d[16];
    put32(d, kDescriptorSig);
    put32(d + 4, c.crc32);
    put32(d + 8, uint32_t(c.data.size()));
    put32(d + 12, uint32_t(data.size()));
    out_.insert(out_.end(), d, d + 16);
  }
  uint8_t r[46] = {};
  put32(r, kCentralSig);
  put16(r + 4, version);
  put16(r + 6, version);
  std::memcpy(r + 8, h + 6, 8);  // flags, method, time, date
  put32(r + 16, c.crc32);
  put32(r + 20, uint32_t(c.data.size()));
  put32(r + 24, uint32_t(data.size()));
  put16(r + 28, uint16_t(name.size()));
  put16(r + 30, uint16_t(o.extra.size()));
  put32(r + 42, local_offset);
  central_.insert(central_.end(), r, r + 46);
  central_.insert(central_.end(), name.begin(), name.end());
  central_.insert(central_.end(), o.extra.begin(), o.extra.end());
  ++count_;
}

std::vector<uint8_t> Writer::finish(const std::string& comment) {
  uint8_t e[22] = {};
  put32(e, kEocdSig);
  put16(e + 8, uint16_t(std::min<uint64_t>(count_, kMax16)));
  put16(e + 10, uint16_t(std::min<uint64_t>(count_, kMax16)));
  put32(e + 12, uint32_t(central_.size()));
  put32(e + 16, uint32_t(out_.size()));
  put16(e + 20, uint16_t(comment.size()));
  std::vector<uint8_t> out = std::move(out_);
  out.insert(out.end(), central_.begin(), central_.end());
  out.insert(out.end(), e, e + 22);
  out.insert(out.end(), comment.begin(), comment.end());
  out_.clear();
  central_.clear();
  count_ = 0;
  return out;
}

bool starts_like_zip(std::span<const uint8_t> b) {
  return b.size() >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4;
}

bool is_zip_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint8_t m[4] = {0, 0, 0, 0};
  const size_t n = std::fread(m, 1, 4, f);
  std::fclose(f);
  return starts_like_zip(std::span<const uint8_t>(m, n));
}

}  // namespace voxkit::zip
