// Base64 (RFC 4648, standard alphabet, always padded) with a strict decoder: the rules of
// the Scrap Mechanic voxel mod's decoder, plus canonical padding bits (docs/formats/base64.md).
//
// The decoder rejects, as a data error naming the offset and the character:
//   - a length that is not a multiple of 4;
//   - '=' anywhere but the last one or two characters (so also more than two '=');
//   - any character outside A-Z a-z 0-9 + / =, whitespace and newlines included;
//   - non-zero bits under the padding ("QR==" instead of "QQ=="), so that every accepted
//     text is the one encode() gives for its bytes.
// Both directions are table-driven and work on whole 4-character groups with no branch
// per character; validity is checked once per block of groups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxkit::base64 {

// Characters encode() writes for `n` bytes: 4 * ceil(n / 3).
constexpr size_t encoded_size(size_t n) { return (n + 2) / 3 * 4; }

// Writes encoded_size(in.size()) characters to `out`.
void encode_to(std::span<const uint8_t> in, char* out);
std::string encode(std::span<const uint8_t> in);

// Checks the length and the padding of `text` and returns the number of bytes it decodes
// to; throws a data error for a length that is not a multiple of 4 or misplaced '='.
// The characters themselves are checked by decode_to().
size_t decoded_size(std::string_view text);

// Decodes `text` into `out`, which must hold decoded_size(text) bytes; returns that size.
// Throws a data error (offset, expected, found) for any violation of the rules above.
size_t decode_to(std::string_view text, uint8_t* out);
std::vector<uint8_t> decode(std::string_view text);

// The same over raw bytes (a file read whole).
inline std::vector<uint8_t> decode(std::span<const uint8_t> text) {
  return decode(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
}

// True when `c` is one of the 64 alphabet characters (not '=').
bool is_alphabet(char c);

}  // namespace voxkit::base64
