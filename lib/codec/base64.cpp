// Base64 codec. Decoding ORs four per-position tables into one little-endian word per group
// (an invalid character sets bit 24), so the hot loop has no per-character branch; a slow
// scan finds the exact offending character only once a block is known to be bad.
#include "lib/codec/base64.hpp"

#include <array>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <cstring>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit::base64 {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr uint32_t kBad = 0x01000000u;  // above the 24 data bits of a group

constexpr std::array<uint8_t, 256> make_values() {
  std::array<uint8_t, 256> t{};
  for (auto& v : t) v = 0xff;
  for (int i = 0; i < 64; ++i) t[uint8_t(kAlphabet[i])] = uint8_t(i);
  return t;
}
constexpr std::array<uint8_t, 256> kValue = make_values();

// Group "abcd" holds 24 bits a<<18 | b<<12 | c<<6 | d whose bytes are stored high first;
// each table places its character's bits where they land in the little-endian output word.
constexpr std::array<uint32_t, 256> make_decode_table(int position) {
  std::array<uint32_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const uint32_t v = kValue[c];
    if (v == 0xff) {
      t[c] = kBad;
      continue;
    }
    switch (position) {
      case 0: t[c] = v << 2; break;
      case 1: t[c] = (v >> 4) | ((v & 0x0f) << 12); break;
      case 2: t[c] = ((v >> 2) << 8) | ((v & 0x03) << 22); break;
      default: t[c] = v << 16; break;
    }
  }
  return t;
}
constexpr std::array<uint32_t, 256> kD0 = make_decode_table(0);
constexpr std::array<uint32_t, 256> kD1 = make_decode_table(1);
constexpr std::array<uint32_t, 256> kD2 = make_decode_table(2);
constexpr std::array<uint32_t, 256> kD3 = make_decode_table(3);

// 12 bits -> two characters, stored in memory order.
constexpr std::array<uint16_t, 4096> make_pair_table() {
  std::array<uint16_t, 4096> t{};
  for (int v = 0; v < 4096; ++v) {
    t[v] = uint16_t(uint8_t(kAlphabet[v >> 6]) | (uint16_t(uint8_t(kAlphabet[v & 63])) << 8));
  }
  return t;
}
constexpr std::array<uint16_t, 4096> kPairs = make_pair_table();

inline uint32_t load_be24(const uint8_t* p) {
  return (uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | p[2];
}

inline void store_group(char* out, uint32_t v24) {
  const uint32_t w = uint32_t(kPairs[v24 >> 12]) | (uint32_t(kPairs[v24 & 0xfff]) << 16);
  std::memcpy(out, &w, 4);
}

inline uint32_t decode_group(const char* p) {
  return kD0[uint8_t(p[0])] | kD1[uint8_t(p[1])] | kD2[uint8_t(p[2])] | kD3[uint8_t(p[3])];
}

std::string describe(char ch) {
  const auto c = uint8_t(ch);
  switch (c) {
    case ' ': return "0x20 (space)";
    case '\t': return "0x09 (tab)";
    case '\n': return "0x0a (newline)";
    case '\r': return "0x0d (carriage return)";
    default: break;
  }
  if (c > 0x20 && c < 0x7f) return std::string("'") + char(c) + "' (" + hex_byte(c) + ")";
  return hex_byte(c);
}

constexpr const char* kExpectChar = "a Base64 character (A-Z a-z 0-9 + /)";

// Throws the error for the first bad character in text[from, to), where it is known
// to be. The last group's padding has been checked by decoded_size() already.
[[noreturn]] void throw_first_bad(std::string_view text, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    if (kValue[uint8_t(text[i])] != 0xff) continue;
    if (text[i] == '=') {
      throw_data("Base64 padding '=' before the end of the text", i, kExpectChar, "'='");
    }
    throw_data("invalid Base64 character", i, kExpectChar, describe(text[i]));
  }
  throw_data("invalid Base64 text", from);  // unreachable: the caller saw a bad group
}


