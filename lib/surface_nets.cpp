// Naive Surface Nets over a box of owned cells: one vertex per cell with a sign change, at
// the mean of its edge crossings; one quad per crossing edge, split on its shorter diagonal.
// A z slab at a time: its cells with a vertex are listed, their offsets (sn_offsets) and
// gradients (SnNormals) computed as batches, written to the meshes, then the slab's quads
// emitted. A task may own a row of chunks along x and make one mesh per chunk (the parts).
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lib/error.hpp"
#include "lib/mesh_internal.hpp"
#include "lib/sn_gradients.hpp"
#include "lib/sn_normals.hpp"
#include "lib/sn_offsets.hpp"

namespace voxkit::mesh_detail {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// The bits `mask` of word `word` of a row belong to part `part`.
struct BitRange {
  uint32_t part, word;
  uint64_t mask;
};

// Adds to counts[part] the set bits of every range in each of `rows` rows of `words` words.
template <class Popcount>
inline void count_ranges_with(Popcount pop, const uint64_t* rows, int64_t nrows, int64_t words,
                              const BitRange* ranges, size_t nranges, uint64_t* counts) {
  for (int64_t r = 0; r < nrows; ++r, rows += words) {
    uint64_t any = 0;
    for (int64_t k = 0; k < words; ++k) any |= rows[k];
    if (any == 0) continue;
    for (size_t i = 0; i < nranges; ++i) counts[ranges[i].part] += pop(rows[ranges[i].word] & ranges[i].mask);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("popcnt")]] void count_ranges_popcnt(const uint64_t* rows, int64_t nrows,
                                                   int64_t words, const BitRange* ranges,
                                                   size_t nranges, uint64_t* counts) {
  count_ranges_with([](uint64_t v) { return uint64_t(__builtin_popcountll(v)); }, rows, nrows,
                    words, ranges, nranges, counts);
}
#endif

void count_ranges_portable(const uint64_t* rows, int64_t nrows, int64_t words,
                           const BitRange* ranges, size_t nranges, uint64_t* counts) {
  count_ranges_with(bit_count, rows, nrows, words, ranges, nranges, counts);
}

// The POPCNT instruction where the CPU has it (chosen once), else a portable count.
void count_ranges(const uint64_t* rows, int64_t nrows, int64_t words, const BitRange* ranges,
                  size_t nranges, uint64_t* counts) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool popcnt = __builtin_cpu_supports("popcnt");
  if (popcnt) return count_ranges_popcnt(rows, nrows, words, ranges, nranges, counts);
#endif
  count_ranges_portable(rows, nrows, words, ranges, nranges, counts);
}

// One part of a task while it is meshed (see surface_nets_parts): it owns the cells x from
// o to e and holds the vertices of the cells from b = max(o - 1, 0).
struct Part {
  int64_t b = 0, o = 0, e = 0, w = 0;  // whole-grid cells; w = e - b
  uint64_t vertices = 0, next = 0, at = 0;
  Vec3* positions = nullptr;
  Vec3* normals = nullptr;
  uint32_t* slabs = nullptr;   // two slabs of vertex indices, w per row of the task's box
  uint32_t* cur = nullptr;     // slab z of the vertex indices
  uint32_t* prev = nullptr;    // slab z - 1
  uint32_t* out_at = nullptr;  // where its next quad goes
  int64_t own_word = -1;       // the word of a box row holding all its cells, or -1
  uint64_t own_mask = 0;       // ... and their bits in it
};

