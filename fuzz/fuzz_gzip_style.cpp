// Fuzz target: the gzip style of a base file (header fields, the zlib level that reproduces
// its deflate data). Where a level matches, writing the contents again in that style must
// give back the input's bytes.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "formats/stationeers/base_write.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace voxkit;
  const std::span<const uint8_t> gz(data, size);
  size_t header = 0;
  try {
    header = stationeers::gzip_header_length(gz);
  } catch (const Error&) {
    return 0;
  }
  if (header > size) std::abort();
  std::vector<uint8_t> raw;
  try {
    raw = terrain_base::gunzip(gz, uint64_t(1) << 20);
  } catch (const Error&) {
    return 0;
  }
  const auto s = stationeers::gzip_style(gz, raw);
  if (s.header.size() != header) std::abort();
  if (s.matched) {
    const auto again = stationeers::gzip_with_header(raw, s.header, s.level);
    if (!std::equal(again.begin(), again.end(), gz.begin(), gz.end())) std::abort();
  }
  return 0;
}
