// ZIP archive structure over zlib: a bounds-checked reader of the end records, the central
// directory and local headers (ZIP64, data descriptors), raw deflate/inflate, and a small
// writer. Used by formats/stationeers/save.cpp to rewrite archives member by member, keeping the raw
// bytes of untouched members. See docs/formats/stationeers-save.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/stationeers/deflate.hpp"

namespace voxkit::zip {

// Random access to an archive's bytes.
class Source {
 public:
  virtual ~Source() = default;
  virtual uint64_t size() const = 0;
  // Fills `out` from `offset`; callers keep offset + out.size() <= size().
  virtual void read(uint64_t offset, std::span<uint8_t> out) const = 0;
};

class MemorySource final : public Source {
 public:
  explicit MemorySource(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t size() const override { return bytes_.size(); }
  void read(uint64_t offset, std::span<uint8_t> out) const override;

 private:
  std::span<const uint8_t> bytes_;
};

// Where a ZIP64 extended-information field sits in a header, and which values it holds
// (each -1 when absent): offsets are relative to the start of the header's bytes.
struct Zip64Field {
  int32_t size_at = -1, csize_at = -1, offset_at = -1;
};

struct Entry {
  std::string name;
  uint16_t flags = 0, method = 0, mod_time = 0, mod_date = 0;
  uint32_t crc32 = 0;
  uint64_t size = 0, compressed_size = 0;
  uint64_t local_offset = 0;  // local header
  uint64_t data_offset = 0;   // first byte of the compressed data
  uint64_t end_offset = 0;    // one past the data and its data descriptor, if any
  uint32_t descriptor_size = 0;  // 0 when there is none
  bool descriptor_signature = false;
  std::vector<uint8_t> central;  // the raw central directory record
  std::vector<uint8_t> local;    // the raw local header (fixed part, name, extra)
  Zip64Field central64, local64;

  bool encrypted() const { return flags & 1; }
  bool has_descriptor() const { return flags & 8; }
};

struct Archive {
  std::vector<Entry> entries;  // central directory order
  uint64_t cd_offset = 0, cd_size = 0;
  uint64_t cd_end = 0;          // first byte after the central directory
  uint64_t eocd_offset = 0;     // end of central directory record
  uint64_t zip64_eocd_offset = 0, zip64_locator_offset = 0;  // 0 when absent
  bool zip64 = false;
  uint64_t file_size = 0;

  // Index of the one entry called `name`, or -1; throws a data error when there are two.
  long find(const std::string& name) const;
  // Indices of the entries in the order of their local headers in the file.
  std::vector<size_t> physical_order() const;
};

// Caps on what an archive may claim before anything is allocated for it.
inline constexpr uint64_t kMaxEntries = 1u << 20;
inline constexpr uint64_t kMaxCentralDirectory = uint64_t(256) << 20;

// Parses the end records, the central directory and every local header; checks every size
// and offset against the file (members inside [0, central directory), not overlapping).
// Throws a data error with the byte offset.
Archive read_archive(const Source& src);

// The uncompressed bytes of an entry (stored or deflated), checking the declared size
// against `max_bytes` before inflating, and the size and CRC-32 after. For a deflated entry,
// `index` (when not null) receives where its blocks start; it is left empty for a stored one.
std::vector<uint8_t> read_entry(const Source& src, const Entry& e, uint64_t max_bytes,
                                DeflateIndex* index = nullptr);

// Little-endian helpers.
inline uint16_t get16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }
inline uint32_t get32(const uint8_t* p) { return uint32_t(get16(p)) | uint32_t(get16(p + 2)) << 16; }
inline uint64_t get64(const uint8_t* p) { return uint64_t(get32(p)) | uint64_t(get32(p + 4)) << 32; }
inline void put16(uint8_t* p, uint16_t v) { p[0] = uint8_t(v); p[1] = uint8_t(v >> 8); }
inline void put32(uint8_t* p, uint32_t v) { put16(p, uint16_t(v)); put16(p + 2, uint16_t(v >> 16)); }
inline void put64(uint8_t* p, uint64_t v) { put32(p, uint32_t(v)); put32(p + 4, uint32_t(v >> 32)); }

// Builds a new archive in memory: for fixtures, synthetic saves and tests.
class Writer {
 public:
  struct Options {
    uint16_t method = 8;          // 0 stored, 8 deflate
    int level = 6;
    bool descriptor = false;      // sizes and CRC after the data (flag bit 3)
    uint16_t mod_time = 0, mod_date = 0x21;  // DOS time/date (1980-01-01)
    std::vector<uint8_t> extra;   // local and central extra field
  };
  void add(const std::string& name, std::span<const uint8_t> data, const Options& opts);
  // Appends the central directory and the end record; returns the archive.
  std::vector<uint8_t> finish(const std::string& comment = {});

 private:
  std::vector<uint8_t> out_, central_;
  uint64_t count_ = 0;
};

// True when `bytes` start with a local file header's signature ("PK\3\4"): how a .save
// (or any ZIP) is told from other input.
bool starts_like_zip(std::span<const uint8_t> bytes);
// The same for the first bytes of a file; false when it cannot be read.
bool is_zip_file(const std::string& path);

}  // namespace voxkit::zip
