#include "lib/grass/surface.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lib/core/error.hpp"
#include "lib/grass/surface_sample.hpp"

namespace voxkit::grass {

int SurfaceGrid::layer_index(std::string_view name) const {
  if (name.empty()) return kNoLayer;
  for (size_t i = 0; i < layer_names.size(); ++i)
    if (layer_names[i] == name) return static_cast<int>(i);
  return kMissingLayer;
}

void SurfaceGrid::check() const {
  auto fail = [](const std::string& what, const std::string& expected, const std::string& found) {
    throw Error(ErrorKind::Usage, "grass surface: " + what, std::nullopt, expected, found);
  };
  if (samples_x < 2 || samples_z < 2)
    fail("too few samples", "at least 2 x 2", std::to_string(samples_x) + " x " + std::to_string(samples_z));
  if (!(spacing > 0.0f) || !std::isfinite(spacing)) fail("bad grid spacing", "> 0", std::to_string(spacing));
  const size_t n = static_cast<size_t>(samples_x) * static_cast<size_t>(samples_z);
  if (height.size() != n) fail("height count", std::to_string(n), std::to_string(height.size()));
  const size_t quads = static_cast<size_t>(samples_x - 1) * static_cast<size_t>(samples_z - 1);
  if (!hole.empty() && hole.size() != quads) fail("hole count", std::to_string(quads), std::to_string(hole.size()));
  if (weights.size() != layer_names.size())
    fail("layer count", std::to_string(layer_names.size()), std::to_string(weights.size()));
  for (const auto& w : weights)
    if (w.size() != n) fail("weight count", std::to_string(n), std::to_string(w.size()));
  for (float h : height)
    if (!std::isfinite(h)) fail("a height is not finite", "a finite height", std::to_string(h));
}

float SurfaceGrid::height_at(float local_x, float local_z) const { return detail::height_at(*this, local_x, local_z); }

bool SurfaceGrid::quad_missing(float local_x, float local_z) const { return detail::quad_missing(*this, local_x, local_z); }

Ground SurfaceGrid::sample(float x, float z, int layer) const { return detail::sample(*this, x, z, layer); }

}  // namespace voxkit::grass
