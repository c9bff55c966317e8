// Surface Nets vertex gradients: SnNormals' paths (straight from the samples) against
// SnGradients' cache (fill + blend), in ns per vertex, and the normals as the mesher makes
// them (normalised in the batch, against a normalize_cells pass after it), on the surface
// cells of bench_mesh's terrain grid, meshed as mesh_chunks does (rows of chunks of 16) and
// as mesh_chunk_samples does (each chunk from a buffer of just its samples), on one thread;
// and the vertex offsets with the normals, as two passes (sn_offsets, then the normals) and as
// the one pass of slab_with_offsets.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "lib/mesh/mesh.hpp"
#include "lib/mesh/mesh_internal.hpp"
#include "lib/mesh/sn_gradients.hpp"
#include "lib/mesh/sn_normals.hpp"
#include "lib/mesh/sn_offsets.hpp"
#include "bench/terrain.hpp"

using namespace voxkit;
using namespace voxkit::mesh_detail;

namespace {

// One task: its box, surface cells per slab, and the samples of each plane those cells
// touch (what surface_nets asks SnGradients to fill).
struct RowTask {
  Task t;
  std::vector<uint8_t> buffer;  // the samples, for a chunk task from a buffer
  int64_t clo[3], chi[3], words, rows;
  std::vector<std::vector<int32_t>> x, y, at;  // at: offsets from sample (clo[0], clo[1], z)
  std::vector<std::vector<float>> f;
  std::vector<std::vector<uint64_t>> need;  // per plane
};

// A row of chunks as mesh_chunks meshes it, or one chunk from just its samples.
RowTask make_task(const ByteGrid& g, uint32_t cc, int32_t cx, int32_t cy, int32_t cz, bool row,
                  std::mt19937& rng) {
  RowTask r;
  Task& t = r.t;
  t.cells = g.cells;
  t.chunk_cells = cc;
  const ChunkSampleBox box = chunk_sample_box(g.cells, cc, {row ? 0 : cx, cy, cz});
  const View whole = whole_view(g);
  if (row) {
    t.sdf = whole;
    for (int a = 0; a < 3; ++a) {
      t.sdf.lo[a] = a == 0 ? 0 : box.lo[size_t(a)];
      t.sdf.hi[a] = a == 0 ? t.n(0) : box.hi[size_t(a)];
    }
    t.sdf.data = whole.ptr(t.sdf.lo[0], t.sdf.lo[1], t.sdf.lo[2]);
  } else {
    for (uint32_t z = box.lo[2]; z <= box.hi[2]; ++z)
      for (uint32_t y = box.lo[1]; y <= box.hi[1]; ++y)
        for (uint32_t x = box.lo[0]; x <= box.hi[0]; ++x) r.buffer.push_back(g.at(x, y, z));
    t.sdf = buffer_view(r.buffer.data(), box);
  }
  for (int a = 0; a < 3; ++a) {
    const int32_t c = a == 0 ? cx : a == 1 ? cy : cz;
    t.own_lo[a] = row && a == 0 ? 0 : int64_t(c) * cc;
    t.own_hi[a] = row && a == 0 ? t.n(0) : std::min<int64_t>(t.own_lo[a] + cc, t.n(a));
    r.clo[a] = std::max<int64_t>(t.own_lo[a] - 1, 0);
    r.chi[a] = t.own_hi[a];
  }
  const int64_t D = r.chi[2] - r.clo[2];
  r.words = (r.chi[0] - r.clo[0] + 1 + 63) / 64;
  r.rows = r.chi[1] - r.clo[1] + 1;
  r.x.resize(size_t(D));
  r.y.resize(size_t(D));
  r.at.resize(size_t(D));
  r.f.resize(size_t(D));
  r.need.assign(size_t(D + 1), std::vector<uint64_t>(size_t(r.words * r.rows), 0));
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int64_t z = r.clo[2]; z < r.chi[2]; ++z)
    for (int64_t y = r.clo[1]; y < r.chi[1]; ++y)
      for (int64_t x = r.clo[0]; x < r.chi[0]; ++x) {
        int solid = 0;
        for (int c = 0; c < 8; ++c)
          solid += t.sdf.at(x + (c & 1), y + (c >> 1 & 1), z + (c >> 2)) < 128;
        if (solid == 0 || solid == 8) continue;
        const size_t s = size_t(z - r.clo[2]);
        r.x[s].push_back(int32_t(x));
        r.y[s].push_back(int32_t(y));
        r.at[s].push_back(int32_t((x - r.clo[0]) + (y - r.clo[1]) * t.sdf.sy));
        for (float v : {u(rng), u(rng), u(rng), 0.0f}) r.f[s].push_back(v);
        for (int c = 0; c < 8; ++c) {
          const int64_t i = x - r.clo[0] + (c & 1), j = y - r.clo[1] + (c >> 1 & 1);
          r.need[s + size_t(c >> 2)][size_t(j * r.words + i / 64)] |= uint64_t(1) << (i % 64);
        }
      }
  return r;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  Dims cells{256, 128, 256};
  // bench_sn_normals [REPEATS [cache|scalar|sse2|avx2|offsets]]: the second argument runs one
  // path (offsets: the vertex offsets and normals, in two passes and in one).
  int repeats = 5;
  if (argc >= 2) repeats = std::max(1, std::atoi(argv[1]));
  const char* only = argc >= 3 ? argv[2] : nullptr;
  const ByteGrid g = bench::make_grid(cells, 1234);
  const uint32_t cc = 16;
  const auto n = chunk_counts(cells, cc);
  std::printf("grid %ux%ux%u, chunks of %u, best of %d runs\n", cells.nx, cells.ny, cells.nz, cc,
              repeats);
  float sink = 0;
  for (bool row : {true, false}) {
    std::mt19937 rng(99);
    std::vector<RowTask> tasks;
    size_t total = 0, max_slab = 0;
    for (int32_t cz = 0; cz < int32_t(n[2]); ++cz)
      for (int32_t cy = 0; cy < int32_t(n[1]); ++cy)
        for (int32_t cx = 0; cx < (row ? 1 : int32_t(n[0])); ++cx) {
          tasks.push_back(make_task(g, cc, cx, cy, cz, row, rng));
          for (const auto& s : tasks.back().x) {
            total += s.size();
            max_slab = std::max(max_slab, s.size());
          }
        }
    std::vector<float> out(4 * max_slab + 4), fout(4 * max_slab + 4);
    std::vector<uint64_t> need;

    // SnGradients as surface_nets uses it: fill the touched samples of each plane, then blend.
    auto cache = [&]() {
      SnGradients sg;
      for (RowTask& r : tasks) {
        const Task& t = r.t;
        sg.setup(t, r.clo, r.chi);
        auto fill = [&](int64_t z) {
          need = r.need[size_t(z - r.clo[2])];
          sg.fill_plane(t.sdf, z, need.data(), r.rows, r.words);
        };
        fill(r.clo[2]);
        for (int64_t z = r.clo[2]; z < r.chi[2]; ++z) {
          fill(z + 1);
          const size_t s = size_t(z - r.clo[2]);
          const int32_t* xs = r.x[s].data();
          const int32_t* ys = r.y[s].data();
          const float* fs = r.f[s].data();
          for (size_t i = 0; i < r.x[s].size(); ++i) {
            const SnGradients::Row row = sg.row(ys[i], z);
            const uint8_t* p = t.sdf.ptr(xs[i], ys[i], z);
#if defined(__SSE2__)
            sg.gradient(row, xs[i], p, t.sdf.sy, t.sdf.sz, _mm_loadu_ps(fs + 4 * i), &out[4 * i]);
#else
            const float f3[3] = {fs[4 * i], fs[4 * i + 1], fs[4 * i + 2]};
            sg.gradient(row, xs[i], p, t.sdf.sy, t.sdf.sz, f3, &out[4 * i]);
#endif
          }
          sink += out[0];
        }
      }
    };
    // normalize: 0 gradients, 1 normals in the batch, 2 gradients then normalize_cells.
    auto direct = [&](SnNormals::Path path, int normalize) {
      SnNormals sn;
      sn.set_path(path);
      const SnNormals::Output o =
          normalize == 1 ? SnNormals::Output::Normals : SnNormals::Output::Gradients;
      for (RowTask& r : tasks) {
        sn.setup(r.t, r.clo, r.chi);
        for (int64_t z = r.clo[2]; z < r.chi[2]; ++z) {
          const size_t s = size_t(z - r.clo[2]);
          const size_t n = r.x[s].size();
          sn.slab(z, n, r.x[s].data(), r.y[s].data(), r.f[s].data(), out.data(), o);
          if (normalize == 2) normalize_cells(out.data(), n);
          sink += out[0];
        }
      }
    };
    // The offsets and the normals of each slab, as two passes or (fused) one.
    auto with_offsets = [&](bool fused) {
      SnNormals sn;
      for (RowTask& r : tasks) {
        sn.setup(r.t, r.clo, r.chi);
        for (int64_t z = r.clo[2]; z < r.chi[2]; ++z) {
          const size_t s = size_t(z - r.clo[2]);
          const size_t n = r.x[s].size();
          const uint8_t* base = r.t.sdf.ptr(r.clo[0], r.clo[1], z);
          const int32_t *xs = r.x[s].data(), *ys = r.y[s].data(), *at = r.at[s].data();
          if (fused) {
            sn.slab_with_offsets(z, n, xs, ys, base, at, fout.data(), out.data(),
                                 SnNormals::Output::Normals);
          } else {
            sn_offsets(base, at, n, r.t.sdf.sy, r.t.sdf.sz, fout.data());
            sn.slab(z, n, xs, ys, fout.data(), out.data(), SnNormals::Output::Normals);
          }
          sink += out[0] + fout[0];
        }
      }
    };
    auto best = [&](auto&& run) {
      double b = 1e30;
      for (int i = 0; i < repeats; ++i) {
        const double t0 = now();
        run();
        b = std::min(b, now() - t0);
      }
      return b * 1e9 / double(total);
    };
    std::printf(
        "%s: %zu surface cells\n",
        row ? "rows of chunks (mesh_chunks)" : "chunks from their samples (mesh_chunk_samples)",
        total);
    auto wanted = [&](const char* name) { return !only || !std::strcmp(only, name); };
    if (wanted("cache"))
      std::printf("%-28s %6.2f ns/cell\n", "SnGradients fill + blend", best(cache));
    const char* names[] = {"SnNormals scalar", "SnNormals sse2", "SnNormals avx2"};
    const char* keys[] = {"scalar", "sse2", "avx2"};
    const char* forms[] = {"gradients", "normals", "+ normalize_cells"};
    for (SnNormals::Path p :
         {SnNormals::Path::Scalar, SnNormals::Path::Sse2, SnNormals::Path::Avx2}) {
      if (p > SnNormals::best_path() || !wanted(keys[int(p)])) continue;
      for (int k : {0, 2, 1})
        std::printf("%-16s %-18s %6.2f ns/cell\n", names[int(p)], forms[k],
                    best([&] { direct(p, k); }));
    }
    if (wanted("offsets")) {
      std::printf("%-35s %6.2f ns/cell\n", "sn_offsets, then SnNormals normals",
                  best([&] { with_offsets(false); }));
      std::printf("%-35s %6.2f ns/cell\n", "SnNormals slab_with_offsets normals",
                  best([&] { with_offsets(true); }));
    }
  }
  return sink == 12345.0f ? 1 : 0;
}
