// Fuzz target: packed edits. The text reader never throws and reads back what to_hex and
// the signed decimal print; the first 8 bytes as an edit unpack and pack back to themselves,
// and its validity check and spawn values never fail.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace voxkit;
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)edit::parse_edit(text);
  uint64_t e = 0;
  std::memcpy(&e, data, size < 8 ? size : 8);
  if (edit::pack_fields(edit::unpack(e)) != e) std::abort();
  if (edit::parse_edit(edit::to_hex(e)) != e) std::abort();
  if (edit::parse_edit(std::to_string(edit::as_signed(e))) != e) std::abort();
  for (auto t : {edit::Target::V03, edit::Target::V06, edit::Target::V07}) {
    (void)edit::invalid_reason(e, t, edit::GridLimit{size ? data[0] : 0u, 16, 4095});
  }
  if (edit::spawn_yaw_index(e) > 1023 || edit::spawn_scale_index(e) > 255) std::abort();
  // Packing any fields from grid units stays in range or is refused.
  if (size >= 24) {
    float v[4];
    std::memcpy(v, data + 8, 16);
    try {
      const auto f = edit::unpack(edit::pack(v[0], v[1], v[2], v[3], edit::Op(data[0] % 6), data[1]));
      if (f.radius < 1 || f.radius > 255) std::abort();
    } catch (const Error&) {
    }
  }
  return 0;
}
