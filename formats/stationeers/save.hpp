// Stationeers .save files (ZIP archives): read members, and rewrite a save replacing some
// members while every other member stays byte-identical, in the same order, with the same
// compression. See docs/formats/stationeers-save.md.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "formats/stationeers/deflate.hpp"
#include "lib/core/progress.hpp"

namespace voxkit::save {

struct MemberInfo {
  std::string name;
  uint64_t size = 0;             // uncompressed
  uint64_t compressed_size = 0;
  uint16_t method = 0;           // ZIP compression method (0 stored, 8 deflate)
  uint32_t crc32 = 0;
  uint16_t flags = 0;            // general purpose bits (bit 3: sizes in a data descriptor)
  uint64_t offset = 0;           // of the local header
};

// Lists the members of a save, in archive (central directory) order. Throws a data error
// with the byte offset when the archive structure is broken.
std::vector<MemberInfo> list_members(const std::string& path);

// Reads one member whole; `max_bytes` caps the uncompressed size (checked before reading).
// Throws a data error when the member is missing, named twice, encrypted, compressed with
// a method other than stored/deflate, or its data does not match its size and CRC-32.
std::vector<uint8_t> read_member(const std::string& path, const std::string& name,
                                 uint64_t max_bytes);

// The same over an archive held in memory.
std::vector<MemberInfo> list_members(std::span<const uint8_t> archive);
std::vector<uint8_t> read_member(std::span<const uint8_t> archive, const std::string& name,
                                 uint64_t max_bytes);
bool has_member(const std::string& path, const std::string& name);

// Where a member's contents came from: enough for a later rewrite of the same save to tell
// that the member is still the one read, and to reuse its unchanged compressed blocks.
struct MemberOrigin {
  uint16_t method = 0;
  uint32_t crc32 = 0;
  uint64_t size = 0, compressed_size = 0, data_offset = 0;
  zip::DeflateIndex index;  // block starts (deflated members)
};

// read_member that also records the member's origin (the inflation is the same work).
std::vector<uint8_t> read_member(const std::string& path, const std::string& name,
                                 uint64_t max_bytes, MemberOrigin* origin);

// The old contents of a member being replaced, as read earlier (see MemberOrigin).
struct Previous {
  const MemberOrigin* origin = nullptr;
  std::span<const uint8_t> bytes;
  // Where the new contents copy the old (from whoever made them); empty: the common prefix
  // and suffix are found by comparing.
  std::vector<zip::Run> runs;
};

struct RewriteOptions {
  // Where the new archive goes: empty for PATH itself (an edit in place), else a new file
  // (replaced only with `force`). Either way it is written beside its target and renamed
  // into place when complete.
  std::string output;
  bool force = false;
  bool backup = true;    // in place: keep PATH.bak (io::Backup: an existing one is refused
                         // unless force_backup)
  bool force_backup = false;
  bool dry_run = false;  // report, write nothing
  int level = 1;         // zlib level (1..9) for replaced members that are deflated: 1 is
                         // several times faster than 6 for ~15% more bytes, and the game
                         // recompresses the save with its own level when it next saves
  Progress progress;     // (bytes written, total bytes) while writing; may throw to abort
  // A replaced deflated member keeps the compressed blocks of its old data that the new
  // contents leave unchanged (prefix and suffix), and only the rest is compressed again.
  // Off: the whole member is compressed at `level`.
  bool reuse = true;
  // Old contents of replaced members, already read by the caller with their origin: saves
  // inflating them again to find the unchanged blocks. Ignored when the member changed since.
  std::map<std::string, Previous> previous;
};

struct MemberChange {
  std::string name;
  uint16_t method = 0;                  // method the member is written with
  uint64_t old_size = 0, new_size = 0;  // uncompressed
  uint64_t old_compressed = 0, new_compressed = 0;
  bool changed = false;                 // false when the new bytes equal the old ones
  uint64_t reused = 0;                  // new bytes whose old compressed blocks were kept
};

struct RewriteResult {
  std::vector<MemberChange> replaced;  // in archive order
  uint64_t members = 0;                // all members, replaced or not
  uint64_t bytes_before = 0, bytes_after = 0;
  std::string backup;                  // the backup written, or empty
  bool written = false;                // false for a dry run
};

// Replaces the named members' contents (each must exist in the archive) and writes the
// archive back atomically (temporary file + rename). Members not named are copied
// byte-for-byte, without recompression. A failure at any point leaves PATH as it was.
// The backup is a hard link to the old file when the file system allows it (the new file
// is a new inode), else a copy. A replaced member is deflated unless it was stored.
RewriteResult rewrite(const std::string& path,
                      const std::map<std::string, std::vector<uint8_t>>& replace,
                      const RewriteOptions& opts);

}  // namespace voxkit::save
