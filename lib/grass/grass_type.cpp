#include "lib/grass/grass_type.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace voxkit::grass {

GrassWind still_wind() {
  GrassWind w;
  w.direction_x = 1.0f;
  w.direction_z = 0.0f;
  w.strength = 0.0f;
  w.frequency = 0.1f;
  w.speed = 1.0f;
  w.flutter = 0.0f;
  w.height = 1.0f;
  return w;
}

GrassType default_type(std::string name) {
  GrassType t;
  t.name = std::move(name);
  return t;
}

GrassType zero_type() {
  GrassType t;
  t.min_weight = t.max_weight = t.density = t.jitter = 0.0f;
  t.min_scale = t.max_scale = 0.0f;
  t.random_yaw = false;
  t.align_to_normal = t.max_slope = 0.0f;
  t.start_cull_distance = t.end_cull_distance = 0.0f;
  t.wind = GrassWind{0, 0, 0, 0, 0, 0, 0};
  return t;
}

namespace {
// The engine formats floats with .NET's shortest round-trip form; %g with 9 digits is close
// enough for a message and never misleading.
std::string num(float v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}
bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}
}  // namespace

std::optional<std::string> validate(const GrassType& t) {
  if (blank(t.name)) return "a grass type needs a name";
  if (!(t.density > 0.0f))
    return "'" + t.name + "' has a candidate density of " + num(t.density) +
           " per square metre, so no cell would ever grow a blade";
  if (t.min_scale <= 0.0f || t.max_scale < t.min_scale)
    return "'" + t.name + "' scales between " + num(t.min_scale) + " and " + num(t.max_scale) +
           ", which is not a range";
  if (t.max_weight < t.min_weight)
    return "'" + t.name + "' grows between weights " + num(t.min_weight) + " and " +
           num(t.max_weight) + ", which is backwards";
  if (t.end_cull_distance < t.start_cull_distance)
    return "'" + t.name + "' starts fading at " + num(t.start_cull_distance) +
           " m and is gone by " + num(t.end_cull_distance) + " m, which is backwards";
  if (t.wind.direction_x == 0.0f && t.wind.direction_z == 0.0f)
    return "'" + t.name + "': a wind needs a direction; a zero one has no plane to bend in";
  if (!(t.wind.height > 0.0f))
    return "'" + t.name + "': a wind's reference height is " + num(t.wind.height) +
           " m; it must be above 0";
  return std::nullopt;
}

float density_at(const GrassType& t, float weight) {
  if (!needs_weight(t)) return 1.0f;
  const float low = t.min_weight;
  const float high = std::max(t.max_weight, low + 1e-4f);
  float v = (weight - low) / (high - low);
  // Math.Clamp(v, 0, 1): a NaN passes through as NaN (both compares fail).
  if (v < 0.0f) v = 0.0f;
  if (v > 1.0f) v = 1.0f;
  const float a = v * v;
  const float b = 3.0f - 2.0f * v;
  return a * b;
}

int grid_side(const GrassType& t, float cell_size) {
  if (!(t.density > 0.0f) || !(cell_size > 0.0f)) return 1;
  const float product = cell_size * std::sqrt(t.density);
  const float rounded = std::nearbyint(product);  // the default rounding mode: half to even
  if (!(rounded < 2147483648.0f)) return 2147483647;  // the caller refuses grids this large
  return std::max(1, static_cast<int>(rounded));
}

}  // namespace voxkit::grass
