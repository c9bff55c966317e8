// Scrap Mechanic voxel chunks (17x17x17, one byte per voxel: material << 6 | density) in all
// their forms: raw Lua table text, JSON array, 4913-byte binary, raw LZ4 block, and the
// serialized string (Base64 of the LZ4 block). Spec: docs/formats/scrap-mechanic-chunk.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxkit::sm {

inline constexpr size_t kAxis = 17;
inline constexpr size_t kVoxels = kAxis * kAxis * kAxis;  // 4913
inline constexpr size_t kLuaNumbers = 2 * kVoxels;        // 9826: material, density per voxel
inline constexpr uint8_t kMaxMaterial = 3;                // 3 is stored, and reads as 0
inline constexpr uint8_t kMaxDensity = 63;

// Voxel (x, y, z), each 0..16, is byte z + 17*y + 289*x.
constexpr size_t voxel_index(size_t x, size_t y, size_t z) {
  return z + kAxis * y + kAxis * kAxis * x;
}

using Chunk = std::array<uint8_t, kVoxels>;

enum class Form {
  Lua,   // `{m, d, m, d, ...}`: 9826 integers
  Json,  // `[m, d, ...]` (9826 integers) or `[b, b, ...]` (4913 voxel bytes)
  Bin,   // the 4913 bytes
  Lz4,   // raw LZ4 block that decompresses to exactly 4913 bytes
  B64,   // the serialized string: Base64 of the LZ4 block
};

// "lua", "json", "bin", "lz4", "b64".
const char* form_name(Form f);
// True for the forms that are text (one line in batch mode).
constexpr bool is_text(Form f) { return f == Form::Lua || f == Form::Json || f == Form::B64; }

// Says which form `in` is, where that is unambiguous:
//   - bytes outside printable ASCII and whitespace: 4913 bytes is binary, else an LZ4 block;
//   - text starting (after whitespace and Lua comments) with `{`, `return`, `local`, `NAME =`
//     or `--` is Lua; with `[` JSON; text of Base64 characters (and '=') is Base64;
//   - 4913 bytes of text that does not decode as the form it looks like is binary (an all-
//     solid chunk is 4913 '?' characters).
// Throws a data error when the input matches no form.
Form detect(std::span<const uint8_t> in);

// Decodes `in` as form `f`. Errors name the byte offset in `in`, what was expected and what
// was found; tools add the file name.
Chunk decode(std::span<const uint8_t> in, Form f);
// Detects (or uses `forced`) and decodes; `used` receives the form.
Chunk decode_any(std::span<const uint8_t> in, std::optional<Form> forced = std::nullopt,
                 Form* used = nullptr);

struct WriteOptions {
  // Lua/JSON: one line instead of one 34-number row per line (batch mode uses this).
  bool one_line = false;
  // Text forms end with a newline.
  bool final_newline = true;
};

// Encodes `c` as form `f`. The LZ4 and Base64 forms use LZ4 HC at the maximum level, as the
// mod does.
std::vector<uint8_t> encode(const Chunk& c, Form f, const WriteOptions& opts = {});

// The individual forms.
Chunk decode_lua(std::string_view text);
Chunk decode_json(std::string_view text);
Chunk decode_bin(std::span<const uint8_t> in);
Chunk decode_lz4(std::span<const uint8_t> block);
// Strict Base64 (see lib/codec/base64.hpp); one final "\n" or "\r\n" is tolerated (a file that
// ends with a newline).
Chunk decode_b64(std::string_view text);

std::string encode_lua(const Chunk& c, const WriteOptions& opts = {});
std::string encode_json(const Chunk& c, const WriteOptions& opts = {});
std::vector<uint8_t> encode_lz4(const Chunk& c);
std::string encode_b64(const Chunk& c);  // no newline

}  // namespace voxkit::sm
