// Marching Cubes over a box of owned cells, with the classic tables (lib/mc_tables.cpp).
// Vertices live on sample edges and are shared by every cell of the chunk that uses them;
// a vertex on a chunk border is computed from the same two samples by both chunks.
#include <algorithm>
#include <vector>

#include "lib/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// Per table edge (corners numbered as in lib/mc_tables.cpp): its axis and the offset of its low end in the cell.
struct EdgeDef {
  int axis, dx, dy, dz;
};
constexpr EdgeDef kEdge[12] = {{0, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 0, 0},
                               {0, 0, 0, 1}, {1, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, 1},
                               {2, 0, 0, 0}, {2, 1, 0, 0}, {2, 1, 1, 0}, {2, 0, 1, 0}};

struct Builder {
  const Task& t;
  Mesh& out;
  PaintClasses classes;
  bool paint;

  // Adds the vertex on the edge from sample (x, y, z) along `axis`.
  uint32_t vertex(int64_t x, int64_t y, int64_t z, int axis) {
    const int64_t bx = x + (axis == 0), by = y + (axis == 1), bz = z + (axis == 2);
    const int va = t.sdf.at(x, y, z), vb = t.sdf.at(bx, by, bz);
    const float s = (kIsoLevel - float(va)) / float(vb - va);
    std::array<float, 3> p{float(x), float(y), float(z)};
    p[size_t(axis)] += s;
    const auto index = uint32_t(out.positions.size());
    out.positions.push_back(p);
    if (t.normals) {
      const Vec3 ga = mc_sample_gradient(t, x, y, z), gb = mc_sample_gradient(t, bx, by, bz);
      Vec3 g;
      for (int k = 0; k < 3; ++k) g[size_t(k)] = (1.0f - s) * ga[size_t(k)] + s * gb[size_t(k)];
      out.normals.push_back(normalized(g));
    }
    if (paint) {
      float acc[6] = {0, 0, 0, 0, 0, 0};
      acc[classes.of[t.paint.at(x, y, z)]] += 1.0f - s;
      acc[classes.of[t.paint.at(bx, by, bz)]] += s;
      out.colors.push_back({acc[0], acc[1], acc[2], acc[3]});
      out.uv0.push_back({acc[4], t.slots.code()});
    }
    return index;
  }
};

}  // namespace

void marching_cubes(const Task& t, Mesh& out) {
  const int64_t* lo = t.own_lo;
  const int64_t* hi = t.own_hi;
  // Vertex indices per sample edge: x and y edges of two sample planes (z and z + 1), and
  // the z edges of the current cell slab.
  const int64_t SX = hi[0] - lo[0] + 1, SY = hi[1] - lo[1] + 1, plane = SX * SY;
  std::vector<uint32_t> ids(size_t(5 * plane), kNone);
  auto xy_plane = [&](int64_t z, int axis) {
    return ids.data() + ((z - lo[2]) & 1) * 2 * plane + axis * plane;
  };
  uint32_t* zedges = ids.data() + 4 * plane;

  Builder b{t, out, {}, !t.paint.empty()};
  if (b.paint) b.classes = paint_classes(t.slots, t.layer_count);
  const View& s = t.sdf;

  for (int64_t z = lo[2]; z < hi[2]; ++z) {
    // Plane z + 1 reuses the storage of plane z - 1.
    std::fill(xy_plane(z + 1, 0), xy_plane(z + 1, 0) + 2 * plane, kNone);
    std::fill(zedges, zedges + plane, kNone);
    for (int64_t y = lo[1]; y < hi[1]; ++y) {
      const uint8_t* r0 = s.ptr(lo[0], y, z);
      const uint8_t* r1 = s.ptr(lo[0], y + 1, z);
      const uint8_t* r2 = s.ptr(lo[0], y, z + 1);
      const uint8_t* r3 = s.ptr(lo[0], y + 1, z + 1);
      for (int64_t i = 0; i < hi[0] - lo[0]; ++i) {
        const uint8_t v[8] = {r0[i], r0[i + 1], r1[i + 1], r1[i],
                              r2[i], r2[i + 1], r3[i + 1], r3[i]};
        unsigned cube = 0;
        for (int c = 0; c < 8; ++c) cube |= unsigned(v[c] < 128) << c;
        if (kMcEdges[cube] == 0) continue;
        const int64_t x = lo[0] + i;
        uint32_t vid[12];
        for (int e = 0; e < 12; ++e) {
          if (!(kMcEdges[cube] >> e & 1)) continue;
          const EdgeDef& d = kEdge[e];
          const int64_t ex = x + d.dx, ey = y + d.dy, ez = z + d.dz;
          const size_t slot = size_t((ex - lo[0]) + SX * (ey - lo[1]));
          uint32_t* cell = d.axis == 2 ? zedges + slot : xy_plane(ez, d.axis) + slot;
          if (*cell == kNone) *cell = b.vertex(ex, ey, ez, d.axis);
          vid[e] = *cell;
        }
        // The table winds its triangles facing the solid corners (case 1: edges 0, 8, 3
        // face corner 0); swapping two corners makes them face the air.
        const int8_t* tri = kMcTriangles[cube];
        for (int k = 0; tri[k] >= 0; k += 3)
          out.indices.insert(out.indices.end(), {vid[tri[k]], vid[tri[k + 2]], vid[tri[k + 1]]});
      }
    }
  }
}

}  // namespace voxkit::mesh_detail
