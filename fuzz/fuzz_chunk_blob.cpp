// Fuzz target: chunk blob container. Reads and unpacks (as given, and with the CRC made right), then checks grid -> pack -> container
// -> read -> unpack gives the grid back, and that every chunk decodes alone to its box.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "formats/zone/chunk_blob.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;

namespace {

void check(std::span<const uint8_t> in) {
  chunk_blob::View v;
  std::vector<uint8_t> grid;
  try {
    v = chunk_blob::read(in);
    for (uint64_t ci = 0; ci < v.layout.chunk_count() && ci < 64; ++ci) {
      try {
        chunk_blob::unpack_chunk(v, ci);
      } catch (const Error&) {
      }
    }
    grid = chunk_blob::unpack(v);
  } catch (const Error&) {
    return;
  }
  const auto packed = chunk_pack::pack(v.layout, grid);
  const auto file = chunk_blob::write(v.layout, packed);
  const auto again = chunk_blob::read(file);
  if (chunk_blob::unpack(again) != grid) std::abort();
  // Packing is canonical: the container of the decoded grid is a fixed point.
  if (chunk_blob::write(again.layout, chunk_pack::pack(again.layout, grid)) != file) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check(std::span<const uint8_t>(data, size));
  // The CRC stops almost every mutation at the door; check a copy whose CRC is made right
  // too, so the fuzzer reaches the offsets table and the streams.
  if (size >= chunk_blob::kHeaderBytes) {
    std::vector<uint8_t> fixed(data, data + size);
    const uint32_t crc = uint32_t(crc32_z(0, fixed.data() + chunk_blob::kHeaderBytes, fixed.size() - chunk_blob::kHeaderBytes));
    for (int i = 0; i < 4; ++i) fixed[chunk_blob::kHeaderBytes - 4 + i] = uint8_t(crc >> (8 * i));
    check(fixed);
  }
  return 0;
}
