// Helpers for the octree tests: building terrain.dat bytes by hand.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "lib/octree/octree.hpp"

namespace voxkit::test {

using Bytes = std::vector<uint8_t>;

inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

inline Bytes i32(int32_t v) {
  Bytes b;
  octree::put_i32(b, v);
  return b;
}

inline Bytes i16(int16_t v) { return {uint8_t(uint16_t(v)), uint8_t(uint16_t(v) >> 8)}; }

// A vein record at world (x, y, z), cluster (0,0,0), idHash `id`, with `n` minables.
inline Bytes vein(int16_t x, int16_t y, int16_t z, int32_t id, uint8_t n) {
  Bytes b = cat({i16(x), i16(y), i16(z), i16(0), i16(0), i16(0), i32(id), Bytes{n}});
  for (uint8_t i = 0; i < n; ++i) b.insert(b.end(), {uint8_t(127 + i), 127, 127, 255, 1});
  return b;
}

// A whole terrain.dat.
inline Bytes dat(int32_t max_depth, const Bytes& nodes, int32_t vein_count = 0, const Bytes& veins = {}) {
  return cat({i32(max_depth), nodes, i32(vein_count), veins});
}

inline const Bytes kUnmod{0x01, 0x00, 0x00};

// An unmodified branch of 8 unmodified leaves.
inline Bytes unmod_branch() { return cat({Bytes{0x00}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod}); }

}  // namespace voxkit::test
