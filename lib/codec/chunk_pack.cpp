// The dig-zone chunk packer: chunk boxes, parallel packing, single-chunk and whole-grid decoding.
#include "lib/codec/chunk_pack.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"

namespace voxkit::chunk_pack {
namespace {

std::string chunk_name(const Layout& l, uint64_t ci) {
  auto c = l.chunk_coords(ci);
  return "chunk " + std::to_string(ci) + " (" + std::to_string(c[0]) + "," +
         std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

std::string sample_name(uint64_t x, uint64_t y, uint64_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

// Keeps the error of the lowest chunk index seen by parallel workers, so the error a run
// reports does not depend on the thread count or the schedule.
class FirstError {
 public:
  explicit FirstError(uint64_t none) : best_(none) {}
  // True when chunk `ci` can no longer change the outcome.
  bool skip(uint64_t ci) const { return ci > best_.load(std::memory_order_relaxed); }
  void record(uint64_t ci, const Error& e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (ci < best_.load(std::memory_order_relaxed) || !error_) {
      best_.store(ci, std::memory_order_relaxed);
      error_ = e;
    }
  }
  void rethrow() const {
    if (error_) throw *error_;
  }

 private:
  std::atomic<uint64_t> best_;
  std::mutex mu_;
  std::optional<Error> error_;
};

// Runs `body(ci, scratch)` over [0, n) in parallel, with a scratch buffer shared by the
// chunks of one task; an Error thrown for a chunk is recorded, and the lowest chunk's error
// is thrown at the end.
template <class Body>
void for_chunks(uint64_t n, const Progress& progress, Body&& body) {
  FirstError first(n);
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, 16), [&](const auto& r) {
    std::vector<uint8_t> scratch;
    for (uint64_t ci = r.begin(); ci != r.end(); ++ci) {
      if (first.skip(ci)) return;
      try {
        body(ci, scratch);
      } catch (const Error& e) {
        first.record(ci, e);
        return;
      }
    }
    if (progress) progress(done.fetch_add(r.size()) + r.size(), n);
  });
  first.rethrow();
}

// Copies the samples of `box` out of the grid, x fastest.
void gather(const Dims& cells, std::span<const uint8_t> grid, const Box& box, uint8_t* out) {
  const size_t row = box.size(0);
  for (uint64_t z = box.lo[2]; z <= box.hi[2]; ++z)
    for (uint64_t y = box.lo[1]; y <= box.hi[1]; ++y) {
      std::memcpy(out, grid.data() + cells.index(box.lo[0], y, z), row);
      out += row;
    }
}

// True when all n bytes at p equal v.
bool all_value(const uint8_t* p, size_t n, uint8_t v) {
  size_t i = 0;
  const uint64_t pattern = 0x0101010101010101ull * v;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w != pattern) return false;
  }
  for (; i < n; ++i)
    if (p[i] != v) return false;
  return true;
}

}  // namespace

std::array<uint32_t, 3> Layout::chunk_coords(uint64_t ci) const {
  const uint32_t cx = uint32_t(ci % chunks[0]);
  ci /= chunks[0];
  return {cx, uint32_t(ci % chunks[1]), uint32_t(ci / chunks[1])};
}

Box Layout::chunk_box(uint64_t ci) const {
  const auto c = chunk_coords(ci);
  const uint32_t n[3] = {cells.nx, cells.ny, cells.nz};
  Box b;
  for (int a = 0; a < 3; ++a) {
    const uint64_t start = uint64_t(c[a]) * chunk_cells;
    b.lo[a] = uint32_t(start == 0 ? 0 : start - 1);
    b.hi[a] = uint32_t(std::min<uint64_t>(n[a], start + chunk_cells));
  }
  return b;
}

Box Layout::owned_box(uint64_t ci) const {
  const auto c = chunk_coords(ci);
  const uint32_t n[3] = {cells.nx, cells.ny, cells.nz};
  Box b;
  for (int a = 0; a < 3; ++a) {
    const uint64_t start = uint64_t(c[a]) * chunk_cells;
    b.lo[a] = uint32_t(start);
    b.hi[a] = c[a] + 1 == chunks[a] ? n[a] : uint32_t(start + chunk_cells - 1);
  }
  return b;
}

