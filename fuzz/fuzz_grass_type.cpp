// Fuzz target: grass types (.vxgrass, TOML, JSON). The first byte picks the syntax. A type
// that reads is validated, written back as TOML and as JSON, and each reads as the same type,
// bit for bit; writing is deterministic.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "formats/grass/grass_type_io.hpp"
#include "lib/core/error.hpp"

namespace {

using namespace voxkit::grass;

bool same_float(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same(const GrassType& a, const GrassType& b) {
  const float fa[] = {a.min_weight, a.max_weight, a.density, a.jitter, a.min_scale, a.max_scale, a.align_to_normal,
                      a.max_slope, a.start_cull_distance, a.end_cull_distance, a.wind.direction_x,
                      a.wind.direction_z, a.wind.strength, a.wind.frequency, a.wind.speed, a.wind.flutter,
                      a.wind.height};
  const float fb[] = {b.min_weight, b.max_weight, b.density, b.jitter, b.min_scale, b.max_scale, b.align_to_normal,
                      b.max_slope, b.start_cull_distance, b.end_cull_distance, b.wind.direction_x,
                      b.wind.direction_z, b.wind.strength, b.wind.frequency, b.wind.speed, b.wind.flutter,
                      b.wind.height};
  for (size_t i = 0; i < sizeof fa / sizeof fa[0]; ++i)
    if (!same_float(fa[i], fb[i])) return false;
  return a.name == b.name && a.mesh == b.mesh && a.albedo == b.albedo && a.layer == b.layer &&
         a.random_yaw == b.random_yaw;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const GrassTypeSyntax syntax = data[0] % 3 == 0   ? GrassTypeSyntax::Vxgrass
                                 : data[0] % 3 == 1 ? GrassTypeSyntax::Toml
                                                    : GrassTypeSyntax::Json;
  (void)detect_syntax(text);
  std::vector<std::string> warnings;
  GrassType t;
  try {
    t = decode_grass_type(text, syntax, "fuzz", &warnings);
  } catch (const voxkit::Error& e) {
    if (e.kind() != voxkit::ErrorKind::Data) std::abort();
    return 0;
  }
  if (warnings.size() > kMaxGrassTypeWarnings + 1) std::abort();
  (void)validate(t);
  (void)density_at(t, 0.5f);
  (void)grid_side(t, 32.0f);
  std::string toml, json;
  try {
    toml = write_grass_type_toml(t);
    json = write_grass_type_json(t);
  } catch (const voxkit::Error& e) {
    // Only a string that is not UTF-8 (a .vxgrass value can hold none: its reader refuses them).
    std::abort();
  }
  if (write_grass_type_toml(t) != toml || write_grass_type_json(t) != json) std::abort();
  if (!same(decode_grass_type(toml, GrassTypeSyntax::Toml, "toml", nullptr), t)) std::abort();
  if (!same(decode_grass_type(json, GrassTypeSyntax::Json, "json", nullptr), t)) std::abort();
  return 0;
}
