// Cutting a mesh to a vertical-walled box: the terrain-hole clip of exported dig-zone meshes.
#pragma once

#include "lib/mesh/mesh.hpp"

namespace voxkit {

// A rectangle on the horizontal (x, z) plane, in the mesh's own coordinates.
struct ClipRect {
  double min_x = 0, min_z = 0, max_x = 0, max_z = 0;
};

// Keeps the part of `mesh` inside the four vertical planes x = min_x, x = max_x, z = min_z,
// z = max_z (points on a plane count as inside). Each triangle is clipped against the planes
// in that order, Sutherland-Hodgman style; new vertices interpolate every attribute (normals
// are renormalised), lie exactly on their plane, and are shared by the triangles on both
// sides of a cut edge, bit for bit also across chunk meshes, so a welded mesh stays welded.
// The clipped polygons are fanned into triangles; degenerate ones (repeated vertices or zero
// area) are dropped, and so are vertices nothing references. Vertex order follows the input; the result is the same for
// the same input on any machine. Preconditions: min_x <= max_x, min_z <= max_z.
Mesh clip_mesh(const Mesh& mesh, const ClipRect& rect);

}  // namespace voxkit
