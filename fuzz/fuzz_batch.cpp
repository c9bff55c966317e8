// Fuzz target: the VXBATCH container reader and the line splitter. What reads is written again
// and must read back as the same records; the lines of any input cover it in order.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "formats/core/batch.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> in(data, size);
  const auto lines = voxkit::batch::split_lines(in);
  uint64_t at = 0;
  for (const auto& l : lines) {
    if (l.offset < at || l.offset + l.bytes.size() > size) std::abort();
    at = l.offset + l.bytes.size();
  }
  std::vector<voxkit::batch::Item> items;
  try {
    items = voxkit::batch::read_container(in);
  } catch (const voxkit::Error&) {
    return 0;
  }
  std::vector<uint8_t> again;
  voxkit::batch::append_header(again, items.size());
  for (const auto& it : items) voxkit::batch::append_record(again, !it.failed_before, it.bytes);
  // The container has one encoding: writing what was read gives the input back.
  if (again != std::vector<uint8_t>(in.begin(), in.end())) std::abort();
  const auto back = voxkit::batch::read_container(again);
  if (back.size() != items.size()) std::abort();
  return 0;
}
