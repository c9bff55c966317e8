// Surface Nets gradients straight from the samples (SnNormals) against the cached ones
// (SnGradients), and its normals against those normalised by normalize_cells, bit for bit, on
// every path, for whole-grid, chunk, buffer and chunk-row tasks.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lib/mesh/mesh_internal.hpp"
#include "lib/mesh/sn_gradients.hpp"
#include "lib/mesh/sn_normals.hpp"
#include "lib/mesh/sn_offsets.hpp"
#include "tests/mesh_test_util.hpp"

using namespace voxkit;
using namespace voxkit::mesh_detail;

namespace {

// The cells of one slab with a sign change, each three times with different offsets f.
struct SlabCells {
  std::vector<int32_t> x, y;
  std::vector<float> f;  // 4 per entry
};

std::vector<SlabCells> cells_of(const Task& t, const int64_t (&clo)[3], const int64_t (&chi)[3],
                                uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  // Mostly inside the cell, sometimes exactly on its faces.
  auto offset = [&]() {
    const unsigned k = rng() % 8;
    return k == 0 ? 0.0f : k == 1 ? 1.0f : u(rng);
  };
  std::vector<SlabCells> out(size_t(chi[2] - clo[2]));
  for (int64_t z = clo[2]; z < chi[2]; ++z)
    for (int64_t y = clo[1]; y < chi[1]; ++y)
      for (int64_t x = clo[0]; x < chi[0]; ++x) {
        int solid = 0;
        for (int c = 0; c < 8; ++c)
          solid += t.sdf.at(x + (c & 1), y + (c >> 1 & 1), z + (c >> 2)) < 128;
        if (solid == 0 || solid == 8) continue;
        SlabCells& s = out[size_t(z - clo[2])];
        for (int r = 0; r < 3; ++r) {
          s.x.push_back(int32_t(x));
          s.y.push_back(int32_t(y));
          for (float v : {offset(), offset(), offset(), 0.5f}) s.f.push_back(v);
        }
      }
  return out;
}

// SnGradients' gradients for the cells: every sample of each plane filled, then blended.
std::vector<std::vector<float>> reference(const Task& t, const int64_t (&clo)[3],
                                          const int64_t (&chi)[3],
                                          const std::vector<SlabCells>& cells) {
  SnGradients sg;
  sg.setup(t, clo, chi);
  const int64_t samples = chi[0] - clo[0] + 1, rows = chi[1] - clo[1] + 1;
  const int64_t words = (samples + 63) / 64;
  std::vector<uint64_t> need(size_t(rows * words));
  auto fill = [&](int64_t z) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = 0; k < words; ++k) need[size_t(r * words + k)] = word_limit(k, samples);
    sg.fill_plane(t.sdf, z, need.data(), rows, words);
  };
  std::vector<std::vector<float>> out(cells.size());
  fill(clo[2]);
  for (int64_t z = clo[2]; z < chi[2]; ++z) {
    fill(z + 1);
    const SlabCells& s = cells[size_t(z - clo[2])];
    std::vector<float>& g = out[size_t(z - clo[2])];
    g.assign(s.x.size() * 4 + 4, 0.0f);
    for (size_t i = 0; i < s.x.size(); ++i) {
      const SnGradients::Row row = sg.row(s.y[i], z);
      const uint8_t* p = t.sdf.ptr(s.x[i], s.y[i], z);
#if defined(__SSE2__)
      sg.gradient(row, s.x[i], p, t.sdf.sy, t.sdf.sz, _mm_loadu_ps(&s.f[4 * i]), &g[4 * i]);
#else
      const float f[3] = {s.f[4 * i], s.f[4 * i + 1], s.f[4 * i + 2]};
      sg.gradient(row, s.x[i], p, t.sdf.sy, t.sdf.sz, f, &g[4 * i]);
#endif
    }
  }
  return out;
}

std::vector<SnNormals::Path> paths() {
  std::vector<SnNormals::Path> p{SnNormals::Path::Scalar};
  if (SnNormals::best_path() >= SnNormals::Path::Sse2) p.push_back(SnNormals::Path::Sse2);
  if (SnNormals::best_path() >= SnNormals::Path::Avx2) p.push_back(SnNormals::Path::Avx2);
  return p;
}

