// Fuzz target: terrain.dat parser. Parses with any depth, checks the byte-exact round trip,
// and runs the one-pass algorithms (checksum, stats, compat and default resets) over it.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lib/error.hpp"
#include "lib/octree.hpp"
#include "lib/octree_reset.hpp"
#include "lib/octree_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace voxkit::octree;
  const std::span<const uint8_t> in(data, size);
  DeltaView v;
  try {
    v = parse(in, {true});
  } catch (const voxkit::Error&) {
    return 0;
  }
  const auto out = write(v);
  if (out.size() != size || !std::equal(out.begin(), out.end(), data)) std::abort();
  (void)checksum(v.nodes);
  const auto s = stats(v);
  if (s.nodes == 0 || s.leaves != s.branches * 7 + 1) std::abort();
  ResetOptions ro;
  ro.region.keep.push_back(Shape::make_box({{-2, 0, -2}, {1, 3, 1}}));
  for (bool compat : {false, true}) {
    ro.compat = compat;
    ResetStats st;
    const auto r = reset(v, ro, &st);
    const auto again = parse(r, {true});  // a reset always writes a valid file
    if (again.max_depth != v.max_depth || st.bytes_after != r.size()) std::abort();
  }
  return 0;
}
