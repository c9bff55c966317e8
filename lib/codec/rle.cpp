// Dig-zone RLE codec. Runs are found 16-64 bytes at a time; decoding is memset/memcpy per token.
#include "lib/codec/rle.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "lib/core/error.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace voxkit::rle {
namespace {

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Length of the run of bytes equal to p[0] starting at p, at most n. Terrain grids are
// mostly long runs of 0 and 255, so whole 64-byte blocks are compared at once.
inline size_t run_length(const uint8_t* p, size_t n) {
  size_t i = 1;
#if defined(__SSE2__)
  const __m128i pat = _mm_set1_epi8(char(p[0]));
  auto mask16 = [&](size_t at) {
    return unsigned(_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at)), pat)));
  };
  // The first 16 bytes alone: in literal stretches runs end within a few bytes.
  if (i + 16 <= n) {
    const unsigned m = mask16(i);
    if (m != 0xffff) return i + size_t(std::countr_zero(~m));
    i += 16;
  }
  while (i + 64 <= n) {
    const __m128i* q = reinterpret_cast<const __m128i*>(p + i);
    const __m128i e = _mm_and_si128(
        _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(q), pat),
                      _mm_cmpeq_epi8(_mm_loadu_si128(q + 1), pat)),
        _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(q + 2), pat),
                      _mm_cmpeq_epi8(_mm_loadu_si128(q + 3), pat)));
    if (_mm_movemask_epi8(e) != 0xffff) break;
    i += 64;
  }
  while (i + 16 <= n) {
    const unsigned m = mask16(i);
    if (m != 0xffff) return i + size_t(std::countr_zero(~m));
    i += 16;
  }
#endif
  const uint64_t pattern = 0x0101010101010101ull * p[0];
  while (i + 8 <= n) {
    const uint64_t diff = load64(p + i) ^ pattern;
    if (diff) return i + (std::countr_zero(diff) >> 3);
    i += 8;
  }
  while (i < n && p[i] == p[0]) ++i;
  return i;
}

inline uint8_t* put_varint_raw(uint8_t* w, uint32_t v) {
  while (v >= 0x80) {
    *w++ = uint8_t(v | 0x80);
    v >>= 7;
  }
  *w++ = uint8_t(v);
  return w;
}

// Appends to a vector through a raw pointer: room is made per token (growing by doubling,
// so zero-filling costs at most twice the output), and the vector is cut to size at the end.
class Sink {
 public:
  explicit Sink(std::vector<uint8_t>& out) : out_(out), pos_(out.size()) {}
  ~Sink() { out_.resize(pos_); }
  uint8_t* room(size_t need) {
    if (out_.size() - pos_ < need) out_.resize(std::max(pos_ + need, out_.size() * 2 + 64));
    return out_.data() + pos_;
  }
  void done(uint8_t* end) { pos_ = size_t(end - out_.data()); }

 private:
  std::vector<uint8_t>& out_;
  size_t pos_;
};

inline void put_literal(Sink& sink, const uint8_t* p, size_t len) {
  uint8_t* w = put_varint_raw(sink.room(len + 5), uint32_t(len) << 1);
  std::memcpy(w, p, len);
  sink.done(w + len);
}

// Reads a varint at `pos`; throws naming `what` on overlong, truncated or too large values.
inline uint32_t get_varint(std::span<const uint8_t> s, size_t& pos, const char* what) {
  uint32_t value = 0;
  const size_t start = pos;
  for (int k = 0; k < 5; ++k) {
    if (pos >= s.size()) {
      throw_data(std::string("stream ends inside the ") + what + " varint", pos,
                 "another varint byte", "end of stream");
    }
    const uint8_t b = s[pos++];
    if (k == 4 && (b & 0x80)) break;
    if (k == 4 && b > 0x07) {
      throw_data(std::string(what) + " varint does not fit in 31 bits", start,
                 "a last byte of at most 0x07", hex_byte(b));
    }
    value |= uint32_t(b & 0x7f) << (7 * k);
    if (!(b & 0x80)) return value;
  }
  throw_data(std::string(what) + " varint is longer than 5 bytes", start, "at most 5 bytes",
             "6 or more");
}

}  // namespace

void put_varint(std::vector<uint8_t>& out, uint32_t v) {
  // Not through a Sink: that would resize the vector to twice its length (zero-filling it)
  // on every call, as its destructor cuts it back each time.
  uint8_t buf[5];
  out.insert(out.end(), buf, put_varint_raw(buf, v));
}

void encode_append(std::span<const uint8_t> src, std::vector<uint8_t>& out) {
  const size_t n = src.size();
  const uint8_t* p = src.data();
  Sink sink(out);
  sink.done(put_varint_raw(sink.room(5), uint32_t(n)));
  size_t i = 0, lit = 0;
  while (i < n) {
    const size_t len = run_length(p + i, n - i);
    if (len >= kMinRun) {
      if (i > lit) put_literal(sink, p + lit, i - lit);
      uint8_t* w = put_varint_raw(sink.room(6), (uint32_t(len) << 1) | 1u);
      *w++ = p[i];
      sink.done(w);
      lit = i + len;
    }
    i += len;
  }
  if (n > lit) put_literal(sink, p + lit, n - lit);
}