// Checks every path, both outputs, against SnGradients (and normalize_cells) on the task;
// returns the cells compared, and counts in *zeros those whose gradient vanishes. The
// output and the inputs are exactly n cells long, so ASan sees any read or write past them.
size_t check_task(const Task& t, uint32_t seed, size_t* zeros = nullptr) {
  int64_t clo[3], chi[3];
  for (int a = 0; a < 3; ++a) {
    clo[a] = std::max<int64_t>(t.own_lo[a] - 1, 0);
    chi[a] = t.own_hi[a];
  }
  const std::vector<SlabCells> cells = cells_of(t, clo, chi, seed);
  const auto want = reference(t, clo, chi, cells);
  auto want_unit = want;
  for (size_t z = 0; z < want.size(); ++z) {
    normalize_cells(want_unit[z].data(), cells[z].x.size());
    for (size_t i = 0; zeros && i < cells[z].x.size(); ++i)
      *zeros += want[z][4 * i] == 0 && want[z][4 * i + 1] == 0 && want[z][4 * i + 2] == 0;
  }
  size_t compared = 0;
  auto check = [&](SnNormals::Path path, SnNormals::Output out) {
    SnNormals sn;
    sn.set_path(path);
    REQUIRE(sn.path() == path);
    sn.setup(t, clo, chi);
    const bool unit = out == SnNormals::Output::Normals;
    for (int64_t z = clo[2]; z < chi[2]; ++z) {
      const SlabCells& s = cells[size_t(z - clo[2])];
      std::vector<float> g(s.x.size() * 4, -1.0f);
      sn.slab(z, s.x.size(), s.x.data(), s.y.data(), s.f.data(), g.data(), out);
      const std::vector<float>& w = (unit ? want_unit : want)[size_t(z - clo[2])];
      for (size_t i = 0; i < s.x.size(); ++i) {
        if (std::memcmp(&g[4 * i], &w[4 * i], 3 * sizeof(float)) != 0 || g[4 * i + 3] != 0.0f) {
          INFO("path " << int(path) << (unit ? " normals" : " gradients") << " cell " << s.x[i]
                       << " " << s.y[i] << " " << z << " f " << s.f[4 * i] << " "
                       << s.f[4 * i + 1] << " " << s.f[4 * i + 2] << " got " << g[4 * i] << " "
                       << g[4 * i + 1] << " " << g[4 * i + 2] << " " << g[4 * i + 3] << " want "
                       << w[4 * i] << " " << w[4 * i + 1] << " " << w[4 * i + 2]);
          REQUIRE(false);
        }
        ++compared;
      }
    }
  };
  for (SnNormals::Path path : paths()) {
    check(path, SnNormals::Output::Gradients);
    check(path, SnNormals::Output::Normals);
  }
  return compared;
}

struct alignas(16) Quad {
  float v[4];
};

