// Naive Surface Nets over a box of owned cells: one vertex per cell with a sign change, at
// the mean of its edge crossings; one quad per crossing edge, split on its shorter diagonal.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// Cube edges as corner pairs (corner bits: 1 x, 2 y, 4 z); edge e runs along axis e / 4.
constexpr uint8_t kCellEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                       {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

// Per corner sign mask: how many edges cross, and the sums over them of their low corners'
// coordinates (the part of the crossings' mean that needs no interpolation).
struct CellCase {
  uint8_t count = 0;
  uint8_t base[3] = {0, 0, 0};
};

constexpr std::array<CellCase, 256> make_cases() {
  std::array<CellCase, 256> cases{};
  for (unsigned mask = 0; mask < 256; ++mask) {
    CellCase& c = cases[mask];
    for (int e = 0; e < 12; ++e) {
      const int a = kCellEdges[e][0], b = kCellEdges[e][1];
      if (!(((mask >> a) ^ (mask >> b)) & 1u)) continue;
      ++c.count;
      for (int k = 0; k < 3; ++k) c.base[k] = uint8_t(c.base[k] + ((a >> k) & 1));
    }
  }
  return cases;
}

constexpr std::array<CellCase, 256> kCases = make_cases();

// Reads the eight corner bytes of the cell at p (corner bits: 1 x, 2 y, 4 z), returns their
// solid mask, and sums per axis the crossing offsets (127.5 - a) / (b - a) of the four cube
// edges along it that change sign. Every edge is computed and the others masked out, the
// same arithmetic for every cell, in the same order with or without SSE2.
#if defined(__SSE2__)
inline unsigned corners(const uint8_t* p, int64_t sy, int64_t sz, float (&sum)[3]) {
  uint16_t pair[4];  // corners (0, 1), (2, 3), (4, 5), (6, 7)
  std::memcpy(&pair[0], p, 2);
  std::memcpy(&pair[1], p + sy, 2);
  std::memcpy(&pair[2], p + sz, 2);
  std::memcpy(&pair[3], p + sy + sz, 2);
  uint64_t packed;
  std::memcpy(&packed, pair, 8);
  const __m128i bytes = _mm_cvtsi64_si128(int64_t(packed));
  // The top bit of a byte is clear exactly when the byte is below 128.
  const unsigned mask = ~unsigned(_mm_movemask_epi8(bytes)) & 0xffu;
  const __m128i wide = _mm_unpacklo_epi8(bytes, _mm_setzero_si128());
  const __m128 lo = _mm_cvtepi32_ps(_mm_unpacklo_epi16(wide, _mm_setzero_si128()));
  const __m128 hi = _mm_cvtepi32_ps(_mm_unpackhi_epi16(wide, _mm_setzero_si128()));
  const __m128 iso = _mm_set1_ps(kIsoLevel), one = _mm_set1_ps(1.0f);
  auto axis = [&](__m128 a, __m128 b) {
    const __m128 cross = _mm_xor_ps(_mm_cmplt_ps(a, iso), _mm_cmplt_ps(b, iso));
    const __m128 den = _mm_or_ps(_mm_and_ps(cross, _mm_sub_ps(b, a)), _mm_andnot_ps(cross, one));
    const __m128 f = _mm_and_ps(cross, _mm_div_ps(_mm_sub_ps(iso, a), den));
    const __m128 h = _mm_add_ps(f, _mm_movehl_ps(f, f));  // (f0 + f2, f1 + f3)
    return _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
  };
  sum[0] = axis(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)),
                _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1)));
  sum[1] = axis(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(1, 0, 1, 0)),
                _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 2, 3, 2)));
  sum[2] = axis(lo, hi);
  return mask;
}
#else
inline unsigned corners(const uint8_t* p, int64_t sy, int64_t sz, float (&sum)[3]) {
  constexpr int kLow[3][4] = {{0, 2, 4, 6}, {0, 1, 4, 5}, {0, 1, 2, 3}};
  int v[8];
  unsigned mask = 0;
  for (int c = 0; c < 8; ++c) {
    v[c] = p[(c & 1) + ((c >> 1) & 1) * sy + ((c >> 2) & 1) * sz];
    mask |= unsigned(v[c] < 128) << c;
  }
  for (int axis = 0; axis < 3; ++axis) {
    float f[4];
    for (int j = 0; j < 4; ++j) {
      const int a = kLow[axis][j], b = a + (1 << axis);
      const bool cross = (v[a] < 128) != (v[b] < 128);
      f[j] = cross ? (kIsoLevel - float(v[a])) / float(v[b] - v[a]) : 0.0f;
    }
    sum[axis] = (f[0] + f[2]) + (f[1] + f[3]);
  }
  return mask;
}
#endif

