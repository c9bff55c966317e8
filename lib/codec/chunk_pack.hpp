// The dig-zone chunk packer: a grid cut into chunks (each with one sample of border on every
// side), every chunk RLE-encoded on its own, the streams joined into one blob with an int32
// offset per chunk; a chunk whose samples are all equal stores no stream and has offset
// -1 - value. Layout and rules in docs/formats/chunk-blob.md (FORMATS.md section 1).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/core/progress.hpp"

namespace voxkit::chunk_pack {

inline constexpr uint32_t kDefaultChunkCells = 16;
// Largest chunk edge voxkit accepts (a chunk larger than the grid is clipped anyway).
inline constexpr uint32_t kMaxChunkCells = 65536;
// Offsets are int32 in the reference runtime, so a blob holds at most this many bytes.
inline constexpr uint64_t kMaxBlobBytes = 0x7fffffffu;

// A box of samples, inclusive on both ends.
struct Box {
  std::array<uint32_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
  uint64_t size(int axis) const { return uint64_t(hi[axis]) - lo[axis] + 1; }
  uint64_t samples() const { return size(0) * size(1) * size(2); }
  bool operator==(const Box&) const = default;
};

// How a grid of `cells` is cut into chunks of `chunk_cells` cells per edge.
struct Layout {
  Dims cells;
  uint32_t chunk_cells = kDefaultChunkCells;
  std::array<uint32_t, 3> chunks{0, 0, 0};  // ncx, ncy, ncz = ceil(cells / chunk_cells)

  uint64_t chunk_count() const { return uint64_t(chunks[0]) * chunks[1] * chunks[2]; }
  // ci = cx + ncx * (cy + ncy * cz)
  uint64_t chunk_index(uint32_t cx, uint32_t cy, uint32_t cz) const {
    return cx + uint64_t(chunks[0]) * (cy + uint64_t(chunks[1]) * cz);
  }
  std::array<uint32_t, 3> chunk_coords(uint64_t ci) const;
  // The samples chunk `ci` stores: on each axis max(0, c*cc - 1) .. min(cells, c*cc + cc).
  Box chunk_box(uint64_t ci) const;
  // The samples chunk `ci` owns when a whole grid is assembled: c*cc .. c*cc + cc - 1, and
  // the last chunk on an axis also owns the grid's last sample. Every sample has one owner.
  Box owned_box(uint64_t ci) const;
};

// Checks the grid dimensions (as check_dims) and 1 <= chunk_cells <= kMaxChunkCells; throws
// a usage error otherwise.
Layout make_layout(Dims cells, uint32_t chunk_cells);

struct Packed {
  std::vector<int32_t> offsets;  // one per chunk, in chunk-index order
  std::vector<uint8_t> blob;     // the streams of non-uniform chunks, in chunk-index order
};

// Packs `samples` (layout.cells.samples() bytes in the dig-zone layout). Chunks are encoded
// in parallel (TBB); the bytes do not depend on the thread count. Throws a usage error when
// the blob would not fit int32 offsets.
Packed pack(const Layout& layout, std::span<const uint8_t> samples, const Progress& progress = {});

// The packing of `samples` when only the chunks in `changed` (indices) differ from the grid
// `offsets` and `blob` were packed from: those are re-encoded, every other chunk keeps its
// stream or uniform value. Equals pack() of `samples` when `changed` holds every chunk whose
// samples differ. Throws a data error when the offsets table is not valid for the layout.
Packed repack(const Layout& layout, std::span<const int32_t> offsets, std::span<const uint8_t> blob,
              std::span<const uint8_t> samples, std::span<const uint64_t> changed);

// The value of a uniform chunk's offset, or -1 for a stream offset.
inline int uniform_value(int32_t offset) { return offset < 0 ? int(-1 - int64_t(offset)) : -1; }

// Decodes chunk `ci` alone into `out` (layout.chunk_box(ci).samples() bytes, x fastest, then
// y, then z) without looking at any other chunk's stream. Throws a data error naming the
// chunk when its offset is out of range, its uniform value is not 0..255, or its stream does
// not decode to exactly the chunk's sample count. Error offsets are positions in the blob.
void unpack_chunk(const Layout& layout, std::span<const int32_t> offsets,
                  std::span<const uint8_t> blob, uint64_t ci, std::span<uint8_t> out);
std::vector<uint8_t> unpack_chunk(const Layout& layout, std::span<const int32_t> offsets,
                                  std::span<const uint8_t> blob, uint64_t ci);

// Checks the offsets table without decoding: one offset per chunk, uniform values 0..255,
// stream offsets inside the blob and strictly increasing in chunk order, the first stream at
// 0, and an empty blob exactly when every chunk is uniform.
void check_offsets(const Layout& layout, std::span<const int32_t> offsets, uint64_t blob_size);

// Decodes every chunk into the whole grid (in parallel). Besides check_offsets, each stream
// must end exactly where the next one starts (the last at the end of the blob), and the
// samples neighbouring chunks share must agree; a mismatch names both chunks and the sample.
// Errors are deterministic: the one of the lowest chunk index is reported.
std::vector<uint8_t> unpack(const Layout& layout, std::span<const int32_t> offsets,
                            std::span<const uint8_t> blob, const Progress& progress = {});
// The same into a caller's buffer of layout.cells.samples() bytes (its contents are replaced;
// after an error they are unspecified).
void unpack_into(const Layout& layout, std::span<const int32_t> offsets,
                 std::span<const uint8_t> blob, std::span<uint8_t> grid, const Progress& progress = {});

}  // namespace voxkit::chunk_pack
