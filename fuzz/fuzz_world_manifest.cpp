// Fuzz target: world and saves manifests (TOML). Any input reads or is refused with a data or
// usage error; a world manifest that reads is written back per stage (the plan's stage
// manifests) and reads as the same world.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "formats/world/manifest.hpp"
#include "formats/world/plan.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace voxkit;
  world::Manifest m;
  try {
    // A directory that holds nothing: a saves manifest's patterns match no file there.
    m = world::parse_manifest(text, "/nonexistent-voxkit-fuzz/m.toml");
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Io) std::abort();
    return 0;
  }
  if (m.kind != world::ManifestKind::World) return 0;
  const std::string again = world::manifest_toml(m.world, m.world.dir, true, true, true);
  world::Manifest n;
  try {
    n = world::parse_manifest(again, m.world.path);
  } catch (const Error&) {
    std::abort();  // what voxkit writes must read
  }
  const WorldSpec &a = m.world.spec, &b = n.world.spec;
  if (a.min != b.min || a.max != b.max || a.voxel_size != b.voxel_size || a.chunk_cells != b.chunk_cells ||
      a.tile_chunks != b.tile_chunks || a.halo_chunks != b.halo_chunks || n.world.height != m.world.height ||
      n.world.splat != m.world.splat || n.world.layers != m.world.layers)
    std::abort();
  return 0;
}