Layout make_layout(Dims cells, uint32_t chunk_cells) {
  check_dims(cells);
  if (chunk_cells < 1 || chunk_cells > kMaxChunkCells) {
    throw_usage("chunk cells must be 1.." + std::to_string(kMaxChunkCells) + ", got " +
                std::to_string(chunk_cells));
  }
  Layout l;
  l.cells = cells;
  l.chunk_cells = chunk_cells;
  const uint32_t n[3] = {cells.nx, cells.ny, cells.nz};
  for (int a = 0; a < 3; ++a) l.chunks[a] = uint32_t((uint64_t(n[a]) + chunk_cells - 1) / chunk_cells);
  return l;
}

namespace {

// Encodes chunk `ci` of `samples`: a uniform chunk gives its offset value and no stream.
void encode_chunk(const Layout& layout, std::span<const uint8_t> samples, uint64_t ci, std::vector<uint8_t>& buf,
                  int32_t& offset, std::vector<uint8_t>& stream) {
  const Box box = layout.chunk_box(ci);
  // Most chunks of a terrain are all solid or all air: test that in place, then gather
  // only the chunks that need a stream.
  const uint8_t first = samples[layout.cells.index(box.lo[0], box.lo[1], box.lo[2])];
  bool uniform = true;
  for (uint64_t z = box.lo[2]; uniform && z <= box.hi[2]; ++z)
    for (uint64_t y = box.lo[1]; uniform && y <= box.hi[1]; ++y)
      uniform = all_value(samples.data() + layout.cells.index(box.lo[0], y, z), box.size(0), first);
  if (uniform) {
    offset = -1 - int32_t(first);
    stream.clear();
    return;
  }
  offset = 0;
  buf.resize(box.samples());
  gather(layout.cells, samples, box, buf.data());
  stream = rle::encode(buf);
}

// Lays the streams of the non-uniform chunks end to end, in chunk order.
Packed join(std::vector<int32_t> offsets, const std::vector<std::span<const uint8_t>>& streams) {
  Packed out;
  out.offsets = std::move(offsets);
  uint64_t total = 0;
  for (uint64_t ci = 0; ci < out.offsets.size(); ++ci) {
    if (out.offsets[ci] < 0) continue;
    if (total + streams[ci].size() > kMaxBlobBytes) {
      throw_usage("packed blob would exceed " + std::to_string(kMaxBlobBytes) +
                  " bytes (int32 offsets); use larger chunks");
    }
    out.offsets[ci] = int32_t(total);
    total += streams[ci].size();
  }
  out.blob.resize(total);
  for (uint64_t ci = 0; ci < out.offsets.size(); ++ci) {
    if (out.offsets[ci] < 0 || streams[ci].empty()) continue;
    std::memcpy(out.blob.data() + out.offsets[ci], streams[ci].data(), streams[ci].size());
  }
  return out;
}

}  // namespace

Packed pack(const Layout& layout, std::span<const uint8_t> samples, const Progress& progress) {
  if (samples.size() != layout.cells.samples()) {
    throw_usage("grid has " + std::to_string(samples.size()) + " samples, but its cells need " +
                std::to_string(layout.cells.samples()));
  }
  const uint64_t n = layout.chunk_count();
  std::vector<int32_t> offsets(n, 0);
  std::vector<std::vector<uint8_t>> streams(n);
  for_chunks(n, progress, [&](uint64_t ci, std::vector<uint8_t>& buf) {
    encode_chunk(layout, samples, ci, buf, offsets[ci], streams[ci]);
  });
  std::vector<std::span<const uint8_t>> views(streams.begin(), streams.end());
  return join(std::move(offsets), views);
}

Packed repack(const Layout& layout, std::span<const int32_t> offsets, std::span<const uint8_t> blob,
              std::span<const uint8_t> samples, std::span<const uint64_t> changed) {
  if (samples.size() != layout.cells.samples()) {
    throw_usage("grid has " + std::to_string(samples.size()) + " samples, but its cells need " +
                std::to_string(layout.cells.samples()));
  }
  check_offsets(layout, offsets, blob.size());
  const uint64_t n = layout.chunk_count();
  std::vector<int32_t> out_offsets(offsets.begin(), offsets.end());
  std::vector<std::span<const uint8_t>> views(n);
  // The old streams: each runs to the next stream's offset (they are in chunk order).
  uint64_t end = blob.size();
  for (uint64_t ci = n; ci-- > 0;) {
    if (offsets[ci] < 0) continue;
    views[ci] = blob.subspan(uint64_t(offsets[ci]), end - uint64_t(offsets[ci]));
    end = uint64_t(offsets[ci]);
  }
  for (uint64_t ci : changed)
    if (ci >= n) throw_usage("chunk index " + std::to_string(ci) + " is past the layout's " + std::to_string(n) + " chunks");
  std::vector<std::vector<uint8_t>> fresh(changed.size());
  std::vector<int32_t> fresh_offsets(changed.size(), 0);
  tbb::parallel_for(size_t(0), changed.size(), [&](size_t k) {
    std::vector<uint8_t> buf;
    encode_chunk(layout, samples, changed[k], buf, fresh_offsets[k], fresh[k]);
  });
  for (size_t k = 0; k < changed.size(); ++k) {
    out_offsets[changed[k]] = fresh_offsets[k];
    views[changed[k]] = fresh[k];
  }
  return join(std::move(out_offsets), views);
}

