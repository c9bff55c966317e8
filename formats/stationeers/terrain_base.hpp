// Stationeers Terrain{i}.dat base-terrain files: a gzip stream of int32 depth, a node
// stream (the terrain.dat node layout) for one 1024^3 block, and int32 checksum.
// Format in docs/formats/terrain-base.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace voxkit::terrain_base {

// Cap on the decompressed size of one base file (a 1024^3 block is a few hundred MB at
// worst; real ones are far smaller).
inline constexpr uint64_t kMaxInflated = uint64_t(1) << 30;

struct BaseFile {
  int32_t depth = 0;
  std::vector<uint8_t> payload;  // the decompressed file: depth, nodes, checksum
  size_t nodes_size = 0;         // node stream length (from payload offset 4)
  int32_t stored_checksum = 0;
  uint32_t computed_checksum = 0;

  std::span<const uint8_t> nodes() const {
    return std::span<const uint8_t>(payload).subspan(4, nodes_size);
  }
  bool checksum_ok() const { return uint32_t(stored_checksum) == computed_checksum; }
};

// Inflates a gzip stream; throws a data error on a bad stream, trailing bytes, or more
// than max_bytes of output (checked as it inflates).
std::vector<uint8_t> gunzip(std::span<const uint8_t> gz, uint64_t max_bytes = kMaxInflated);
// A gzip stream of `raw` (zlib, deflate level 0..9). Same input and level, same bytes.
std::vector<uint8_t> gzip(std::span<const uint8_t> raw, int level = 6);

// Decodes a base file: gzip, then depth (1..24), the node stream validated for that
// depth, the checksum, and nothing after it. With `verify`, a stored checksum that differs
// from the computed one is a data error; otherwise both are returned.
BaseFile decode(std::span<const uint8_t> gz, bool verify = true, uint64_t max_bytes = kMaxInflated);
// Encodes a base file from a node stream (validated here), computing its checksum.
std::vector<uint8_t> encode(int32_t depth, std::span<const uint8_t> nodes, int level = 6);

// True when the bytes start like a gzip stream (1f 8b).
inline bool looks_gzip(std::span<const uint8_t> b) {
  return b.size() >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

// A missing Terrain{i}.dat reads as the single leaf 01 00 00 with checksum 0 (the game's
// special case; the algorithm itself gives 16974593 for that leaf).
inline constexpr int32_t kMissingChecksum = 0;

// "Terrain{i}.dat" file name of block i.
inline std::string file_name(uint32_t i) { return "Terrain" + std::to_string(i) + ".dat"; }

}  // namespace voxkit::terrain_base
