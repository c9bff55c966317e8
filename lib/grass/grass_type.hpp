// A grass type as the Vixen engine defines it (GrassType / GrassWind, docs/grass.md): the
// candidate density, the weight range its layer is read over, the blade ranges, the slope
// limit, the cull distances and the wind. Field names follow the engine's.
#pragma once

#include <optional>
#include <string>

namespace voxkit::grass {

struct GrassWind {
  float direction_x = 1.0f, direction_z = 0.3f;  // in the XZ plane, normalised on use
  float strength = 0.12f;
  float frequency = 0.35f;
  float speed = 1.4f;
  float flutter = 0.03f;
  float height = 0.6f;  // the object-space height the sway is normalised against; > 0
};

// The engine's "Still" wind (no motion): direction (1, 0), strength 0, frequency 0.1,
// speed 1, flutter 0, height 1.
GrassWind still_wind();

struct GrassType {
  std::string name;
  std::string mesh;    // asset name of the blade mesh (not used by the scatter)
  std::string albedo;  // asset reference of the blade texture (not used by the scatter)
  std::string layer;   // the terrain layer whose weight thins the field; empty = everywhere
  float min_weight = 0.15f;
  float max_weight = 0.6f;
  float density = 16.0f;  // candidates per square metre
  float jitter = 0.8f;    // fraction of half a step a candidate may move
  float min_scale = 0.7f;
  float max_scale = 1.3f;
  bool random_yaw = true;
  float align_to_normal = 0.35f;
  float max_slope = 0.785398185f;  // MathF.PI / 4 as a float
  float start_cull_distance = 30.0f;
  float end_cull_distance = 40.0f;
  GrassWind wind;  // "Breeze" by default
};

// GrassType.Of(name): the settings a new type starts from (the member defaults above).
GrassType default_type(std::string name);

// A type whose every field is zero, empty or false, as the engine's serializer starts one
// before it reads a document's keys (a .vxgrass that omits a key leaves it at zero).
GrassType zero_type();

// Why the type cannot be used, in the engine's order of checks, or nothing if it can.
std::optional<std::string> validate(const GrassType& type);

// Whether a candidate asks for a layer weight at all (a type with no layer grows everywhere).
inline bool needs_weight(const GrassType& type) { return !type.layer.empty(); }

// DensityAt: the fraction of candidates a painted weight keeps, a guarded smoothstep in float.
float density_at(const GrassType& type, float weight);

// GridOf: candidates along one side of a cell, max(1, round-half-even(cellSize * sqrt(Density)))
// in float, or 1 when either value is not > 0.
int grid_side(const GrassType& type, float cell_size);

}  // namespace voxkit::grass
