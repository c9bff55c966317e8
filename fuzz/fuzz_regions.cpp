// Fuzz target: cave-region inputs. The first byte picks the decoder: region-id lists (text)
// or region grids (dims from the next 3 bytes); each decode is checked by encode -> decode.
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <span>
#include <string_view>

#include "formats/zone/region_grid.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::span<const uint8_t> in(data + 1, size - 1);
  try {
    if (data[0] & 1) {
      auto ids = voxkit::parse_region_list(std::string_view(reinterpret_cast<const char*>(in.data()), in.size()));
      if (voxkit::parse_region_list(voxkit::format_region_list(ids)) != ids) std::abort();
    } else {
      if (in.size() < 3) return 0;
      voxkit::Dims cells{uint32_t(in[0] % 8 + 1), uint32_t(in[1] % 8 + 1), uint32_t(in[2] % 8 + 1)};
      auto grid = voxkit::decode_region_grid(in.subspan(3), cells);
      auto bytes = voxkit::encode_region_grid(grid);
      if (!std::equal(bytes.begin(), bytes.end(), in.begin() + 3) || bytes.size() != in.size() - 3) std::abort();
    }
  } catch (const voxkit::Error&) {
  }
  return 0;
}