struct Emitter {
  const Task& t;
  Mesh& out;
  PaintClasses classes;
  bool paint;
  // Per axis, cell (from clo) and corner side: the difference as byte offsets from the
  // corner sample, and its scale (sn_cell_rule).
  struct Offsets {
    int64_t lo, hi;
    float scale;
  };
  const int64_t* clo;
  std::vector<std::array<Offsets, 2>> rule[3];
  std::vector<uint8_t> central[3];  // per axis and cell: central differences at both corners

  // Adds the vertex of cell (x, y, z).
  uint32_t vertex(int64_t x, int64_t y, int64_t z) {
    const View& s = t.sdf;
    const uint8_t* p = s.ptr(x, y, z);
    const int64_t stride[3] = {1, s.sy, s.sz};
    assert(s.contains(x + 1, y + 1, z + 1));
    float sum[3];
    const CellCase& cs = kCases[corners(p, s.sy, s.sz, sum)];
    const float inv = kReciprocal[size_t(cs.count + 255)];
    float f[3];
    for (int k = 0; k < 3; ++k) f[k] = (float(cs.base[k]) + sum[k]) * inv;
    const auto index = uint32_t(out.positions.size());
    out.positions.push_back({float(x) + f[0], float(y) + f[1], float(z) + f[2]});
    if (!t.normals && !paint) return index;

    if (t.normals) {
#if defined(__SSE2__)
      if (central[0][size_t(x - clo[0])] & central[1][size_t(y - clo[1])] &
          central[2][size_t(z - clo[2])])
        out.normals.push_back(normalized(gradient_central(p, stride, f)));
      else
#endif
        out.normals.push_back(normalized(gradient(x, y, z, p, stride, f)));
    }
    if (paint) {
      float w[8];
      for (int c = 0; c < 8; ++c)
        w[c] = ((c & 1) ? f[0] : 1.0f - f[0]) * ((c & 2) ? f[1] : 1.0f - f[1]) *
               ((c & 4) ? f[2] : 1.0f - f[2]);
      const uint8_t* q = t.paint.ptr(x, y, z);
      float acc[6] = {0, 0, 0, 0, 0, 0};
      for (int c = 0; c < 8; ++c)
        acc[classes.of[q[(c & 1) + ((c >> 1) & 1) * t.paint.sy + ((c >> 2) & 1) * t.paint.sz]]] +=
            w[c];
      out.colors.push_back({acc[0], acc[1], acc[2], acc[3]});
      out.uv0.push_back({acc[4], t.slots.code()});
    }
    return index;
  }