#if defined(__x86_64__) && defined(__GNUC__)
// AVX2: 32 characters -> 24 bytes per step. Validity comes from two nibble lookups whose
// AND is non-zero exactly for characters outside the alphabet ('=' included); a third
// lookup, keyed by the high nibble ('/' shifted down one), gives what to add to turn a
// character into its 6-bit value. Returns the number of groups done; sets `bad` if any
// character was invalid (the caller then finds it with the scalar scan).
__attribute__((target("avx2"))) size_t decode_avx2(const char* p, size_t groups, uint8_t* out,
                                                    size_t out_room, bool& bad) {
  const __m256i lut_lo = _mm256_setr_epi8(
      0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1a, 0x1b, 0x1b, 0x1b, 0x1a,
      0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1a, 0x1b, 0x1b, 0x1b, 0x1a);
  const __m256i lut_hi = _mm256_setr_epi8(
      0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
      0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  const __m256i lut_roll = _mm256_setr_epi8(
      0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nib = _mm256_set1_epi8(0x0f);
  const __m256i slash = _mm256_set1_epi8(0x2f);
  const __m256i pack_pairs = _mm256_set1_epi32(0x01400140);
  const __m256i pack_quads = _mm256_set1_epi32(0x00011000);
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                         2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
  __m256i err = _mm256_setzero_si256();
  size_t g = 0;
  // Each step stores 32 bytes of which 24 are output: keep 8 bytes of room past them.
  for (; g + 8 <= groups && 3 * g + 32 <= out_room; g += 8) {
    const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4 * g));
    const __m256i hi_n = _mm256_and_si256(_mm256_srli_epi32(in, 4), nib);
    const __m256i lo_n = _mm256_and_si256(in, nib);
    const __m256i lo = _mm256_shuffle_epi8(lut_lo, lo_n);
    const __m256i hi = _mm256_shuffle_epi8(lut_hi, hi_n);
    err = _mm256_or_si256(err, _mm256_and_si256(lo, hi));
    const __m256i is_slash = _mm256_cmpeq_epi8(in, slash);
    const __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(is_slash, hi_n));
    const __m256i v = _mm256_add_epi8(in, roll);
    const __m256i pairs = _mm256_maddubs_epi16(v, pack_pairs);   // c0 << 6 | c1
    const __m256i quads = _mm256_madd_epi16(pairs, pack_quads);  // 24 bits per lane
    const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, order), lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 3 * g), bytes);
  }
  bad = !_mm256_testz_si256(err, err);
  return g;
}

// AVX2: 24 bytes -> 32 characters per step. Each 32-bit lane gets its group's bytes as
// b1 b0 b2 b1, two multiplies move the four 6-bit fields into the four bytes, and a range
// lookup adds the offset that turns a value into its character.
__attribute__((target("avx2"))) size_t encode_avx2(const uint8_t* p, size_t n, char* out) {
  const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
                                          1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  const __m256i shift_lut = _mm256_setr_epi8(
      'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0, 'a' - 26, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63,
      'A', 0, 0);
  size_t i = 0;
  // The second half is read from p + i + 12 as 16 bytes: keep 28 bytes readable.
  for (; i + 28 <= n; i += 24, out += 32) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 12));
    const __m256i in = _mm256_shuffle_epi8(
        _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), spread);
    const __m256i ac = _mm256_mulhi_epu16(_mm256_and_si256(in, _mm256_set1_epi32(0x0fc0fc00)),
                                          _mm256_set1_epi32(0x04000040));
    const __m256i bd = _mm256_mullo_epi16(_mm256_and_si256(in, _mm256_set1_epi32(0x003f03f0)),
                                          _mm256_set1_epi32(0x01000010));
    const __m256i idx = _mm256_or_si256(ac, bd);
    __m256i key = _mm256_subs_epu8(idx, _mm256_set1_epi8(51));
    const __m256i upper = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), idx);
    key = _mm256_or_si256(key, _mm256_and_si256(upper, _mm256_set1_epi8(13)));
    const __m256i chars = _mm256_add_epi8(_mm256_shuffle_epi8(shift_lut, key), idx);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), chars);
  }
  return i;
}

bool have_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#endif

}  // namespace

bool is_alphabet(char c) { return kValue[uint8_t(c)] != 0xff; }

void encode_to(std::span<const uint8_t> in, char* out) {
  const uint8_t* p = in.data();
  const size_t n = in.size();
  size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if (n >= 28 && have_avx2()) {
    i = encode_avx2(p, n, out);
    out += i / 3 * 4;
  }
#endif
  // Six bytes (two groups) per step from one unaligned 8-byte load.
  for (; i + 8 <= n; i += 6, out += 8) {
    uint64_t x;
    std::memcpy(&x, p + i, 8);
    x = __builtin_bswap64(x) >> 16;  // the six bytes, first one highest
    const uint64_t w = uint64_t(kPairs[(x >> 36) & 0xfff]) |
                       (uint64_t(kPairs[(x >> 24) & 0xfff]) << 16) |
                       (uint64_t(kPairs[(x >> 12) & 0xfff]) << 32) |
                       (uint64_t(kPairs[x & 0xfff]) << 48);
    std::memcpy(out, &w, 8);
  }
  for (; i + 3 <= n; i += 3, out += 4) store_group(out, load_be24(p + i));
  const size_t rest = n - i;
  if (rest == 1) {
    const uint32_t v = uint32_t(p[i]) << 16;
    out[0] = kAlphabet[v >> 18];
    out[1] = kAlphabet[(v >> 12) & 63];
    out[2] = '=';
    out[3] = '=';
  } else if (rest == 2) {
    const uint32_t v = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8);
    out[0] = kAlphabet[v >> 18];
    out[1] = kAlphabet[(v >> 12) & 63];
    out[2] = kAlphabet[(v >> 6) & 63];
    out[3] = '=';
  }
}

