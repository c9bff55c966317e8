// Naive Surface Nets over a box of owned cells: one vertex per cell with a sign change, at
// the mean of its edge crossings; one quad per crossing edge, split on its shorter diagonal.
// The cells with a vertex are listed first (which also counts each mesh's vertices); then a
// z slab at a time their offsets (sn_offsets) and gradients (SnNormals, in one pass with the
// offsets where it can) are computed as batches and written to the meshes, and the slab's
// quads listed; at the end the quads are written into index arrays of their exact size. A
// task may own a row of chunks along x and make one mesh per chunk (the parts).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/core/error.hpp"
#include "lib/mesh/mesh_internal.hpp"
#include "lib/mesh/sn_gradients.hpp"
#include "lib/mesh/sn_normals.hpp"
#include "lib/mesh/sn_offsets.hpp"
#include "lib/mesh/sn_quads.hpp"

namespace voxkit::mesh_detail {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// Lists the cells of `rows` rows of bit words (y from y0), x fastest: x, y and the offset
// x - x0 + (y - y0) * sy of each. The arrays need room for eight entries more than the cells:
// eight are written per word whatever its count, so that a word of up to eight cells (the
// usual case) takes no loop whose length the branch predictor would have to guess.
template <class Popcount>
inline size_t list_cells_with(Popcount pop, const uint64_t* mw, int64_t stride, int64_t rows,
                              int64_t words, int32_t x0, int32_t y0, int32_t sy, int32_t* xs,
                              int32_t* ys, int32_t* ats) {
  size_t n = 0;
  int32_t row_at = 0;
  for (int64_t r = 0; r < rows; ++r, mw += stride, row_at += sy) {
    const int32_t y = y0 + int32_t(r);
    for (int64_t k = 0; k < words; ++k) {
      uint64_t b = mw[k];
      if (b == 0) continue;
      const size_t cnt = size_t(pop(b));
      const int32_t base = int32_t(64 * k);
      for (size_t u = 0; u < 8; ++u, b &= b - 1) {
        const int32_t i = base + std::countr_zero(b);
        xs[n + u] = x0 + i;
        ys[n + u] = y;
        ats[n + u] = i + row_at;
      }
      for (size_t u = 8; u < cnt; ++u, b &= b - 1) {
        const int32_t i = base + std::countr_zero(b);
        xs[n + u] = x0 + i;
        ys[n + u] = y;
        ats[n + u] = i + row_at;
      }
      n += cnt;
    }
  }
  return n;
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("popcnt,bmi")]] size_t list_cells_popcnt(const uint64_t* mw, int64_t stride,
                                                        int64_t rows, int64_t words, int32_t x0,
                                                        int32_t y0, int32_t sy, int32_t* xs,
                                                        int32_t* ys, int32_t* ats) {
  return list_cells_with([](uint64_t v) { return uint64_t(__builtin_popcountll(v)); }, mw,
                         stride, rows, words, x0, y0, sy, xs, ys, ats);
}
#endif

size_t list_cells(const uint64_t* mw, int64_t stride, int64_t rows, int64_t words, int32_t x0,
                  int32_t y0, int32_t sy, int32_t* xs, int32_t* ys, int32_t* ats) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool fast = __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi");
  if (fast) return list_cells_popcnt(mw, stride, rows, words, x0, y0, sy, xs, ys, ats);
#endif
  return list_cells_with(bit_count, mw, stride, rows, words, x0, y0, sy, xs, ys, ats);
}

// The words of a row to visit: those whose bit is set in `mask` when the row has at most 64
// words, else every word.
class WordSet {
 public:
  WordSet(uint64_t mask, int64_t words) : mask_(words <= 64 ? mask : 0), k_(0), n_(words) {
    if (words <= 64) k_ = mask_ ? std::countr_zero(mask_) : n_;
  }
  explicit operator bool() const { return k_ < n_; }
  int64_t operator*() const { return k_; }
  void operator++() {
    if (n_ > 64) {
      ++k_;
      return;
    }
    mask_ &= mask_ - 1;
    k_ = mask_ ? std::countr_zero(mask_) : n_;
  }

 private:
  uint64_t mask_;
  int64_t k_, n_;
};

