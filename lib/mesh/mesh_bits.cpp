// Solid-bit rows for the meshers (one bit per sample, set when its byte is below 128), found
// eight bytes at a time in plain C++, sixteen with SSE2 or thirty-two with AVX2 (chosen at
// run time), and the reciprocal table edge crossings are interpolated with.
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/mesh/mesh_internal.hpp"
#include "lib/core/simd_avx2.hpp"

namespace voxkit::mesh_detail {

namespace {

// The rows of a box: nz slabs of ny rows of n samples, row (y, z) at p + y sy + z sz, and
// where their bits go (`words` a row, rows in y then z order).
struct Rows {
  const uint8_t* p;
  int64_t n, ny, nz, sy, sz, words;
  uint64_t* out;
};

// The rows of the next slab are a jump away in memory, which the hardware does not foresee:
// each row asks for the same row of the next slab while it is read (when a slab is at most
// this many bytes from its first row to its last sample; a longer run of rows streams well
// enough).
constexpr int64_t kPrefetchSpan = 16384;

inline void prefetch_row(const uint8_t* q, int64_t n) {
  for (int64_t i = 0; i < n - 1; i += 64) __builtin_prefetch(q + i);
  __builtin_prefetch(q + n - 1);  // the last line, which the steps of 64 may miss
}

// Each kernel below gives the bits of the 16, 32 or 64 samples at q (bit i for sample i).

// Eight samples from one 64-bit load: each byte's top bit (clear exactly when the byte is
// below 128) moved to its low bit, then the eight gathered into the top byte by a multiply
// (byte i's bit lands at 56 + i and no partial products overlap or carry).
inline uint64_t solid8(const uint8_t* q) {
  if constexpr (std::endian::native == std::endian::little) {
    uint64_t x;
    std::memcpy(&x, q, 8);
    x = (~x >> 7) & 0x0101010101010101ull;
    return (x * 0x0102040810204080ull) >> 56;
  } else {
    uint64_t w = 0;
    for (int i = 0; i < 8; ++i) w |= uint64_t(q[i] < 128) << i;
    return w;
  }
}

struct Plain {
  static uint64_t s16(const uint8_t* q) { return solid8(q) | solid8(q + 8) << 8; }
  static uint64_t s32(const uint8_t* q) { return s16(q) | s16(q + 16) << 16; }
  static uint64_t word(const uint8_t* q) { return s32(q) | s32(q + 32) << 32; }
};

#if defined(__SSE2__)
// The top bits of sixteen bytes, from one movemask.
inline uint64_t top16(const uint8_t* q) {
  return unsigned(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))));
}

struct Sse2 {
  static uint64_t s16(const uint8_t* q) { return ~top16(q) & 0xffffu; }
  static uint64_t s32(const uint8_t* q) { return ~(top16(q) | top16(q + 16) << 16) & 0xffffffffu; }
  static uint64_t word(const uint8_t* q) {
    return ~(top16(q) | top16(q + 16) << 16 | top16(q + 32) << 32 | top16(q + 48) << 48);
  }
};
#endif

#if VOXKIT_HAVE_AVX2_TARGET
// Thirty-two samples from one movemask; these run only inside box_avx2, which inlines them.
struct Avx2 {
  [[gnu::target("avx2")]] static uint64_t top32(const uint8_t* q) {
    return uint32_t(_mm256_movemask_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q))));
  }
  static uint64_t s16(const uint8_t* q) { return Sse2::s16(q); }
  [[gnu::target("avx2")]] static uint64_t s32(const uint8_t* q) { return ~top32(q) & 0xffffffffu; }
  [[gnu::target("avx2")]] static uint64_t word(const uint8_t* q) {
    return ~(top32(q) | top32(q + 32) << 32);
  }
};
#endif

// Calls row(p, out) for every row of r in order, p at its first sample and out at its
// words, asking first for the same row of the next slab when `ahead`. `One`: a word a row,
// as a constant.
template <bool One, class Row>
inline void each_row(const Rows& r, bool ahead, Row row) {
  // Copies, which the stores to out (64-bit words) cannot be taken to change.
  const int64_t n = r.n, ny = r.ny, nz = r.nz, sy = r.sy, sz = r.sz;
  const int64_t words = One ? 1 : r.words;
  uint64_t* out = r.out;
  for (int64_t z = 0; z < nz; ++z) {
    const uint8_t* p = r.p + z * sz;
    const bool next = ahead && z + 1 < nz;
    for (int64_t y = 0; y < ny; ++y, out += words, p += sy) {
      if (next) prefetch_row(p + sz, n);
      row(p, out);
    }
  }
}