std::string encode(std::span<const uint8_t> in) {
  std::string s(encoded_size(in.size()), '\0');
  encode_to(in, s.data());
  return s;
}

size_t decoded_size(std::string_view text) {
  const size_t n = text.size();
  if (n % 4 != 0) {
    throw_data("Base64 length is not a multiple of 4", n - n % 4, "a multiple of 4 characters",
               std::to_string(n) + " characters");
  }
  if (n == 0) return 0;
  size_t pad = 0;
  if (text[n - 1] == '=') {
    pad = text[n - 2] == '=' ? 2 : 1;
    if (pad == 2 && text[n - 3] == '=') {
      const size_t first = text[n - 4] == '=' ? n - 4 : n - 3;
      throw_data("more than two Base64 padding '='", first, "at most two '='",
                 std::to_string(n - first) + " '='");
    }
  } else if (text[n - 2] == '=') {
    throw_data("Base64 padding '=' before the end of the text", n - 2, kExpectChar, "'='");
  }
  return n / 4 * 3 - pad;
}

size_t decode_to(std::string_view text, uint8_t* out) {
  const size_t size = decoded_size(text);
  const size_t n = text.size();
  if (n == 0) return 0;
  const char* p = text.data();
  const size_t body = n / 4 - 1;  // whole groups before the last one
  uint32_t bad = 0;
  size_t g = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if (body >= 8 && have_avx2()) {
    bool simd_bad = false;
    g = decode_avx2(p, body, out, size, simd_bad);
    if (simd_bad) throw_first_bad(text, 0, 4 * g);
  }
#endif
  // Two groups per step; each 4-byte store writes one byte past its group, which the next
  // group (ultimately the last group, written below) overwrites.
  for (; g + 2 <= body; g += 2) {
    const uint32_t a = decode_group(p + 4 * g);
    const uint32_t b = decode_group(p + 4 * g + 4);
    bad |= a | b;
    std::memcpy(out + 3 * g, &a, 4);
    std::memcpy(out + 3 * g + 3, &b, 4);
  }
  for (; g < body; ++g) {
    const uint32_t a = decode_group(p + 4 * g);
    bad |= a;
    std::memcpy(out + 3 * g, &a, 4);
  }
  if (bad & 0xff000000u) throw_first_bad(text, 0, 4 * body);  // scalar groups only

  // The last group, with its padding (checked by decoded_size above).
  const char* q = p + 4 * body;
  const size_t at = 4 * body;
  const size_t pad = 3 - (size - 3 * body);
  const size_t data_chars = 4 - pad;
  uint32_t v = 0;
  for (size_t k = 0; k < data_chars; ++k) {
    const uint8_t d = kValue[uint8_t(q[k])];
    if (d == 0xff) throw_first_bad(text, at + k, at + k + 1);
    v |= uint32_t(d) << (18 - 6 * k);
  }
  // Bits that fall under the padding must be zero, or two texts would give the same bytes.
  const uint32_t spare = pad == 2 ? (v & 0xffff) : pad == 1 ? (v & 0xff) : 0;
  if (spare != 0) {
    const size_t last = at + data_chars - 1;
    throw_data("Base64 character before the padding has non-zero unused bits", last,
               pad == 2 ? "a character whose low 4 bits are zero (A Q g w)"
                        : "a character whose low 2 bits are zero",
               describe(q[data_chars - 1]));
  }
  uint8_t* o = out + 3 * body;
  o[0] = uint8_t(v >> 16);
  if (pad < 2) o[1] = uint8_t(v >> 8);
  if (pad < 1) o[2] = uint8_t(v);
  return size;
}

std::vector<uint8_t> decode(std::string_view text) {
  std::vector<uint8_t> out(decoded_size(text));
  decode_to(text, out.data());
  return out;
}

}  // namespace voxkit::base64
