// Batch Surface Nets vertex offsets: every kernel, bit for bit against the definition.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "lib/mesh/sn_offsets.hpp"

using namespace voxkit::mesh_detail;

namespace {

// The definition written out plainly for one cell's corner bytes (corner bits 1 x, 2 y, 4 z).
std::array<float, 4> reference(const uint8_t (&v)[8]) {
  constexpr int kLow[3][4] = {{0, 2, 4, 6}, {0, 1, 4, 5}, {0, 1, 2, 3}};
  int count = 0, base[3] = {0, 0, 0};
  float sum[3];
  for (int axis = 0; axis < 3; ++axis) {
    float e[4];
    for (int j = 0; j < 4; ++j) {
      const int lo = kLow[axis][j], hi = lo + (1 << axis);
      const bool cross = (v[lo] < 128) != (v[hi] < 128);
      e[j] = cross ? (127.5f - float(v[lo])) / float(v[hi] - v[lo]) : 0.0f;
      if (cross) {
        ++count;
        for (int k = 0; k < 3; ++k) base[k] += (lo >> k) & 1;
      }
    }
    sum[axis] = (e[0] + e[2]) + (e[1] + e[3]);
  }
  const float inv = 1.0f / float(count);
  return {(float(base[0]) + sum[0]) * inv, (float(base[1]) + sum[1]) * inv,
          (float(base[2]) + sum[2]) * inv, 0.0f};
}

struct alignas(16) Quad {
  float f[4];
};

std::vector<OffsetsKernel> kernels() {
  std::vector<OffsetsKernel> out;
  for (OffsetsKernel k : {OffsetsKernel::scalar, OffsetsKernel::sse2, OffsetsKernel::avx2})
    if (sn_offsets_supported(k)) out.push_back(k);
  return out;
}

const char* name(OffsetsKernel k) {
  return k == OffsetsKernel::avx2 ? "avx2" : k == OffsetsKernel::sse2 ? "sse2" : "scalar";
}

// Runs kernel k over the cells and compares each result with the definition, byte for
// byte; the output slots after the last cell must be left as they were.
void check(OffsetsKernel k, const uint8_t* base, const std::vector<int32_t>& offset, int64_t sy,
           int64_t sz) {
  const size_t n = offset.size();
  Quad sentinel;
  std::memset(&sentinel, 0xa5, sizeof sentinel);
  std::vector<Quad> out(n + 2, sentinel);
  sn_offsets_with(k, base, offset.data(), n, sy, sz, out[0].f);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = base + offset[i];
    uint8_t v[8];
    for (int c = 0; c < 8; ++c) v[c] = p[(c & 1) + ((c >> 1) & 1) * sy + ((c >> 2) & 1) * sz];
    const std::array<float, 4> want = reference(v);
    if (std::memcmp(want.data(), out[i].f, sizeof(float) * 4) != 0 && bad++ < 3) {
      INFO("kernel " << name(k) << " cell " << i << " of " << n << " corners " << int(v[0]) << ' '
                     << int(v[1]) << ' ' << int(v[2]) << ' ' << int(v[3]) << ' ' << int(v[4]) << ' '
                     << int(v[5]) << ' ' << int(v[6]) << ' ' << int(v[7]) << " want " << want[0]
                     << ' ' << want[1] << ' ' << want[2] << " got " << out[i].f[0] << ' '
                     << out[i].f[1] << ' ' << out[i].f[2] << ' ' << out[i].f[3]);
      CHECK(false);
    }
  }
  CHECK(bad == 0);
  CHECK(std::memcmp(&out[n], &sentinel, sizeof sentinel) == 0);
  CHECK(std::memcmp(&out[n + 1], &sentinel, sizeof sentinel) == 0);
}

// Cells stored one after another as 2x2x2 blocks (sy 2, sz 4: the tightest layout the
// kernels accept), so a cell's corner c is its byte c.
struct Blocks {
  std::vector<uint8_t> bytes;
  std::vector<int32_t> offset;
  void add(const uint8_t (&v)[8]) {
    offset.push_back(int32_t(bytes.size()));
    bytes.insert(bytes.end(), v, v + 8);
  }
  void check_all() const {
    for (OffsetsKernel k : kernels()) check(k, bytes.data(), offset, 2, 4);
  }
};

