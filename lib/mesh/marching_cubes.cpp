// Marching Cubes over a box of owned cells, with the classic tables (lib/mesh/mc_tables.cpp).
// Vertices live on sample edges and are shared by every cell of the chunk that uses them;
// a vertex on a chunk border is computed from the same two samples by both chunks.
#include <algorithm>
#include <bit>
#include <vector>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// Per table edge (corners numbered as in lib/mesh/mc_tables.cpp): its axis and the offset of its
// low end in the cell.
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
  const int64_t* lo;               // first sample of the rules below
  std::vector<Diff> rule[3];       // per axis and sample: the gradient difference

  Vec3 gradient(int64_t x, int64_t y, int64_t z, const uint8_t* p) const {
    const int64_t s[3] = {x, y, z};
    const int64_t stride[3] = {1, t.sdf.sy, t.sdf.sz};
    Vec3 g;
    for (int a = 0; a < 3; ++a) {
      const Diff& d = rule[a][size_t(s[a] - lo[a])];
      g[size_t(a)] = float(int(p[d.hi * stride[a]]) - int(p[d.lo * stride[a]])) * d.scale;
    }
    return g;
  }

  // Adds the vertex on the edge from sample (x, y, z) along `axis`.
  uint32_t vertex(int64_t x, int64_t y, int64_t z, int axis) {
    const int64_t bx = x + (axis == 0), by = y + (axis == 1), bz = z + (axis == 2);
    const uint8_t* pa = t.sdf.ptr(x, y, z);
    const uint8_t* pb = t.sdf.ptr(bx, by, bz);
    const int va = *pa, vb = *pb;
    const float s = (kIsoLevel - float(va)) * kReciprocal[size_t(vb - va + 255)];
    std::array<float, 3> p{float(x), float(y), float(z)};
    p[size_t(axis)] += s;
    // Indices are 32-bit; only a whole-grid mesh of a huge, noisy grid could run out.
    if (out.positions.size() >= 0xffffffffu)
      throw_usage("mesh has more than 2^32 - 1 vertices: mesh it in chunks");
    const auto index = uint32_t(out.positions.size());
    out.positions.push_back(p);
    if (t.normals) {
      const Vec3 ga = gradient(x, y, z, pa), gb = gradient(bx, by, bz, pb);
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

void marching_cubes(Task& t, Mesh& out) {
  const int64_t* lo = t.own_lo;
  const int64_t* hi = t.own_hi;
  // Scratch space reused by the chunks a thread meshes.
  thread_local std::vector<uint64_t> bit_storage;
  thread_local std::vector<uint32_t> ids;
  const SolidBits bits(t.sdf, lo, hi, bit_storage);
  if (bits.uniform()) return;
  const int64_t cells_x = hi[0] - lo[0], words = bits.words();
  thread_local std::vector<uint64_t> mixed_bits;
  mixed_bits.resize(size_t(words * (hi[1] - lo[1]) * (hi[2] - lo[2])));
  uint64_t mixed = 0;
  {
    uint64_t* m = mixed_bits.data();
    for (int64_t z = lo[2]; z < hi[2]; ++z) {
      const uint64_t* r = bits.row(lo[1], z);
      for (int64_t y = lo[1]; y < hi[1]; ++y, r += words)
        for (int64_t k = 0; k < words; ++k, ++m)
          mixed += bit_count(*m = bits.mixed_at(r, k, word_limit(k, cells_x)));
    }
  }
  if (mixed == 0) return;

  Builder b{t, out, prepare_paint(t), !t.paint.empty(), lo, {}};
  if (t.normals)
    for (int a = 0; a < 3; ++a)
      for (int64_t s = lo[a]; s <= hi[a]; ++s) {
        b.rule[a].push_back(mc_sample_rule(s, t.n(a), t.chunk_cells));
        assert(t.sdf.contains(a == 0 ? s + b.rule[a].back().lo : lo[0],
                              a == 1 ? s + b.rule[a].back().lo : lo[1],
                              a == 2 ? s + b.rule[a].back().lo : lo[2]));
        assert(t.sdf.contains(a == 0 ? s + b.rule[a].back().hi : lo[0],
                              a == 1 ? s + b.rule[a].back().hi : lo[1],
                              a == 2 ? s + b.rule[a].back().hi : lo[2]));
      }
  // Roughly one vertex and two triangles per cell with a sign change.
  out.positions.reserve(mixed + mixed / 4);
  if (t.normals) out.normals.reserve(mixed + mixed / 4);
  if (b.paint) {
    out.colors.reserve(mixed + mixed / 4);
    out.uv0.reserve(mixed + mixed / 4);
  }
  out.indices.reserve(mixed * 6);

  // Vertex indices per sample edge: x and y edges of two sample planes (z and z + 1), and
  // the z edges of the current cell slab.
  const int64_t SX = hi[0] - lo[0] + 1, SY = hi[1] - lo[1] + 1, plane = SX * SY;
  ids.assign(size_t(5 * plane), kNone);
  auto xy_plane = [&](int64_t z, int axis) {
    return ids.data() + ((z - lo[2]) & 1) * 2 * plane + axis * plane;
  };
  uint32_t* zedges = ids.data() + 4 * plane;
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
      const uint64_t* mw =
          mixed_bits.data() + words * ((y - lo[1]) + (hi[1] - lo[1]) * (z - lo[2]));
      for (int64_t k = 0; k < words; ++k)
        for (uint64_t m = mw[k]; m; m &= m - 1) {
          const int64_t i = 64 * k + std::countr_zero(m);
          const uint8_t v[8] = {r0[i], r0[i + 1], r1[i + 1], r1[i],
                                r2[i], r2[i + 1], r3[i + 1], r3[i]};
          unsigned cube = 0;
          for (int c = 0; c < 8; ++c) cube |= unsigned(v[c] < 128) << c;
          const int64_t x = lo[0] + i;
          uint32_t vid[12];
          for (unsigned em = kMcEdges[cube]; em; em &= em - 1) {
            const int e = std::countr_zero(em);
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
          for (int k3 = 0; tri[k3] >= 0; k3 += 3) {
            out.indices.push_back(vid[tri[k3]]);
            out.indices.push_back(vid[tri[k3 + 2]]);
            out.indices.push_back(vid[tri[k3 + 1]]);
          }
        }
    }
  }
}

}  // namespace voxkit::mesh_detail
