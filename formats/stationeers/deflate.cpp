// Raw deflate over zlib: compression in parallel pieces, inflation with a block index, and
// splicing of unchanged blocks from an old stream into a new one.
#include "formats/stationeers/deflate.hpp"

#include <tbb/parallel_for.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "lib/core/error.hpp"

namespace voxkit::zip {
namespace {

constexpr size_t kPiece = 1 << 20;        // bytes per independently compressed piece
constexpr uint64_t kWindow = 32 << 10;    // deflate's largest back-reference distance

uint32_t crc_of(const uint8_t* p, size_t n) {
  uLong c = ::crc32(0L, Z_NULL, 0);
  while (n > 0) {
    const size_t k = std::min<size_t>(n, 1u << 30);
    c = ::crc32(c, p, uInt(k));
    p += k;
    n -= k;
  }
  return uint32_t(c);
}

uint32_t crc_join(uint32_t a, uint32_t b, uint64_t b_len) {
  return uint32_t(crc32_combine(a, b, z_off_t(b_len)));
}

// Compresses all[lo, hi), the window primed with the 32 KiB before lo and the output
// starting with `prime_bits` bits of `prime_value`. Ends byte-aligned: with an empty stored
// block (sync flush) or, when `final`, with the final block.
std::vector<uint8_t> deflate_piece(std::span<const uint8_t> all, size_t lo, size_t hi, int level,
                                   bool final, int prime_bits, int prime_value) {
  // One stream per thread, reset between pieces: a new one costs more than a small piece.
  struct Stream {
    z_stream zs{};
    int level = -1;
    ~Stream() {
      if (level >= 0) deflateEnd(&zs);
    }
  };
  thread_local Stream cache;
  if (cache.level != level) {
    if (cache.level >= 0) deflateEnd(&cache.zs);
    cache.zs = z_stream{};
    cache.level = -1;
    if (deflateInit2(&cache.zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      throw_usage("zlib refused deflate level " + std::to_string(level));
    }
    cache.level = level;
  } else if (deflateReset(&cache.zs) != Z_OK) {
    throw_data("zlib failed to reset a deflate stream");
  }
  z_stream& zs = cache.zs;
  if (lo > 0) {
    const size_t d = std::min<size_t>(lo, kWindow);
    deflateSetDictionary(&zs, all.data() + lo - d, uInt(d));
  }
  if (prime_bits > 0 && deflatePrime(&zs, prime_bits, prime_value) != Z_OK) {
    throw_data("zlib failed to start a deflate piece");
  }
  const size_t n = hi - lo;
  std::vector<uint8_t> out(deflateBound(&zs, uLong(n)) + 64);
  zs.next_in = const_cast<Bytef*>(all.data() + lo);
  zs.avail_in = uInt(n);
  size_t used = 0;
  for (;;) {
    zs.next_out = out.data() + used;
    zs.avail_out = uInt(out.size() - used);
    const int rc = deflate(&zs, final ? Z_FINISH : Z_SYNC_FLUSH);
    used = out.size() - zs.avail_out;
    if (final ? rc == Z_STREAM_END : (zs.avail_in == 0 && zs.avail_out > 0)) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) throw_data("zlib failed to deflate");
    out.resize(out.size() * 2);
  }
  out.resize(used);
  return out;
}

uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian hosts only (checked in CMake)
}

// Writes bits [b0, b1) of `src` to d[0, (b1 - b0 + 7) / 8): the unused high bits of the
// last byte are zero.
void write_bits(std::span<const uint8_t> src, uint64_t b0, uint64_t b1, uint8_t* d) {
  const uint64_t nbits = b1 - b0;
  const size_t nbytes = size_t((nbits + 7) / 8);
  const size_t s = size_t(b0 >> 3);
  const unsigned r = unsigned(b0 & 7);
  size_t i = 0;
  if (r == 0) {
    std::memcpy(d, src.data() + s, nbytes);
  } else {
    // Eight output bytes from nine input bytes while nine are there.
    for (; s + i + 9 <= src.size() && i + 8 <= nbytes; i += 8) {
      const uint64_t v = (load64(src.data() + s + i) >> r) |
                         (uint64_t(src[s + i + 8]) << (64 - r));
      std::memcpy(d + i, &v, 8);
    }
    for (; i < nbytes; ++i) {
      const unsigned lo = src[s + i] >> r;
      const unsigned hi = s + i + 1 < src.size() ? unsigned(src[s + i + 1]) << (8 - r) : 0u;
      d[i] = uint8_t(lo | hi);
    }
  }
  if (nbits % 8) d[nbytes - 1] &= uint8_t((1u << (nbits % 8)) - 1);
}

// Length of the common prefix of a and b, comparing a word at a time.
size_t prefix_len(const uint8_t* a, const uint8_t* b, size_t n) {
  size_t i = 0;
  while (i + 8 <= n && load64(a + i) == load64(b + i)) i += 8;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

size_t suffix_len(const uint8_t* a_end, const uint8_t* b_end, size_t n) {
  size_t i = 0;
  while (i + 8 <= n && load64(a_end - i - 8) == load64(b_end - i - 8)) i += 8;
  while (i < n && a_end[-1 - int64_t(i)] == b_end[-1 - int64_t(i)]) ++i;
  return i;
}

}  // namespace

uint32_t crc32(std::span<const uint8_t> in) { return crc_of(in.data(), in.size()); }

Compressed deflate_raw(std::span<const uint8_t> in, int level) {
  // A splice with nothing to reuse: every byte compressed, in parallel pieces.
  return splice({}, DeflateIndex{}, {}, in, {}, level);
}

InflateStatus inflate_raw(std::span<const uint8_t> in, std::span<uint8_t> out, DeflateIndex* index) {
  InflateStatus st;
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) throw_data("zlib cannot start inflating");
  if (index) {
    *index = DeflateIndex{};
    index->blocks.push_back({});
  }
  // Input and output in chunks (zlib counts in 32 bits); once `out` is full, a one-byte
  // scratch shows whether the stream wants to write more.
  uint8_t scratch = 0;
  const int flush = index ? Z_BLOCK : Z_NO_FLUSH;
  uint64_t final_end = 0;
  for (;;) {
    if (zs.avail_in == 0) {
      zs.next_in = const_cast<Bytef*>(in.data() + zs.total_in);
      zs.avail_in = uInt(std::min<uint64_t>(in.size() - zs.total_in, 1u << 30));
    }
    const bool full = zs.total_out == out.size();
    if (zs.avail_out == 0) {
      zs.next_out = full ? &scratch : out.data() + zs.total_out;
      zs.avail_out = full ? 1 : uInt(std::min<uint64_t>(out.size() - zs.total_out, 1u << 30));
    }
    st.rc = inflate(&zs, flush);
    if (full && zs.avail_out == 0) {
      st.overflow = true;
      break;
    }
    if (st.rc != Z_OK) break;
    // Stopped just after a block (at the bits not yet taken): the next one starts here,
    // unless that block was the final one, which ends the stream here.
    if (index && (zs.data_type & 128)) {
      const uint64_t bit = uint64_t(zs.total_in) * 8 - uint64_t(zs.data_type & 7);
      if (zs.data_type & 64) {
        final_end = bit;
      } else if (bit != index->blocks.back().bit) {
        index->blocks.push_back({bit, zs.total_out, 0, 0, false});
      }
    }
  }
  st.in_used = zs.total_in;
  st.out_used = std::min<uint64_t>(zs.total_out, out.size());
  if (zs.msg) st.message = zs.msg;
  if (index && st.rc == Z_STREAM_END && !st.overflow) {
    index->end_bit = final_end ? final_end : uint64_t(zs.total_in) * 8;
    index->size = zs.total_out;
    auto& bl = index->blocks;
    for (size_t k = 0; k < bl.size(); ++k) {
      const uint64_t p = bl[k].bit >> 3;
      const unsigned lo = p < in.size() ? in[p] : 0, hi = p + 1 < in.size() ? in[p + 1] : 0;
      const unsigned h = ((hi << 8) | lo) >> (bl[k].bit & 7);
      bl[k].final = h & 1;
      bl[k].type = uint8_t((h >> 1) & 3);
      const uint64_t end = k + 1 < bl.size() ? bl[k + 1].out : index->size;
      bl[k].crc = crc_of(out.data() + bl[k].out, size_t(end - bl[k].out));
    }
  }
  inflateEnd(&zs);
  return st;
}

