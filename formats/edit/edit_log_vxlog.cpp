// The .vxlog edit log file: a 48-byte header (magic, version, flags, grid, counts, CRC-32),
// then epoch blocks or network records (docs/formats/edit-log.md).
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "formats/edit/edit_log.hpp"
#include "formats/edit/edit_log_internal.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

namespace voxkit::edit_log {

using namespace internal;

namespace {

using Bytes = std::vector<uint8_t>;

constexpr uint32_t kFlagNetwork = 1;
constexpr uint32_t kResetSeq = 0xffffffff;  // a network record with this seq is a reset

uint16_t get16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }
uint32_t get32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24; }
uint64_t get64(const uint8_t* p) { return get32(p) | uint64_t(get32(p + 4)) << 32; }
void put16(Bytes& o, uint16_t v) {
  o.push_back(uint8_t(v));
  o.push_back(uint8_t(v >> 8));
}
void put32(Bytes& o, uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(uint8_t(v >> (8 * i)));
}
void put64(Bytes& o, uint64_t v) {
  for (int i = 0; i < 8; ++i) o.push_back(uint8_t(v >> (8 * i)));
}

// "89 56 58 4c ...": bytes for messages.
std::string bytes_text(const uint8_t* p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += (i ? " " : "") + hex_byte(p[i]).substr(2);
  return n ? s : "nothing";
}

// zlib's CRC-32 over the header's first 44 bytes, then the payload.
uint32_t vxlog_crc(std::span<const uint8_t> b) {
  uLong c = crc32(0, b.data(), 44);
  // zlib answers 0 for a null buffer, so an empty payload must not be passed at all.
  if (b.size() > kVxlogHeaderSize) c = crc32_z(c, b.data() + kVxlogHeaderSize, b.size() - kVxlogHeaderSize);
  return uint32_t(c);
}

}  // namespace

