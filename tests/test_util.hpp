// Helpers shared by the unit tests: seeded grids, temporary directories, byte literals.
#pragma once

#include <stdlib.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"

namespace voxkit::test {

// The Error `f` throws, if any: to check its message and its hints together.
template <class F>
std::optional<Error> thrown_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// A temporary directory removed when the object goes out of scope.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "voxkit-test-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline std::vector<uint8_t> random_bytes(size_t n, uint32_t seed, int max_value = 255) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, max_value);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(d(rng));
  return v;
}

// A terrain-like SDF grid: rolling heightfield, quantised vertical distance.
inline ByteGrid terrain_grid(Dims cells, uint32_t seed) {
  ByteGrid g(cells, 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ph(0.f, 6.28f);
  float a = ph(rng), b = ph(rng);
  for (uint64_t z = 0; z < g.cells.sz(); ++z)
    for (uint64_t x = 0; x < g.cells.sx(); ++x) {
      float h = float(cells.ny) * (0.5f + 0.2f * std::sin(float(x) * 0.11f + a) *
                                              std::cos(float(z) * 0.07f + b));
      for (uint64_t y = 0; y < g.cells.sy(); ++y) g.at(x, y, z) = quantize_sdf(float(y) - h);
    }
  return g;
}

}  // namespace voxkit::test
