// The voxkit chunk blob container: writing, strict reading, unpacking and `info`.
#include "formats/zone/chunk_blob.hpp"

#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit::chunk_blob {
namespace {

// Byte positions of the header fields.
enum : size_t {
  kAtVersion = 4,
  kAtCells = 8,
  kAtChunkCells = 20,
  kAtChunks = 24,
  kAtBlobLength = 36,
  kAtCrc = 40,
};

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

uint32_t get_u32(std::span<const uint8_t> b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}

uint32_t crc_of(std::span<const uint8_t> bytes) {
  return uint32_t(crc32_z(crc32_z(0, nullptr, 0), bytes.data(), bytes.size()));
}

template <class F>
decltype(auto) at_file_offset(uint64_t base, F&& f) {
  try {
    return f();
  } catch (Error& e) {
    e.shift_offset(base);
    throw;
  }
}

}  // namespace

bool has_magic(std::span<const uint8_t> bytes) {
  return bytes.size() >= kMagic.size() && std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) == 0;
}

std::vector<uint8_t> write(const chunk_pack::Layout& l, const chunk_pack::Packed& p) {
  std::vector<uint8_t> out(kMagic.begin(), kMagic.end());
  out.reserve(kHeaderBytes + 4 * p.offsets.size() + p.blob.size());
  put_u32(out, kVersion);
  put_u32(out, l.cells.nx);
  put_u32(out, l.cells.ny);
  put_u32(out, l.cells.nz);
  put_u32(out, l.chunk_cells);
  for (uint32_t c : l.chunks) put_u32(out, c);
  put_u32(out, uint32_t(p.blob.size()));
  put_u32(out, 0);  // the CRC, filled in below
  for (int32_t o : p.offsets) put_u32(out, uint32_t(o));
  out.insert(out.end(), p.blob.begin(), p.blob.end());
  const uint32_t crc = crc_of(std::span<const uint8_t>(out).subspan(kHeaderBytes));
  for (int i = 0; i < 4; ++i) out[kAtCrc + i] = uint8_t(crc >> (8 * i));
  return out;
}

View read(std::span<const uint8_t> f, uint64_t max_samples) {
  const size_t n = std::min(f.size(), kMagic.size());
  if (n == 0 || std::memcmp(f.data(), kMagic.data(), n) != 0) {
    std::string found;
    for (size_t i = 0; i < n; ++i) found += (i ? " " : "") + hex_byte(f[i]);
    if (n == 0) found = "an empty file";
    throw_data("not a voxkit chunk blob (bad magic)", 0, "\"VXCB\" (0x56 0x58 0x43 0x42)", found);
  }
  if (f.size() < kHeaderBytes) {
    throw_data("file is truncated inside the header", f.size(),
               std::to_string(kHeaderBytes) + " header bytes", std::to_string(f.size()));
  }
  const uint32_t version = get_u32(f, kAtVersion);
  if (version != kVersion) {
    throw_data("unsupported chunk blob version", kAtVersion, std::to_string(kVersion),
               std::to_string(version));
  }
  const Dims cells{get_u32(f, kAtCells), get_u32(f, kAtCells + 4), get_u32(f, kAtCells + 8)};
  const char* axis = "xyz";
  const uint32_t cell[3] = {cells.nx, cells.ny, cells.nz};
  for (int a = 0; a < 3; ++a) {
    if (cell[a] == 0) {
      throw_data(std::string("grid has no cells along ") + axis[a], kAtCells + 4 * a,
                 "at least 1", "0");
    }
  }
  // Axis by axis, so that huge dimensions cannot wrap the 64-bit product.
  if (cells.sx() > max_samples || cells.sx() * cells.sy() > max_samples || cells.sx() * cells.sy() > max_samples / cells.sz()) {
    throw_data("grid has too many samples", kAtCells, "at most " + std::to_string(max_samples),
               std::to_string(cells.sx()) + " x " + std::to_string(cells.sy()) + " x " +
                   std::to_string(cells.sz()));
  }
  const uint32_t cc = get_u32(f, kAtChunkCells);
  if (cc < 1 || cc > chunk_pack::kMaxChunkCells) {
    throw_data("chunk cells out of range", kAtChunkCells,
               "1.." + std::to_string(chunk_pack::kMaxChunkCells), std::to_string(cc));
  }
  View v;
  v.layout = chunk_pack::make_layout(cells, cc);
  for (int a = 0; a < 3; ++a) {
    const uint32_t stored = get_u32(f, kAtChunks + 4 * a);
    if (stored != v.layout.chunks[a]) {
      throw_data(std::string("chunk count along ") + axis[a] + " does not match the cells",
                 kAtChunks + 4 * a,
                 std::to_string(v.layout.chunks[a]) + " (ceil(" + std::to_string(cell[a]) + " / " +
                     std::to_string(cc) + "))",
                 std::to_string(stored));
    }
  }
  const uint64_t blob_len = get_u32(f, kAtBlobLength);
  if (blob_len > chunk_pack::kMaxBlobBytes) {
    throw_data("blob length is over the int32 limit", kAtBlobLength,
               "at most " + std::to_string(chunk_pack::kMaxBlobBytes), std::to_string(blob_len));
  }
  const uint64_t chunks = v.layout.chunk_count();
  const uint64_t total = kHeaderBytes + 4 * chunks + blob_len;
  if (f.size() < total) {
    throw_data("file is truncated", f.size(),
               std::to_string(total) + " bytes (header, " + std::to_string(chunks) +
                   " offsets, " + std::to_string(blob_len) + " blob bytes)",
               std::to_string(f.size()) + " bytes");
  }
  if (f.size() > total) {
    throw_data("extra bytes after the blob", total, "end of file",
               std::to_string(f.size() - total) + " more bytes");
  }
  const uint32_t stored_crc = get_u32(f, kAtCrc);
  const uint32_t crc = crc_of(f.subspan(kHeaderBytes));
  if (crc != stored_crc) {
    throw_data("CRC32 of the offsets and blob does not match the header", kAtCrc,
               hex32(stored_crc), hex32(crc));
  }
  v.offsets.resize(chunks);
  for (uint64_t ci = 0; ci < chunks; ++ci) {
    v.offsets[ci] = int32_t(get_u32(f, kHeaderBytes + 4 * ci));
  }
  v.blob_at = kHeaderBytes + 4 * chunks;
  v.blob = f.subspan(v.blob_at, blob_len);
  at_file_offset(kHeaderBytes, [&] { chunk_pack::check_offsets(v.layout, v.offsets, blob_len); });
  return v;
}

