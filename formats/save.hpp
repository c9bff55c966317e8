// Stationeers .save files (ZIP archives): read members, and rewrite a save replacing some
// members while every other member stays byte-identical, in the same order, with the same
// compression. See docs/formats/stationeers-save.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace voxkit::save {

struct MemberInfo {
  std::string name;
  uint64_t size = 0;             // uncompressed
  uint64_t compressed_size = 0;
  uint16_t method = 0;           // ZIP compression method (0 stored, 8 deflate)
  uint32_t crc32 = 0;
};

// Lists the members of a save, in archive order.
std::vector<MemberInfo> list_members(const std::string& path);

// Reads one member whole; `max_bytes` caps the uncompressed size (checked before reading).
std::vector<uint8_t> read_member(const std::string& path, const std::string& name,
                                 uint64_t max_bytes);

struct RewriteOptions {
  bool backup = true;    // copy PATH to PATH.bak first (refusing to replace an existing .bak
                         // unless force_backup)
  bool force_backup = false;
  bool dry_run = false;  // report, write nothing
};

// Replaces the named members' contents (each must exist in the archive) and writes the
// archive back atomically (temporary file + rename). Members not named are copied
// byte-for-byte, without recompression. A failure at any point leaves PATH as it was.
void rewrite(const std::string& path, const std::map<std::string, std::vector<uint8_t>>& replace,
             const RewriteOptions& opts);

}  // namespace voxkit::save
