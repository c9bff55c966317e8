// HCUT: u32 version, u32 holes resolution (0 = unknown), f64 terrain position x, y, z,
// f64 terrain size x, y, z, i32 x, z, width, depth, then width * depth bytes (x fastest,
// 1 = surface before the cut, 0 = a hole already). Little-endian.
#include "formats/zone/zone_hole_cut.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit::zone_file {
namespace {

template <class T>
void put(std::vector<uint8_t>& o, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  o.insert(o.end(), b, b + sizeof(T));
}

template <class T>
T get(std::span<const uint8_t> p, size_t at) {
  T v;
  std::memcpy(&v, p.data() + at, sizeof(T));
  return v;
}

}  // namespace

std::string hole_cut_problem(const ZoneHoleCut& c) {
  if (c.width <= 0 || c.depth <= 0) return "the cut is empty";
  if (uint32_t(c.width) > kMaxHoleCutCells || uint32_t(c.depth) > kMaxHoleCutCells)
    return "the cut is wider than " + std::to_string(kMaxHoleCutCells) + " cells";
  if (c.x < 0 || c.z < 0) return "the cut starts at a negative cell";
  if (c.resolution > kMaxHoleCutCells) return "the holes resolution is over " + std::to_string(kMaxHoleCutCells);
  if (c.resolution > 0 && (uint64_t(c.x) + uint64_t(c.width) > c.resolution ||
                           uint64_t(c.z) + uint64_t(c.depth) > c.resolution))
    return "the cut lies outside the terrain's hole raster";
  if (c.previous.size() != uint64_t(c.width) * uint64_t(c.depth)) return "the previous values do not fill the cut";
  for (uint8_t v : c.previous)
    if (v > 1) return "a previous value is neither 0 nor 1";
  for (double d : c.terrain_position)
    if (!std::isfinite(d)) return "the terrain position is not finite";
  for (double d : c.terrain_size)
    if (!std::isfinite(d)) return "the terrain size is not finite";
  return {};
}

std::vector<uint8_t> encode_hole_cut(const ZoneHoleCut& c) {
  std::vector<uint8_t> o;
  o.reserve(kHoleCutHeaderSize + c.previous.size());
  put<uint32_t>(o, kHoleCutVersion);
  put<uint32_t>(o, c.resolution);
  for (double d : c.terrain_position) put<double>(o, d);
  for (double d : c.terrain_size) put<double>(o, d);
  put<int32_t>(o, c.x);
  put<int32_t>(o, c.z);
  put<int32_t>(o, c.width);
  put<int32_t>(o, c.depth);
  o.insert(o.end(), c.previous.begin(), c.previous.end());
  return o;
}

ZoneHoleCut decode_hole_cut(std::span<const uint8_t> p) {
  if (p.size() < kHoleCutHeaderSize)
    throw_data("payload is shorter than its " + std::to_string(kHoleCutHeaderSize) + "-byte header", p.size(),
               std::to_string(kHoleCutHeaderSize) + " bytes", std::to_string(p.size()) + " bytes");
  const uint32_t version = get<uint32_t>(p, 0);
  if (version != kHoleCutVersion) throw_data("unsupported hole cut version", 0, "1", std::to_string(version));
  ZoneHoleCut c;
  c.resolution = get<uint32_t>(p, 4);
  for (int a = 0; a < 3; ++a) c.terrain_position[size_t(a)] = get<double>(p, 8 + 8 * size_t(a));
  for (int a = 0; a < 3; ++a) c.terrain_size[size_t(a)] = get<double>(p, 32 + 8 * size_t(a));
  c.x = get<int32_t>(p, 56);
  c.z = get<int32_t>(p, 60);
  c.width = get<int32_t>(p, 64);
  c.depth = get<int32_t>(p, 68);
  if (c.width <= 0 || c.depth <= 0 || uint32_t(c.width) > kMaxHoleCutCells || uint32_t(c.depth) > kMaxHoleCutCells)
    throw_data("bad cut size", 64, "1.." + std::to_string(kMaxHoleCutCells) + " cells a side",
               std::to_string(c.width) + " x " + std::to_string(c.depth));
  const uint64_t cells = uint64_t(c.width) * uint64_t(c.depth);
  if (p.size() - kHoleCutHeaderSize != cells)
    throw_data("payload length does not match the cut's size", p.size(),
               std::to_string(kHoleCutHeaderSize + cells) + " bytes", std::to_string(p.size()) + " bytes");
  c.previous.assign(p.begin() + kHoleCutHeaderSize, p.end());
  for (size_t k = 0; k < c.previous.size(); ++k)
    if (c.previous[k] > 1) throw_data("a previous value is neither 0 nor 1", kHoleCutHeaderSize + k, "0 or 1",
                                      std::to_string(c.previous[k]));
  if (const std::string why = hole_cut_problem(c); !why.empty()) throw_data(why, 4);
  return c;
}

}  // namespace voxkit::zone_file
