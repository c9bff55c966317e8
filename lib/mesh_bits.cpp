// Solid-bit rows for the meshers (one bit per sample, found 16 bytes at a time) and the
// reciprocal table edge crossings are interpolated with.
#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

// Writes the solid bits of the n samples at p to out[0 .. (n + 63) / 64).
inline void row_bits(const uint8_t* p, int64_t n, uint64_t* out) {
  int64_t k = 0;
#if defined(__SSE2__)
  // Whole words: four blocks of sixteen bytes, the top bit of a byte clear exactly when the
  // byte is below 128.
  for (; 64 * k + 64 <= n; ++k) {
    const uint8_t* q = p + 64 * k;
    auto block = [q](int i) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + i));
      return uint64_t(uint16_t(~_mm_movemask_epi8(v)));
    };
    out[k] = block(0) | block(16) << 16 | block(32) << 32 | block(48) << 48;
  }
#endif
  for (; 64 * k < n; ++k) {
    const uint8_t* q = p + 64 * k;
    const int64_t m = n - 64 * k < 64 ? n - 64 * k : 64;
    uint64_t word = 0;
#if defined(__SSE2__)
    if (n >= 16) {
      // The top bit of a byte is clear exactly when the byte is below 128. A partial last
      // block is read as the 16 bytes ending at the row's end: overlapping bits agree.
      auto block = [](const uint8_t* at) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
        return uint64_t(~unsigned(_mm_movemask_epi8(v)) & 0xffffu);
      };
      const int64_t start = m >= 16 ? 0 : m - 16;  // a short last word borrows from before
      for (int64_t i = start; i + 16 <= m; i += 16)
        word |= i >= 0 ? block(q + i) << i : block(q + i) >> -i;
      if (m % 16 != 0 && m >= 16) word |= block(q + m - 16) << (m - 16);
      out[k] = word;
      continue;
    }
#endif
    for (int64_t i = 0; i < m; ++i) word |= uint64_t(q[i] < 128) << i;
    out[k] = word;
  }
}

}  // namespace

SolidBits::SolidBits(const View& v, const int64_t lo[3], const int64_t hi[3],
                     std::vector<uint64_t>& storage) {
  for (int a = 0; a < 3; ++a) {
    lo_[a] = lo[a];
    hi_[a] = hi[a];
  }
  const int64_t n = hi[0] - lo[0] + 1;
  words_ = (n + 63) / 64;
  ny_ = hi[1] - lo[1] + 1;
  storage.resize(size_t(words_ * ny_ * (hi[2] - lo[2] + 1)));
  bits_ = storage.data();
  uint64_t* out = storage.data();
#if defined(__SSE2__)
  if (n >= 16 && n <= 64) {
    // One word a row (every chunk of up to 62 cells): whole blocks, then the block ending
    // at the row's end (bits it shares with the last whole block agree).
    const int64_t whole = n / 16 * 16, tail = n - 16;
    auto block = [](const uint8_t* at) {
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      return uint64_t(~unsigned(_mm_movemask_epi8(b)) & 0xffffu);
    };
    // The uniformity test rides along: OR and AND of every row (n bits each).
    const uint64_t pad = ~word_limit(0, n);
    uint64_t any = 0, all = ~uint64_t(0);
    for (int64_t z = lo[2]; z <= hi[2]; ++z) {
      const uint8_t* p = v.ptr(lo[0], lo[1], z);
      for (int64_t y = lo[1]; y <= hi[1]; ++y, ++out, p += v.sy) {
        uint64_t w = block(p + tail) << tail;
        for (int64_t i = 0; i < whole; i += 16) w |= block(p + i) << i;
        *out = w;
        any |= w;
        all &= w;
      }
    }
    uniform_ = any == 0 || (all | pad) == ~uint64_t(0);
    return;
  }
#endif
  for (int64_t z = lo[2]; z <= hi[2]; ++z) {
    const uint8_t* p = v.ptr(lo[0], lo[1], z);
#if defined(__SSE2__)
    // The next slab's rows are a jump away in memory: ask for them while this one is read
    // (when they are few; a long run of slabs streams well enough).
    const int64_t span = (hi[1] - lo[1]) * v.sy + n;
    if (z < hi[2] && span <= 16384)
      for (const uint8_t* q = p + v.sz; q < p + v.sz + span; q += 64)
        _mm_prefetch(reinterpret_cast<const char*>(q), _MM_HINT_T0);
#endif
    for (int64_t y = lo[1]; y <= hi[1]; ++y, out += words_, p += v.sy) row_bits(p, n, out);
  }
  uint64_t any = 0, all = ~uint64_t(0);
  for (int64_t k = 0; k < words_; ++k) {
    const uint64_t pad = ~word_limit(k, n);
    for (const uint64_t* w = storage.data() + k; w < out; w += words_) {
      any |= *w;
      all &= *w | pad;
    }
  }
  uniform_ = any == 0 || all == ~uint64_t(0);
}

}  // namespace voxkit::mesh_detail

namespace voxkit::mesh_detail {

namespace {

std::array<float, 511> make_reciprocals() {
  std::array<float, 511> r{};
  for (int d = -255; d <= 255; ++d) r[size_t(d + 255)] = d == 0 ? 0.0f : 1.0f / float(d);
  return r;
}

}  // namespace

const std::array<float, 511> kReciprocal = make_reciprocals();

}  // namespace voxkit::mesh_detail
