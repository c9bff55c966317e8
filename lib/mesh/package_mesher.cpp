// The dig-zone package's chunk mesher and hole cut, expression for expression.
#include "lib/mesh/package_mesher.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "lib/mesh/package_vertices.hpp"

namespace voxkit::package {
namespace {

using V3 = std::array<float, 3>;

// Squared length of a - b as Vector3.sqrMagnitude computes it.
float sq_dist(const V3& a, const V3& b, FloatMode m) {
  const float x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];  // the Vector3 subtraction: stored
  if (m == FloatMode::Editor) return float(double(x) * x + double(y) * y + double(z) * z);
  return x * x + y * y + z * z;
}

float sq_len(const V3& v, FloatMode m) { return sq_dist(v, {0, 0, 0}, m); }

// a + (b - a) * t per component (Unity's Lerp after Clamp01(t)).
template <size_t N>
std::array<float, N> lerp(const std::array<float, N>& a, const std::array<float, N>& b, float t, FloatMode m) {
  t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
  std::array<float, N> r;
  for (size_t i = 0; i < N; ++i)
    r[i] = m == FloatMode::Editor ? float(double(a[i]) + (double(b[i]) - double(a[i])) * double(t)) : a[i] + (b[i] - a[i]) * t;
  return r;
}

// Vector3.normalized: v / magnitude when the magnitude is above 1e-5, else zero.
V3 normalized(const V3& v, FloatMode m) {
  float mag;
  if (m == FloatMode::Editor) {
    mag = float(std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]));
  } else {
    const float s = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    mag = float(std::sqrt(double(s)));
  }
  if (!(mag > 1e-5f)) return {0, 0, 0};
  return {v[0] / mag, v[1] / mag, v[2] / mag};
}

// Bit i set when byte i of p[0..n) is 128 or more (air); n <= 64. SSE2 (baseline x86-64)
// takes 16 bytes at a time; the tail is read byte by byte, so nothing past p + n is read.
uint64_t air_bits(const uint8_t* p, int n) {
#if defined(__SSE2__)
  auto bits16 = [](const uint8_t* q) {
    return uint64_t(uint32_t(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)))));
  };
  if (n >= 16 && n <= 32) return bits16(p) | bits16(p + n - 16) << (n - 16);  // overlapping halves
#endif
  uint64_t bits = 0;
  int i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) bits |= bits16(p + i) << i;
#endif
  for (; i < n; ++i) bits |= uint64_t(p[i] >> 7) << i;
  return bits;
}

// The two triangles of the quad c00, c10, c11, c01 (split on its shorter diagonal, the main
// one on a tie; wound by which side is solid), written at w; returns the end. Selects, not
// branches: the split is as good as random on terrain. The four cases:
//   main diagonal, front: c00 c10 c11  c00 c11 c01    other, front: c00 c10 c01  c10 c11 c01
//   main diagonal, back:  c00 c11 c10  c00 c01 c11    other, back:  c00 c01 c10  c10 c01 c11
[[gnu::always_inline]] inline uint32_t* quad(uint32_t* w, const V3* P, int c00, int c10, int c11, int c01,
                                             bool front_positive, FloatMode mode) {
  const bool main_diagonal = sq_dist(P[c00], P[c11], mode) <= sq_dist(P[c10], P[c01], mode);
  // Masks rather than ?: (which the compiler may turn back into branches).
  const uint32_t md = 0u - uint32_t(main_diagonal), fp = 0u - uint32_t(front_positive);
  auto pick = [](uint32_t mask, int yes, int no) { return uint32_t(no) ^ ((uint32_t(yes) ^ uint32_t(no)) & mask); };
  const uint32_t x = pick(md, c11, c01);
  w[0] = uint32_t(c00);
  w[1] = pick(fp, c10, int(x));
  w[2] = pick(fp, int(x), c10);
  w[3] = pick(md, c00, c10);
  w[4] = pick(fp, c11, c01);
  w[5] = pick(fp, c01, c11);
  return w + 6;
}

int terrain_layer_of(int value) {
  if (value >= 1 && value <= 4) return value - 1;
  if (value >= 6 && value <= 17) return value - 2;
  return -1;
}

}  // namespace