// One part of a task while it is meshed (see surface_nets_parts): it owns the cells x from
// o to e and holds the vertices of the cells from b = max(o - 1, 0).
struct Part {
  int64_t b = 0, o = 0, e = 0;  // whole-grid cells
  uint64_t vertices = 0, next = 0;
  uint64_t quads = 0;         // listed so far, at ...
  QuadRef* listed = nullptr;  // ... a run with room for three per vertex
  Vec3* positions = nullptr;
  Vec3* normals = nullptr;
};

// Per-thread scratch space, reused by the chunks a thread meshes. Vertices go straight to
// the output (their number is known from the list of cells); quads are listed here and
// written to the output once their number is known, so the hot loops need no per-element
// capacity checks.
struct Scratch {
  std::vector<uint64_t> bits, mixed;
  // Two slabs of vertex indices, R = W + nparts a row: part j's cells x at x - clo[0] + j,
  // so the cell just below part j's low x face (owned by part j - 1) has its index in part
  // j right before part j's first cell, and its index in part j - 1 right before that.
  std::vector<uint32_t> slabs;
  std::vector<int32_t> part_of;                // per cell of the box row: the first part holding it
  std::vector<uint8_t> shared;                 // ... and whether the next part holds it too
  std::vector<uint32_t> column;                // per cell of the box row: its cells with a vertex
  std::vector<size_t> slab_start;              // where each slab's cells begin in cell_x ...
  std::vector<uint64_t> edges, own;
  std::vector<QuadRef, NoInitAllocator<QuadRef>> quads;  // the task's, a run per part
  std::vector<int32_t> cell_x, cell_y, cell_at;  // a slab's cells with a vertex
  std::vector<float> f, g;                       // ... their offsets and gradients
  struct PartPaint {
    Task task;  // with views of the part's samples
    PaintClasses classes;
  };
  std::vector<PartPaint> paint;  // per part, when there is paint
  std::vector<Part> parts;
  SnNormals normals;
};

// How far ahead of a part's next vertex its output lines are fetched: a task appends to the
// positions and normals of each of its parts, 32 interleaved streams for a row of 16 chunks,
// more than the hardware prefetchers follow; asking for the lines 192 bytes ahead makes the
// chunked pass about 5% faster.
constexpr uint64_t kWriteAhead = 16;

// Fetches the cache line of element `ahead` of base for writing. The address may lie past
// the array's end (a prefetch never faults), so it is formed as an integer.
inline void prefetch_for_write(const Vec3* base, uint64_t ahead) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(base) +
                                                   ahead * sizeof(Vec3)),
                     1);
}

// Grows v to hold at least n elements (never shrinks, so a warm thread allocates nothing).
template <class V>
inline void ensure(V& v, size_t n) {
  if (v.size() < n) v.resize(std::max(n, v.size() + v.size() / 2));
}

// The paint weights of the vertex at offsets f in cell (x, y, z), kept out of line so the
// unpainted path stays small.
[[gnu::noinline]] void emit_paint(const Task& t, Mesh& out, const PaintClasses& classes,
                                  uint32_t index, int64_t x, int64_t y, int64_t z,
                                  const float (&f)[3]) {
  float w[8];
  for (int c = 0; c < 8; ++c)
    w[c] = ((c & 1) ? f[0] : 1.0f - f[0]) * ((c & 2) ? f[1] : 1.0f - f[1]) *
           ((c & 4) ? f[2] : 1.0f - f[2]);
  const uint8_t* q = t.paint.ptr(x, y, z);
  float acc[6] = {0, 0, 0, 0, 0, 0};
  for (int c = 0; c < 8; ++c)
    acc[classes.of[q[(c & 1) + ((c >> 1) & 1) * t.paint.sy + ((c >> 2) & 1) * t.paint.sz]]] +=
        w[c];
  out.colors[index] = {acc[0], acc[1], acc[2], acc[3]};
  out.uv0[index] = {acc[4], t.slots.code()};
}

}  // namespace

void surface_nets(Task& t, Mesh& out) { surface_nets_parts(t, 0, &out); }

