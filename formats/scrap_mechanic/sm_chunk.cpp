// Scrap Mechanic chunk forms: detection, the binary/LZ4/Base64 forms, and dispatch.
#include "formats/scrap_mechanic/sm_chunk.hpp"

#include <cstring>
#include <string>

#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/lz4_block.hpp"

namespace voxkit::sm {
namespace detail {
bool looks_like_lua(std::string_view t);
bool looks_like_json(std::string_view t);
}  // namespace detail

namespace {

std::string_view as_text(std::span<const uint8_t> in) {
  return {reinterpret_cast<const char*>(in.data()), in.size()};
}

bool is_text_byte(uint8_t c) {
  return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t';
}

// Drops one final "\n" or "\r\n".
std::string_view strip_final_newline(std::string_view t) {
  if (!t.empty() && t.back() == '\n') t.remove_suffix(1);
  if (!t.empty() && t.back() == '\r') t.remove_suffix(1);
  return t;
}

bool looks_like_b64(std::string_view t) {
  t = strip_final_newline(t);
  if (t.empty()) return false;
  for (char c : t)
    if (!base64::is_alphabet(c) && c != '=') return false;
  return true;
}

std::optional<Form> text_form(std::string_view t) {
  if (detail::looks_like_lua(t)) return Form::Lua;
  if (detail::looks_like_json(t)) return Form::Json;
  if (looks_like_b64(t)) return Form::B64;
  return std::nullopt;
}

}  // namespace

const char* form_name(Form f) {
  switch (f) {
    case Form::Lua: return "lua";
    case Form::Json: return "json";
    case Form::Bin: return "bin";
    case Form::Lz4: return "lz4";
    case Form::B64: return "b64";
  }
  return "?";
}

// A UTF-8 byte order mark, as Windows editors put before Lua or JSON text.
bool has_bom(std::span<const uint8_t> in) {
  return in.size() >= 3 && in[0] == 0xef && in[1] == 0xbb && in[2] == 0xbf;
}

Form detect(std::span<const uint8_t> in) {
  if (in.empty()) {
    throw_data("empty input is no Scrap Mechanic chunk", 0, "a chunk in one of its forms",
               "no bytes");
  }
  if (has_bom(in) && in.size() != kVoxels) {
    const auto t = as_text(in.subspan(3));
    if (detail::looks_like_lua(t)) return Form::Lua;
    if (detail::looks_like_json(t)) return Form::Json;
  }
  size_t binary = 0;
  for (uint8_t c : in) binary += !is_text_byte(c);
  if (binary > 0 && in.size() != kVoxels) {
    // Lua or JSON text with a few damaged bytes is still that text: no chunk's LZ4 block is
    // longer than the bound, and a block is not mostly text starting like a table.
    const auto t = as_text(in);
    const bool starts_as_list = detail::looks_like_lua(t) || detail::looks_like_json(t);
    if (starts_as_list && (in.size() > lz4::compress_bound(kVoxels) || binary * 16 <= in.size())) {
      return detail::looks_like_lua(t) ? Form::Lua : Form::Json;
    }
  }
  if (binary > 0) return in.size() == kVoxels ? Form::Bin : Form::Lz4;
  const auto form = text_form(as_text(in));
  if (in.size() == kVoxels) {
    if (form) {
      try {
        decode(in, *form);
        return *form;
      } catch (const Error&) {
      }
    }
    return Form::Bin;
  }
  if (!form) {
    throw_data("text is no Scrap Mechanic chunk form", 0,
               "a Lua table '{', a JSON array '[' or a Base64 string",
               "text starting with '" + std::string(as_text(in).substr(0, 12)) + "'");
  }
  return *form;
}

Chunk decode_bin(std::span<const uint8_t> in) {
  if (in.size() != kVoxels) {
    throw_data("binary chunk has the wrong size", std::min(in.size(), kVoxels),
               std::to_string(kVoxels) + " bytes", std::to_string(in.size()) + " bytes");
  }
  Chunk c;
  std::memcpy(c.data(), in.data(), kVoxels);
  return c;
}

Chunk decode_lz4(std::span<const uint8_t> block) {
  Chunk c;
  lz4::decompress_to(block, c);
  return c;
}

Chunk decode_b64(std::string_view text) {
  text = strip_final_newline(text);
  const size_t size = base64::decoded_size(text);
  // The longest LZ4 block a 4913-byte chunk can need; refuse longer text before decoding.
  const size_t most = lz4::compress_bound(kVoxels);
  if (size > most) {
    throw_data("Base64 text is too long for a chunk's LZ4 block", std::nullopt,
               "at most " + std::to_string(base64::encoded_size(most)) + " characters",
               std::to_string(text.size()));
  }
  uint8_t block[8192];
  base64::decode_to(text, block);
  try {
    return decode_lz4({block, size});
  } catch (const Error& e) {
    // The block's byte k comes from the 4 characters at 4 * (k / 3).
    std::string what = "the Base64 text decodes to a bad LZ4 block: " + e.reason();
    std::optional<uint64_t> at;
    if (e.offset()) {
      what += " at block byte " + std::to_string(*e.offset());
      at = *e.offset() / 3 * 4;
    }
    throw Error(ErrorKind::Data, what, at, e.expected(), e.found());
  }
}

Chunk decode(std::span<const uint8_t> in, Form f) {
  if ((f == Form::Lua || f == Form::Json) && has_bom(in)) {
    try {
      return decode(in.subspan(3), f);
    } catch (Error& e) {
      e.shift_offset(3);
      throw;
    }
  }
  switch (f) {
    case Form::Lua: return decode_lua(as_text(in));
    case Form::Json: return decode_json(as_text(in));
    case Form::Bin: return decode_bin(in);
    case Form::Lz4: return decode_lz4(in);
    case Form::B64: return decode_b64(as_text(in));
  }
  throw_usage("unknown chunk form");
}

Chunk decode_any(std::span<const uint8_t> in, std::optional<Form> forced, Form* used) {
  const Form f = forced ? *forced : detect(in);
  if (used) *used = f;
  if (forced) return decode(in, f);
  try {
    return decode(in, f);
  } catch (Error& e) {
    // Say which form the input was taken for: a guess can be wrong.
    e.add_note(std::string("read as ") + form_name(f) + "; the form option sets the form");
    e.set_hint("from", "the form option");
    throw;
  }
}

std::vector<uint8_t> encode_lz4(const Chunk& c) { return lz4::compress(c, lz4::Level::HcMax); }

std::string encode_b64(const Chunk& c) { return base64::encode(encode_lz4(c)); }

std::vector<uint8_t> encode(const Chunk& c, Form f, const WriteOptions& opts) {
  std::string text;
  switch (f) {
    case Form::Bin: return {c.begin(), c.end()};
    case Form::Lz4: return encode_lz4(c);
    case Form::Lua: text = encode_lua(c, opts); break;
    case Form::Json: text = encode_json(c, opts); break;
    case Form::B64:
      text = encode_b64(c);
      if (opts.final_newline) text += '\n';
      break;
  }
  return {text.begin(), text.end()};
}

}  // namespace voxkit::sm
