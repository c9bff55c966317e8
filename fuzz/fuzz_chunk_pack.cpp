// Fuzz target: the chunk packer's decoder over a raw offsets table and blob. Input: three
// bytes of cells (1..8 each), one of chunk cells (1..5), then int32 offsets (one per chunk),
// then the blob. Decodes each chunk alone and the whole grid; a decoded grid must pack and
// unpack back to itself, and each chunk alone must equal its box cut from the grid.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "lib/codec/chunk_pack.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const Dims cells{uint32_t(data[0] % 8 + 1), uint32_t(data[1] % 8 + 1), uint32_t(data[2] % 8 + 1)};
  const auto layout = chunk_pack::make_layout(cells, data[3] % 5 + 1);
  const uint64_t n = layout.chunk_count();
  if (size < 4 + 4 * n) return 0;
  std::vector<int32_t> offsets(n);
  std::memcpy(offsets.data(), data + 4, 4 * n);
  std::span<const uint8_t> blob(data + 4 + 4 * n, size - 4 - 4 * n);

  for (uint64_t ci = 0; ci < n; ++ci) {
    try {
      chunk_pack::unpack_chunk(layout, offsets, blob, ci);
    } catch (const Error&) {
    }
  }
  std::vector<uint8_t> grid;
  try {
    grid = chunk_pack::unpack(layout, offsets, blob);
  } catch (const Error&) {
    return 0;
  }
  // A blob the whole-grid decoder accepts decodes the same chunk by chunk.
  for (uint64_t ci = 0; ci < n; ++ci) {
    const auto box = layout.chunk_box(ci);
    const auto chunk = chunk_pack::unpack_chunk(layout, offsets, blob, ci);
    size_t i = 0;
    for (uint64_t z = box.lo[2]; z <= box.hi[2]; ++z)
      for (uint64_t y = box.lo[1]; y <= box.hi[1]; ++y)
        for (uint64_t x = box.lo[0]; x <= box.hi[0]; ++x)
          if (chunk[i++] != grid[cells.index(x, y, z)]) std::abort();
  }
  const auto packed = chunk_pack::pack(layout, grid);
  if (chunk_pack::unpack(layout, packed.offsets, packed.blob) != grid) std::abort();
  return 0;
}
