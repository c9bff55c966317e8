// What lightmap_uv.cpp (the charts) hands lightmap_pack.cpp (boxes, scale, packing): each
// chart's frame, and how a vertex of a chart lands in the lightmap.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace voxkit::lightmap::detail {

using Vec3 = std::array<double, 3>;

// A vertex along an axis of a chart. Boxes and uvs both come through here, so that a
// vertex lands in the box it was measured in, bit for bit.
inline double along(const Vec3& e, const std::array<float, 3>& p) {
  return e[0] * double(p[0]) + e[1] * double(p[1]) + e[2] * double(p[2]);
}

// A chart in the lightmap: texel coordinate k (0: u, 1: v) of vertex p is
// origin[k] + scale * (along(axis[k], p) - lo[k]).
struct Chart {
  std::array<Vec3, 2> axis{};  // in the chart's plane, axis[0] x axis[1] its normal; zero for the point chart
  double lo[2] = {0, 0}, hi[2] = {0, 0};  // the range of the chart's vertices along each axis
  // Set by pack_charts: the texels the chart's box holds (from `cell`, `texels` per side), and
  // where `lo` lands (the box's texels are centred on the chart).
  int64_t cell[2] = {0, 0}, texels[2] = {0, 0};
  double origin[2] = {0, 0};
};

// The margin, in texels, kept on each side between a chart's vertices and the border of its
// box, so that rounding a uv to float never reaches a texel outside the box.
inline constexpr double kBoxMargin = 1.0 / 64;

// Turns each chart's axes in its plane to the smallest-area box of its vertices (a chart's
// vertices are vertices[start[c]..start[c+1]) of `positions`) and sets lo and hi.
void fit_boxes(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> start,
               std::span<const uint32_t> vertices, std::vector<Chart>& charts);

// Finds the largest scale (texels per unit) at which every chart's box, turned by 90 degrees
// where that packs better, fits a size x size lightmap with `gap` empty texels between boxes;
// sets each chart's cell, texels and origin (and turns its axes) and returns the scale.
// Throws a usage error when the charts do not fit even at one texel each.
double pack_charts(std::vector<Chart>& charts, uint32_t size, uint32_t gap);

}  // namespace voxkit::lightmap::detail