  // The SDF gradient at the vertex: the corner differences (sn_cell_rule) weighted
  // trilinearly at the vertex's offsets f in the cell, one axis at a time.
  Vec3 gradient(int64_t x, int64_t y, int64_t z, const uint8_t* p, const int64_t (&stride)[3],
                const float (&f)[3]) const {
    const std::array<Offsets, 2>* r[3] = {&rule[0][size_t(x - clo[0])],
                                          &rule[1][size_t(y - clo[1])],
                                          &rule[2][size_t(z - clo[2])]};
    Vec3 g;
    for (int a = 0; a < 3; ++a) {
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      const Offsets& d0 = (*r[a])[0];
      const Offsets& d1 = (*r[a])[1];
      const float w0 = (1.0f - f[a]) * d0.scale, w1 = f[a] * d1.scale;
      float acc = 0.0f;
      for (int ob = 0; ob < 2; ++ob)
        for (int oc = 0; oc < 2; ++oc) {
          const uint8_t* q = p + ob * stride[b] + oc * stride[c];
          const uint8_t* q1 = q + stride[a];
          const float wl = (ob ? f[b] : 1.0f - f[b]) * (oc ? f[c] : 1.0f - f[c]);
          const float e0 = float(int(q[d0.hi]) - int(q[d0.lo]));
          const float e1 = float(int(q1[d1.hi]) - int(q1[d1.lo]));
          acc += wl * (w0 * e0 + w1 * e1);
        }
      g[size_t(a)] = acc;
    }
    return g;
  }

#if defined(__SSE2__)
  // The same gradient for a cell with central differences on every axis (most cells), from
  // the rows of four samples x-1 .. x+2 around it, four lanes at a time.
  static Vec3 gradient_central(const uint8_t* p, const int64_t (&stride)[3], const float (&f)[3]) {
    const __m128i zero = _mm_setzero_si128();
    auto row = [&](int dy, int dz) {
      int32_t word;
      std::memcpy(&word, p - 1 + dy * stride[1] + dz * stride[2], sizeof word);
      const __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128(word), zero);
      return _mm_cvtepi32_ps(_mm_unpacklo_epi16(b, zero));
    };
    // Rows at (y + dy, z + dz): the centre four, and the ones beyond them in y and in z.
    const __m128 c00 = row(0, 0), c10 = row(1, 0), c01 = row(0, 1), c11 = row(1, 1);
    const __m128 ym0 = row(-1, 0), ym1 = row(-1, 1), yp0 = row(2, 0), yp1 = row(2, 1);
    const __m128 zm0 = row(0, -1), zm1 = row(1, -1), zp0 = row(0, 2), zp1 = row(1, 2);
    const float wy0 = 1.0f - f[1], wy1 = f[1], wz0 = 1.0f - f[2], wz1 = f[2];
    const __m128 w00 = _mm_set1_ps(wy0 * wz0), w10 = _mm_set1_ps(wy1 * wz0);
    const __m128 w01 = _mm_set1_ps(wy0 * wz1), w11 = _mm_set1_ps(wy1 * wz1);
    // Bilinear in y and z, per x lane: the samples (for x), and the y and z differences.
    const __m128 ax = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c00, w00), _mm_mul_ps(c10, w10)),
                                 _mm_add_ps(_mm_mul_ps(c01, w01), _mm_mul_ps(c11, w11)));
    const __m128 ay = _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(_mm_sub_ps(c10, ym0), w00), _mm_mul_ps(_mm_sub_ps(yp0, c00), w10)),
        _mm_add_ps(_mm_mul_ps(_mm_sub_ps(c11, ym1), w01), _mm_mul_ps(_mm_sub_ps(yp1, c01), w11)));
    const __m128 az = _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(_mm_sub_ps(c01, zm0), w00), _mm_mul_ps(_mm_sub_ps(c11, zm1), w10)),
        _mm_add_ps(_mm_mul_ps(_mm_sub_ps(zp0, c00), w01), _mm_mul_ps(_mm_sub_ps(zp1, c10), w11)));
    alignas(16) float lx[4], ly[4], lz[4];
    _mm_store_ps(lx, ax);
    _mm_store_ps(ly, ay);
    _mm_store_ps(lz, az);
    const float wx0 = 1.0f - f[0], wx1 = f[0];
    // Central differences are halved; lanes 1 and 2 are the corners x and x + 1.
    return {0.5f * (wx0 * (lx[2] - lx[0]) + wx1 * (lx[3] - lx[1])),
            0.5f * (wx0 * ly[1] + wx1 * ly[2]), 0.5f * (wx0 * lz[1] + wx1 * lz[2])};
  }
#endif

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

