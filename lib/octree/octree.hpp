// Stationeers terrain.dat, the delta octree: a validating parser that yields a view over
// the file's bytes, vein records, the byte-exact writer and the terrain checksum.
// Format in docs/formats/terrain-dat.md.
//
//   int32 maxDepth ; node stream (pre-order) ; int32 veinCount ; veins
//   node   = u8 flags (bit0 IS_LEAF, bit1 IS_MODIFIED) ; leaf: u8 density, u8 type ;
//            branch: 8 child nodes, child i = (x >= half) | (y >= half) << 1 | (z >= half) << 2
//   vein   = int16 worldPos[3] ; int16 clusterPos[3] ; int32 idHash ; u8 n (<= 254) ;
//            n x 5 bytes (x, y, z, parentIndex, isActive)
//
// The model is the bytes themselves: a parsed file is a DeltaView of spans into the
// caller's buffer (no object per node), and every algorithm over it is one pass over the
// node stream with an explicit stack of at most maxDepth + 1 entries.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace voxkit::octree {

inline constexpr uint8_t kLeaf = 0x01;
inline constexpr uint8_t kModified = 0x02;

// maxDepth values the game uses (1024^3 .. 4096^3 worlds), and the widest range accepted
// with ParseOptions::any_depth (2^24 voxels per axis still fits int32 coordinates).
inline constexpr int kMinGameDepth = 10;
inline constexpr int kMaxGameDepth = 12;
inline constexpr int kMaxAnyDepth = 24;
// Depth of one 1024^3 base-terrain block: the top maxDepth - 10 levels stay branches.
inline constexpr int kBlockDepth = 10;
inline constexpr uint8_t kMaxMinables = 254;
inline constexpr size_t kVeinHeaderBytes = 17;  // 6 + 6 + 4 + 1
inline constexpr size_t kMinableBytes = 5;

// The one node of an unmodified, unsplit region: "read the base terrain here".
inline constexpr std::array<uint8_t, 3> kResetLeaf{kLeaf, 0, 0};

struct ParseOptions {
  bool any_depth = false;  // accept maxDepth 0..kMaxAnyDepth instead of 10..12
};

// A validated terrain.dat, as spans into the caller's bytes (which must outlive it).
struct DeltaView {
  int32_t max_depth = 0;
  std::span<const uint8_t> nodes;  // the node stream, starting at file offset 4
  uint32_t vein_count = 0;
  std::span<const uint8_t> veins;  // the vein records after the count

  uint64_t size() const { return 1ull << max_depth; }          // voxels per axis
  int64_t origin() const { return int64_t(size() / 2); }       // world = octree - (o, 0, o)
  size_t veins_offset() const { return 4 + nodes.size() + 4; } // file offset of veins[0]
  size_t file_size() const { return veins_offset() + veins.size(); }
};

// Validates the whole file in one pass and returns the view. Throws a data error with the
// byte offset on: a file shorter than the header, maxDepth out of range, unknown flag bits,
// a branch at maxDepth (its children would lie beyond it), a truncated node stream, a
// negative vein count or one the remaining bytes cannot hold, a vein with n > 254, a
// truncated vein, and bytes after the last vein.
DeltaView parse(std::span<const uint8_t> file, const ParseOptions& opts = {});

// Validates one node stream that starts at stream[0] for a tree of `max_depth` levels and
// returns its length in bytes; bytes after it are not looked at. `base` is added to the
// offsets in error messages.
size_t parse_nodes(std::span<const uint8_t> stream, int max_depth, uint64_t base = 0);

// One vein record.
struct Vein {
  std::array<int16_t, 3> world{};    // veinWorldPos, world coordinates
  std::array<int16_t, 3> cluster{};  // clusterPos
  int32_t id_hash = 0;
  std::span<const uint8_t> minables;  // n x 5 bytes
  std::span<const uint8_t> record;    // the whole record, for byte-exact copies
};

// Iterates the vein records of a validated view.
class VeinReader {
 public:
  explicit VeinReader(const DeltaView& v) : rest_(v.veins), left_(v.vein_count) {}
  bool next(Vein& out);

 private:
  std::span<const uint8_t> rest_;
  uint32_t left_;
};

// Little-endian helpers shared by the octree code.
inline int32_t load_i32(const uint8_t* p) {
  uint32_t v = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  return int32_t(v);
}
inline int16_t load_i16(const uint8_t* p) { return int16_t(uint16_t(p[0] | p[1] << 8)); }
inline void put_i32(std::vector<uint8_t>& out, int32_t v) {
  uint32_t u = uint32_t(v);
  for (int k = 0; k < 4; ++k) out.push_back(uint8_t(u >> (8 * k)));
}
inline void append(std::vector<uint8_t>& out, std::span<const uint8_t> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// Writes a terrain.dat from its parts: int32 maxDepth, the nodes, the count, the veins.
// write(parse(f)) == f for every valid f.
std::vector<uint8_t> write(const DeltaView& v);
void write_parts(std::vector<uint8_t>& out, int32_t max_depth, std::span<const uint8_t> nodes,
                 uint32_t vein_count, std::span<const uint8_t> veins);

// Returns the offset just past the subtree that starts at nodes[pos], calling visit(flags)
// for each of its nodes in stream order. The stream must be validated already.
template <class Visit>
inline size_t skip_subtree(const uint8_t* p, size_t pos, Visit&& visit) {
  size_t pending = 1;
  do {
    const uint8_t f = p[pos];
    visit(f);
    if (f & kLeaf) {
      pos += 3;
      --pending;
    } else {
      pos += 1;
      pending += 7;
    }
  } while (pending != 0);
  return pos;
}
inline size_t skip_subtree(const uint8_t* p, size_t pos) {
  return skip_subtree(p, pos, [](uint8_t) {});
}

// The game's terrain checksum of a node stream (32-bit wrapping): c = 0; per node
// c = (c ^ flags) * 257; leaf: c = (c ^ density) * 257, c = (c ^ type) * 257; branch: for
// each child i, c = (c ^ i) * 257 then the child. The stream must be validated already.
uint32_t checksum(std::span<const uint8_t> nodes);

}  // namespace voxkit::octree