// SnNormals::slab_with_offsets against sn_offsets and then slab(), bit for bit in the offsets
// and in the gradients (or normals), on the fastest path or every path (the others make two
// passes): a slab's cells with a vertex as the mesher lists them (x fastest, so mostly in runs
// along x), then in a shuffled order. Inputs and outputs are exactly n cells long, so ASan
// sees any read or write past them. Returns the cells compared.
size_t check_fused(const Task& t, uint32_t seed, bool every_path) {
  int64_t clo[3], chi[3];
  for (int a = 0; a < 3; ++a) {
    clo[a] = std::max<int64_t>(t.own_lo[a] - 1, 0);
    chi[a] = t.own_hi[a];
  }
  std::mt19937 rng(seed);
  size_t compared = 0;
  for (SnNormals::Path path : paths()) {
    if (!every_path && path != SnNormals::best_path()) continue;
    SnNormals sn;
    sn.set_path(path);
    REQUIRE(sn.path() == path);
    sn.setup(t, clo, chi);
    for (int64_t z = clo[2]; z < chi[2]; ++z) {
      std::vector<std::pair<int32_t, int32_t>> cells;
      for (int64_t y = clo[1]; y < chi[1]; ++y)
        for (int64_t x = clo[0]; x < chi[0]; ++x) {
          int solid = 0;
          for (int c = 0; c < 8; ++c)
            solid += t.sdf.at(x + (c & 1), y + (c >> 1 & 1), z + (c >> 2)) < 128;
          if (solid != 0 && solid != 8) cells.emplace_back(int32_t(x), int32_t(y));
        }
      const uint8_t* base = t.sdf.ptr(clo[0], clo[1], z);
      for (int order = 0; order < 2; ++order) {
        if (order == 1) std::shuffle(cells.begin(), cells.end(), rng);
        const size_t n = cells.size();
        std::vector<int32_t> xs(n), ys(n), at(n);
        for (size_t i = 0; i < n; ++i) {
          xs[i] = cells[i].first;
          ys[i] = cells[i].second;
          at[i] = int32_t((xs[i] - clo[0]) + (ys[i] - clo[1]) * t.sdf.sy);
        }
        std::vector<Quad> want_f(n);
        // Slabs without cells are passed too (n = 0, no buffers).
        auto floats = [](std::vector<Quad>& q) { return reinterpret_cast<float*>(q.data()); };
        sn_offsets(base, at.data(), n, t.sdf.sy, t.sdf.sz, floats(want_f));
        for (SnNormals::Output out : {SnNormals::Output::Gradients, SnNormals::Output::Normals}) {
          std::vector<float> want_g(4 * n), g(4 * n, -1.0f);
          sn.slab(z, n, xs.data(), ys.data(), floats(want_f), want_g.data(), out);
          Quad junk;
          std::fill(junk.v, junk.v + 4, -1.0f);
          std::vector<Quad> f(n, junk);
          sn.slab_with_offsets(z, n, xs.data(), ys.data(), base, at.data(), floats(f), g.data(),
                               out);
          for (size_t i = 0; i < n; ++i) {
            if (std::memcmp(f[i].v, want_f[i].v, sizeof(Quad)) != 0 ||
                std::memcmp(&g[4 * i], &want_g[4 * i], 4 * sizeof(float)) != 0) {
              INFO("path " << int(path) << " output " << int(out) << " order " << order
                           << " cell " << xs[i] << " " << ys[i] << " " << z << " f " << f[i].v[0]
                           << " " << f[i].v[1] << " " << f[i].v[2] << " " << f[i].v[3]
                           << " want " << want_f[i].v[0] << " " << want_f[i].v[1] << " "
                           << want_f[i].v[2] << " g " << g[4 * i] << " " << g[4 * i + 1] << " "
                           << g[4 * i + 2] << " want " << want_g[4 * i] << " "
                           << want_g[4 * i + 1] << " " << want_g[4 * i + 2]);
              REQUIRE(false);
            }
            ++compared;
          }
        }
      }
    }
  }
  return compared;
}

Task chunk_task(const ByteGrid& g, uint32_t cc, std::array<int32_t, 3> c, const View& sdf) {
  const ChunkSampleBox box = chunk_sample_box(g.cells, cc, c);
  Task t;
  t.cells = g.cells;
  t.chunk_cells = cc;
  t.sdf = sdf;
  for (int a = 0; a < 3; ++a) {
    t.sdf.lo[a] = box.lo[size_t(a)];
    t.sdf.hi[a] = box.hi[size_t(a)];
    t.own_lo[a] = int64_t(c[size_t(a)]) * cc;
    t.own_hi[a] = std::min<int64_t>(t.own_lo[a] + cc, t.n(a));
  }
  t.sdf.data = sdf.ptr(box.lo[0], box.lo[1], box.lo[2]);
  return t;
}

// Exactly the chunk's sample box, as mesh_chunk_samples gets it.
std::vector<uint8_t> chunk_samples(const ByteGrid& g, const ChunkSampleBox& box) {
  std::vector<uint8_t> out;
  out.reserve(size_t(box.samples()));
  for (uint32_t z = box.lo[2]; z <= box.hi[2]; ++z)
    for (uint32_t y = box.lo[1]; y <= box.hi[1]; ++y)
      for (uint32_t x = box.lo[0]; x <= box.hi[0]; ++x) out.push_back(g.at(x, y, z));
  return out;
}

