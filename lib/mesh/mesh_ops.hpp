// Whole-mesh operations before export: merging chunk meshes with welded borders, vertex-cache
// and vertex-fetch order, LOD simplification (meshoptimizer), and attribute sanity checks.
#pragma once

#include <span>

#include "lib/mesh/lightmap_uv.hpp"
#include "lib/mesh/mesh.hpp"

namespace voxkit {

// Concatenates the meshes in order into one, welding vertices whose positions are exactly
// equal (bitwise, with -0 read as +0): the border vertices chunks share. A welded vertex keeps
// the attributes of its first occurrence. Every mesh must carry the same attribute arrays
// (all with normals or none, and so on); a usage error otherwise.
Mesh merge_meshes(std::span<const Mesh* const> meshes);
// The same, emptying the inputs as it goes: their indices once the merged indices are written
// (before the merged vertices are allocated), the rest at the end, with the memory given back
// to the system each time (release_mesh_memory); the peak then holds the inputs and about
// half the merged mesh, not both whole.
Mesh merge_meshes_consuming(std::span<Mesh* const> meshes);

// How triangles are ordered for the GPU's post-transform vertex cache: meshoptimizer's full
// optimiser (meshopt_optimizeVertexCache, after Forsyth), its much cheaper FIFO one
// (meshopt_optimizeVertexCacheFifo, after Sander et al.'s Tipsify) for a cache of
// kVertexCacheSize, or the order as it is.
enum class VertexCacheMethod { Full, Fifo, None };
inline constexpr unsigned kVertexCacheSize = 16;

// Reorders triangles for the post-transform vertex cache (`method`), then vertices in
// first-use order (meshopt_optimizeVertexFetchRemap) and drops unreferenced ones; a mesh
// already in that vertex order is left as it is (no copy). Deterministic: the same mesh in
// gives the same mesh out.
void optimize_vertex_order(Mesh& mesh, VertexCacheMethod method = VertexCacheMethod::Full);

// The average cache miss ratio (vertex shader runs per triangle) of the mesh's triangle
// order for a FIFO cache of kVertexCacheSize (meshopt_analyzeVertexCache); 0 for no triangles.
// At best about 0.5 for a grid-like surface, at worst 3.
double vertex_cache_acmr(const Mesh& mesh);

// A level of detail: `mesh` simplified towards `ratio` of its triangles (0 < ratio <= 1)
// with meshopt_simplify, keeping every vertex on an open border where it is (so LODs of
// neighbouring chunks still meet) and a relative error of at most `max_error` (a fraction of
// the mesh's extent). The result is vertex-order optimised (`method`) and holds only vertices
// it uses.
Mesh simplify_mesh(const Mesh& mesh, double ratio, double max_error = 0.05,
                   VertexCacheMethod method = VertexCacheMethod::Full);

// Adds lightmap UVs (lib/mesh/lightmap_uv.hpp) in uv1. Vertices split along chart borders are
// appended after the mesh's own with their attributes copied. The stats' texel density is per
// grid unit (divide by the voxel size for metres).
lightmap::Stats add_lightmap_uv(Mesh& mesh, const lightmap::Options& opts);

// Throws a usage error naming `what` if an attribute array has neither 0 nor one entry per
// vertex, or an index is out of range.
void check_mesh(const Mesh& mesh, const char* what);

// The meshoptimizer this build was compiled against (MESHOPTIMIZER_VERSION: 180 = 0.18).
int meshoptimizer_version();

}  // namespace voxkit
