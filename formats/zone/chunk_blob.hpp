// The voxkit chunk blob container (docs/formats/chunk-blob.md): magic + version, grid and
// chunk dimensions, the int32 offsets table and the packed blob of lib/codec/chunk_pack.hpp, with
// a CRC32 over everything after the header.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "formats/core/identify.hpp"
#include "lib/codec/chunk_pack.hpp"
#include "lib/core/grid.hpp"
#include "lib/core/progress.hpp"

namespace voxkit::chunk_blob {

inline constexpr std::array<uint8_t, 4> kMagic = {'V', 'X', 'C', 'B'};
inline constexpr uint32_t kVersion = 1;
inline constexpr size_t kHeaderBytes = 44;

// A container read from bytes: the offsets are copied, the blob points into the bytes.
struct View {
  chunk_pack::Layout layout;
  std::vector<int32_t> offsets;
  std::span<const uint8_t> blob;
  uint64_t blob_at = 0;  // file position of the blob (for messages)
};

// The container bytes of a packed grid.
std::vector<uint8_t> write(const chunk_pack::Layout& layout, const chunk_pack::Packed& packed);

// True when `bytes` start with the magic.
bool has_magic(std::span<const uint8_t> bytes);

// Reads and checks a container: magic, version, dimensions (at most `max_samples` samples),
// chunk counts, the exact file size, the CRC, and the offsets table (chunk_pack::check_offsets).
// Nothing is allocated from a header field before it is checked against the file size.
// Throws a data error with the file offset otherwise.
View read(std::span<const uint8_t> file, uint64_t max_samples = kMaxGridSamples);

// The whole grid, or one chunk's samples; errors carry file offsets.
std::vector<uint8_t> unpack(const View& v, const Progress& progress = {});
std::vector<uint8_t> unpack_chunk(const View& v, uint64_t ci);

// Describer for `voxkit info`: dimensions, chunk counts, uniform chunks by value, sizes.
std::optional<identify::Description> describe(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace voxkit::chunk_blob
