// Fuzz target: foliage instance lists and the Unity assets' tree and detail lists. The first
// byte picks the reader: trees, details, surface details (CSV or JSON, detected), the
// dig-zone asset's lists, or a TerrainData asset. What reads is baked into a small zone.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "formats/foliage/instances.hpp"
#include "lib/core/error.hpp"
#include "lib/foliage/foliage.hpp"

namespace {

voxkit::Zone small_zone() {
  voxkit::Zone z;
  z.meta.cells = {6, 5, 7};
  z.meta.chunk_cells = 4;
  z.meta.voxel_size = 0.5;
  z.meta.hole = {0, 0, 3, 3.5};
  z.grid = voxkit::ByteGrid(z.meta.cells, 255);
  for (uint64_t i = 0; i < z.grid.data.size(); ++i) z.grid.data[i] = uint8_t((i * 37) % 256);
  return z;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  namespace io = voxkit::foliage_io;
  io::Terrain terrain;
  terrain.size = std::array<float, 3>{10, 4, 10};
  std::vector<voxkit::foliage::TreeInput> trees;
  std::vector<voxkit::foliage::DetailInput> details;
  std::vector<voxkit::foliage::SurfaceInput> surface;
  try {
    switch (data[0] % 5) {
      case 0: trees = io::read_trees(text, terrain, 4096); break;
      case 1: details = io::read_details(text, 4096); break;
      case 2: surface = io::read_surface(text, 4096); break;
      case 3: {
        auto a = io::read_asset_foliage(text, terrain, true, true, 4096);
        trees = std::move(a.trees);
        surface = std::move(a.surface);
        break;
      }
      default: trees = io::read_terrain_data(text, {}, 4096).trees; break;
    }
  } catch (const voxkit::Error&) {
    return 0;
  }
  for (const auto& t : trees)
    for (float v : t.position)
      if (!std::isfinite(v)) std::abort();
  const voxkit::Zone z = small_zone();
  voxkit::foliage::BakeInput in;
  in.trees = trees;
  in.details = details;
  in.surface = surface;
  voxkit::ZoneFoliage f = voxkit::foliage::bake(z, in);
  if (!voxkit::foliage::problem(f, z.meta.cells, z.meta.chunk_cells).empty()) std::abort();
  voxkit::foliage::recheck_all(z.grid, z.meta.chunk_cells, f);
  return 0;
}
