// Fuzz target: Unity .raw heightmaps, then a small bake of whatever terrain they describe.
// The first four bytes pick --raw-size (two little-endian u16, 0 = infer); the rest is the file.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "formats/image/heightmap.hpp"
#include "lib/bake/bake.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  voxkit::heightmap::Options o;
  const uint32_t w = data[0] | (data[1] << 8), h = data[2] | (data[3] << 8);
  if (w && h) o.raw_size = std::array<uint32_t, 2>{w, h};
  o.terrain_size = {16, 8, 16};
  o.max_samples = 1 << 16;
  std::vector<uint8_t> bytes(data + 4, data + size);
  voxkit::Heightfield hf;
  try {
    hf = voxkit::heightmap::from_unity_raw(bytes, o);
  } catch (const voxkit::Error&) {
    return 0;
  }
  voxkit::ZoneBoxSpec spec;
  spec.voxel_size = 0.5;
  spec.border_voxels = 1;
  spec.depth_voxels = 1;
  spec.max_samples = 1 << 18;
  try {
    voxkit::Zone z = voxkit::bake_zone(hf, spec);
    if (z.grid.data.size() != z.meta.cells.samples() || z.grid.data != z.baked.data) std::abort();
    // The bottom row is solid and the top row open air: the zone encloses the surface.
    if (z.grid.at(0, 0, 0) >= 128 || z.grid.at(0, z.meta.cells.ny, 0) < 128) std::abort();
  } catch (const voxkit::Error&) {
  }
  return 0;
}