void check_offsets(const Layout& layout, std::span<const int32_t> offsets, uint64_t blob_size) {
  const uint64_t n = layout.chunk_count();
  if (offsets.size() != n) {
    throw_data("offsets table has the wrong number of entries", std::nullopt,
               std::to_string(n) + " (one per chunk)", std::to_string(offsets.size()));
  }
  int64_t prev = -1;
  for (uint64_t ci = 0; ci < n; ++ci) {
    const int32_t off = offsets[ci];
    const uint64_t at = ci * 4;
    if (off < 0) {
      if (off < -256) {
        throw_data(chunk_name(layout, ci) + ": uniform chunk value out of range", at,
                   "an offset of -1..-256 (value 0..255)", std::to_string(off));
      }
      continue;
    }
    if (prev < 0 && off != 0) {
      throw_data(chunk_name(layout, ci) + ": the first stream does not start the blob", at,
                 "offset 0", std::to_string(off));
    }
    if (prev >= 0 && off <= prev) {
      throw_data(chunk_name(layout, ci) + ": streams are not in chunk order", at,
                 "an offset after " + std::to_string(prev), std::to_string(off));
    }
    if (uint64_t(off) >= blob_size) {
      throw_data(chunk_name(layout, ci) + ": stream offset is past the end of the blob", at,
                 "less than " + std::to_string(blob_size), std::to_string(off));
    }
    prev = off;
  }
  if (prev < 0 && blob_size != 0) {
    throw_data("every chunk is uniform but the blob is not empty", std::nullopt, "0 bytes",
               std::to_string(blob_size) + " bytes");
  }
}

void unpack_chunk(const Layout& layout, std::span<const int32_t> offsets,
                  std::span<const uint8_t> blob, uint64_t ci, std::span<uint8_t> out) {
  if (ci >= layout.chunk_count() || ci >= offsets.size()) {
    throw_usage("chunk " + std::to_string(ci) + " does not exist (the grid has " +
                std::to_string(layout.chunk_count()) + " chunks)");
  }
  const uint64_t samples = layout.chunk_box(ci).samples();
  if (out.size() != samples) {
    throw_usage("chunk output buffer has " + std::to_string(out.size()) + " bytes, expected " +
                std::to_string(samples));
  }
  const int32_t off = offsets[ci];
  if (off < 0) {
    if (off < -256) {
      throw_data(chunk_name(layout, ci) + ": uniform chunk value out of range", ci * 4,
                 "an offset of -1..-256 (value 0..255)", std::to_string(off));
    }
    std::memset(out.data(), -1 - off, out.size());
    return;
  }
  if (uint64_t(off) >= blob.size()) {
    throw_data(chunk_name(layout, ci) + ": stream offset is past the end of the blob", ci * 4,
               "less than " + std::to_string(blob.size()), std::to_string(off));
  }
  try {
    rle::decode_into(blob.subspan(size_t(off)), out);
  } catch (Error& e) {
    e.shift_offset(uint64_t(off));
    e.add_context(chunk_name(layout, ci) + ": ");
    throw;
  }
}

