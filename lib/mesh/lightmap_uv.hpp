// Lightmap UVs: a second UV set for small meshes (the chunk meshes of voxel terrain), as
// Unity's Unwrapping.GenerateSecondaryUVSet makes one. Triangles are grouped into charts
// that flatten without overlap, and the charts are packed into the unit square at one texel
// density for the whole mesh, with a gap of whole texels between them. docs/lightmap-uv.md
// has the algorithm, its guarantees and figures.
//
// Charts: grown by flood fill from the triangles nearest an axis, across edges shared by
// vertex index or by equal position (bitwise, -0 read as +0), while the faces' normals differ
// by at most the hard angle and the triangle faces the chart's axis within 60 degrees. A
// triangle whose projection onto the axis plane would overlap the chart's is refused (it
// seeds another chart). A finished chart moves to the plane of its mean normal if it still
// flattens without overlap there. Zero-area triangles join a chart they share a position
// with, or one point-sized chart.
//
// Packing: each chart turned to its smallest bounding box and packed as the rectangle of
// texels it touches (a texel whose closed square meets a triangle) with a skyline packer, at
// the largest common scale found to fit. Deterministic: the same input gives the same bytes
// on any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace voxkit::lightmap {

struct Options {
  uint32_t size = 1024;        // lightmap texels per side the UVs are laid out for (1..65536)
  double padding_texels = 2;   // least gap between two charts' texels, in texels (rounded up)
  double hard_angle_deg = 88;  // edges whose faces' normals differ by more split charts (Unity's default)
};

struct Stats {
  uint32_t charts = 0;
  uint32_t vertices_in = 0, vertices_out = 0;  // vertices are split along chart borders
  double texels_per_metre = 0;                 // the same for every chart of the mesh (per input unit)
  double coverage = 0;                         // fraction of [0,1]^2 covered by triangles
  // Per triangle: max(r, 1/r) - 1 where r = (uv area / 3D area) / (the mesh's uv area / 3D
  // area); the mean is weighted by 3D area. Zero-area triangles are left out.
  double area_distortion_max = 0, area_distortion_mean = 0;
};

struct Unwrap {
  std::vector<uint32_t> source_vertex;   // per output vertex: the input vertex it copies
  std::vector<uint32_t> indices;         // the input triangles, same order, over the output vertices
  std::vector<std::array<float, 2>> uv;  // per output vertex, inside [0,1]
  std::vector<uint32_t> chart;           // per input triangle: its chart, 0..charts-1
  Stats stats;
};

// Output vertices 0..n-1 are the input vertices in order (each with the uv of the chart of
// the first triangle that uses it; an unused vertex gets (0, 0)); the copies a vertex needs
// for further charts follow, in order of first use by the triangles.
//
// positions: the mesh's vertices (any unit, e.g. metres); indices: a triangle list.
// Throws a usage error for an index count that is not a multiple of 3, an index out of
// range, options out of range, or charts that do not fit at this size and padding (even at
// one texel each); a data error for a used vertex with a coordinate that is not finite.
Unwrap unwrap(std::span<const std::array<float, 3>> positions, std::span<const uint32_t> indices,
              const Options& opts = {});

// One mesh of a batch.
struct MeshRef {
  std::span<const std::array<float, 3>> positions;
  std::span<const uint32_t> indices;
};

// unwrap for each mesh, in parallel (TBB); the same results as one by one. An error is
// rethrown for the first failing mesh in order, with "mesh N: " before its message.
std::vector<Unwrap> unwrap_all(std::span<const MeshRef> meshes, const Options& opts = {});

}  // namespace voxkit::lightmap
