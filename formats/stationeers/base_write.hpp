// Writing a Stationeers Terrain{i}.dat base file from a node stream (a terrain.dat's, a raw
// one, or another base file's), with its checksum, optionally in the gzip style of an
// existing base file (its header bytes and the zlib level that reproduces it). See
// docs/octree-cli.md (base) and docs/formats/terrain-base.md.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/core/io.hpp"

namespace voxkit::stationeers {

// How a gzip base file was written, as far as it can be told from its bytes: its header
// (everything before the deflate data, name and extra fields included) and the zlib level
// (default window and memory) whose deflate data equals the file's, if one does.
struct GzipStyle {
  std::vector<uint8_t> header;
  int level = 6;
  bool matched = false;  // `level` reproduces the file's deflate data exactly
};

// The length of the gzip member header at the start of `gz` (RFC 1952: 10 bytes, then the
// optional extra field, name, comment and header CRC). Throws a data error with the offset
// on a bad magic, a method other than deflate, reserved flag bits, or a truncated field.
size_t gzip_header_length(std::span<const uint8_t> gz);

// The style of a gzip stream whose inflated contents are `raw`. Tries the levels the
// header's XFL byte suggests first, then the others, each stopped at its first byte that
// differs from the file.
GzipStyle gzip_style(std::span<const uint8_t> gz, std::span<const uint8_t> raw);

// A gzip stream of `raw` with the given header bytes and raw deflate data at `level`
// (zlib, default window and memory), then the CRC-32 and size trailer.
std::vector<uint8_t> gzip_with_header(std::span<const uint8_t> raw, std::span<const uint8_t> header, int level);

enum class NodeSource { Auto, TerrainDat, Nodes, Base };

struct BaseWriteJob {
  std::string input;    // '-' = stdin
  std::string output;   // '-' = stdout
  NodeSource from = NodeSource::Auto;  // Auto: a gzip stream is a base file, else terrain.dat
  int depth = 0;        // the tree depth of a raw node stream (1..24)
  int level = -1;       // zlib level 0..9; -1: 6, or the level that reproduces `like`
  // A base file whose gzip style to follow; empty: the input, when it is a base file.
  std::string like;
  bool any_depth = false;  // a terrain.dat input: maxDepth 0..24
  io::OutputOptions out;
};

struct BaseWriteReport {
  std::string input, output, from;  // from: "terrain.dat", "nodes" or "base"
  int32_t depth = 0;
  uint64_t node_bytes = 0, bytes = 0;
  int32_t checksum = 0;
  std::optional<int32_t> input_checksum;  // a base input's stored checksum
  uint32_t veins_dropped = 0;             // a terrain.dat input's veins (base files have none)
  int level = 6;
  std::optional<std::string> style_of;    // the file whose gzip style was followed
  bool style_matched = false;
  std::optional<bool> identical;          // a base input: the output has its bytes
  std::vector<std::string> warnings;

  nlohmann::json to_json() const;
  std::string to_text() const;
};

BaseWriteReport run_base_write(const BaseWriteJob& job);

}  // namespace voxkit::stationeers
