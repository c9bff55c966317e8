// Fuzz target: Terrain{i}.dat base files (gzip + depth + node stream + checksum). Decodes
// without requiring a matching checksum, re-encodes, and checks the decode of that.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/stationeers/terrain_base.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace voxkit;
  terrain_base::BaseFile f;
  try {
    f = terrain_base::decode(std::span<const uint8_t>(data, size), false);
  } catch (const Error&) {
    return 0;
  }
  const auto gz = terrain_base::encode(f.depth, f.nodes());
  const auto g = terrain_base::decode(gz);  // our own output verifies
  if (g.depth != f.depth || g.computed_checksum != f.computed_checksum || !g.checksum_ok()) std::abort();
  if (!std::equal(g.nodes().begin(), g.nodes().end(), f.nodes().begin(), f.nodes().end())) std::abort();
  return 0;
}
