// Terrain{i}.dat: zlib gzip streams around int32 depth + node stream + int32 checksum.
#include "formats/stationeers/terrain_base.hpp"

#include <zlib.h>

#include <string>

#include "lib/core/error.hpp"
#include "lib/octree/octree.hpp"

namespace voxkit::terrain_base {

std::vector<uint8_t> gunzip(std::span<const uint8_t> gz, uint64_t max_bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) throw_data("zlib cannot start inflating");
  std::vector<uint8_t> out;
  zs.next_in = const_cast<Bytef*>(gz.data());
  zs.avail_in = uInt(std::min<size_t>(gz.size(), UINT32_MAX));
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (out.size() >= max_bytes) {
      inflateEnd(&zs);
      throw_data("gzip stream inflates to more than the limit", zs.total_in,
                 "at most " + std::to_string(max_bytes) + " bytes", "more");
    }
    const size_t chunk = size_t(std::min<uint64_t>(max_bytes - out.size(), 1 << 20));
    const size_t at = out.size();
    out.resize(at + chunk);
    zs.next_out = out.data() + at;
    zs.avail_out = uInt(chunk);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.resize(at + chunk - zs.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      const uint64_t consumed = zs.total_in;
      inflateEnd(&zs);
      throw_data("file ends inside the gzip stream", consumed, "more compressed data", "end of file");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      const uint64_t consumed = zs.total_in;
      const std::string msg = zs.msg ? zs.msg : "error " + std::to_string(rc);
      inflateEnd(&zs);
      throw_data("bad gzip stream", consumed, "valid gzip data", "zlib: " + msg);
    }
  }
  const uint64_t consumed = zs.total_in;
  inflateEnd(&zs);
  if (consumed != gz.size()) {
    throw_data("extra bytes after the gzip stream", consumed, "end of file",
               std::to_string(gz.size() - consumed) + " more bytes");
  }
  return out;
}

std::vector<uint8_t> gzip(std::span<const uint8_t> raw, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw_usage("bad gzip level " + std::to_string(level));
  }
  std::vector<uint8_t> out(deflateBound(&zs, uLong(raw.size())) + 32);
  zs.next_in = const_cast<Bytef*>(raw.data());
  zs.avail_in = uInt(raw.size());
  zs.next_out = out.data();
  zs.avail_out = uInt(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw Error(ErrorKind::Io, "zlib could not finish the gzip stream");
  return out;
}

BaseFile decode(std::span<const uint8_t> gz, bool verify, uint64_t max_bytes) {
  BaseFile f;
  f.payload = gunzip(gz, max_bytes);
  const auto p = std::span<const uint8_t>(f.payload);
  // Offsets below are in the decompressed stream.
  if (p.size() < 4) {
    throw_data("decompressed data ends inside the depth", p.size(), "4 bytes of int32 depth",
               "end of data");
  }
  f.depth = octree::load_i32(p.data());
  if (f.depth < 1 || f.depth > octree::kMaxAnyDepth) {
    throw_data("base file depth out of range", 0, "1..24", std::to_string(f.depth));
  }
  f.nodes_size = octree::parse_nodes(p.subspan(4), f.depth, 4);
  const size_t at = 4 + f.nodes_size;
  if (p.size() - at < 4) {
    throw_data("decompressed data ends inside the checksum", p.size(), "4 bytes of int32 checksum",
               "end of data");
  }
  if (p.size() - at > 4) {
    throw_data("extra bytes after the checksum", at + 4, "end of data",
               std::to_string(p.size() - at - 4) + " more bytes");
  }
  f.stored_checksum = octree::load_i32(p.data() + at);
  f.computed_checksum = octree::checksum(f.nodes());
  if (verify && !f.checksum_ok()) {
    throw_data("stored checksum does not match the node stream", at,
               std::to_string(int32_t(f.computed_checksum)), std::to_string(f.stored_checksum));
  }
  return f;
}

std::vector<uint8_t> encode(int32_t depth, std::span<const uint8_t> nodes, int level) {
  if (depth < 1 || depth > octree::kMaxAnyDepth) throw_usage("base file depth must be 1..24");
  const size_t len = octree::parse_nodes(nodes, depth);
  if (len != nodes.size()) {
    throw_data("extra bytes after the node stream", len, "end of the nodes",
               std::to_string(nodes.size() - len) + " more bytes");
  }
  std::vector<uint8_t> raw;
  raw.reserve(nodes.size() + 8);
  octree::put_i32(raw, depth);
  octree::append(raw, nodes);
  octree::put_i32(raw, int32_t(octree::checksum(nodes)));
  return gzip(raw, level);
}

}  // namespace voxkit::terrain_base
