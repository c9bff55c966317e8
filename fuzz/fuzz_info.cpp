// Fuzz target: `voxkit info`'s identification over every describer but the raster one (GDAL
// is not ours to fuzz). The first byte picks the file name the bytes carry (some describers
// go by it) and, with its top bit, a cave-region grid of small cells instead; the rest is the
// file. Only voxkit's errors may escape, and every description must print as text and JSON.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "formats/core/identify.hpp"
#include "formats/zone/region_grid_info.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  using namespace voxkit;
  std::span<const uint8_t> bytes(data + 1, size - 1);
  static const char* kNames[] = {"f.bin", "f.txt", "f.json", "f.toml", "f.csv", "f.int64", "f.vxgrass", "f.glb",
                                 "f.gltf", "f.obj", "f.ply", "f.stl", "f.asset", "f.vxlog", "f.rle", "f.raw"};
  const std::string name = kNames[data[0] % 16];
  std::optional<identify::Description> d;
  try {
    if (data[0] & 0x80) {
      if (bytes.size() < 2) return 0;
      const Dims cells{uint32_t(bytes[0] % 6 + 1), uint32_t(bytes[1] % 6 + 1), uint32_t(data[0] % 5 + 1)};
      d = describe_region_grid(bytes.subspan(2), cells);
    } else {
      for (const auto& e : identify::describers()) {
        if (std::string(e.format) == "raster") continue;
        if ((d = e.describe(bytes, name))) break;
      }
    }
  } catch (const Error&) {
    return 0;
  }
  if (!d) return 0;
  if (d->format.empty() || d->summary.empty()) std::abort();
  (void)identify::to_json(*d, name, bytes.size()).dump();  // throws on text that is not UTF-8
  (void)identify::to_text(*d, name);
  return 0;
}
