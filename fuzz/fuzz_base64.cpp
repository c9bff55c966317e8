// Fuzz target: strict Base64 decoder. Accepted text must re-encode to itself (canonical),
// and any bytes must survive encode -> decode.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Arbitrary bytes round trip.
  const auto encoded = voxkit::base64::encode(std::span<const uint8_t>(data, size));
  if (voxkit::base64::decode(std::string_view(encoded)) !=
      std::vector<uint8_t>(data, data + size)) {
    std::abort();
  }
  std::vector<uint8_t> bytes;
  try {
    bytes = voxkit::base64::decode(text);
  } catch (const voxkit::Error& e) {
    if (!e.offset() || *e.offset() > size) std::abort();  // errors point into the text
    return 0;
  }
  if (voxkit::base64::encode(bytes) != text) std::abort();
  return 0;
}