std::vector<Run> common_runs(std::span<const uint8_t> old_bytes, std::span<const uint8_t> new_bytes) {
  const size_t n = std::min(old_bytes.size(), new_bytes.size());
  const size_t pre = prefix_len(old_bytes.data(), new_bytes.data(), n);
  const size_t suf = suffix_len(old_bytes.data() + old_bytes.size(),
                                new_bytes.data() + new_bytes.size(), n - pre);
  std::vector<Run> runs;
  if (pre > 0) runs.push_back({0, 0, pre});
  if (suf > 0) runs.push_back({new_bytes.size() - suf, old_bytes.size() - suf, suf});
  return runs;
}

Compressed splice(std::span<const uint8_t> old_stream, const DeflateIndex& index,
                  std::span<const uint8_t> old_bytes, std::span<const uint8_t> now,
                  std::span<const Run> runs, int level, SpliceStats* stats) {
  const auto& B = index.blocks;
  const bool index_ok = !B.empty() && index.size == old_bytes.size() &&
                        index.end_bit <= uint64_t(old_stream.size()) * 8;
  // Runs that hold, in new-byte order, not overlapping.
  std::vector<Run> ok;
  if (index_ok) {
    for (const Run& r : runs) {
      if (r.len == 0 || r.to > now.size() || r.len > now.size() - r.to ||
          r.from > old_bytes.size() || r.len > old_bytes.size() - r.from) {
        continue;
      }
      ok.push_back(r);
    }
    // Compared in parallel slices; a run with any difference is dropped.
    struct Slice {
      size_t run;
      uint64_t at, len;
    };
    std::vector<Slice> slices;
    for (size_t i = 0; i < ok.size(); ++i) {
      for (uint64_t at = 0; at < ok[i].len; at += kPiece * 4) {
        slices.push_back({i, at, std::min<uint64_t>(kPiece * 4, ok[i].len - at)});
      }
    }
    std::vector<uint8_t> bad(ok.size(), 0);
    tbb::parallel_for(size_t(0), slices.size(), [&](size_t k) {
      const Slice& sl = slices[k];
      const Run& r = ok[sl.run];
      if (std::memcmp(now.data() + r.to + sl.at, old_bytes.data() + r.from + sl.at,
                      size_t(sl.len)) != 0) {
        bad[sl.run] = 1;  // only ever set to 1: the order of writes does not matter
      }
    });
    size_t n = 0;
    for (size_t i = 0; i < ok.size(); ++i) {
      if (!bad[i]) ok[n++] = ok[i];
    }
    ok.resize(n);
  }
  std::sort(ok.begin(), ok.end(), [](const Run& a, const Run& b) { return a.to < b.to; });

  // Spans of reusable blocks [k0, k1), and where their bytes go in the new stream.
  struct Span {
    size_t k0, k1;
    uint64_t to0, to1;
  };
  auto end_of = [&](size_t k) { return k + 1 < B.size() ? B[k + 1].out : index.size; };
  auto end_bit_of = [&](size_t k) { return k + 1 < B.size() ? B[k + 1].bit : index.end_bit; };
  std::vector<Span> spans;
  uint64_t covered = 0;  // new bytes before this are already taken
  for (const Run& r : ok) {
    if (r.to < covered) continue;
    const uint64_t first = r.from == 0 ? 0 : r.from + kWindow;
    size_t k = size_t(std::lower_bound(B.begin(), B.end(), first,
                                       [](const DeflateIndex::Block& b, uint64_t v) {
                                         return b.out < v;
                                       }) - B.begin());
    bool open = false;
    for (; k < B.size() && end_of(k) <= r.from + r.len; ++k) {
      const bool good = (B[k].type == 1 || B[k].type == 2) &&
                        (!B[k].final || r.to + r.len == now.size());
      if (good && !open) {
        spans.push_back({k, k + 1, r.to + (B[k].out - r.from), 0});
        open = true;
      } else if (good) {
        spans.back().k1 = k + 1;
      } else {
        open = false;
      }
      if (open) spans.back().to1 = r.to + (end_of(k) - r.from);
    }
    covered = r.to + r.len;
  }
  std::erase_if(spans, [](const Span& s) { return s.to1 == s.to0; });

  // The new stream, in order: compressed segments of `now` and copies of old spans. Every
  // piece starts byte-aligned except a segment after a copy that ends mid-byte: that
  // segment is primed with the copy's last bits (its last byte is then dropped).
  struct Piece {
    bool copy = false;
    uint64_t lo = 0, hi = 0;  // segment: bytes of `now`; copy: bits of the old stream
    bool final = false;
    int prime_bits = 0, prime_value = 0;
    std::vector<uint8_t> data;
    uint32_t crc = 0;
  };
  std::vector<Piece> plan;
  uint64_t pos = 0;
  int tail_bits = 0;  // bits of the last copy's last byte, when it ends mid-byte
  auto segment = [&](uint64_t lo, uint64_t hi, bool final) {
    // Split into pieces compressed in parallel; only the first is primed.
    uint64_t a = lo;
    do {
      const uint64_t b = std::min<uint64_t>(hi, a + kPiece);
      Piece p;
      p.lo = a;
      p.hi = b;
      p.final = final && b == hi;
      if (a == lo && tail_bits) {
        p.prime_bits = tail_bits;
        const Piece& prev = plan.back();
        const uint64_t from = prev.hi - uint64_t(tail_bits);
        const uint64_t byte = from >> 3, shift = from & 7;
        const unsigned lo8 = old_stream[byte];
        const unsigned hi8 = byte + 1 < old_stream.size() ? old_stream[byte + 1] : 0;
        p.prime_value = int((((hi8 << 8) | lo8) >> shift) & ((1u << tail_bits) - 1));
      }
      plan.push_back(std::move(p));
      a = b;
    } while (a < hi);
    tail_bits = 0;
    pos = hi;
  };
  bool ended = false;
  SpliceStats st;
  for (const Span& sp : spans) {
    if (pos < sp.to0 || tail_bits) segment(pos, sp.to0, false);
    Piece p;
    p.copy = true;
    p.lo = B[sp.k0].bit;
    p.hi = end_bit_of(sp.k1 - 1);
    tail_bits = int((p.hi - p.lo) % 8);
    plan.push_back(std::move(p));
    st.reused_blocks += sp.k1 - sp.k0;
    st.reused_bytes += sp.to1 - sp.to0;
    pos = sp.to1;
    ended = B[sp.k1 - 1].final;
  }
  if (!ended) segment(pos, now.size(), true);

  // Segments are compressed first (their sizes are not known before); then every piece
  // goes to its place in the output, copies in slices of whole bytes, in parallel.
  tbb::parallel_for(size_t(0), plan.size(), [&](size_t i) {
    Piece& p = plan[i];
    if (p.copy) return;
    p.data = deflate_piece(now, size_t(p.lo), size_t(p.hi), level, p.final, p.prime_bits,
                           p.prime_value);
    p.crc = crc_of(now.data() + p.lo, size_t(p.hi - p.lo));
  });
  // A copy ending mid-byte hands its last bits to the primed segment after it.
  std::vector<uint64_t> place(plan.size() + 1, 0);
  for (size_t i = 0; i < plan.size(); ++i) {
    const Piece& p = plan[i];
    uint64_t n = p.data.size();
    if (p.copy) {
      const uint64_t nbits = p.hi - p.lo;
      n = (nbits + 7) / 8 - ((nbits % 8 && i + 1 < plan.size()) ? 1 : 0);
    }
    place[i + 1] = place[i] + n;
  }
  Compressed c;
  c.data.resize(size_t(place.back()));
  struct Job {
    size_t piece;
    uint64_t off, len;  // output bytes of the piece
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < plan.size(); ++i) {
    const uint64_t len = place[i + 1] - place[i];
    for (uint64_t off = 0; off < len || (off == 0 && len == 0); off += kPiece) {
      jobs.push_back({i, off, std::min<uint64_t>(kPiece, len - off)});
      if (len == 0) break;
    }
  }
  tbb::parallel_for(size_t(0), jobs.size(), [&](size_t j) {
    const Job& jb = jobs[j];
    const Piece& p = plan[jb.piece];
    uint8_t* d = c.data.data() + place[jb.piece] + jb.off;
    if (jb.len == 0) return;
    if (!p.copy) {
      std::memcpy(d, p.data.data() + jb.off, size_t(jb.len));
      return;
    }
    const uint64_t b0 = p.lo + jb.off * 8;
    write_bits(old_stream, b0, std::min(p.hi, b0 + jb.len * 8), d);
  });
  uint32_t crc = crc_of(nullptr, 0);
  size_t k_span = 0;
  for (const Piece& p : plan) {
    if (p.copy) {
      const Span& sp = spans[k_span++];
      for (size_t k = sp.k0; k < sp.k1; ++k) crc = crc_join(crc, B[k].crc, end_of(k) - B[k].out);
    } else {
      crc = crc_join(crc, p.crc, p.hi - p.lo);
      st.compressed_bytes += p.hi - p.lo;
    }
  }
  c.crc32 = crc;
  if (stats) *stats = st;
  return c;
}

}  // namespace voxkit::zip
