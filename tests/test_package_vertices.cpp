// The package mesher's vertex kernels: every kernel this CPU runs gives the plain path's bits
// (positions in both float modes, normals, masks) on grids full of ties at byte 128, for
// every batch length, and reads no byte outside the cells it is given.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "lib/mesh/package_vertices.hpp"

using namespace voxkit::package_detail;

namespace {

struct Cells {
  std::vector<int32_t> off, cell;
};

// The cells of an nx x ny x nz cell grid (strides sy, sz) with both a solid and an air corner.
Cells active_cells(const uint8_t* g, int nx, int ny, int nz, int64_t sy, int64_t sz) {
  Cells c;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const int64_t i = x + sy * y + sz * z;
        int solid = 0;
        for (int k = 0; k < 8; ++k) solid += g[i + (k & 1) + ((k >> 1) & 1) * sy + ((k >> 2) & 1) * sz] < 128;
        if (solid == 0 || solid == 8) continue;
        c.off.push_back(int32_t(i));
        c.cell.push_back(pack_cell(x - 1, y - 1, z - 1));
      }
  return c;
}

struct Result {
  std::vector<float> pos, nrm;
  std::vector<int32_t> mask;
  bool operator==(const Result& o) const {
    return pos.size() == o.pos.size() && std::memcmp(pos.data(), o.pos.data(), pos.size() * 4) == 0 &&
           std::memcmp(nrm.data(), o.nrm.data(), nrm.size() * 4) == 0 && mask == o.mask;
  }
};

Result run(VertexKernel k, const CellBatch& b, size_t n) {
  Result r;
  r.pos.assign(3 * n + 3, -7.0f);  // one cell more than asked: nothing may be written there
  r.nrm.assign(3 * n + 3, -7.0f);
  r.mask.assign(n + 1, -7);
  package_vertices_with(k, b, n, r.pos.data(), r.nrm.data(), r.mask.data());
  return r;
}

}  // namespace

TEST_CASE("package vertex kernels: the same bits as the plain path", "[package-mesher]") {
  if (!vertex_kernel_supported(VertexKernel::avx2)) SUCCEED("this CPU has no AVX2: only the plain path runs");
  std::mt19937 rng(20261204);
  const int nx = 23, ny = 11, nz = 13;
  const int64_t sy = nx + 1, sz = sy * (ny + 1);
  std::vector<uint8_t> g(size_t(sz * (nz + 1)));
  // Ties and near ties at 128, the extremes, and anything.
  const uint8_t pick[] = {0, 1, 126, 127, 128, 129, 130, 254, 255};
  for (auto& v : g) v = rng() % 3 ? pick[rng() % 9] : uint8_t(rng());
  const Cells c = active_cells(g.data(), nx, ny, nz, sy, sz);
  REQUIRE(c.off.size() > 1000);
  for (const bool editor : {true, false})
    for (const float voxel : {0.5f, 0.3f, 25.0f, 1.0f / 3.0f}) {
      CellBatch b;
      b.base = g.data();
      b.offset = c.off.data(), b.cell = c.cell.data();
      b.sy = sy, b.sz = sz, b.voxel = voxel, b.editor = editor;
      const Result ref = run(VertexKernel::scalar, b, c.off.size());
      CHECK(ref.pos.back() == -7.0f);
      CHECK(ref.mask.back() == -7);
      if (!vertex_kernel_supported(VertexKernel::avx2)) continue;
      CHECK(run(VertexKernel::avx2, b, c.off.size()) == ref);
      // Every batch length up to three steps, from a few starting cells (the tails).
      for (size_t start : {size_t(0), size_t(5), size_t(333)})
        for (size_t n = 1; n <= 24; ++n) {
          CellBatch part = b;
          part.offset += start, part.cell += start;
          INFO("editor " << editor << " voxel " << voxel << " start " << start << " n " << n);
          CHECK(run(VertexKernel::avx2, part, n) == run(VertexKernel::scalar, part, n));
        }
    }
}

TEST_CASE("package vertex kernels: packed cell places", "[package-mesher]") {
  for (int x : {-1, 0, 5, 1022 - 1})
    for (int y : {-1, 0, 16})
      for (int z : {-1, 3, 1021}) {
        const int32_t c = pack_cell(x, y, z);
        CHECK(cell_x(c) == x);
        CHECK(cell_y(c) == y);
        CHECK(cell_z(c) == z);
      }
}

TEST_CASE("package vertex kernels: a hand-checked cell", "[package-mesher]") {
  // One cell: corner 0 solid (byte 64), the rest air (byte 192). Edges 0-1, 0-2, 0-4 cross at
  // t = (64 - 128) / (64 - 192) = 0.5; the mean is (0.5, 0.5, 0.5) / 3 in each axis' sum:
  // x: 0.5 / 3, y: 0.5 / 3, z: 0.5 / 3. Gradient: each axis 4 * 64 - (-64 + 3 * 64) = 128.
  uint8_t g[8] = {64, 192, 192, 192, 192, 192, 192, 192};
  const int32_t off = 0, cell = pack_cell(2, -1, 0);
  CellBatch b;
  b.base = g, b.offset = &off, b.cell = &cell, b.sy = 2, b.sz = 4, b.voxel = 0.5f;
  for (VertexKernel k : {VertexKernel::scalar, VertexKernel::avx2}) {
    if (!vertex_kernel_supported(k)) continue;
    float pos[3], nrm[3];
    int32_t mask;
    package_vertices_with(k, b, 1, pos, nrm, &mask);
    const float inv = 1.0f / 3.0f;
    CHECK(pos[0] == float((2.0 + 0.5 * double(inv)) * 0.5));
    CHECK(pos[1] == float((-1.0 + 0.5 * double(inv)) * 0.5));
    CHECK(pos[2] == float((0.0 + 0.5 * double(inv)) * 0.5));
    const float len = float(std::sqrt(3.0 * 128 * 128));
    CHECK(nrm[0] == 128.0f / len);
    CHECK(nrm[1] == 128.0f / len);
    CHECK(nrm[2] == 128.0f / len);
    CHECK(mask == 1);
  }
}

#if defined(__unix__)
TEST_CASE("package vertex kernels: no byte read outside the cells", "[package-mesher]") {
  // A 2x2x2-sample grid (one cell) whose last sample is the last byte before a page that may
  // not be read, and whose first is the first byte after one.
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  void* mem = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mem != MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(mem);
  REQUIRE(mprotect(bytes, page, PROT_NONE) == 0);
  REQUIRE(mprotect(bytes + 2 * page, page, PROT_NONE) == 0);
  for (const bool at_end : {true, false}) {
    uint8_t* g = at_end ? bytes + 2 * page - 8 : bytes + page;
    const uint8_t v[8] = {0, 255, 255, 0, 255, 0, 0, 255};
    std::memcpy(g, v, 8);
    const int32_t off = 0, cell = pack_cell(0, 0, 0);
    CellBatch b;
    b.base = g, b.offset = &off, b.cell = &cell, b.sy = 2, b.sz = 4;
    for (VertexKernel k : {VertexKernel::scalar, VertexKernel::avx2}) {
      if (!vertex_kernel_supported(k)) continue;
      float pos[3], nrm[3];
      int32_t mask;
      package_vertices_with(k, b, 1, pos, nrm, &mask);
      CHECK(mask == (1 | 8 | 32 | 64));
    }
  }
  munmap(mem, 3 * page);
}
#endif