std::vector<uint8_t> unpack(const View& v, const Progress& progress) {
  return at_file_offset(v.blob_at, [&] { return chunk_pack::unpack(v.layout, v.offsets, v.blob, progress); });
}

std::vector<uint8_t> unpack_chunk(const View& v, uint64_t ci) {
  return at_file_offset(v.blob_at, [&] { return chunk_pack::unpack_chunk(v.layout, v.offsets, v.blob, ci); });
}

std::optional<identify::Description> describe(std::span<const uint8_t> bytes, const std::string& name) {
  if (!has_magic(bytes)) return std::nullopt;
  const View v = read(bytes);
  const auto& l = v.layout;
  std::map<int, uint64_t> uniform;
  uint64_t streams = 0;
  for (int32_t o : v.offsets) {
    const int value = chunk_pack::uniform_value(o);
    if (value >= 0) {
      ++uniform[value];
    } else {
      ++streams;
    }
  }
  const uint64_t samples = l.cells.samples();
  identify::Description d;
  d.format = "chunk-blob";
  d.summary = "voxkit chunk blob, version " + std::to_string(kVersion);
  const std::string x = " x ";
  d.fields.push_back({"cells", std::to_string(l.cells.nx) + x + std::to_string(l.cells.ny) + x +
                                   std::to_string(l.cells.nz) + " (" + std::to_string(samples) +
                                   " samples)"});
  d.fields.push_back({"chunk cells", std::to_string(l.chunk_cells)});
  d.fields.push_back({"chunks", std::to_string(l.chunks[0]) + x + std::to_string(l.chunks[1]) + x +
                                    std::to_string(l.chunks[2]) + " = " +
                                    std::to_string(l.chunk_count()) + " (" + std::to_string(streams) +
                                    " streams)"});
  std::string by_value;
  nlohmann::json uniform_json = nlohmann::json::object();
  uint64_t uniform_total = 0;
  for (const auto& [value, count] : uniform) {
    by_value += (by_value.empty() ? "" : ", ") + std::to_string(count) + " of " + std::to_string(value);
    uniform_json[std::to_string(value)] = count;
    uniform_total += count;
  }
  d.fields.push_back({"uniform chunks", std::to_string(uniform_total) +
                                            (by_value.empty() ? "" : " (" + by_value + ")")});
  d.fields.push_back({"stored", std::to_string(bytes.size()) + " bytes (blob " +
                                    std::to_string(v.blob.size()) + "), " +
                                    identify::percent(bytes.size(), samples) + " of the raw grid"});
  d.details = {
      {"version", kVersion},
      {"cells", {l.cells.nx, l.cells.ny, l.cells.nz}},
      {"samples", samples},
      {"chunk_cells", l.chunk_cells},
      {"chunks", {l.chunks[0], l.chunks[1], l.chunks[2]}},
      {"chunk_count", l.chunk_count()},
      {"stream_chunks", streams},
      {"uniform_chunks", uniform_total},
      {"uniform_by_value", uniform_json},
      {"blob_bytes", v.blob.size()},
      {"stored_bytes", bytes.size()},
      {"ratio", samples ? double(bytes.size()) / double(samples) : 0.0},
  };
  return d;
}

}  // namespace voxkit::chunk_blob