bool mixed(const uint8_t* p, int64_t sy, int64_t sz) {
  int solid = 0;
  for (int c = 0; c < 8; ++c) solid += p[(c & 1) + ((c >> 1) & 1) * sy + ((c >> 2) & 1) * sz] < 128;
  return solid != 0 && solid != 8;
}

}  // namespace

TEST_CASE("sn offsets: every kernel this machine runs is listed", "[mesh]") {
  CHECK(sn_offsets_supported(OffsetsKernel::scalar));
  CHECK(sn_offsets_supported(sn_offsets_best()));
#if defined(__SSE2__)
  CHECK(sn_offsets_supported(OffsetsKernel::sse2));
#endif
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  CHECK(sn_offsets_supported(OffsetsKernel::avx2) == bool(__builtin_cpu_supports("avx2")));
#endif
}

TEST_CASE("sn offsets match the definition bit for bit for every solid mask", "[mesh]") {
  std::mt19937 rng(41);
  std::uniform_int_distribution<int> low(0, 127), pick(0, 3);
  Blocks b;
  for (unsigned mask = 1; mask < 255; ++mask)
    for (int r = 0; r < 200; ++r) {
      uint8_t v[8];
      for (int c = 0; c < 8; ++c) {
        // A quarter of the corners at the ends of their side's range: 0 or 127, 128 or 255.
        const int u = pick(rng) == 0 ? (pick(rng) & 1) * 127 : low(rng);
        v[c] = uint8_t((mask >> c) & 1 ? u : 255 - u);
      }
      b.add(v);
    }
  b.check_all();
}

TEST_CASE("sn offsets match the definition for every cell of the values 0, 127, 128, 255",
          "[mesh]") {
  constexpr uint8_t kValues[4] = {0, 127, 128, 255};
  Blocks b;
  for (unsigned code = 0; code < 65536; ++code) {
    uint8_t v[8];
    for (int c = 0; c < 8; ++c) v[c] = kValues[(code >> (2 * c)) & 3];
    if (mixed(v, 2, 4)) b.add(v);
  }
  REQUIRE(b.offset.size() == 65536 - 2 * 256);
  b.check_all();
}

TEST_CASE("sn offsets match the definition on grid batches of 0 to 40 cells in any order",
          "[mesh]") {
  // A 23x11x9-cell grid of samples near the surface value, so that most cells are mixed.
  constexpr int64_t nx = 24, ny = 12, nz = 10, sy = nx, sz = nx * ny;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> near(96, 160), any(0, 255), pick(0, 7);
  std::vector<uint8_t> grid(size_t(sz * nz));
  for (auto& s : grid) s = uint8_t(pick(rng) == 0 ? any(rng) : near(rng));
  std::vector<int32_t> cells;
  for (int64_t z = 0; z + 1 < nz; ++z)
    for (int64_t y = 0; y + 1 < ny; ++y)
      for (int64_t x = 0; x + 1 < nx; ++x) {
        const int64_t o = x + sy * y + sz * z;
        if (mixed(grid.data() + o, sy, sz)) cells.push_back(int32_t(o));
      }
  REQUIRE(cells.size() > 1000);
  std::uniform_int_distribution<size_t> cell(0, cells.size() - 1);
  for (size_t n = 0; n <= 40; ++n)
    for (int r = 0; r < 4; ++r) {
      std::vector<int32_t> batch(n);
      for (auto& o : batch) o = cells[cell(rng)];
      for (OffsetsKernel k : kernels()) check(k, grid.data(), batch, sy, sz);
    }
  // Runs of neighbouring cells along x (read as whole rows by the AVX2 kernel), of every
  // length, starting anywhere in the list of mixed cells.
  for (size_t n = 0; n <= 40; ++n)
    for (int r = 0; r < 4; ++r) {
      const size_t from = cell(rng) % (cells.size() - n);
      std::vector<int32_t> batch(cells.begin() + std::ptrdiff_t(from),
                                 cells.begin() + std::ptrdiff_t(from + n));
      for (OffsetsKernel k : kernels()) check(k, grid.data(), batch, sy, sz);
    }
  size_t runs = 0;  // how many steps of eight in those lists are true runs
  for (size_t i = 0; i + 8 <= cells.size(); ++i) runs += cells[i + 7] - cells[i] == 7;
  CHECK(runs > 100);
  // Offsets are relative to any base: the same cells from a base in the grid's middle.
  const int64_t mid = sz * (nz / 2);
  std::vector<int32_t> shifted;
  for (size_t i = 0; i < 37; ++i) shifted.push_back(int32_t(cells[cell(rng)] - mid));
  for (OffsetsKernel k : kernels()) check(k, grid.data() + mid, shifted, sy, sz);
  // The entry point that picks a kernel gives the same bits.
  std::vector<Quad> a(cells.size()), b(cells.size());
  sn_offsets(grid.data(), cells.data(), cells.size(), sy, sz, a[0].f);
  sn_offsets_with(OffsetsKernel::scalar, grid.data(), cells.data(), cells.size(), sy, sz, b[0].f);
  CHECK(std::memcmp(a.data(), b.data(), sizeof(Quad) * cells.size()) == 0);
}