void surface_nets_parts(Task& t, int64_t part_cells, Mesh* outs) {
  // Cells whose vertices are needed: the owned ones and those just below the low faces.
  int64_t clo[3], chi[3];
  for (int a = 0; a < 3; ++a) {
    clo[a] = std::max<int64_t>(t.own_lo[a] - 1, 0);
    chi[a] = t.own_hi[a];
  }
  const int64_t own_x = t.own_hi[0] - t.own_lo[0];
  if (own_x <= 0) return;
  if (part_cells <= 0) part_cells = own_x;
  const int64_t nparts = (own_x + part_cells - 1) / part_cells;
  for (int64_t j = 0; j < nparts; ++j) outs[j] = Mesh{};
  thread_local Scratch sc;
  const SolidBits bits(t.sdf, clo, chi, sc.bits);
  if (bits.uniform()) return;
  const int64_t W = chi[0] - clo[0], H = chi[1] - clo[1], D = chi[2] - clo[2];
  const int64_t words = bits.words();
  // The cells with a sign change (one vertex each), a word per row, with a zero row round
  // each slab and a zero slab at each end so that neighbours need no bounds checks.
  const int64_t mrow = words, mslab = words * (H + 2);
  sc.mixed.assign(size_t(mslab * (D + 2)), 0);
  auto mixed = [&](int64_t y, int64_t z) {  // cell row (y, z), y and z from clo - 1 to chi
    return sc.mixed.data() + mslab * (z - clo[2] + 1) + mrow * (y - clo[1] + 1);
  };
  // A cell has a sign change when its eight corners are neither all solid nor all air:
  // OR and AND the four sample rows round the cell row, then each with its shift by one.
  uint64_t any = 0;
  const int64_t zrow = words * bits.rows_y();
  for (int64_t z = clo[2]; z < chi[2]; ++z) {
    const uint64_t* r = bits.row(clo[1], z);
    uint64_t* m = mixed(clo[1], z);
    for (int64_t y = clo[1]; y < chi[1]; ++y, r += words) {
      uint64_t or_next = 0, and_next = 0;  // word k + 1 of the previous step
      for (int64_t k = words - 1; k >= 0; --k) {
        const uint64_t o = r[k] | r[k + words] | r[k + zrow] | r[k + zrow + words];
        const uint64_t a = r[k] & r[k + words] & r[k + zrow] & r[k + zrow + words];
        const uint64_t cells = (o | o >> 1 | or_next << 63) & ~(a & (a >> 1 | and_next << 63));
        const uint64_t mk = m[k] = cells & word_limit(k, W);
        any |= mk;
        or_next = o;
        and_next = a;
      }
      m += words;
    }
  }
  if (any == 0) return;

  // The parts: part j owns the cells x from o to e and holds the vertices of the cells from
  // b = max(o - 1, 0): a part is meshed exactly as a task owning just its cells would be.
  std::vector<Part>& parts = sc.parts;
  parts.assign(size_t(nparts), Part{});
  sc.part_of.resize(size_t(W));
  sc.shared.assign(size_t(W), 0);
  for (int64_t j = 0; j < nparts; ++j) {
    Part& pt = parts[size_t(j)];
    pt.o = t.own_lo[0] + j * part_cells;
    pt.e = std::min(pt.o + part_cells, t.own_hi[0]);
    pt.b = std::max<int64_t>(pt.o - 1, 0);
    for (int64_t x = pt.b; x < pt.e; ++x)
      if (j == 0 || x >= pt.o) sc.part_of[size_t(x - clo[0])] = int32_t(j);
    if (j > 0 && pt.b < pt.o) {
      sc.shared[size_t(pt.b - clo[0])] = 1;
    }
  }
  sc.edges.resize(size_t(3 * words));
  // The owned cells of a row.
  sc.own.resize(size_t(words));
  for (int64_t k = 0; k < words; ++k)
    sc.own[size_t(k)] = word_limit(k, t.own_hi[0] - clo[0]) & ~word_limit(k, t.own_lo[0] - clo[0]);
  const int64_t R = W + nparts, slab_cells = R * H;
  // Every slab's cells with a vertex, in vertex order (z, then y, then x). The lists grow
  // to hold another whole slab before each is listed (a warm thread's already do).
  sc.slab_start.resize(size_t(D + 1));
  uint64_t vertices = 0;
  {
    size_t n = 0;
    for (int64_t z = clo[2]; z < chi[2]; ++z) {
      sc.slab_start[size_t(z - clo[2])] = n;
      ensure(sc.cell_x, n + size_t(W * H) + 8);
      ensure(sc.cell_y, n + size_t(W * H) + 8);
      ensure(sc.cell_at, n + size_t(W * H) + 8);
      n += list_cells(mixed(clo[1], z), mrow, H, words, int32_t(clo[0]), int32_t(clo[1]),
                      int32_t(t.sdf.sy), sc.cell_x.data() + n, sc.cell_y.data() + n,
                      sc.cell_at.data() + n);
    }
    sc.slab_start[size_t(D)] = n;
    vertices = n;
  }
  if (nparts == 1) {
    parts[0].vertices = vertices;
  } else {
    // A part's vertices: the cells of its box's columns.
    sc.column.assign(size_t(W), 0);
    uint32_t* const column = sc.column.data();
    const int32_t* const xs = sc.cell_x.data();
    for (uint64_t c = 0; c < vertices; ++c) ++column[xs[c] - clo[0]];
    for (Part& pt : parts)
      for (int64_t x = pt.b; x < pt.e; ++x) pt.vertices += column[x - clo[0]];
  }
  // Only cells with a vertex are ever looked up, so the slabs need no clearing.
  if (sc.slabs.size() < size_t(2 * slab_cells)) sc.slabs.resize(size_t(2 * slab_cells), kNone);
  const bool paint = !t.paint.empty();
  if (paint && sc.paint.size() < size_t(nparts)) sc.paint.resize(size_t(nparts));
  for (int64_t j = 0; j < nparts; ++j) {
    Part& pt = parts[size_t(j)];
    // Indices are 32-bit; only a whole-grid mesh of a huge, noisy grid could run out.
    if (pt.vertices >= 0xffffffffu)
      throw_usage("mesh has more than 2^32 - 1 vertices: mesh it in chunks");
    if (pt.vertices == 0) continue;
    Mesh& out = outs[j];
    // One spare element: positions and normals are written and read as 16 bytes.
    out.positions.resize(size_t(pt.vertices) + 1);
    pt.positions = out.positions.data();
    if (t.normals) {
      out.normals.resize(size_t(pt.vertices) + 1);
      pt.normals = out.normals.data();
    }
    if (paint) {
      Scratch::PartPaint& pp = sc.paint[size_t(j)];
      pp.task = t;
      if (nparts > 1) {
        for (View* v : {&pp.task.sdf, &pp.task.paint}) {
          const int64_t lo[3] = {pt.b, v->lo[1], v->lo[2]}, hi[3] = {pt.e, v->hi[1], v->hi[2]};
          *v = v->narrowed(lo, hi);
        }
      }
      pp.classes = prepare_paint(pp.task);
      out.colors.resize(size_t(pt.vertices));
      out.uv0.resize(size_t(pt.vertices));
    }
  }
  if (t.normals) sc.normals.setup(t, clo, chi);
  // Each part's quads are listed in a run with room for three per vertex: a quad belongs to
  // an owned cell with a crossing edge, which has a vertex, and at most three edges leave a
  // cell's minimum corner. So each part's quads are written out in one sequential pass. A
  // task of one part (a whole grid, say) grows its list a slab at a time instead.
  if (nparts > 1) {
    uint64_t room = 0;
    for (const Part& pt : parts) room += 3 * pt.vertices;
    ensure(sc.quads, size_t(room));
    QuadRef* q = sc.quads.data();
    for (Part& pt : parts) {
      pt.listed = q;
      q += 3 * pt.vertices;
    }
  }
  for (int64_t z = clo[2]; z < chi[2]; ++z) {
    // Slab z of the vertex indices, and slab z - 1.
    uint32_t* const cur = sc.slabs.data() + (z & 1) * slab_cells;
    const uint32_t* const prev = sc.slabs.data() + ((z - 1) & 1) * slab_cells;
    // The slab's cells with a vertex ...
    const uint8_t* slab_base = t.sdf.ptr(clo[0], clo[1], z);
    const size_t first_cell = sc.slab_start[size_t(z - clo[2])];
    const size_t n = sc.slab_start[size_t(z - clo[2]) + 1] - first_cell;
    const int32_t* const xs = sc.cell_x.data() + first_cell;
    const int32_t* const ys = sc.cell_y.data() + first_cell;
    // ... their vertex offsets and gradients, many cells at a time ...
    ensure(sc.f, 4 * n + 4);
    ensure(sc.g, 4 * n + 4);
    float* const f = sc.f.data();
    float* const g = sc.g.data();
    const int32_t* const at = sc.cell_at.data() + first_cell;
    if (t.normals)
      sc.normals.slab_with_offsets(z, n, xs, ys, slab_base, at, f, g, SnNormals::Output::Normals);
    else
      sn_offsets(slab_base, at, n, t.sdf.sy, t.sdf.sz, f);
    // ... and into the parts' meshes (a loop per case, so that the common one keeps its
    // pointers in registers).
    auto distribute = [&]<bool Normals, bool Paint>() {
      const int32_t* const part_of = sc.part_of.data();
      const uint8_t* const shared = sc.shared.data();
      Part* const pts = parts.data();
      const int64_t x0 = clo[0], y0 = clo[1];
      for (size_t c = 0; c < n; ++c) {
        const int64_t x = xs[c], y = ys[c], i = x - x0, ry = y - y0;
        const int64_t j = part_of[i];
        Part& pt = pts[j];
        const uint64_t v = pt.next;
        const float* fc = f + 4 * c;
#if defined(__SSE2__)
        // 16-byte stores: they run into the next element, written later (or the spare one).
        const __m128 at = _mm_cvtepi32_ps(_mm_setr_epi32(int(x), int(y), int(z), 0));
        const __m128 pos = _mm_add_ps(at, _mm_loadu_ps(fc));
        const __m128 nrm = _mm_loadu_ps(g + 4 * c);
        _mm_storeu_ps(pt.positions[v].data(), pos);
        if constexpr (Normals) _mm_storeu_ps(pt.normals[v].data(), nrm);
#else
        pt.positions[v] = {float(x) + fc[0], float(y) + fc[1], float(z) + fc[2]};
        if constexpr (Normals) pt.normals[v] = {g[4 * c], g[4 * c + 1], g[4 * c + 2]};
#endif
        prefetch_for_write(pt.positions, v + kWriteAhead);
        if constexpr (Normals) prefetch_for_write(pt.normals, v + kWriteAhead);
        if constexpr (Paint) {
          const float f3[3] = {fc[0], fc[1], fc[2]};
          emit_paint(sc.paint[size_t(j)].task, outs[j], sc.paint[size_t(j)].classes, uint32_t(v), x, y, z, f3);
        }
        cur[R * ry + i + j] = uint32_t(v);
        pt.next = v + 1;
        if (shared[i]) {
          // The cell below the next part's low face: the same vertex, in that part too.
          Part& q = pts[j + 1];
          const uint64_t u = q.next;
#if defined(__SSE2__)
          _mm_storeu_ps(q.positions[u].data(), pos);
          if constexpr (Normals) _mm_storeu_ps(q.normals[u].data(), nrm);
#else
          std::memcpy(q.positions[u].data(), pt.positions[v].data(), sizeof(Vec3));
          if constexpr (Normals) std::memcpy(q.normals[u].data(), pt.normals[v].data(), sizeof(Vec3));
#endif
          if constexpr (Paint) {
            const float f3[3] = {fc[0], fc[1], fc[2]};
            emit_paint(sc.paint[size_t(j) + 1].task, outs[j + 1], sc.paint[size_t(j) + 1].classes, uint32_t(u), x, y, z, f3);
          }
          cur[R * ry + i + j + 1] = uint32_t(u);
          q.next = u + 1;
        }
      }
    };
    if (paint)
      t.normals ? distribute.template operator()<true, true>() : distribute.template operator()<false, true>();
    else
      t.normals ? distribute.template operator()<true, false>() : distribute.template operator()<false, false>();
    if (z < t.own_lo[2]) continue;

    if (nparts == 1) {
      ensure(sc.quads, size_t(parts[0].quads + 3 * W * H));  // at most three quads a cell
      parts[0].listed = sc.quads.data();
    }
    // Quads of the crossing edges leaving each owned cell's minimum corner. Quads need the
    // four cells round the edge, so edges on the grid's low faces make none. A part's quads
    // of a row come in the order a task of just the part gives them: x edges, y, then z.
    const uint64_t* own_mixed = mixed(t.own_lo[1], z);
    for (int64_t y = t.own_lo[1]; y < t.own_hi[1]; ++y, own_mixed += mrow) {
      // An edge leaving a cell's minimum corner is one of the cell's edges: a row without
      // a vertex has no crossing edges.
      uint64_t row_any = 0;
      for (int64_t k = 0; k < words; ++k) row_any |= own_mixed[k];
      if (row_any == 0) continue;
      const uint64_t* r = bits.row(y, z);
      const uint64_t* ry = bits.row(y + 1, z);
      const uint64_t* rz = bits.row(y, z + 1);
      // The crossing edges of the whole row, by axis (x = 0 has no y or z quads).
      uint64_t* xe = sc.edges.data();
      uint64_t* ye = xe + words;
      uint64_t* ze = ye + words;
      // Only owned cells' edges, and which words have any (bit k of nx, ny, nz).
      uint64_t nx = 0, ny = 0, nz = 0;
      for (int64_t k = 0; k < words; ++k) {
        const uint64_t own = sc.own[size_t(k)];
        xe[k] = y >= 1 && z >= 1 ? (r[k] ^ bits.next(r, k)) & own : 0;
        const uint64_t x0 = clo[0] == 0 && k == 0 ? ~uint64_t(1) & own : own;
        ye[k] = z >= 1 ? (r[k] ^ ry[k]) & x0 : 0;
        ze[k] = y >= 1 ? (r[k] ^ rz[k]) & x0 : 0;
        nx |= uint64_t(xe[k] != 0) << (k & 63);
        ny |= uint64_t(ye[k] != 0) << (k & 63);
        nz |= uint64_t(ze[k] != 0) << (k & 63);
      }
      // Each edge's quad goes to the part j owning its cell i; the part's indices of cells
      // i and i - 1 are at i + j and i + j - 1 of a row of the index slabs.
      const int64_t ry0 = y - clo[1];
      const uint32_t* c = cur + R * ry0;      // cells (x, y, z)
      const uint32_t* cy = c - R;             // (x, y - 1, z)
      const uint32_t* p = prev + R * ry0;     // (x, y, z - 1)
      const uint32_t* py = p - R;             // (x, y - 1, z - 1)
      const int32_t* part_of = sc.part_of.data();
      Part* const pts = parts.data();
      // One axis' quads: cells(at) gives the quad's four vertex indices for the edge of the
      // cell whose indices are at `at` in the row.
      auto axis = [&](uint64_t with_edges, const uint64_t* edges, auto cells) {
        for (WordSet ws(with_edges, words); ws; ++ws) {
          const int64_t k = *ws;
          const uint64_t solid = r[k];
          for (uint64_t e = edges[k]; e; e &= e - 1) {
            const int b = std::countr_zero(e);
            const int64_t i = 64 * k + b, j = part_of[i], at = i + j;
            Part& pt = pts[j];
            const std::array<uint32_t, 4> q = cells(at);
            quad_ref(pt.listed[pt.quads++], solid >> b & 1, q[0], q[1], q[2], q[3]);
          }
        }
      };
      using Quad = std::array<uint32_t, 4>;
      axis(nx, xe, [&](int64_t at) { return Quad{py[at], p[at], c[at], cy[at]}; });
      axis(ny, ye, [&](int64_t at) { return Quad{p[at - 1], c[at - 1], c[at], p[at]}; });
      axis(nz, ze, [&](int64_t at) { return Quad{cy[at - 1], cy[at], c[at], c[at - 1]}; });
    }
  }
  // Each part's quads, listed for the whole task, into an index array of their exact size,
  // a part at a time: its triangles are written in order, one stream the hardware follows.
  for (int64_t j = 0; j < nparts; ++j) {
    Part& pt = parts[size_t(j)];
    assert(pt.next == pt.vertices);
    Mesh& out = outs[j];
    if (pt.quads == 0) {
      out = Mesh{};
      continue;
    }
    out.indices.resize(size_t(6 * pt.quads));  // left uninitialised by MeshArray's allocator
    emit_quads(pt.listed, size_t(pt.quads), pt.positions, out.indices.data());
    out.positions.pop_back();  // the spare element the 16-byte loads and stores needed
    if (t.normals) out.normals.pop_back();
  }
  // A whole-grid mesh should not leave its list of quads behind in the thread's scratch.
  if (sc.quads.size() > (size_t(1) << 20)) sc.quads = {};
}

}  // namespace voxkit::mesh_detail