Log read_vxlog(std::span<const uint8_t> bytes, const ReadOptions& opts) {
  return with_source(opts.name, [&] {
    const size_t n = bytes.size();
    const uint8_t* b = bytes.data();
    const size_t m = std::min<size_t>(n, 8);
    if (m && std::memcmp(b, kVxlogMagic, m) != 0) {
      throw_data("not a voxkit edit log (bad magic)", 0, bytes_text(kVxlogMagic, 8), bytes_text(b, m));
    }
    if (n < kVxlogHeaderSize) {
      throw_data("file ends inside the " + str(kVxlogHeaderSize) + "-byte edit log header", n,
                 str(kVxlogHeaderSize) + " bytes", str(n) + " bytes");
    }
    const uint16_t major = get16(b + 8), minor = get16(b + 10);
    if (major != kVxlogMajor) {
      throw_data("unsupported edit log version", 8, "major version " + str(kVxlogMajor), str(major) + "." + str(minor));
    }
    const uint32_t flags = get32(b + 12);
    if (flags & ~kFlagNetwork) throw_data("reserved flag bits are set", 12, "flags 0 or 1", hex32(flags));
    const uint32_t nx = get32(b + 16), ny = get32(b + 20), nz = get32(b + 24);
    const bool no_cells = nx == 0 && ny == 0 && nz == 0;
    if (!no_cells && (std::min({nx, ny, nz}) < 1 || std::max({nx, ny, nz}) > kMaxCells)) {
      throw_data("bad grid cells", 16, "0x0x0 (not recorded) or 1.." + str(kMaxCells) + " on every axis",
                 dims_text(nx, ny, nz));
    }
    const bool network = flags & kFlagNetwork;
    const uint32_t blocks = get32(b + 28);
    const uint64_t records = get64(b + 32);
    if (network && blocks) throw_data("a network log has no epoch blocks", 28, "0", str(blocks));
    if (const uint32_t r = get32(b + 40)) throw_data("reserved header field is not 0", 40, "0", hex32(r));
    const uint64_t cap = record_cap(opts);
    // An ordered log's blocks give one reset each but the first.
    if (records > cap || (blocks && blocks - 1 > cap - records)) {
      throw_data("more records than the reader's limit", 32, "at most " + str(cap) + " edits and epoch blocks",
                 str(records) + " edits and " + str(blocks) + " blocks");
    }
    const uint64_t need = network ? 16 * records : 8 * (uint64_t(blocks) + records);
    const uint64_t have = n - kVxlogHeaderSize;
    if (need > have) {
      throw_data("file ends before its last record", n, str(kVxlogHeaderSize + need) + " bytes", str(n) + " bytes");
    }
    if (need < have) {
      throw_data("extra bytes after the last record", kVxlogHeaderSize + need, "end of file",
                 str(have - need) + " more bytes");
    }
    const uint32_t stored = get32(b + 44), crc = vxlog_crc(bytes);
    if (crc != stored) throw_data("CRC-32 does not match: the file is damaged", 44, hex32(stored), hex32(crc));

    Log log;
    log.network = network;
    if (!no_cells) log.cells = Dims{nx, ny, nz};
    log.records.reserve(records + blocks);
    uint64_t pos = kVxlogHeaderSize;
    if (network) {
      for (uint64_t i = 0; i < records; ++i, pos += 16) {
        const uint64_t e = get64(b + pos);
        const uint32_t seq = get32(b + pos + 8), epoch = get32(b + pos + 12);
        if (epoch > kMaxSeq) {
          throw_data("record " + str(i) + ": epoch out of range", pos + 12, epoch_range(), str(epoch));
        }
        if (seq == kResetSeq) {
          if (e) throw_data("record " + str(i) + ": a reset holds no edit", pos, "0", edit::to_hex(e));
          log.records.push_back({Kind::Reset, 0, 0, epoch});
          continue;
        }
        if (seq > kMaxSeq) {
          throw_data("record " + str(i) + ": sequence number out of range", pos + 8,
                     "0.." + str(kMaxSeq) + " (or 0xffffffff, a reset)", hex32(seq));
        }
        log.records.push_back({Kind::Edit, e, seq, epoch});
      }
      return log;
    }
    Ordered ord(log);
    uint64_t left = records;
    for (uint32_t k = 0; k < blocks; ++k) {
      const uint32_t epoch = get32(b + pos), count = get32(b + pos + 4);
      if (count > left) {
        throw_data("epoch block " + str(k) + " holds more edits than the header counts", pos + 4,
                   "at most " + str(left), str(count));
      }
      if (!ord.can_reset(epoch)) {
        throw_data("epoch block " + str(k) + (k ? ": epochs must increase" : ": epoch out of range"), pos,
                   ord.expected(), str(epoch));
      }
      ord.reset(epoch);
      pos += 8;
      for (uint32_t i = 0; i < count; ++i, pos += 8) ord.edit(get64(b + pos));
      left -= count;
    }
    if (left) {
      throw_data("the epoch blocks hold fewer edits than the header counts", pos, str(records) + " edits",
                 str(records - left) + " edits");
    }
    return log;
  });
}

std::vector<uint8_t> write_vxlog(const Log& log) {
  check_log(log);
  const auto blocks = log.network ? std::vector<Block>{} : blocks_of(log);
  uint64_t records = 0;
  if (log.network) records = log.records.size();
  else
    for (const Block& b : blocks) records += b.edits.size();
  Bytes o;
  o.reserve(kVxlogHeaderSize + 8 * blocks.size() + 16 * records);
  o.insert(o.end(), kVxlogMagic, kVxlogMagic + 8);
  put16(o, kVxlogMajor);
  put16(o, kVxlogMinor);
  put32(o, log.network ? kFlagNetwork : 0);
  put32(o, log.cells ? log.cells->nx : 0);
  put32(o, log.cells ? log.cells->ny : 0);
  put32(o, log.cells ? log.cells->nz : 0);
  put32(o, uint32_t(blocks.size()));
  put64(o, records);
  put32(o, 0);  // reserved
  put32(o, 0);  // the CRC-32, below
  if (log.network) {
    for (const Record& r : log.records) {
      put64(o, r.edit);
      put32(o, r.kind == Kind::Reset ? kResetSeq : r.seq);
      put32(o, r.epoch);
    }
  } else {
    for (const Block& b : blocks) {
      put32(o, b.epoch);
      put32(o, uint32_t(b.edits.size()));
      for (uint64_t e : b.edits) put64(o, e);
    }
  }
  const uint32_t crc = vxlog_crc(o);
  for (int i = 0; i < 4; ++i) o[44 + size_t(i)] = uint8_t(crc >> (8 * i));
  return o;
}

}  // namespace voxkit::edit_log
