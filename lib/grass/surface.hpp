// The ground a grass scatter stands on: a regular height grid with holes and named layer
// weights, sampled as the Vixen engine's terrain surface samples (TerrainSurface.SampleAt,
// TerrainPick.HeightAt): bilinear heights with .NET's fused lerp, a normal from four
// neighbouring heights one grid step away, bilinear weights, no ground off the grid or in a
// hole. docs/grass.md says how a zone and a heightmap become one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace voxkit::grass {

// What the ground is at a candidate position (the engine's FoliageSurface).
struct Ground {
  float px = 0, py = 0, pz = 0;  // where the surface is (world)
  float nx = 0, ny = 1, nz = 0;  // which way it faces (normalised when hit)
  float weight = 0;              // the type's layer weight there, 1 where the type has none
  bool hit = false;
};

// Layer selectors for SurfaceGrid::sample.
constexpr int kNoLayer = -1;       // the type filters on no layer: weight 1
constexpr int kMissingLayer = -2;  // the type's layer is not on this surface: weight 0

struct SurfaceGrid {
  float origin_x = 0, origin_y = 0, origin_z = 0;  // world position of sample (0, 0), height 0
  float spacing = 1;                               // metres per quad (MetresPerQuad)
  int32_t samples_x = 0, samples_z = 0;            // >= 2 each
  std::vector<float> height;                       // metres above origin_y, x fastest
  // Per quad ((samples_x - 1) * (samples_z - 1), x fastest): 1 = no ground. Empty = none.
  std::vector<uint8_t> hole;
  std::vector<std::string> layer_names;
  std::vector<std::vector<float>> weights;  // per layer, one value (0..1) per sample

  float width_x() const { return static_cast<float>(samples_x - 1) * spacing; }
  float width_z() const { return static_cast<float>(samples_z - 1) * spacing; }
  // The index of a layer by its exact name, kNoLayer for an empty name, kMissingLayer when
  // the surface has no such layer.
  int layer_index(std::string_view name) const;
  // Throws voxkit::Error (usage) when sizes do not agree or a value is not finite.
  void check() const;

  // SampleAt(position, layer): the ground under world (x, z).
  Ground sample(float x, float z, int layer) const;
  // TerrainPick.HeightAt for a position relative to the grid origin (clamped to the grid).
  float height_at(float local_x, float local_z) const;
  bool quad_missing(float local_x, float local_z) const;
};

}  // namespace voxkit::grass