const Dims kGrids[] = {{37, 29, 33}, {21, 40, 19}};

// Random bytes, mostly near the surface level and often exactly 0, 127, 128 or 255: nearly
// every cell has a vertex, with every count of crossing edges.
ByteGrid noise_grid(Dims d, uint32_t seed) {
  ByteGrid g(d, 0);
  std::mt19937 rng(seed);
  const uint8_t special[] = {0, 127, 128, 255};
  for (uint32_t z = 0; z <= d.nz; ++z)
    for (uint32_t y = 0; y <= d.ny; ++y)
      for (uint32_t x = 0; x <= d.nx; ++x) {
        const unsigned k = rng() % 4;
        g.at(x, y, z) = k == 0   ? special[rng() % 4]
                        : k == 1 ? uint8_t(rng())
                                 : uint8_t(112 + rng() % 32);
      }
  return g;
}

}  // namespace

TEST_CASE("sn normals match the gradient cache on whole-grid tasks", "[mesh]") {
  size_t compared = 0;
  for (const Dims& d : kGrids)
    for (uint32_t cc : {3u, 8u, 16u}) {
      const ByteGrid g = test::cave_terrain(d, 11 + cc);
      Task t;
      t.cells = g.cells;
      t.chunk_cells = cc;
      t.sdf = whole_view(g);
      for (int a = 0; a < 3; ++a) t.own_hi[a] = t.n(a);
      compared += check_task(t, cc);
    }
  CHECK(compared > 10000);
}

TEST_CASE("sn normals match the gradient cache on chunk tasks and exact chunk buffers", "[mesh]") {
  size_t compared = 0;
  for (const Dims& d : kGrids)
    for (uint32_t cc : {3u, 8u, 16u}) {
      const ByteGrid g = test::cave_terrain(d, 23 + cc);
      const View whole = whole_view(g);
      const auto n = chunk_counts(g.cells, cc);
      for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
        for (int32_t cy = 0; cy < int32_t(n[1]); ++cy)
          for (int32_t cx = 0; cx < int32_t(n[0]); ++cx) {
            const std::array<int32_t, 3> c{cx, cy, cz};
            const uint32_t seed = uint32_t(cx + 7 * cy + 49 * cz);
            compared += check_task(chunk_task(g, cc, c, whole), seed);
            const ChunkSampleBox box = chunk_sample_box(g.cells, cc, c);
            const std::vector<uint8_t> buf = chunk_samples(g, box);
            compared += check_task(chunk_task(g, cc, c, buffer_view(buf.data(), box)), seed);
          }
    }
  CHECK(compared > 10000);
}

TEST_CASE("sn normals match the gradient cache on rows of chunks", "[mesh]") {
  size_t compared = 0;
  for (const Dims& d : kGrids)
    for (uint32_t cc : {3u, 8u, 16u}) {
      const ByteGrid g = test::cave_terrain(d, 31 + cc);
      const auto n = chunk_counts(g.cells, cc);
      for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
        for (int32_t cy = 0; cy < int32_t(n[1]); ++cy) {
          // As mesh_chunks' rows: all of x, the chunk's box along y and z.
          const ChunkSampleBox first = chunk_sample_box(g.cells, cc, {0, cy, cz});
          Task t;
          t.cells = g.cells;
          t.chunk_cells = cc;
          const View whole = whole_view(g);
          t.sdf = whole;
          for (int a = 0; a < 3; ++a) {
            t.sdf.lo[a] = a == 0 ? 0 : first.lo[size_t(a)];
            t.sdf.hi[a] = a == 0 ? t.n(0) : first.hi[size_t(a)];
            t.own_lo[a] = a == 0 ? 0 : int64_t(a == 1 ? cy : cz) * cc;
            t.own_hi[a] = a == 0 ? t.n(0) : std::min<int64_t>(t.own_lo[a] + cc, t.n(a));
          }
          t.sdf.data = whole.ptr(t.sdf.lo[0], t.sdf.lo[1], t.sdf.lo[2]);
          compared += check_task(t, uint32_t(cy + 13 * cz));
        }
    }
  CHECK(compared > 10000);
}