namespace {

// Checks that chunk ci's stream, which starts at offsets[ci] and ends at or before `end`,
// claims exactly its chunk's samples and that its tokens make them up when the claim is over
// what the stream's size can be trusted with (rle::proven_count): only then may a decoder
// allocate them.
void prove_stream(const Layout& layout, std::span<const int32_t> offsets,
                  std::span<const uint8_t> blob, uint64_t ci, uint64_t end) {
  const int32_t off = offsets[ci];
  if (off < 0 || uint64_t(off) >= blob.size()) return;  // uniform, or refused by the decoder
  const uint64_t samples = layout.chunk_box(ci).samples();
  const auto stream = blob.subspan(size_t(off), size_t(std::min<uint64_t>(end, blob.size()) - uint64_t(off)));
  try {
    const uint64_t count = rle::read_count(stream);
    if (count != samples) {
      throw_data("stream has the wrong sample count", 0, std::to_string(samples), std::to_string(count));
    }
    rle::proven_count(stream, samples);
  } catch (Error& e) {
    e.shift_offset(uint64_t(off));
    e.add_context(chunk_name(layout, ci) + ": ");
    throw;
  }
}

// prove_stream() for every stream chunk in chunk order (the first bad chunk is the one
// named), each stream ending where the next one starts.
void prove_streams(const Layout& layout, std::span<const int32_t> offsets,
                   std::span<const uint8_t> blob) {
  const uint64_t n = layout.chunk_count();
  std::vector<uint64_t> end(n, 0);
  uint64_t next = blob.size();
  for (uint64_t ci = n; ci-- > 0;) {
    if (offsets[ci] < 0) continue;
    end[ci] = next;
    next = uint64_t(offsets[ci]);
  }
  for (uint64_t ci = 0; ci < n; ++ci) prove_stream(layout, offsets, blob, ci, end[ci]);
}

}  // namespace

std::vector<uint8_t> unpack_chunk(const Layout& layout, std::span<const int32_t> offsets,
                                  std::span<const uint8_t> blob, uint64_t ci) {
  if (ci >= layout.chunk_count()) {
    throw_usage("chunk " + std::to_string(ci) + " does not exist (the grid has " +
                std::to_string(layout.chunk_count()) + " chunks)");
  }
  if (ci < offsets.size()) prove_stream(layout, offsets, blob, ci, blob.size());
  std::vector<uint8_t> out(layout.chunk_box(ci).samples());
  unpack_chunk(layout, offsets, blob, ci, out);
  return out;
}

namespace {

// The owner chunk coordinate of sample `s` on an axis with `nc` chunks.
uint32_t owner_coord(uint64_t s, uint32_t cc, uint32_t nc) {
  return uint32_t(std::min<uint64_t>(s / cc, nc - 1));
}

bool inside(uint64_t v, uint32_t lo, uint32_t hi) { return v >= lo && v <= hi; }

// Compares a row of a chunk's samples with the assembled grid over x in [x0, x1]; throws on
// the first sample that differs.
void compare_row(const Layout& l, uint64_t ci, const uint8_t* chunk_row, int uniform,
                 uint32_t row_lo, const uint8_t* grid_row, uint32_t x0, uint32_t x1, uint64_t y,
                 uint64_t z) {
  for (uint64_t x = x0; x <= x1; ++x) {
    const uint8_t mine = uniform >= 0 ? uint8_t(uniform) : chunk_row[x - row_lo];
    const uint8_t theirs = grid_row[x - row_lo];
    if (mine == theirs) continue;
    const uint64_t owner = l.chunk_index(owner_coord(x, l.chunk_cells, l.chunks[0]),
                                         owner_coord(y, l.chunk_cells, l.chunks[1]),
                                         owner_coord(z, l.chunk_cells, l.chunks[2]));
    throw_data(chunk_name(l, ci) + ": shared sample " + sample_name(x, y, z) +
                   " disagrees with " + chunk_name(l, owner),
               std::nullopt, std::to_string(theirs) + " as in the owning chunk",
               std::to_string(mine));
  }
}

}  // namespace

std::vector<uint8_t> unpack(const Layout& layout, std::span<const int32_t> offsets,
                            std::span<const uint8_t> blob, const Progress& progress) {
  check_offsets(layout, offsets, blob.size());
  // A grid over a small multiple of the offsets and streams (as rle::proven_count trusts a
  // count) is allocated at once; a larger one only after every stream's claim is checked.
  const uint64_t input = 4 * offsets.size() + blob.size();
  if (layout.cells.samples() > rle::kTrustedSamples &&
      (layout.cells.samples() - rle::kTrustedSamples) / rle::kTrustedRatio >= input) {
    prove_streams(layout, offsets, blob);
  }
  std::vector<uint8_t> grid(layout.cells.samples());
  unpack_into(layout, offsets, blob, grid, progress);
  return grid;
}