#if defined(__unix__)
TEST_CASE("sn offsets read no byte outside the cells, even at a grid's first and last cell",
          "[mesh]") {
  // A grid filling one page exactly, between two pages that fault when touched: a read
  // before the first sample or after the last one crashes the test.
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  REQUIRE(page % 256 == 0);
  void* map = mmap(nullptr, 3 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  uint8_t* grid = static_cast<uint8_t*>(map) + page;
  REQUIRE(mprotect(grid, page, PROT_READ | PROT_WRITE) == 0);
  const int64_t sy = 16, sz = 256, nz = int64_t(page) / sz;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> any(0, 255);
  for (size_t i = 0; i < page; ++i) grid[i] = uint8_t(any(rng));
  // The first cell at the first sample, the last cell at the last sample (its corner 7),
  // and runs of nine mixed cells along x from the first and up to the last: the samples
  // of the first and last rows alternate between solid and air.
  const int32_t last = int32_t(page - 1 - sy - sz - 1);
  grid[0] = 0;
  grid[page - 1] = 0;
  for (int32_t i = 0; i < 9; ++i) {
    grid[size_t(i + 1)] = uint8_t(i % 2 ? 0 : 200);
    grid[page - 1 - size_t(i + 1)] = uint8_t(i % 2 ? 0 : 200);
  }
  std::vector<int32_t> first_run, last_run;
  for (int32_t i = 0; i < 9; ++i) {
    first_run.push_back(i);
    last_run.insert(last_run.begin(), last - i);
  }
  std::vector<int32_t> cells;
  for (int64_t z = 0; z + 1 < nz; ++z)
    for (int64_t y = 0; y + 1 < 16; ++y)
      for (int64_t x = 0; x + 1 < 16; ++x) {
        const int64_t o = x + sy * y + sz * z;
        if (mixed(grid + o, sy, sz)) cells.push_back(int32_t(o));
      }
  REQUIRE(cells.front() == 0);
  REQUIRE(cells.back() == last);
  for (int32_t o : first_run) REQUIRE(mixed(grid + o, sy, sz));
  for (int32_t o : last_run) REQUIRE(mixed(grid + o, sy, sz));
  // The edge cells alone, as full steps and as the tail of a step, in runs, and all cells.
  for (OffsetsKernel k : kernels()) {
    check(k, grid, {0}, sy, sz);
    check(k, grid, {last}, sy, sz);
    check(k, grid, {last, 0, last, 0, last, 0, last, 0}, sy, sz);
    check(k, grid, first_run, sy, sz);
    check(k, grid, last_run, sy, sz);
    check(k, grid, {first_run.begin(), first_run.end() - 1}, sy, sz);
    check(k, grid, {last_run.begin() + 1, last_run.end()}, sy, sz);
    check(k, grid, cells, sy, sz);
  }
  munmap(map, 3 * page);
}
#endif