TEST_CASE("sn normals of vanishing gradients are straight up on every path", "[mesh]") {
  // A checkerboard: every cell has a sign change, and every central difference is zero, so
  // inside the grid and away from chunk planes the gradients vanish; at the grid's faces
  // and on chunk planes the one-sided differences do not.
  const Dims d{19, 13, 17};
  ByteGrid g(d, 0);
  for (uint32_t z = 0; z <= d.nz; ++z)
    for (uint32_t y = 0; y <= d.ny; ++y)
      for (uint32_t x = 0; x <= d.nx; ++x) g.at(x, y, z) = (x + y + z) % 2 ? 255 : 3;
  size_t compared = 0, zeros = 0;
  for (uint32_t cc : {4u, 8u, 64u}) {
    Task t;
    t.cells = g.cells;
    t.chunk_cells = cc;
    t.sdf = whole_view(g);
    for (int a = 0; a < 3; ++a) t.own_hi[a] = t.n(a);
    compared += check_task(t, cc, &zeros);
    const auto n = chunk_counts(g.cells, cc);
    for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
      for (int32_t cx = 0; cx < int32_t(n[0]); ++cx) {
        const std::array<int32_t, 3> c{cx, 0, cz};
        const ChunkSampleBox box = chunk_sample_box(g.cells, cc, c);
        const std::vector<uint8_t> buf = chunk_samples(g, box);
        compared += check_task(chunk_task(g, cc, c, buffer_view(buf.data(), box)), 5, &zeros);
      }
  }
  CHECK(zeros > 1000);
  CHECK(compared > 10000);
}

TEST_CASE("sn normals computed with their offsets in one pass match the two passes", "[mesh]") {
  size_t compared = 0;
  for (const Dims& d : kGrids)
    for (int kind = 0; kind < 2; ++kind)
      for (uint32_t cc : {3u, 8u, 16u}) {
        if (kind == 1 && cc != 8) continue;  // noise: nearly every cell has a vertex
        const ByteGrid g = kind == 0 ? test::cave_terrain(d, 41 + cc) : noise_grid(d, 43 + cc);
        const View whole = whole_view(g);
        // The whole grid (its faces along every axis) as one task.
        Task t;
        t.cells = g.cells;
        t.chunk_cells = cc;
        t.sdf = whole;
        for (int a = 0; a < 3; ++a) t.own_hi[a] = t.n(a);
        compared += check_fused(t, cc, true);
        const auto n = chunk_counts(g.cells, cc);
        for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
          for (int32_t cy = 0; cy < int32_t(n[1]); ++cy) {
            // A row of chunks, as mesh_chunks' rows: all of x, the chunk's box along y and z.
            const ChunkSampleBox first = chunk_sample_box(g.cells, cc, {0, cy, cz});
            Task r = t;
            for (int a = 1; a < 3; ++a) {
              r.sdf.lo[a] = first.lo[size_t(a)];
              r.sdf.hi[a] = first.hi[size_t(a)];
              r.own_lo[a] = int64_t(a == 1 ? cy : cz) * cc;
              r.own_hi[a] = std::min<int64_t>(r.own_lo[a] + cc, t.n(a));
            }
            r.sdf.data = whole.ptr(0, r.sdf.lo[1], r.sdf.lo[2]);
            compared += check_fused(r, uint32_t(cy + 13 * cz), false);
            // Each chunk of the row, in the grid and as an exact chunk buffer.
            for (int32_t cx = 0; cx < int32_t(n[0]); ++cx) {
              const std::array<int32_t, 3> c{cx, cy, cz};
              const uint32_t seed = uint32_t(cx + 7 * cy + 49 * cz);
              compared += check_fused(chunk_task(g, cc, c, whole), seed, false);
              const ChunkSampleBox box = chunk_sample_box(g.cells, cc, c);
              const std::vector<uint8_t> buf = chunk_samples(g, box);
              compared +=
                  check_fused(chunk_task(g, cc, c, buffer_view(buf.data(), box)), seed, false);
            }
          }
      }
  CHECK(compared > 100000);
}
