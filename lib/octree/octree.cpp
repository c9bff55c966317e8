// terrain.dat parsing (validation in one pass with an explicit stack), writing, checksum.
#include "lib/octree/octree.hpp"

#include <string>

#include "lib/core/error.hpp"

namespace voxkit::octree {
namespace {

[[noreturn]] void truncated(const std::string& where, uint64_t offset, const std::string& expected) {
  throw_data("file ends inside " + where, offset, expected, "end of file");
}

}  // namespace

size_t parse_nodes(std::span<const uint8_t> s, int max_depth, uint64_t base) {
  // left[d]: nodes still to read at depth d among the current siblings (including the one
  // being read).
  uint8_t left[kMaxAnyDepth + 2];
  const uint8_t* p = s.data();
  const size_t n = s.size();
  size_t pos = 0;
  int d = 0;
  for (;;) {
    if (pos >= n) truncated("the node stream", base + pos, "a node flags byte");
    const uint8_t f = p[pos];
    if (f & ~uint8_t(kLeaf | kModified)) {
      throw_data("node flags have unknown bits (depth " + std::to_string(d) + ")", base + pos,
                 "0x00..0x03", hex_byte(f));
    }
    if (f & kLeaf) {
      if (n - pos < 3) truncated("a leaf", base + n, "density and type bytes");
      pos += 3;
      for (;;) {
        if (d == 0) return pos;
        if (--left[d] != 0) break;
        --d;
      }
    } else {
      if (d >= max_depth) {
        throw_data("branch at depth " + std::to_string(d) + " puts its children beyond maxDepth " +
                       std::to_string(max_depth),
                   base + pos, "a leaf (0x01 or 0x03)", hex_byte(f));
      }
      ++pos;
      left[++d] = 8;
    }
  }
}

DeltaView parse(std::span<const uint8_t> file, const ParseOptions& opts) {
  if (file.size() < 4) truncated("maxDepth", file.size(), "4 bytes of int32 maxDepth");
  DeltaView v;
  v.max_depth = load_i32(file.data());
  const int lo = opts.any_depth ? 0 : kMinGameDepth;
  const int hi = opts.any_depth ? kMaxAnyDepth : kMaxGameDepth;
  if (v.max_depth < lo || v.max_depth > hi) {
    Error e(ErrorKind::Data,
            opts.any_depth ? "maxDepth out of range"
                           : "maxDepth is not one the game uses (0..24 with any depth)",
            0, std::to_string(lo) + ".." + std::to_string(hi), std::to_string(v.max_depth));
    if (!opts.any_depth) e.set_hint("any-depth", "any depth");
    throw e;
  }
  const size_t nodes_len = parse_nodes(file.subspan(4), v.max_depth, 4);
  v.nodes = file.subspan(4, nodes_len);
  size_t pos = 4 + nodes_len;
  if (file.size() - pos < 4) truncated("the vein count", file.size(), "4 bytes of int32 veinCount");
  const int32_t count = load_i32(file.data() + pos);
  const size_t count_at = pos;
  pos += 4;
  if (count < 0) throw_data("negative vein count", count_at, "0 or more", std::to_string(count));
  const size_t rest = file.size() - pos;
  if (uint64_t(count) * kVeinHeaderBytes > rest) {
    throw_data("vein count is beyond the file", count_at,
               "at most " + std::to_string(rest / kVeinHeaderBytes) + " veins in " +
                   std::to_string(rest) + " bytes",
               std::to_string(count));
  }
  v.vein_count = uint32_t(count);
  const size_t veins_at = pos;
  for (int32_t i = 0; i < count; ++i) {
    if (file.size() - pos < kVeinHeaderBytes) {
      truncated("vein " + std::to_string(i), file.size(), "17 bytes of vein header");
    }
    const uint8_t m = file[pos + 16];
    if (m > kMaxMinables) {
      throw_data("vein " + std::to_string(i) + " has too many minables", pos + 16, "at most 254",
                 std::to_string(m));
    }
    pos += kVeinHeaderBytes;
    if (file.size() - pos < size_t(m) * kMinableBytes) {
      truncated("the minables of vein " + std::to_string(i), file.size(),
                std::to_string(m * kMinableBytes) + " bytes");
    }
    pos += size_t(m) * kMinableBytes;
  }
  if (pos != file.size()) {
    throw_data("extra bytes after the last vein", pos, "end of file",
               std::to_string(file.size() - pos) + " more bytes");
  }
  v.veins = file.subspan(veins_at, pos - veins_at);
  return v;
}

bool VeinReader::next(Vein& out) {
  if (left_ == 0) return false;
  const uint8_t* p = rest_.data();
  for (int k = 0; k < 3; ++k) {
    out.world[k] = load_i16(p + 2 * k);
    out.cluster[k] = load_i16(p + 6 + 2 * k);
  }
  out.id_hash = load_i32(p + 12);
  const size_t m = p[16];
  out.minables = rest_.subspan(kVeinHeaderBytes, m * kMinableBytes);
  out.record = rest_.first(kVeinHeaderBytes + m * kMinableBytes);
  rest_ = rest_.subspan(out.record.size());
  --left_;
  return true;
}

void write_parts(std::vector<uint8_t>& out, int32_t max_depth, std::span<const uint8_t> nodes,
                 uint32_t vein_count, std::span<const uint8_t> veins) {
  out.reserve(out.size() + 8 + nodes.size() + veins.size());
  put_i32(out, max_depth);
  append(out, nodes);
  put_i32(out, int32_t(vein_count));
  append(out, veins);
}

std::vector<uint8_t> write(const DeltaView& v) {
  std::vector<uint8_t> out;
  write_parts(out, v.max_depth, v.nodes, v.vein_count, v.veins);
  return out;
}

uint32_t checksum(std::span<const uint8_t> nodes) {
  uint8_t child[kMaxAnyDepth + 2];  // index of the child being read at each depth
  const uint8_t* p = nodes.data();
  uint32_t c = 0;
  size_t pos = 0;
  int d = 0;
  for (;;) {
    const uint8_t f = p[pos];
    c = (c ^ f) * 257u;
    if (f & kLeaf) {
      c = (c ^ p[pos + 1]) * 257u;
      c = (c ^ p[pos + 2]) * 257u;
      pos += 3;
      for (;;) {
        if (d == 0) return c;
        if (++child[d] < 8) {
          c = (c ^ child[d]) * 257u;
          break;
        }
        --d;
      }
    } else {
      ++pos;
      child[++d] = 0;
      c = (c ^ 0u) * 257u;
    }
  }
}

}  // namespace voxkit::octree