ChunkMesh build_chunk(const ByteGrid& grid, std::array<uint32_t, 3> chunk, const Options& o) {
  if (o.chunk_cells < 1 || o.chunk_cells > 1022)
    throw std::invalid_argument("package mesher: chunks of " + std::to_string(o.chunk_cells) +
                                " cells on an edge; it meshes chunks of 1 to 1022");
  const int n = int(o.chunk_cells), l = n + 1, ll = l * l;
  const int nx = int(grid.cells.nx), ny = int(grid.cells.ny), nz = int(grid.cells.nz);
  const int ox = int(chunk[0]) * n, oy = int(chunk[1]) * n, oz = int(chunk[2]) * n;
  const int64_t sx = nx + 1, sxy = sx * (ny + 1);
  const uint8_t* g = grid.data.data();
  const float voxel = o.voxel_size;
  const bool editor = o.mode == FloatMode::Editor;

  // Scratch reused across the chunks a thread meshes. cell_vert (the vertex of each local
  // cell, or -1) is all -1 between chunks: each chunk resets the entries it set.
  thread_local std::vector<int32_t> cell_vert;
  thread_local bool cell_vert_dirty = false;
  thread_local std::vector<int32_t> v_mask, v_cell, v_off, v_pc;
  if (cell_vert_dirty || cell_vert.size() != size_t(ll) * size_t(l)) cell_vert.assign(size_t(ll) * l, -1);
  ChunkMesh out;

  // Vertices: rows of cells, z slowest, then y, then x (the -1 halo included). A cell has a
  // vertex when its eight corners are not all on one side; the rows' sign bits (bit i: sample
  // i of the row is air) find those cells without visiting the others, in the same order.
  const int kmin = ox == 0 ? 1 : 0, kmax = std::min(l - 1, nx - ox);  // k: gx = ox + k - 1 in 0..nx-1
  const int windows = kmax >= kmin ? (kmax - kmin) / 63 + 1 : 0;      // of up to 63 cells
  // Sign bits of each sample row the chunk's cells touch (sample rows sy, sz = 0..l: grid
  // rows oy + sy - 1, oz + sz - 1), once per row; then the active cells of each cell row.
  thread_local std::vector<uint64_t> row_bits;
  const int sl = l + 1;
  row_bits.resize(size_t(sl) * sl * size_t(windows));  // every row the cells read is written below
  // A chunk whose samples are all air or all solid has no vertex: seen from the rows alone.
  uint64_t all_air = ~uint64_t(0), any_air = 0;
  for (int sz = 0; sz < sl; ++sz) {
    const int gz = oz + sz - 1;
    if (gz < 0 || gz > nz) continue;
    for (int sy = 0; sy < sl; ++sy) {
      const int gy = oy + sy - 1;
      if (gy < 0 || gy > ny) continue;
      const int64_t row = sx * gy + sxy * gz;
      for (int w = 0; w < windows; ++w) {
        const int k0 = kmin + 63 * w, cells = std::min(63, kmax - k0 + 1);
        const uint64_t bits = air_bits(g + row + (ox + k0 - 1), cells + 1), full = (uint64_t(2) << cells) - 1;
        row_bits[(size_t(sz) * sl + size_t(sy)) * size_t(windows) + size_t(w)] = bits;
        all_air &= bits | ~full;
        any_air |= bits;
      }
    }
  }
  if (all_air == ~uint64_t(0) || any_air == 0) return out;

  // The active cells in order: their minimum corners as offsets from the chunk's first
  // sample (the package's limits keep a chunk's reach far inside 32 bits), their local cells.
  const int64_t first = int64_t(ox + kmin - 1) + sx * std::max(oy - 1, 0) + sxy * std::max(oz - 1, 0);
  if (sxy * (l + 1) > int64_t(INT32_MAX))
    throw std::length_error("package mesher: a grid layer of " + std::to_string(sxy) +
                            " samples is larger than the dig-zone package accepts (4095 cells on an axis)");
  for (auto* v : {&v_mask, &v_cell, &v_off, &v_pc}) v->resize(size_t(ll) * size_t(l));
  size_t vc = 0;
  for (int lz = -1; lz < l - 1; ++lz) {
    const int gz = oz + lz;
    if (gz < 0 || gz >= nz) continue;
    for (int ly = -1; ly < l - 1; ++ly) {
      const int gy = oy + ly;
      if (gy < 0 || gy >= ny) continue;
      const int64_t row = sx * gy + sxy * gz - first;
      const size_t r00 = (size_t(lz + 1) * sl + size_t(ly + 1)) * size_t(windows), r10 = r00 + size_t(windows),
                   r01 = r00 + size_t(sl) * size_t(windows), r11 = r01 + size_t(windows);
      for (int w = 0; w < windows; ++w) {
        const int k0 = kmin + 63 * w, cells = std::min(63, kmax - k0 + 1);
        const uint64_t b0 = row_bits[r00 + size_t(w)], b1 = row_bits[r10 + size_t(w)],
                       b2 = row_bits[r01 + size_t(w)], b3 = row_bits[r11 + size_t(w)];
        const uint64_t any = b0 | b1 | b2 | b3, all = b0 & b1 & b2 & b3;
        uint64_t active = ((any | (any >> 1)) & ~(all & (all >> 1))) & ((uint64_t(1) << cells) - 1);
        while (active) {
          const int k = k0 + std::countr_zero(active);
          active &= active - 1;
          v_off[vc] = int32_t(row + (ox + k - 1));
          v_pc[vc] = package_detail::pack_cell(k - 1, ly, lz);
          ++vc;
        }
      }
    }
  }
  if (vc == 0) return out;
  // Computed into scratch and copied out: a vector resized to hold std::arrays fills them one
  // element at a time, a copy moves them as bytes. Colours and uv0 start as zeros.
  thread_local std::vector<V3> pos, nrm;
  thread_local std::vector<std::array<float, 4>> zeros4;
  thread_local std::vector<std::array<float, 2>> zeros2;
  if (pos.size() < vc) pos.resize(vc), nrm.resize(vc), zeros4.resize(vc), zeros2.resize(vc);
  package_detail::CellBatch batch;
  batch.base = g + first;
  batch.offset = v_off.data();
  batch.cell = v_pc.data();
  batch.sy = sx, batch.sz = sxy;
  batch.voxel = voxel;
  batch.editor = editor;
  package_detail::package_vertices(batch, vc, pos.data()->data(), nrm.data()->data(), v_mask.data());
  out.positions.assign(pos.begin(), pos.begin() + ptrdiff_t(vc));
  out.normals.assign(nrm.begin(), nrm.begin() + ptrdiff_t(vc));
  out.colors.assign(zeros4.begin(), zeros4.begin() + ptrdiff_t(vc));
  out.uv0.assign(zeros2.begin(), zeros2.begin() + ptrdiff_t(vc));
  // Each vertex's local cell index, and bit 8 of its mask when the cell is the chunk's own
  // (not in the -1 halo), so that quads may start there.
  for (size_t v = 0; v < vc; ++v) {
    const int32_t c = v_pc[v];
    const int x1 = c & 1023, y1 = (c >> package_detail::kCellBits) & 1023, z1 = c >> (2 * package_detail::kCellBits);
    v_cell[v] = x1 + l * (y1 + l * z1);
    v_mask[v] |= (x1 > 0 && y1 > 0 && z1 > 0) << 8;
  }

  // Paint: the weights of the chunk's first four terrain layers (in vertex order, then
  // corner order), dug soil in uv0.x, the slot code in uv0.y.
  if (o.paint) {
    const uint8_t* pg = o.paint->data.data();
    int slots[4] = {-1, -1, -1, -1};
    const float inv = 1.0f / voxel;
    for (size_t v = 0; v < vc; ++v) {
      const int li = v_cell[v];
      const int lx = li % l - 1, ly = (li / l) % l - 1, lz = li / ll - 1;
      const int64_t i0 = (ox + lx) + sx * (oy + ly) + sxy * (oz + lz);
      if ((pg[i0] | pg[i0 + 1] | pg[i0 + sx] | pg[i0 + 1 + sx] | pg[i0 + sxy] | pg[i0 + 1 + sxy] | pg[i0 + sx + sxy] |
           pg[i0 + 1 + sx + sxy]) == 0)
        continue;
      const V3& p = out.positions[v];
      auto frac = [&](float c, int lc) {
        const float f = editor ? float(double(c) * inv - lc) : c * inv - float(lc);
        return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
      };
      const float fx = frac(p[0], lx), fy = frac(p[1], ly), fz = frac(p[2], lz);
      float w0 = 0, w1 = 0, w2 = 0, w3 = 0, soil = 0;
      for (int k = 0; k < 8; ++k) {
        const int bx = k & 1, by = (k >> 1) & 1, bz = (k >> 2) & 1;
        const int value = pg[i0 + bx + sx * by + sxy * bz];
        if (value == 0) continue;
        float w;
        if (editor) {
          w = float((bx ? double(fx) : 1.0 - fx) * (by ? double(fy) : 1.0 - fy) * (bz ? double(fz) : 1.0 - fz));
        } else {
          w = (bx ? fx : 1.0f - fx) * (by ? fy : 1.0f - fy) * (bz ? fz : 1.0f - fz);
        }
        if (value == 5) {
          soil += w;
          continue;
        }
        const int layer = terrain_layer_of(value);
        if (layer < 0) continue;
        int slot = -1;
        for (int q = 0; q < 4; ++q) {
          if (slots[q] == layer) {
            slot = q;
            break;
          }
          if (slots[q] < 0) {
            slots[q] = layer;
            slot = q;
            break;
          }
        }
        if (slot == 0) w0 += w;
        else if (slot == 1) w1 += w;
        else if (slot == 2) w2 += w;
        else if (slot == 3) w3 += w;
      }
      out.colors[v] = {w0, w1, w2, w3};
      out.uv0[v] = {soil, 0};
    }
    int packed = 0, scale = 1;
    for (int q = 0; q < 4; ++q) {
      if (slots[q] > 0) packed += slots[q] * scale;
      scale *= 16;
    }
    for (auto& u : out.uv0) u[1] = float(packed + 1);
  }

  // Quads on the three edges leaving each owned cell's minimum corner, into scratch (at most
  // three quads a vertex), then copied out at their final size.
  thread_local std::vector<uint32_t> quads;
  if (quads.size() < vc * 18) quads.resize(vc * 18);
  cell_vert_dirty = true;
  for (size_t v = 0; v < vc; ++v) cell_vert[size_t(v_cell[v])] = int32_t(v);
  const V3* P = out.positions.data();
  // First the crossing edges, listed without branches (which edges cross is as good as
  // random): entry 4v + axis. Then their quads, in the same order.
  thread_local std::vector<uint32_t> edges;
  if (edges.size() < vc * 3 + 3) edges.resize(vc * 3 + 3);
  size_t ne = 0;
  for (size_t v = 0; v < vc; ++v) {
    const unsigned m = unsigned(v_mask[v]), own = (m >> 8) & 1u, s0 = m & 1u;
    edges[ne] = uint32_t(4 * v);
    ne += (s0 ^ (m >> 1)) & own & 1u;
    edges[ne] = uint32_t(4 * v + 1);
    ne += (s0 ^ (m >> 2)) & own & 1u;
    edges[ne] = uint32_t(4 * v + 2);
    ne += (s0 ^ (m >> 4)) & own & 1u;
  }
  // The cells around each axis' edge besides the cell itself: c00, c10 and c01 of its quad.
  const int around[3][3] = {{-l - ll, -ll, -l}, {-ll - 1, -1, -ll}, {-1 - l, -l, -1}};
  uint32_t* w = quads.data();
  for (size_t e = 0; e < ne; ++e) {
    const int v = int(edges[e] >> 2), axis = int(edges[e] & 3u), li = v_cell[size_t(v)];
    const int* at = around[axis];
    const int a = cell_vert[size_t(li + at[0])], b = cell_vert[size_t(li + at[1])], d = cell_vert[size_t(li + at[2])];
    if ((a | b | d) >= 0) w = quad(w, P, a, b, v, d, (v_mask[size_t(v)] & 1) != 0, o.mode);
  }
  for (size_t v = 0; v < vc; ++v) cell_vert[size_t(v_cell[v])] = -1;
  cell_vert_dirty = false;
  out.indices.assign(quads.data(), w);
  return out;
}