std::vector<uint8_t> encode(std::span<const uint8_t> samples) {
  std::vector<uint8_t> out;
  out.reserve(64 + samples.size() / 16);
  encode_append(samples, out);
  return out;
}

uint64_t read_count(std::span<const uint8_t> stream, size_t* header_bytes) {
  size_t pos = 0;
  uint32_t count = get_varint(stream, pos, "sample count");
  if (header_bytes) *header_bytes = pos;
  return count;
}

size_t decode_into(std::span<const uint8_t> s, std::span<uint8_t> out) {
  size_t pos = 0;
  const uint64_t total = get_varint(s, pos, "sample count");
  if (total != out.size()) {
    throw_data("stream has the wrong sample count", 0, std::to_string(out.size()),
               std::to_string(total));
  }
  uint8_t* dst = out.data();
  size_t written = 0;
  const size_t n = s.size();
  while (written < total) {
    const size_t token_at = pos;
    uint32_t h;
    // Fast path for the common one-byte token header.
    if (pos < n && s[pos] < 0x80) {
      h = s[pos++];
    } else {
      h = get_varint(s, pos, "token");
    }
    const size_t len = h >> 1;
    if (len == 0) throw_data("zero-length token", token_at, "a length of at least 1", "0");
    if (len > total - written) {
      throw_data("token runs past the sample count", token_at,
                 "at most " + std::to_string(total - written) + " samples",
                 std::to_string(len));
    }
    if (h & 1) {
      if (pos >= n) {
        throw_data("stream ends before a run's value byte", pos, "1 byte", "end of stream");
      }
      std::memset(dst + written, s[pos++], len);
    } else {
      if (len > n - pos) {
        throw_data("literal token is longer than the rest of the stream", token_at,
                   std::to_string(len) + " bytes", std::to_string(n - pos) + " bytes");
      }
      std::memcpy(dst + written, s.data() + pos, len);
      pos += len;
    }
    written += len;
  }
  return pos;
}

namespace {

void check_limit(uint64_t count, uint64_t max_samples) {
  if (count > max_samples) {
    throw_data("sample count is over the limit", 0, "at most " + std::to_string(max_samples),
               std::to_string(count));
  }
}

// Checks the tokens after the count varint (which ends at `pos`) against st.samples and
// counts them; returns the offset just past the last token.
size_t scan_tokens(std::span<const uint8_t> s, size_t pos, Stats& st) {
  const size_t n = s.size();
  uint64_t written = 0;
  while (written < st.samples) {
    const size_t token_at = pos;
    const uint32_t h = get_varint(s, pos, "token");
    const uint64_t len = h >> 1;
    if (len == 0) throw_data("zero-length token", token_at, "a length of at least 1", "0");
    if (len > st.samples - written) {
      throw_data("token runs past the sample count", token_at,
                 "at most " + std::to_string(st.samples - written) + " samples",
                 std::to_string(len));
    }
    const uint64_t payload = (h & 1) ? 1 : len;
    if (payload > n - pos) {
      if (h & 1) throw_data("stream ends before a run's value byte", pos, "1 byte", "end of stream");
      throw_data("literal token is longer than the rest of the stream", token_at,
                 std::to_string(len) + " bytes", std::to_string(n - pos) + " bytes");
    }
    pos += size_t(payload);
    if (h & 1) {
      ++st.runs;
      st.run_samples += len;
    } else {
      ++st.literals;
      st.literal_samples += len;
    }
    written += len;
  }
  return pos;
}

}  // namespace

Stats scan(std::span<const uint8_t> s, uint64_t max_samples) {
  Stats st;
  size_t pos = 0;
  st.samples = get_varint(s, pos, "sample count");
  st.header_bytes = pos;
  check_limit(st.samples, max_samples);
  pos = scan_tokens(s, pos, st);
  if (pos != s.size()) {
    throw_data("extra bytes after the last token", pos, "end of stream",
               std::to_string(s.size() - pos) + " more bytes");
  }
  return st;
}

uint64_t proven_count(std::span<const uint8_t> stream, uint64_t max_samples) {
  size_t pos = 0;
  Stats st;
  st.samples = get_varint(stream, pos, "sample count");
  check_limit(st.samples, max_samples);
  // Division, not multiplication: the stream size times the ratio could wrap.
  if (st.samples <= kTrustedSamples ||
      (st.samples - kTrustedSamples) / kTrustedRatio < stream.size()) {
    return st.samples;
  }
  scan_tokens(stream, pos, st);
  return st.samples;
}

std::vector<uint8_t> decode(std::span<const uint8_t> stream, uint64_t max_samples) {
  const uint64_t count = proven_count(stream, max_samples);
  std::vector<uint8_t> out(count);
  const size_t used = decode_into(stream, out);
  if (used != stream.size()) {
    throw_data("extra bytes after the last token", used, "end of stream",
               std::to_string(stream.size() - used) + " more bytes");
  }
  return out;
}

}  // namespace voxkit::rle
