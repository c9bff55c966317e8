// Public meshing entry points: chunk boxes, one chunk, every chunk in parallel, whole grid.
#include <algorithm>
#include <atomic>
#include <string>

#include <tbb/parallel_for.h>

#include "lib/error.hpp"
#include "lib/mesh_internal.hpp"

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

// Meshes one chunk from views holding (at least) its sample box.
Mesh chunk_task(const Dims& cells, std::array<int32_t, 3> chunk, const View& sdf,
                const View& paint, const MeshOptions& opts) {
  const ChunkSampleBox box = chunk_sample_box(cells, opts.chunk_cells, chunk);
  Task t;
  t.cells = cells;
  t.chunk_cells = opts.chunk_cells;
  t.sdf = sdf;
  t.normals = opts.normals;
  for (int a = 0; a < 3; ++a) {
    // Read only the chunk's own box, even when the view is the whole grid.
    t.sdf.lo[a] = box.lo[size_t(a)];
    t.sdf.hi[a] = box.hi[size_t(a)];
    t.own_lo[a] = int64_t(chunk[size_t(a)]) * opts.chunk_cells;
    t.own_hi[a] = std::min<int64_t>(t.own_lo[a] + opts.chunk_cells, t.n(a));
  }
  t.sdf.data = sdf.ptr(box.lo[0], box.lo[1], box.lo[2]);
  if (!paint.empty()) {
    t.paint = paint;
    for (int a = 0; a < 3; ++a) {
      t.paint.lo[a] = t.sdf.lo[a];
      t.paint.hi[a] = t.sdf.hi[a];
    }
    t.paint.data = paint.ptr(box.lo[0], box.lo[1], box.lo[2]);
    t.layer_count = opts.paint.layer_count;
  }
  return run(t, opts.mesher);
}

// Surface Nets over the row of chunks (0 .. n[0] - 1, cy, cz), one mesh per chunk to outs:
// the same meshes as chunk_task makes, with the work the chunks of a row share done once.
void sn_chunk_row(const Dims& cells, int32_t cy, int32_t cz, const View& sdf, const View& paint,
                  const MeshOptions& opts, Mesh* outs) {
  const ChunkSampleBox first = chunk_sample_box(cells, opts.chunk_cells, {0, cy, cz});
  Task t;
  t.cells = cells;
  t.chunk_cells = opts.chunk_cells;
  t.normals = opts.normals;
  int64_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = first.lo[size_t(a)];
    hi[a] = first.hi[size_t(a)];
  }
  lo[0] = 0;
  hi[0] = cells.nx;
  t.own_lo[0] = 0;
  t.own_hi[0] = cells.nx;
  for (int a = 1; a < 3; ++a) {
    t.own_lo[a] = int64_t(a == 1 ? cy : cz) * opts.chunk_cells;
    t.own_hi[a] = std::min<int64_t>(t.own_lo[a] + opts.chunk_cells, t.n(a));
  }
  auto narrow = [&](const View& v) {
    View n = v;
    for (int a = 0; a < 3; ++a) {
      n.lo[a] = lo[a];
      n.hi[a] = hi[a];
    }
    n.data = v.ptr(lo[0], lo[1], lo[2]);
    return n;
  };
  t.sdf = narrow(sdf);
  if (!paint.empty()) {
    t.paint = narrow(paint);
    t.layer_count = opts.paint.layer_count;
  }
  mesh_detail::surface_nets_parts(t, opts.chunk_cells, outs);
  for (uint32_t j = 0; j < chunk_counts(cells, opts.chunk_cells)[0]; ++j)
    if (outs[j].indices.empty()) outs[j] = Mesh{};
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
  Task t;
  t.cells = sdf.cells;
  t.chunk_cells = opts.chunk_cells;
  t.sdf = mesh_detail::whole_view(sdf);
  t.normals = opts.normals;
  for (int a = 0; a < 3; ++a) t.own_hi[a] = t.n(a);
  if (opts.paint.paint) {
    t.paint = mesh_detail::whole_view(*opts.paint.paint);
    t.layer_count = opts.paint.layer_count;
  }
  return run(t, opts.mesher);
}

}  // namespace voxkit
