// Solid-bit rows for the meshers (one bit per sample, found 16 bytes at a time) and the
// reciprocal table edge crossings are interpolated with.
#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

void row_bits(const uint8_t* p, int64_t n, uint64_t* out) {
  int64_t i = 0;
#if defined(__SSE2__)
  // The top bit of a byte is clear exactly when the byte is below 128.
  auto block = [&](int64_t at) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return uint64_t(~unsigned(_mm_movemask_epi8(v)) & 0xffffu);
  };
  for (; i + 16 <= n; i += 16) out[i >> 6] |= block(i) << (i & 63);
  if (i < n && n >= 16) {
    // The last, partial block: read the 16 bytes ending at the row's end again.
    const int64_t at = n - 16, skip = i - at;
    // i is a multiple of 16 and fewer than 16 bits remain: they fit in word i / 64.
    out[i >> 6] |= (block(at) >> skip) << (i & 63);
    return;
  }
#endif
  for (; i < n; ++i) out[i >> 6] |= uint64_t(p[i] < 128) << (i & 63);
}

}  // namespace

SolidBits::SolidBits(const View& v, const int64_t lo[3], const int64_t hi[3]) {
  for (int a = 0; a < 3; ++a) {
    lo_[a] = lo[a];
    hi_[a] = hi[a];
  }
  const int64_t n = hi[0] - lo[0] + 1;
  words_ = (n + 63) / 64;
  ny_ = hi[1] - lo[1] + 1;
  bits_.assign(size_t(words_ * ny_ * (hi[2] - lo[2] + 1)), 0);
  uint64_t* out = bits_.data();
  for (int64_t z = lo[2]; z <= hi[2]; ++z)
    for (int64_t y = lo[1]; y <= hi[1]; ++y, out += words_) row_bits(v.ptr(lo[0], y, z), n, out);
}

bool SolidBits::any_mixed() const {
  const int64_t cells = hi_[0] - lo_[0];
  for (int64_t z = lo_[2]; z < hi_[2]; ++z)
    for (int64_t y = lo_[1]; y < hi_[1]; ++y)
      for (int64_t k = 0; k < words_; ++k)
        if (mixed(y, z, k, cells)) return true;
  return false;
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
