// Parallel dig-zone RLE encoding over slices that begin at a run.
#include "lib/codec/rle_parallel.hpp"

#include <tbb/parallel_for.h>

#include <bit>
#include <cstring>

#include "lib/codec/rle.hpp"

namespace voxkit::rle {
namespace {

inline size_t run_at(const uint8_t* p, size_t n) {
  const uint64_t pattern = 0x0101010101010101ull * p[0];
  size_t i = 1;
  while (i + 8 <= n) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (uint64_t diff = w ^ pattern) return i + (std::countr_zero(diff) >> 3);
    i += 8;
  }
  while (i < n && p[i] == p[0]) ++i;
  return i;
}

// Tokens of samples[a, b) without the count header.
void tokens(const uint8_t* p, size_t a, size_t b, std::vector<uint8_t>& out) {
  size_t i = a, lit = a;
  while (i < b) {
    const size_t len = run_at(p + i, b - i);
    if (len >= kMinRun) {
      if (i > lit) {
        put_varint(out, uint32_t(i - lit) << 1);
        out.insert(out.end(), p + lit, p + i);
      }
      put_varint(out, (uint32_t(len) << 1) | 1u);
      out.push_back(p[i]);
      lit = i + len;
    }
    i += len;
  }
  if (b > lit) {
    put_varint(out, uint32_t(b - lit) << 1);
    out.insert(out.end(), p + lit, p + b);
  }
}

// First position q in [from, limit) where a maximal run of >= kMinRun starts, or 0.
size_t cut_at(const uint8_t* p, size_t n, size_t from, size_t limit) {
  size_t q = from;
  while (q < limit && q + kMinRun <= n) {
    if (p[q] != p[q - 1]) {
      const size_t len = run_at(p + q, std::min(n - q, kMinRun));
      if (len >= kMinRun) return q;
      q += len;
    } else {
      ++q;
    }
  }
  return 0;
}

}  // namespace

std::vector<uint8_t> encode_parallel(std::span<const uint8_t> samples, size_t slice) {
  const size_t kSlice = std::max<size_t>(slice, kMinRun);
  const size_t n = samples.size();
  if (n < 2 * kSlice) return encode(samples);
  const uint8_t* p = samples.data();
  const size_t parts = n / kSlice;
  std::vector<size_t> cuts{0};
  for (size_t k = 1; k < parts; ++k) {
    const size_t from = std::max(k * kSlice, cuts.back() + 1);
    size_t q = cut_at(p, n, from, (k + 1) * kSlice);
    if (q > cuts.back()) cuts.push_back(q);
  }
  cuts.push_back(n);
  std::vector<std::vector<uint8_t>> pieces(cuts.size() - 1);
  tbb::parallel_for(size_t(0), pieces.size(), [&](size_t k) {
    pieces[k].reserve((cuts[k + 1] - cuts[k]) / 16 + 64);
    tokens(p, cuts[k], cuts[k + 1], pieces[k]);
  });
  std::vector<uint8_t> out;
  put_varint(out, uint32_t(n));
  size_t total = out.size();
  for (auto& piece : pieces) total += piece.size();
  out.reserve(total);
  for (auto& piece : pieces) out.insert(out.end(), piece.begin(), piece.end());
  return out;
}

}  // namespace voxkit::rle