void surface_nets(Task& t, Mesh& out) {
  // Cells whose vertices are needed: the owned ones and those just below the low faces.
  int64_t clo[3], chi[3];
  for (int a = 0; a < 3; ++a) {
    clo[a] = std::max<int64_t>(t.own_lo[a] - 1, 0);
    chi[a] = t.own_hi[a];
  }
  // Scratch space reused by the chunks a thread meshes.
  thread_local std::vector<uint64_t> bit_storage;
  thread_local std::vector<uint32_t> slabs;
  const SolidBits bits(t.sdf, clo, chi, bit_storage);
  if (bits.uniform()) return;
  const int64_t W = chi[0] - clo[0], H = chi[1] - clo[1], words = bits.words();
  // One vertex per cell with a sign change: count them first (none: no mesh).
  thread_local std::vector<uint64_t> mixed;
  mixed.resize(size_t(words * H * (chi[2] - clo[2])));
  uint64_t vertices = 0;
  {
    uint64_t* m = mixed.data();
    for (int64_t z = clo[2]; z < chi[2]; ++z) {
      const uint64_t* r = bits.row(clo[1], z);
      for (int64_t y = clo[1]; y < chi[1]; ++y, r += words)
        for (int64_t k = 0; k < words; ++k, ++m)
          vertices += bit_count(*m = bits.mixed_at(r, k, word_limit(k, W)));
    }
  }
  if (vertices == 0) return;

  Emitter em{t, out, prepare_paint(t), !t.paint.empty(), clo, {}};
  for (int a = 0; a < 3; ++a) {
    em.rule[a].reserve(size_t(chi[a] - clo[a]));
    em.central[a].reserve(size_t(chi[a] - clo[a]));
  }
  const int64_t stride[3] = {1, t.sdf.sy, t.sdf.sz};
  for (int a = 0; a < 3; ++a)
    for (int64_t i = clo[a]; i < chi[a]; ++i) {
      const std::array<Diff, 2> r = sn_cell_rule(i, t.n(a), t.chunk_cells);
      std::array<Emitter::Offsets, 2> o;
      for (int side = 0; side < 2; ++side) {
        const Diff& d = r[size_t(side)];
        // The differences stay inside the view (the rule's promise, checked in debug).
        assert(i + side + d.lo >= t.sdf.lo[a] && i + side + d.hi <= t.sdf.hi[a]);
        o[size_t(side)] = {d.lo * stride[a], d.hi * stride[a], d.scale};
      }
      em.rule[a].push_back(o);
      em.central[a].push_back(r[0].lo == -1 && r[0].hi == 1 && r[1].lo == -1 && r[1].hi == 1);
    }
  out.positions.reserve(vertices);
  if (t.normals) out.normals.reserve(vertices);
  if (em.paint) {
    out.colors.reserve(vertices);
    out.uv0.reserve(vertices);
  }
  out.indices.reserve(vertices * 6);
  // Only cells with a vertex are ever looked up, so the slabs need no clearing.
  if (slabs.size() < size_t(2 * W * H)) slabs.resize(size_t(2 * W * H), kNone);

  // Owned cells of a row, as bits (cell x is bit x - clo[0]).
  const int64_t own_first = t.own_lo[0] - clo[0], own_cells = t.own_hi[0] - t.own_lo[0];
  auto owned = [&](int64_t k) {
    return word_limit(k, own_first + own_cells) & ~word_limit(k, own_first);
  };

  for (int64_t z = clo[2]; z < chi[2]; ++z) {
    uint32_t* cur = slabs.data() + (z & 1) * W * H;
    const uint32_t* prev = slabs.data() + ((z - 1) & 1) * W * H;
    for (int64_t y = clo[1]; y < chi[1]; ++y) {
      uint32_t* row = cur + W * (y - clo[1]);
      const uint64_t* mw = mixed.data() + words * ((y - clo[1]) + H * (z - clo[2]));
      for (int64_t k = 0; k < words; ++k)
        for (uint64_t m = mw[k]; m; m &= m - 1) {
          const int64_t i = 64 * k + std::countr_zero(m);
          row[i] = em.vertex(clo[0] + i, y, z);
        }
    }
    if (z < t.own_lo[2]) continue;

    // Quads of the crossing edges leaving each owned cell's minimum corner. Quads need the
    // four cells round the edge, so edges on the grid's low faces make none.
    auto id = [&](const uint32_t* slab, int64_t x, int64_t y) {
      return slab[(x - clo[0]) + W * (y - clo[1])];
    };
    for (int64_t y = t.own_lo[1]; y < t.own_hi[1]; ++y) {
      const uint64_t* r = bits.row(y, z);
      const uint64_t* ry = bits.row(y + 1, z);
      const uint64_t* rz = bits.row(y, z + 1);
      for (int64_t k = 0; k < words; ++k) {
        const uint64_t own = owned(k);
        const uint64_t xe = y >= 1 && z >= 1 ? (r[k] ^ bits.next(r, k)) & own : 0;
        uint64_t ye = z >= 1 ? (r[k] ^ ry[k]) & own : 0;
        uint64_t ze = y >= 1 ? (r[k] ^ rz[k]) & own : 0;
        if (clo[0] == 0 && k == 0) {  // x = 0
          ye &= ~uint64_t(1);
          ze &= ~uint64_t(1);
        }
        for (uint64_t m = xe | ye | ze; m; m &= m - 1) {
          const int b = std::countr_zero(m);
          const int64_t x = clo[0] + 64 * k + b;
          const bool solid = r[k] >> b & 1;
          if (xe >> b & 1)
            em.edge_quad(solid, id(prev, x, y - 1), id(prev, x, y), id(cur, x, y),
                         id(cur, x, y - 1));
          if (ye >> b & 1)
            em.edge_quad(solid, id(prev, x - 1, y), id(cur, x - 1, y), id(cur, x, y),
                         id(prev, x, y));
          if (ze >> b & 1)
            em.edge_quad(solid, id(cur, x - 1, y - 1), id(cur, x, y - 1), id(cur, x, y),
                         id(cur, x - 1, y));
        }
      }
    }
  }
}

}  // namespace voxkit::mesh_detail
