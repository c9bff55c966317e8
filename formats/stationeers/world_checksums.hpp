// Stationeers world.xml <TerrainChunkChecksums> against the Terrain{i}.dat base files: the
// check (each stored value against the checksum recomputed from base file i) and the update
// (the recomputed values written into world.xml, bare or inside a .save). See
// docs/octree-cli.md (checksum) and docs/formats/world-xml.md.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"

namespace voxkit::stationeers {

// One job: check, or update (with its output rules: a save is rewritten in place unless
// `output` names a new one; a bare world.xml goes to `output` or, with `in_place`, back into
// itself).
struct ChecksumJob {
  std::string input;     // world.xml ('-' = stdin) or a .save
  // Folder holding Terrain{i}.dat. Empty: a save's own Terrain{i}.dat members, else the
  // folder of the world.xml.
  std::string base_dir;
  bool update = false;
  std::string output;
  bool in_place = false;
  bool dry_run = false;
  io::OutputOptions out;  // for a new output (force)
  io::Backup backup;      // for an edit in place
};

// One <TerrainChunkChecksums> entry and base file i.
struct ChunkChecksum {
  uint32_t index = 0;
  std::string file;              // "Terrain{i}.dat"
  bool present = false;          // false: no such file; it counts as checksum 0
  int32_t depth = 0;             // of a present file
  int64_t stored = 0;            // in world.xml
  int32_t computed = 0;          // from the file's node stream (0 for a missing file)
  int32_t base_stored = 0;       // the checksum at the end of the file itself
  bool ok() const { return stored == computed; }
  bool base_ok() const { return !present || base_stored == computed; }
};

struct ChecksumReport {
  std::string file, kind;       // the input as printed; "save" or "world.xml"
  std::string base_source;      // "save" (its members) or "directory"
  std::string base_dir;         // the folder read, for "directory"
  std::vector<ChunkChecksum> chunks;
  size_t differ = 0, damaged = 0, missing = 0;
  std::vector<std::string> ignored;  // base files with no entry to go with
  bool update = false, dry_run = false;
  size_t changed = 0;                // entries an update rewrites (or would)
  bool written = false;
  std::optional<std::string> output, backup;
  std::vector<std::string> warnings;

  bool agree() const { return differ == 0 && damaged == 0; }
  nlohmann::json to_json() const;
  std::string to_text() const;
};

// Reads world.xml and the base files, compares, and for an update writes the output (or
// nothing, for a dry run or when the values agree already and the edit is in place).
// Throws a usage error when no base file is found at all (a wrong folder would otherwise
// read as "every file missing"), and for an update, a data error when a base file's own
// checksum does not match its nodes (which of the two the game trusts is not known).
ChecksumReport run_checksums(const ChecksumJob& job);

// True for the entry counts a world can have: 8^k (1, 8, 64, ...).
bool is_block_count(size_t n);

}  // namespace voxkit::stationeers
