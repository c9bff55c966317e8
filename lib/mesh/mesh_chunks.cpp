// Public meshing entry points: chunk boxes, one chunk, every chunk in parallel, whole grid.
#include <algorithm>
#include <atomic>
#include <string>

#include <tbb/parallel_for.h>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh_internal.hpp"

namespace voxkit {

namespace {

using mesh_detail::Task;
using mesh_detail::View;

void check_grid(const ByteGrid& g, const char* what) {
  check_dims(g.cells);
  if (g.data.size() != g.cells.samples())
    throw_usage(std::string(what) + " grid holds " + std::to_string(g.data.size()) +
                " samples, its dimensions need " + std::to_string(g.cells.samples()));
}

void check_options(const ByteGrid& sdf, const MeshOptions& opts) {
  check_grid(sdf, "SDF");
  if (opts.chunk_cells == 0) throw_usage("chunk size must be at least 1 cell");
  if (opts.paint.paint) {
    check_grid(*opts.paint.paint, "paint");
    if (!(opts.paint.paint->cells == sdf.cells))
      throw_usage("paint grid dimensions differ from the SDF grid's");
  }
}

void check_chunk(const Dims& cells, uint32_t cc, std::array<int32_t, 3> chunk) {
  auto n = chunk_counts(cells, cc);
  for (int a = 0; a < 3; ++a)
    if (chunk[size_t(a)] < 0 || uint32_t(chunk[size_t(a)]) >= n[size_t(a)])
      throw_usage("chunk (" + std::to_string(chunk[0]) + ", " + std::to_string(chunk[1]) + ", " +
                  std::to_string(chunk[2]) + ") is outside the grid's " + std::to_string(n[0]) +
                  "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]) + " chunks");
}

Mesh run(Task& t, Mesher mesher) {
  Mesh m;
  if (mesher == Mesher::SurfaceNets)
    mesh_detail::surface_nets(t, m);
  else
    mesh_detail::marching_cubes(t, m);
  if (m.indices.empty()) return Mesh{};
  return m;
}

// The task owning cells own_lo .. own_hi - 1 of views holding (at least) its sample box,
// reading only that box (own_lo - 1, clipped at 0, to own_hi), even when a view is the
// whole grid.
Task box_task(const Dims& cells, const View& sdf, const View& paint, const MeshOptions& opts,
              const int64_t (&own_lo)[3], const int64_t (&own_hi)[3]) {
  Task t;
  t.cells = cells;
  t.chunk_cells = opts.chunk_cells;
  t.normals = opts.normals;
  int64_t lo[3];
  for (int a = 0; a < 3; ++a) {
    t.own_lo[a] = own_lo[a];
    t.own_hi[a] = own_hi[a];
    lo[a] = std::max<int64_t>(own_lo[a] - 1, 0);
  }
  t.sdf = sdf.narrowed(lo, own_hi);
  if (!paint.empty()) {
    t.paint = paint.narrowed(lo, own_hi);
    t.layer_count = opts.paint.layer_count;
  }
  return t;
}

// The cells chunk c owns along axis a: from c * cc to the grid's end at most.
void own_range(const Dims& cells, uint32_t cc, int a, int32_t c, int64_t& lo, int64_t& hi) {
  const int64_t n = a == 0 ? cells.nx : a == 1 ? cells.ny : cells.nz;
  lo = int64_t(c) * cc;
  hi = std::min<int64_t>(lo + cc, n);
}

// Meshes one chunk from views holding (at least) its sample box.
Mesh chunk_task(const Dims& cells, std::array<int32_t, 3> chunk, const View& sdf,
                const View& paint, const MeshOptions& opts) {
  int64_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) own_range(cells, opts.chunk_cells, a, chunk[size_t(a)], lo[a], hi[a]);
  Task t = box_task(cells, sdf, paint, opts, lo, hi);
  return run(t, opts.mesher);
}

// Surface Nets over the row of chunks (0 .. n[0] - 1, cy, cz), one mesh per chunk to outs:
// the same meshes as chunk_task makes, with the work the chunks of a row share done once.
void sn_chunk_row(const Dims& cells, int32_t cy, int32_t cz, const View& sdf, const View& paint,
                  const MeshOptions& opts, Mesh* outs) {
  int64_t lo[3] = {0, 0, 0}, hi[3] = {cells.nx, 0, 0};
  own_range(cells, opts.chunk_cells, 1, cy, lo[1], hi[1]);
  own_range(cells, opts.chunk_cells, 2, cz, lo[2], hi[2]);
  Task t = box_task(cells, sdf, paint, opts, lo, hi);
  mesh_detail::surface_nets_parts(t, opts.chunk_cells, outs);  // empty parts stay Mesh{}
}

}  // namespace

namespace mesh_detail {

View whole_view(const ByteGrid& g) {
  View v;
  v.data = g.data.data();
  v.hi[0] = g.cells.nx;
  v.hi[1] = g.cells.ny;
  v.hi[2] = g.cells.nz;
  v.sy = int64_t(g.cells.sx());
  v.sz = int64_t(g.cells.sx() * g.cells.sy());
  return v;
}

View buffer_view(const uint8_t* data, const ChunkSampleBox& box) {
  View v;
  v.data = data;
  for (int a = 0; a < 3; ++a) {
    v.lo[a] = box.lo[size_t(a)];
    v.hi[a] = box.hi[size_t(a)];
  }
  v.sy = v.hi[0] - v.lo[0] + 1;
  v.sz = v.sy * (v.hi[1] - v.lo[1] + 1);
  return v;
}

}  // namespace mesh_detail

std::array<uint32_t, 3> chunk_counts(const Dims& cells, uint32_t cc) {
  if (cc == 0) throw_usage("chunk size must be at least 1 cell");
  return {(cells.nx + cc - 1) / cc, (cells.ny + cc - 1) / cc, (cells.nz + cc - 1) / cc};
}

ChunkSampleBox chunk_sample_box(const Dims& cells, uint32_t cc, std::array<int32_t, 3> chunk) {
  check_chunk(cells, cc, chunk);
  const uint32_t n[3] = {cells.nx, cells.ny, cells.nz};
  ChunkSampleBox b;
  for (size_t a = 0; a < 3; ++a) {
    const int64_t start = int64_t(chunk[a]) * cc;
    b.lo[a] = uint32_t(std::max<int64_t>(0, start - 1));
    b.hi[a] = uint32_t(std::min<int64_t>(n[a], start + cc));
  }
  return b;
}

Mesh mesh_chunk(const ByteGrid& sdf, std::array<int32_t, 3> chunk, const MeshOptions& opts) {
  check_options(sdf, opts);
  check_chunk(sdf.cells, opts.chunk_cells, chunk);
  const View paint = opts.paint.paint ? mesh_detail::whole_view(*opts.paint.paint) : View{};
  return chunk_task(sdf.cells, chunk, mesh_detail::whole_view(sdf), paint, opts);
}

Mesh mesh_chunk_samples(const Dims& cells, std::array<int32_t, 3> chunk,
                        std::span<const uint8_t> sdf, std::span<const uint8_t> paint,
                        const MeshOptions& opts) {
  check_dims(cells);
  const ChunkSampleBox box = chunk_sample_box(cells, opts.chunk_cells, chunk);
  if (sdf.size() != box.samples())
    throw_usage("chunk SDF samples: expected " + std::to_string(box.samples()) + ", got " +
                std::to_string(sdf.size()));
  View pv;
  if (opts.paint.paint) {
    if (paint.size() != box.samples())
      throw_usage("chunk paint samples: expected " + std::to_string(box.samples()) + ", got " +
                  std::to_string(paint.size()));
    pv = mesh_detail::buffer_view(paint.data(), box);
  }
  return chunk_task(cells, chunk, mesh_detail::buffer_view(sdf.data(), box), pv, opts);
}

std::vector<ChunkMesh> mesh_chunks(const ByteGrid& sdf, const MeshOptions& opts,
                                   const Progress& progress) {
  check_options(sdf, opts);
  const auto n = chunk_counts(sdf.cells, opts.chunk_cells);
  const size_t total = size_t(n[0]) * n[1] * n[2];
  const View sv = mesh_detail::whole_view(sdf);
  const View pv = opts.paint.paint ? mesh_detail::whole_view(*opts.paint.paint) : View{};
  std::vector<Mesh> meshes(total);
  std::atomic<uint64_t> done{0};
  if (opts.mesher == Mesher::SurfaceNets) {
    // A row of chunks along x at a time: neighbours share their border vertices and rows.
    tbb::parallel_for(size_t(0), size_t(n[1]) * n[2], [&](size_t row) {
      sn_chunk_row(sdf.cells, int32_t(row % n[1]), int32_t(row / n[1]), sv, pv, opts,
                   meshes.data() + row * n[0]);
      const uint64_t d = done += n[0];
      if (progress) progress(d, total);
    });
  } else {
    tbb::parallel_for(size_t(0), total, [&](size_t ci) {
      const std::array<int32_t, 3> c{int32_t(ci % n[0]), int32_t(ci / n[0] % n[1]),
                                     int32_t(ci / (size_t(n[0]) * n[1]))};
      meshes[ci] = chunk_task(sdf.cells, c, sv, pv, opts);
      const uint64_t d = ++done;
      if (progress) progress(d, total);
    });
  }
  std::vector<ChunkMesh> out;
  out.reserve(size_t(std::count_if(meshes.begin(), meshes.end(),
                                   [](const Mesh& m) { return !m.empty(); })));
  for (size_t ci = 0; ci < total; ++ci) {
    if (meshes[ci].empty()) continue;
    ChunkMesh cm;
    cm.chunk = {int32_t(ci % n[0]), int32_t(ci / n[0] % n[1]), int32_t(ci / (size_t(n[0]) * n[1]))};
    cm.mesh = std::move(meshes[ci]);
    out.push_back(std::move(cm));
  }
  return out;
}

Mesh mesh_whole(const ByteGrid& sdf, const MeshOptions& opts) {
  check_options(sdf, opts);
  const View paint = opts.paint.paint ? mesh_detail::whole_view(*opts.paint.paint) : View{};
  const int64_t lo[3] = {0, 0, 0}, hi[3] = {sdf.cells.nx, sdf.cells.ny, sdf.cells.nz};
  Task t = box_task(sdf.cells, mesh_detail::whole_view(sdf), paint, opts, lo, hi);
  return run(t, opts.mesher);
}

}  // namespace voxkit
