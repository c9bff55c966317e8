// Fuzz target: Scrap Mechanic chunk forms. The first byte picks a form (or detection), the
// rest is the input; a chunk that decodes must round trip through every form and have an
// info description.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "formats/scrap_mechanic/sm_chunk_info.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static constexpr sm::Form kForms[] = {sm::Form::Lua, sm::Form::Json, sm::Form::Bin,
                                        sm::Form::Lz4, sm::Form::B64};
  std::optional<sm::Form> forced;
  if (data[0] < 5) forced = kForms[data[0]];
  const std::span<const uint8_t> in(data + 1, size - 1);
  sm::Chunk chunk;
  try {
    chunk = sm::decode_any(in, forced);
  } catch (const Error&) {
    return 0;
  }
  // info never throws for input that decodes.
  (void)sm::describe_sm_chunk(in, "fuzz");
  for (sm::Form f : kForms) {
    for (bool one_line : {false, true}) {
      sm::WriteOptions w;
      w.one_line = one_line;
      const auto bytes = sm::encode(chunk, f, w);
      if (sm::decode(bytes, f) != chunk) std::abort();
      if (sm::detect(bytes) != f) std::abort();
    }
  }
  return 0;
}
