// Fuzz target: terrain.dat parser. Parses with any depth, checks the byte-exact round trip,
// and runs the one-pass algorithms (checksum, stats, regions, compat and default resets) over
// it, with the CLI's output cap on the resets.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "lib/core/error.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_reset.hpp"
#include "lib/octree/octree_stats.hpp"

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
  // Regions over the coarsest blocks, and over 1-voxel blocks (refused past 128^3 blocks).
  for (int block_log2 : {v.max_depth, 0}) {
    try {
      (void)modified_regions(v, block_log2);
    } catch (const voxkit::Error&) {
    }
  }
  ResetOptions ro;
  ro.region.keep.push_back(Shape::make_box({{-2, 0, -2}, {1, 3, 1}}));
  for (bool compat : {false, true}) {
    ro.compat = compat;
    ResetStats st;
    std::vector<uint8_t> r;
    try {
      r = reset(v, ro, &st);
    } catch (const voxkit::Error&) {
      continue;  // the output would pass ResetOptions::max_output_bytes
    }
    const auto again = parse(r, {true});  // a reset always writes a valid file
    if (again.max_depth != v.max_depth || st.bytes_after != r.size()) std::abort();
  }
  return 0;
}