// Per-thread scratch space, reused by the chunks a thread meshes. Vertices go straight to
// the output (their number is known from the bits); indices are built here and copied out
// at their exact size, so the hot loops need no per-element capacity checks.
struct Scratch {
  std::vector<uint64_t> bits, mixed, need;
  std::vector<uint32_t> slabs;
  std::vector<std::vector<uint32_t>> indices;  // per part
  std::vector<int32_t> part_of;                // per cell of the box row: the first part holding it
  std::vector<uint8_t> shared;                 // ... and whether the next part holds it too
  std::vector<BitRange> ranges;
  std::vector<uint64_t> counts, edges;
  std::vector<uint64_t> fast_own;  // per word of a row: cells of parts owning cells of it alone
  std::vector<int32_t> slow_parts;  // the other parts
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

// Bits pos .. pos + 63 of a row of n words (zero past its end).
inline uint64_t extract(const uint64_t* w, int64_t n, int64_t pos) {
  const int64_t k = pos >> 6, s = pos & 63;
  if (s == 0) return k < n ? w[k] : 0;
  uint64_t v = k < n ? w[k] >> s : 0;
  if (k + 1 < n) v |= w[k + 1] << (64 - s);
  return v;
}

// Grows v to hold at least n elements (never shrinks, so a warm thread allocates nothing).
template <class T>
inline void ensure(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(std::max(n, v.size() + v.size() / 2));
}

void emit_paint(const Task& t, Mesh& out, const PaintClasses& classes, uint32_t index,
                int64_t x, int64_t y, int64_t z, const float (&f)[3]);

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

// Writes the quad of a crossing edge as two triangles at `at`. c00..c01 go counter-clockwise
// seen from the edge's +axis end, which is the air side when the edge's low sample is solid;
// the quad q0..q3 (counter-clockwise seen from the air) is split on its shorter diagonal,
// q0-q2 on a tie. Branch-free: the choices are data, not jumps.
inline void emit_quad(const Vec3* pos, uint32_t* at, bool low_solid, uint32_t c00, uint32_t c10,
                      uint32_t c11, uint32_t c01) {
  const uint32_t q0 = c00, q2 = c11;
  const uint32_t solid = 0u - uint32_t(low_solid);
  const uint32_t q1 = c01 ^ ((c10 ^ c01) & solid), q3 = c10 ^ ((c01 ^ c10) & solid);
  // The squared diagonals, each summed as (dx * dx + dy * dy) + dz * dz.
#if defined(__SSE2__)
  // Positions are readable as 16 bytes (the arrays have one spare element).
  auto load = [pos](uint32_t i) { return _mm_loadu_ps(pos[i].data()); };
  const __m128 a = _mm_sub_ps(load(q0), load(q2)), b = _mm_sub_ps(load(q1), load(q3));
  const __m128 sa = _mm_mul_ps(a, a), sb = _mm_mul_ps(b, b);
  const __m128 lo = _mm_unpacklo_ps(sa, sb);  // (ax², bx², ay², by²)
  const __m128 d = _mm_add_ps(_mm_add_ps(lo, _mm_movehl_ps(lo, lo)), _mm_unpackhi_ps(sa, sb));
  const bool le = _mm_movemask_ps(_mm_cmple_ss(d, _mm_shuffle_ps(d, d, 1))) & 1;
#else
  auto d2 = [&](uint32_t i, uint32_t j) {
    const Vec3& a = pos[i];
    const Vec3& b = pos[j];
    const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
  };
  const bool le = d2(q0, q2) <= d2(q1, q3);
#endif
  // (q0, q1, q2), (q0, q2, q3) on the first diagonal, else (q1, q2, q3), (q1, q3, q0). The
  // choice is a mask, not a jump: it is a coin toss the branch predictor would often lose.
  const uint32_t first = 0u - uint32_t(le);
  auto pick = [first](uint32_t yes, uint32_t no) { return no ^ ((yes ^ no) & first); };
  const uint32_t p0 = pick(q0, q1), p1 = pick(q1, q2), p2 = pick(q2, q3), p3 = pick(q3, q0);
  at[0] = p0, at[1] = p1, at[2] = p2, at[3] = p0, at[4] = p2, at[5] = p3;
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
  uint64_t any = 0, vertices = 0;
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
        if (mk) vertices += bit_count(mk);
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
  sc.fast_own.assign(size_t(words), 0);
  sc.slow_parts.clear();
  if (sc.counts.size() < size_t(nparts)) sc.counts.resize(size_t(nparts));
  sc.shared.assign(size_t(W), 0);
  int64_t slab_cells = 0;
  for (int64_t j = 0; j < nparts; ++j) {
    Part& pt = parts[size_t(j)];
    pt.o = t.own_lo[0] + j * part_cells;
    pt.e = std::min(pt.o + part_cells, t.own_hi[0]);
    pt.b = std::max<int64_t>(pt.o - 1, 0);
    pt.w = pt.e - pt.b;
    for (int64_t x = pt.b; x < pt.e; ++x)
      if (j == 0 || x >= pt.o) sc.part_of[size_t(x - clo[0])] = int32_t(j);
    if (j > 0 && pt.b < pt.o) sc.shared[size_t(pt.b - clo[0])] = 1;
    slab_cells += pt.w * H;
    // One word of the box row, and one word of the part's own rows (so that its edges come
    // out in the order a task of just the part gives them).
    const int64_t first = pt.o - clo[0], last = pt.e - 1 - clo[0];
    if (first / 64 == last / 64 && pt.w <= 64) {
      pt.own_word = first / 64;
      pt.own_mask = word_limit(pt.own_word, last + 1) & ~word_limit(pt.own_word, first);
      sc.fast_own[size_t(pt.own_word)] |= pt.own_mask;
    } else {
      sc.slow_parts.push_back(int32_t(j));
    }
  }
  sc.edges.resize(size_t(3 * words));
  if (nparts == 1) {
    parts[0].vertices = vertices;
  } else {
    // The bits of each part's box in every row, by word.
    sc.ranges.clear();
    for (int64_t j = 0; j < nparts; ++j) {
      const int64_t from = parts[size_t(j)].b - clo[0], to = parts[size_t(j)].e - clo[0];
      for (int64_t k = from / 64; k <= (to - 1) / 64; ++k)
        sc.ranges.push_back({uint32_t(j), uint32_t(k), word_limit(k, to) & ~word_limit(k, from)});
    }
    uint64_t* counts = sc.counts.data();
    std::fill_n(counts, nparts, 0);
    count_ranges(mixed(clo[1], clo[2]), (mixed(clo[1], chi[2]) - mixed(clo[1], clo[2])) / mrow,
                 words, sc.ranges.data(), sc.ranges.size(), counts);
    for (int64_t j = 0; j < nparts; ++j) parts[size_t(j)].vertices = counts[j];
  }
  // Only cells with a vertex are ever looked up, so the slabs need no clearing.
  if (sc.slabs.size() < size_t(2 * slab_cells)) sc.slabs.resize(size_t(2 * slab_cells), kNone);
  if (sc.indices.size() < size_t(nparts)) sc.indices.resize(size_t(nparts));
  const bool paint = !t.paint.empty();
  if (paint && sc.paint.size() < size_t(nparts)) sc.paint.resize(size_t(nparts));
  {
    uint32_t* slabs = sc.slabs.data();
    for (int64_t j = 0; j < nparts; ++j) {
      Part& pt = parts[size_t(j)];
      pt.slabs = slabs;
      slabs += 2 * pt.w * H;
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
        sc.paint[size_t(j)].task = t;
        if (nparts > 1) {
          for (View* v : {&sc.paint[size_t(j)].task.sdf, &sc.paint[size_t(j)].task.paint}) {
            const int64_t lo[3] = {pt.b, v->lo[1], v->lo[2]}, hi[3] = {pt.e, v->hi[1], v->hi[2]};
            *v = v->narrowed(lo, hi);
          }
        }
        sc.paint[size_t(j)].classes = prepare_paint(sc.paint[size_t(j)].task);
        out.colors.resize(size_t(pt.vertices));
        out.uv0.resize(size_t(pt.vertices));
      }
    }
  }
  if (t.normals) sc.normals.setup(t, clo, chi);
  for (int64_t z = clo[2]; z < chi[2]; ++z) {
    // Slab z of a part's vertex indices, and slab z - 1.
    for (Part& pt : parts) {
      pt.cur = pt.slabs + (z & 1) * pt.w * H;
      pt.prev = pt.slabs + ((z - 1) & 1) * pt.w * H;
    }
    auto cur = [](const Part& pt) { return pt.cur; };
    auto prev = [](const Part& pt) { return pt.prev; };
    // The slab's cells with a vertex, in vertex order (y, then x) ...
    const uint8_t* slab_base = t.sdf.ptr(clo[0], clo[1], z);
    size_t n = 0;
    {
      ensure(sc.cell_x, size_t(W * H));
      ensure(sc.cell_y, size_t(W * H));
      ensure(sc.cell_at, size_t(W * H));
      const uint64_t* mw = mixed(clo[1], z);
      for (int64_t y = clo[1]; y < chi[1]; ++y, mw += mrow)
        for (int64_t k = 0; k < words; ++k)
          for (uint64_t b = mw[k]; b; b &= b - 1) {
            const int64_t i = 64 * k + std::countr_zero(b);
            sc.cell_x[n] = int32_t(clo[0] + i);
            sc.cell_y[n] = int32_t(y);
            sc.cell_at[n] = int32_t(i + (y - clo[1]) * t.sdf.sy);
            ++n;
          }
    }
    // ... their vertex offsets and gradients, many cells at a time ...
    ensure(sc.f, 4 * n + 4);
    ensure(sc.g, 4 * n + 4);
    float* const f = sc.f.data();
    float* const g = sc.g.data();
    sn_offsets(slab_base, sc.cell_at.data(), n, t.sdf.sy, t.sdf.sz, f);
    if (t.normals) {
      sc.normals.slab(z, n, sc.cell_x.data(), sc.cell_y.data(), f, g, SnNormals::Output::Normals);
    }
    // ... and into the parts' meshes.
    for (size_t c = 0; c < n; ++c) {
      const int64_t x = sc.cell_x[c], y = sc.cell_y[c], i = x - clo[0], ry = y - clo[1];
      const size_t j = size_t(sc.part_of[size_t(i)]);
      Part& pt = parts[j];
      const float* fc = f + 4 * c;
#if defined(__SSE2__)
      const __m128 at = _mm_cvtepi32_ps(_mm_setr_epi32(int(x), int(y), int(z), 0));
      _mm_storeu_ps(pt.positions[pt.next].data(), _mm_add_ps(at, _mm_loadu_ps(fc)));
      if (t.normals) _mm_storeu_ps(pt.normals[pt.next].data(), _mm_loadu_ps(g + 4 * c));
#else
      pt.positions[pt.next] = {float(x) + fc[0], float(y) + fc[1], float(z) + fc[2]};
      if (t.normals) pt.normals[pt.next] = {g[4 * c], g[4 * c + 1], g[4 * c + 2]};
#endif
      const float f3[3] = {fc[0], fc[1], fc[2]};
      if (paint) emit_paint(sc.paint[j].task, outs[j], sc.paint[j].classes, uint32_t(pt.next), x, y, z, f3);
      cur(pt)[pt.w * ry + (x - pt.b)] = uint32_t(pt.next);
      if (sc.shared[size_t(i)]) {
        // The cell below the next part's low face: the same vertex, in that part too.
        Part& q = parts[j + 1];
        std::memcpy(q.positions[q.next].data(), pt.positions[pt.next].data(), sizeof(Vec3));
        if (t.normals)
          std::memcpy(q.normals[q.next].data(), pt.normals[pt.next].data(), sizeof(Vec3));
        if (paint)
          emit_paint(sc.paint[j + 1].task, outs[j + 1], sc.paint[j + 1].classes, uint32_t(q.next), x, y, z, f3);
        cur(q)[q.w * ry] = uint32_t(q.next++);
      }
      ++pt.next;
    }
    if (z < t.own_lo[2]) continue;

    // Quads of the crossing edges leaving each owned cell's minimum corner. Quads need the
    // four cells round the edge, so edges on the grid's low faces make none. Each part's
    // rows are read as the words a task of just that part would have.
    for (Part& pt : parts) {
      if (pt.vertices == 0) continue;
      std::vector<uint32_t>& indices = sc.indices[size_t(&pt - parts.data())];
      ensure(indices, pt.at + 18 * pt.w * H);  // at most three quads a cell
      pt.out_at = indices.data() + pt.at;
    }
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
      for (int64_t k = 0; k < words; ++k) {
        xe[k] = y >= 1 && z >= 1 ? r[k] ^ bits.next(r, k) : 0;
        const uint64_t x0 = clo[0] == 0 && k == 0 ? ~uint64_t(1) : ~uint64_t(0);
        ye[k] = z >= 1 ? (r[k] ^ ry[k]) & x0 : 0;
        ze[k] = y >= 1 ? (r[k] ^ rz[k]) & x0 : 0;
      }
      auto quads = [&](Part& pt) {
        const int64_t shift = pt.b - clo[0];
        const uint32_t* c = cur(pt) + pt.w * (y - clo[1]);   // cells (x, y, z)
        const uint32_t* cy = c - pt.w;                       // (x, y - 1, z)
        const uint32_t* p = prev(pt) + pt.w * (y - clo[1]);  // (x, y, z - 1)
        const uint32_t* py = p - pt.w;                       // (x, y - 1, z - 1)
        const Vec3* pos = pt.positions;
        uint32_t* out_at = pt.out_at;
        // The edges of word k (bit i is cell pt.b + 64 * k + i), the cells' solid bits.
        auto emit = [&](int64_t k, uint64_t exe, uint64_t eye, uint64_t eze, uint64_t solid) {
          for (uint64_t e = exe; e; e &= e - 1) {
            const int b = std::countr_zero(e);
            const int64_t i = 64 * k + b;
            emit_quad(pos, out_at, solid >> b & 1, py[i], p[i], c[i], cy[i]);
            out_at += 6;
          }
          for (uint64_t e = eye; e; e &= e - 1) {
            const int b = std::countr_zero(e);
            const int64_t i = 64 * k + b;
            emit_quad(pos, out_at, solid >> b & 1, p[i - 1], c[i - 1], c[i], p[i]);
            out_at += 6;
          }
          for (uint64_t e = eze; e; e &= e - 1) {
            const int b = std::countr_zero(e);
            const int64_t i = 64 * k + b;
            emit_quad(pos, out_at, solid >> b & 1, cy[i - 1], cy[i], c[i], c[i - 1]);
            out_at += 6;
          }
        };
        if (pt.own_word >= 0) {
          // The part owns cells of one word of the row: take its bits from that word, then
          // number them from the part's first cell (its edges come out in the same order).
          const int64_t k = pt.own_word;
          const uint64_t own = pt.own_mask;
          const uint64_t exe = xe[k] & own, eye = ye[k] & own, eze = ze[k] & own;
          const int64_t base = 64 * k - shift;  // part cell of the word's bit 0
          c += base, cy += base, p += base, py += base;
          emit(0, exe, eye, eze, r[k]);
        } else {
          const int64_t pwords = (pt.w + 63) / 64;
          const int64_t own_first = pt.o - pt.b, own_cells = pt.e - pt.o;
          for (int64_t k = 0; k < pwords; ++k) {
            const int64_t at_bit = shift + 64 * k;
            const uint64_t own = word_limit(k, own_first + own_cells) & ~word_limit(k, own_first);
            emit(k, extract(xe, words, at_bit) & own, extract(ye, words, at_bit) & own,
                 extract(ze, words, at_bit) & own, extract(r, words, at_bit));
          }
        }
        pt.out_at = out_at;
      };
      // The parts owning cells of a single word are found from the row's edges; the
      // others are visited one by one.
      for (int64_t k = 0; k < words; ++k)
        for (uint64_t u = (xe[k] | ye[k] | ze[k]) & sc.fast_own[size_t(k)]; u;) {
          Part& pt = parts[size_t(sc.part_of[size_t(64 * k + std::countr_zero(u))])];
          quads(pt);
          u &= ~pt.own_mask;
        }
      for (int32_t j : sc.slow_parts)
        if (parts[size_t(j)].vertices != 0) quads(parts[size_t(j)]);
    }
    for (Part& pt : parts)
      if (pt.vertices != 0) pt.at = uint64_t(pt.out_at - sc.indices[size_t(&pt - parts.data())].data());
  }
  for (int64_t j = 0; j < nparts; ++j) {
    Part& pt = parts[size_t(j)];
    Mesh& out = outs[j];
    assert(pt.next == pt.vertices);
    if (pt.at == 0) {
      out = Mesh{};
      continue;
    }
    out.positions.pop_back();
    if (t.normals) out.normals.pop_back();
    std::vector<uint32_t>& indices = sc.indices[size_t(j)];
    out.indices.assign(indices.begin(), indices.begin() + int64_t(pt.at));
    // A whole-grid mesh should not leave a copy of its indices behind in the thread's scratch.
    if (indices.size() > (size_t(1) << 24)) indices = {};
  }
}

}  // namespace voxkit::mesh_detail
