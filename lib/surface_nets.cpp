// Naive Surface Nets over a box of owned cells: one vertex per cell with a sign change, at
// the mean of its edge crossings; one quad per crossing edge, split on its shorter diagonal.
#include <algorithm>
#include <vector>

#include "lib/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// Cube edges as corner pairs (corner bits: 1 x, 2 y, 4 z); edge e runs along axis e / 4.
constexpr uint8_t kCellEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                       {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

struct Emitter {
  const Task& t;
  Mesh& out;
  PaintClasses classes;
  bool paint;

  // Adds the vertex of cell (x, y, z) with corner bytes v and solid mask `mask`.
  uint32_t vertex(int64_t x, int64_t y, int64_t z, const uint8_t (&v)[8], unsigned mask) {
    float sum[3] = {0.0f, 0.0f, 0.0f};
    int count = 0;
    for (int e = 0; e < 12; ++e) {
      const int a = kCellEdges[e][0], b = kCellEdges[e][1];
      if (((mask >> a) ^ (mask >> b)) & 1u) {
        const int axis = e >> 2;
        const float s = (kIsoLevel - float(v[a])) / float(int(v[b]) - int(v[a]));
        for (int k = 0; k < 3; ++k) sum[k] += k == axis ? s : float((a >> k) & 1);
        ++count;
      }
    }
    const float f[3] = {sum[0] / float(count), sum[1] / float(count), sum[2] / float(count)};
    const auto index = uint32_t(out.positions.size());
    out.positions.push_back({float(x) + f[0], float(y) + f[1], float(z) + f[2]});
    if (!t.normals && !paint) return index;

    float w[8];
    for (int c = 0; c < 8; ++c)
      w[c] = ((c & 1) ? f[0] : 1.0f - f[0]) * ((c & 2) ? f[1] : 1.0f - f[1]) *
             ((c & 4) ? f[2] : 1.0f - f[2]);
    const int64_t cell[3] = {x, y, z};
    if (t.normals) {
      Vec3 g{0.0f, 0.0f, 0.0f};
      for (int c = 0; c < 8; ++c) {
        Vec3 gc = sn_corner_gradient(t, cell, c);
        for (int k = 0; k < 3; ++k) g[k] += w[c] * gc[k];
      }
      out.normals.push_back(normalized(g));
    }
    if (paint) {
      float acc[6] = {0, 0, 0, 0, 0, 0};
      for (int c = 0; c < 8; ++c)
        acc[classes.of[t.paint.at(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1))]] += w[c];
      out.colors.push_back({acc[0], acc[1], acc[2], acc[3]});
      out.uv0.push_back({acc[4], t.slots.code()});
    }
    return index;
  }

  // A quad q0..q3, counter-clockwise seen from the air, as two triangles split on the
  // shorter diagonal (q0-q2 on a tie).
  void quad(uint32_t q0, uint32_t q1, uint32_t q2, uint32_t q3) {
    auto d2 = [&](uint32_t i, uint32_t j) {
      const auto& a = out.positions[i];
      const auto& b = out.positions[j];
      float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
      return dx * dx + dy * dy + dz * dz;
    };
    if (d2(q0, q2) <= d2(q1, q3)) {
      out.indices.insert(out.indices.end(), {q0, q1, q2, q0, q2, q3});
    } else {
      out.indices.insert(out.indices.end(), {q1, q2, q3, q1, q3, q0});
    }
  }

  // The quad of a crossing edge; c00..c01 go counter-clockwise seen from the edge's +axis
  // end, which is the air side when the edge's low sample is solid.
  void edge_quad(bool low_solid, uint32_t c00, uint32_t c10, uint32_t c11, uint32_t c01) {
    if (low_solid)
      quad(c00, c10, c11, c01);
    else
      quad(c00, c01, c11, c10);
  }
};

}  // namespace

void surface_nets(const Task& t, Mesh& out) {
  // Cells whose vertices are needed: the owned ones and those just below the low faces.
  int64_t clo[3], chi[3];
  for (int a = 0; a < 3; ++a) {
    clo[a] = std::max<int64_t>(t.own_lo[a] - 1, 0);
    chi[a] = t.own_hi[a];
  }
  const int64_t W = chi[0] - clo[0], H = chi[1] - clo[1];
  std::vector<uint32_t> slabs(size_t(2 * W * H), kNone);
  Emitter em{t, out, {}, !t.paint.empty()};
  if (em.paint) em.classes = paint_classes(t.slots, t.layer_count);
  const View& s = t.sdf;

  for (int64_t z = clo[2]; z < chi[2]; ++z) {
    uint32_t* cur = slabs.data() + (z & 1) * W * H;
    const uint32_t* prev = slabs.data() + ((z - 1) & 1) * W * H;
    std::fill(cur, cur + W * H, kNone);
    for (int64_t y = clo[1]; y < chi[1]; ++y) {
      const uint8_t* r00 = s.ptr(clo[0], y, z);
      const uint8_t* r10 = s.ptr(clo[0], y + 1, z);
      const uint8_t* r01 = s.ptr(clo[0], y, z + 1);
      const uint8_t* r11 = s.ptr(clo[0], y + 1, z + 1);
      uint32_t* row = cur + W * (y - clo[1]);
      for (int64_t i = 0; i < W; ++i) {
        const uint8_t v[8] = {r00[i], r00[i + 1], r10[i], r10[i + 1],
                              r01[i], r01[i + 1], r11[i], r11[i + 1]};
        unsigned mask = 0;
        for (int c = 0; c < 8; ++c) mask |= unsigned(v[c] < 128) << c;
        if (mask == 0 || mask == 255) continue;
        row[i] = em.vertex(clo[0] + i, y, z, v, mask);
      }
    }
    if (z < t.own_lo[2]) continue;

    // Quads of the crossing edges leaving each owned cell's minimum corner.
    auto id = [&](const uint32_t* slab, int64_t x, int64_t y) {
      return slab[(x - clo[0]) + W * (y - clo[1])];
    };
    for (int64_t y = t.own_lo[1]; y < t.own_hi[1]; ++y) {
      const uint8_t* r = s.ptr(t.own_lo[0], y, z);
      const uint8_t* ry = s.ptr(t.own_lo[0], y + 1, z);
      const uint8_t* rz = s.ptr(t.own_lo[0], y, z + 1);
      for (int64_t x = t.own_lo[0]; x < t.own_hi[0]; ++x) {
        const int64_t i = x - t.own_lo[0];
        const bool solid = r[i] < 128;
        if (y >= 1 && z >= 1 && solid != (r[i + 1] < 128))
          em.edge_quad(solid, id(prev, x, y - 1), id(prev, x, y), id(cur, x, y),
                       id(cur, x, y - 1));
        if (z >= 1 && x >= 1 && solid != (ry[i] < 128))
          em.edge_quad(solid, id(prev, x - 1, y), id(cur, x - 1, y), id(cur, x, y),
                       id(prev, x, y));
        if (x >= 1 && y >= 1 && solid != (rz[i] < 128))
          em.edge_quad(solid, id(cur, x - 1, y - 1), id(cur, x, y - 1), id(cur, x, y),
                       id(cur, x - 1, y));
      }
    }
  }
}

}  // namespace voxkit::mesh_detail