void unpack_into(const Layout& layout, std::span<const int32_t> offsets,
                 std::span<const uint8_t> blob, std::span<uint8_t> grid, const Progress& progress) {
  if (grid.size() != layout.cells.samples()) {
    throw_usage("grid buffer has " + std::to_string(grid.size()) + " bytes, expected " +
                std::to_string(layout.cells.samples()));
  }
  check_offsets(layout, offsets, blob.size());
  const uint64_t n = layout.chunk_count();
  const Dims& cells = layout.cells;
  // Each stream must end where the next one starts, the last one at the end of the blob.
  std::vector<uint64_t> stream_end(n, 0);
  uint64_t next = blob.size();
  for (uint64_t ci = n; ci-- > 0;) {
    if (offsets[ci] < 0) continue;
    stream_end[ci] = next;
    next = uint64_t(offsets[ci]);
  }

  // Decodes chunk ci into `buf` (empty for a uniform chunk) and returns its uniform value
  // or -1.
  auto decode = [&](uint64_t ci, std::vector<uint8_t>& buf, const Box& box) -> int {
    const int32_t off = offsets[ci];
    if (off < 0) return -1 - off;
    buf.resize(box.samples());
    const uint64_t len = stream_end[ci] - uint64_t(off);
    size_t used;
    try {
      used = rle::decode_into(blob.subspan(size_t(off), size_t(len)), buf);
    } catch (Error& e) {
      e.shift_offset(uint64_t(off));
      e.add_context(chunk_name(layout, ci) + ": ");
      throw;
    }
    if (used != len) {
      const bool last = stream_end[ci] == blob.size();
      throw_data(chunk_name(layout, ci) + (last ? ": extra bytes after the last stream"
                                                : ": unused bytes before the next stream"),
                 uint64_t(off) + used,
                 last ? std::string("end of blob")
                      : "the next stream at offset " + std::to_string(stream_end[ci]),
                 std::to_string(len - used) + " more bytes");
    }
    return -1;
  };

  Progress first_half, second_half;
  if (progress) {
    first_half = [&](uint64_t d, uint64_t t) { progress(d, 2 * t); };
    second_half = [&](uint64_t d, uint64_t t) { progress(t + d, 2 * t); };
  }

  // Pass 1: every chunk writes the samples it owns.
  for_chunks(n, first_half, [&](uint64_t ci, std::vector<uint8_t>& buf) {
    const Box box = layout.chunk_box(ci), own = layout.owned_box(ci);
    const int uniform = decode(ci, buf, box);
    const uint64_t sx = box.size(0), sy = box.size(1);
    const size_t len = own.size(0);
    for (uint64_t z = own.lo[2]; z <= own.hi[2]; ++z)
      for (uint64_t y = own.lo[1]; y <= own.hi[1]; ++y) {
        uint8_t* dst = grid.data() + cells.index(own.lo[0], y, z);
        if (uniform >= 0) {
          std::memset(dst, uniform, len);
        } else {
          const uint64_t src = (z - box.lo[2]) * sy * sx + (y - box.lo[1]) * sx + (own.lo[0] - box.lo[0]);
          std::memcpy(dst, buf.data() + src, len);
        }
      }
  });

  // Pass 2: the samples a chunk shares with its neighbours must equal what their owners wrote.
  for_chunks(n, second_half, [&](uint64_t ci, std::vector<uint8_t>& buf) {
    const Box box = layout.chunk_box(ci), own = layout.owned_box(ci);
    const int uniform = decode(ci, buf, box);
    const uint64_t sx = box.size(0), sy = box.size(1);
    // In rows the chunk owns, only the samples left and right of its owned x-range are
    // shared (at most one on each side); other rows are shared whole.
    const size_t left = own.lo[0] - box.lo[0], right = size_t(own.hi[0]) - box.lo[0] + 1;
    const uint8_t u = uint8_t(uniform);
    for (uint64_t z = box.lo[2]; z <= box.hi[2]; ++z)
      for (uint64_t y = box.lo[1]; y <= box.hi[1]; ++y) {
        const uint8_t* row = uniform >= 0 ? nullptr
                                          : buf.data() + (z - box.lo[2]) * sy * sx + (y - box.lo[1]) * sx;
        const uint8_t* grow = grid.data() + cells.index(box.lo[0], y, z);
        bool same = true;
        if (inside(y, own.lo[1], own.hi[1]) && inside(z, own.lo[2], own.hi[2])) {
          for (size_t k = 0; k < left; ++k) same &= grow[k] == (row ? row[k] : u);
          for (size_t k = right; k < sx; ++k) same &= grow[k] == (row ? row[k] : u);
        } else {
          same = row ? std::memcmp(row, grow, sx) == 0 : all_value(grow, sx, u);
        }
        // compare_row finds the first differing sample and throws.
        if (!same) compare_row(layout, ci, row, uniform, box.lo[0], grow, box.lo[0], box.hi[0], y, z);
      }
  });
}

}  // namespace voxkit::chunk_pack