void clip_xz(ChunkMesh& mesh, float min_x, float min_z, float max_x, float max_z, bool drop_zero_area, FloatMode mode) {
  if (mesh.indices.empty()) return;
  mesh.uv1.clear();
  const bool editor = mode == FloatMode::Editor;
  auto outside = [&](const V3& p, int plane) {
    switch (plane) {
      case 0: return min_x - p[0];
      case 1: return p[0] - max_x;
      case 2: return min_z - p[2];
      default: return p[2] - max_z;
    }
  };
  bool inside = true;
  for (size_t v = 0; v < mesh.positions.size() && inside; ++v)
    for (int plane = 0; plane < 4 && inside; ++plane) inside = outside(mesh.positions[v], plane) <= 0.0f;
  if (inside) return;

  std::vector<V3> pos = mesh.positions, nrm = mesh.normals;
  std::vector<std::array<float, 4>> col = mesh.colors;
  std::vector<std::array<float, 2>> uv = mesh.uv0;
  std::unordered_map<uint64_t, uint32_t> cut;
  auto cut_vertex = [&](uint32_t a, uint32_t b, int plane) -> uint32_t {
    if (a > b) std::swap(a, b);
    const uint64_t key = uint64_t(a) << 34 | uint64_t(b) << 2 | uint64_t(plane);
    if (auto it = cut.find(key); it != cut.end()) return it->second;
    const float da = outside(pos[a], plane), db = outside(pos[b], plane);
    const float t = editor ? float(double(da) / (double(da) - double(db))) : da / (da - db);
    const uint32_t v = uint32_t(pos.size());
    const V3 pa = pos[a], pb = pos[b], na = nrm[a], nb = nrm[b];
    const auto ca = col[a], cb = col[b];
    const auto ua = uv[a], ub = uv[b];
    pos.push_back(lerp(pa, pb, t, mode));
    nrm.push_back(normalized(lerp(na, nb, t, mode), mode));
    col.push_back(lerp(ca, cb, t, mode));
    uv.push_back(lerp(ua, ub, t, mode));
    cut.emplace(key, v);
    return v;
  };
  std::vector<uint32_t> idx, poly, next;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    poly.assign(mesh.indices.begin() + ptrdiff_t(t), mesh.indices.begin() + ptrdiff_t(t) + 3);
    for (int plane = 0; plane < 4 && poly.size() >= 3; ++plane) {
      next.clear();
      const size_t n = poly.size();
      for (size_t i = 0; i < n; ++i) {
        const uint32_t a = poly[i], b = poly[(i + 1) % n];
        const float da = outside(pos[a], plane), db = outside(pos[b], plane);
        if (da <= 0.0f) next.push_back(a);
        if ((da <= 0.0f) != (db <= 0.0f)) next.push_back(cut_vertex(a, b, plane));
      }
      poly.swap(next);
    }
    for (size_t k = 2; k < poly.size(); ++k) {
      if (drop_zero_area) {
        const V3 a = pos[poly[0]];
        const V3 l{pos[poly[k - 1]][0] - a[0], pos[poly[k - 1]][1] - a[1], pos[poly[k - 1]][2] - a[2]};
        const V3 r{pos[poly[k]][0] - a[0], pos[poly[k]][1] - a[1], pos[poly[k]][2] - a[2]};
        V3 c;
        if (editor) {
          c = {float(double(l[1]) * r[2] - double(l[2]) * r[1]), float(double(l[2]) * r[0] - double(l[0]) * r[2]),
               float(double(l[0]) * r[1] - double(l[1]) * r[0])};
        } else {
          c = {l[1] * r[2] - l[2] * r[1], l[2] * r[0] - l[0] * r[2], l[0] * r[1] - l[1] * r[0]};
        }
        if (sq_len(c, mode) < 1e-12f) continue;
      }
      idx.insert(idx.end(), {poly[0], poly[k - 1], poly[k]});
    }
  }
  // Keep the vertices the triangles use, numbered by first use.
  std::vector<int64_t> remap(pos.size(), -1);
  uint32_t count = 0;
  for (uint32_t v : idx)
    if (remap[v] < 0) remap[v] = count++;
  mesh.positions.assign(count, {});
  mesh.normals.assign(count, {});
  mesh.colors.assign(count, {});
  mesh.uv0.assign(count, {});
  for (size_t v = 0; v < pos.size(); ++v) {
    if (remap[v] < 0) continue;
    const size_t r = size_t(remap[v]);
    mesh.positions[r] = pos[v];
    mesh.normals[r] = nrm[v];
    mesh.colors[r] = col[v];
    mesh.uv0[r] = uv[v];
  }
  mesh.indices.resize(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) mesh.indices[i] = uint32_t(remap[idx[i]]);
}

std::array<float, 4> hole_clip_box(const std::array<float, 4>& h, float m, const std::array<float, 3>& origin,
                                   std::array<uint32_t, 3> c, uint32_t cc, float voxel, FloatMode mode) {
  const float size = float(int(cc)) * voxel;
  V3 o;
  for (int a = 0; a < 3; ++a) {
    const float off = float(int(c[size_t(a)])) * size;
    o[size_t(a)] = origin[size_t(a)] + off;
  }
  auto bound = [&](float edge, float grow, float at) {
    return mode == FloatMode::Editor ? float(double(edge) + double(grow) - double(at)) : (edge + grow) - at;
  };
  return {bound(h[0], -m, o[0]), bound(h[1], -m, o[2]), bound(h[2], m, o[0]), bound(h[3], m, o[2])};
}

}  // namespace voxkit::package