// Rows of at most 64 samples, one word each from word(p); returns whether the box is
// uniform, from the OR and AND of the words (the bits past a row's end count as both solid
// and air).
template <class Word>
bool short_rows(const Rows& r, bool ahead, Word word) {
  uint64_t any = 0, all = ~uint64_t(0);
  each_row<true>(r, ahead, [&](const uint8_t* p, uint64_t* out) {
    const uint64_t w = word(p);
    *out = w;
    any |= w;
    all &= w;
  });
  return any == 0 || (all | ~word_limit(0, r.n)) == ~uint64_t(0);
}

// The bits of every row of r with kernel K, and whether the box is uniform. No sample outside
// the rows is read: a row's partial block is read as the block ending at the row's end, its
// bits shared with an earlier block agreeing with that block's.
template <class K>
bool box_bits(const Rows& r) {
  const bool ahead = (r.ny - 1) * r.sy + r.n <= kPrefetchSpan;
  const int64_t n = r.n;
  // One word a row (every chunk of up to 62 cells): two blocks of the widest size that fits.
  if (n >= 32 && n <= 64)
    return short_rows(r, ahead, [n](const uint8_t* p) {
      return K::s32(p) | K::s32(p + n - 32) << (n - 32);
    });
  if (n >= 16 && n < 32)
    return short_rows(r, ahead, [n](const uint8_t* p) {
      return K::s16(p) | K::s16(p + n - 16) << (n - 16);
    });
  if (n >= 8 && n < 16)
    return short_rows(r, ahead, [n](const uint8_t* p) {
      return solid8(p) | solid8(p + n - 8) << (n - 8);
    });
  if (n < 8)
    return short_rows(r, ahead, [n](const uint8_t* p) {
      uint64_t w = 0;
      for (int64_t i = 0; i < n; ++i) w |= uint64_t(p[i] < 128) << i;
      return w;
    });
  // Whole words, then the last partial one read as the 16, 32 or 64 samples ending at the
  // row's end.
  const int64_t whole = n / 64, rest = n % 64;
  const uint64_t pad = ~word_limit(whole, n);
  uint64_t any = 0, all = ~uint64_t(0);
  each_row<false>(r, ahead, [&](const uint8_t* p, uint64_t* out) {
    for (int64_t k = 0; k < whole; ++k) {
      const uint64_t w = K::word(p + 64 * k);
      out[k] = w;
      any |= w;
      all &= w;
    }
    if (rest != 0) {
      const uint8_t* end = p + n;
      const uint64_t w = rest <= 16   ? K::s16(end - 16) >> (16 - rest)
                         : rest <= 32 ? K::s32(end - 32) >> (32 - rest)
                                      : K::word(end - 64) >> (64 - rest);
      out[whole] = w;
      any |= w;
      all &= w | pad;
    }
  });
  return any == 0 || all == ~uint64_t(0);
}

#if VOXKIT_HAVE_AVX2_TARGET
// flatten: the loop and the kernel are inlined here, where AVX2 instructions may be used.
[[gnu::target("avx2"), gnu::flatten]] bool box_avx2(const Rows& r) { return box_bits<Avx2>(r); }
#endif

}  // namespace

SolidBits::Path SolidBits::best_path() { return simd::best_path<Path>(); }

SolidBits::SolidBits(const View& v, const int64_t lo[3], const int64_t hi[3],
                     std::vector<uint64_t>& storage, Path path) {
  for (int a = 0; a < 3; ++a) {
    lo_[a] = lo[a];
    hi_[a] = hi[a];
  }
  const int64_t n = hi[0] - lo[0] + 1;
  words_ = (n + 63) / 64;
  ny_ = hi[1] - lo[1] + 1;
  const int64_t nz = hi[2] - lo[2] + 1;
  storage.resize(size_t(words_ * ny_ * nz));
  bits_ = storage.data();
  const Rows r{v.ptr(lo[0], lo[1], lo[2]), n, ny_, nz, v.sy, v.sz, words_, storage.data()};
  if (path > best_path()) path = best_path();
  switch (path) {
#if VOXKIT_HAVE_AVX2_TARGET
    case Path::Avx2:
      uniform_ = box_avx2(r);
      return;
#endif
#if defined(__SSE2__)
    case Path::Sse2:
      uniform_ = box_bits<Sse2>(r);
      return;
#endif
    default:
      uniform_ = box_bits<Plain>(r);
      return;
  }
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
