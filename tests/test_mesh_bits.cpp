// Solid bits of a sample box (SolidBits): every path against a plain reference, for many row
// lengths and strides, and no path reading a byte outside the box's rows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "lib/core/sanitizer.hpp"
#if defined(VOXKIT_ASAN)
#include <sanitizer/asan_interface.h>
#endif

#include "lib/mesh/mesh_internal.hpp"

using namespace voxkit::mesh_detail;
using Path = SolidBits::Path;

namespace {

constexpr Path kPaths[] = {Path::Scalar, Path::Sse2, Path::Avx2};

const char* name(Path p) {
  return p == Path::Avx2 ? "avx2" : p == Path::Sse2 ? "sse2" : "scalar";
}

// The view of a box of samples at data with strides sy, sz, its sample lo at `lo`.
View view_of(const uint8_t* data, const int64_t (&lo)[3], const int64_t (&n)[3], int64_t sy,
             int64_t sz) {
  View v;
  v.data = data;
  for (int a = 0; a < 3; ++a) {
    v.lo[a] = lo[a];
    v.hi[a] = lo[a] + n[a] - 1;
  }
  v.sy = sy;
  v.sz = sz;
  return v;
}

// SolidBits over the box lo..hi of v on every path, each checked word by word (bits past a
// row's end clear) and for uniformity against the samples read one at a time.
void check_paths(const View& v, const int64_t (&lo)[3], const int64_t (&hi)[3]) {
  const int64_t n = hi[0] - lo[0] + 1, words = (n + 63) / 64;
  bool has_solid = false, has_air = false;
  std::vector<uint64_t> want;
  for (int64_t z = lo[2]; z <= hi[2]; ++z)
    for (int64_t y = lo[1]; y <= hi[1]; ++y)
      for (int64_t k = 0; k < words; ++k) {
        uint64_t w = 0;
        for (int64_t i = 0; i < 64 && 64 * k + i < n; ++i) {
          const bool solid = v.at(lo[0] + 64 * k + i, y, z) < 128;
          w |= uint64_t(solid) << i;
          (solid ? has_solid : has_air) = true;
        }
        want.push_back(w);
      }
  for (Path p : kPaths) {
    // Storage left over from a larger box must not matter.
    std::vector<uint64_t> storage(want.size() + 7, 0x5a5a5a5a5a5a5a5aull);
    const SolidBits bits(v, lo, hi, storage, p);
    INFO("path " << name(p) << " row of " << n << " samples, " << (hi[1] - lo[1] + 1) << "x"
                 << (hi[2] - lo[2] + 1) << " rows, sy " << v.sy << " sz " << v.sz);
    REQUIRE(bits.words() == words);
    CHECK(bits.uniform() == !(has_solid && has_air));
    size_t i = 0, bad = 0;
    for (int64_t z = lo[2]; z <= hi[2]; ++z)
      for (int64_t y = lo[1]; y <= hi[1]; ++y)
        for (int64_t k = 0; k < words; ++k, ++i)
          if (bits.row(y, z)[k] != want[i] && bad++ < 3) {
            INFO("row y " << y << " z " << z << " word " << k << " want " << std::hex << want[i]
                          << " got " << bits.row(y, z)[k]);
            CHECK(false);
          }
    CHECK(bad == 0);
  }
}

// Bytes with the values either side of 128 and the extremes often.
uint8_t random_byte(std::mt19937& rng) {
  const unsigned r = rng();
  switch (r % 8) {
    case 0: return 127;
    case 1: return 128;
    case 2: return (r >> 3) & 1 ? 0 : 255;
    default: return uint8_t(r >> 8);
  }
}

// A box of nx x ny x nz samples in a buffer of exactly the bytes its last row ends at, rows
// `gap` bytes apart beyond their length and slabs `slab_gap` rows apart beyond theirs.
struct Buffer {
  int64_t n[3], sy, sz;
  std::vector<uint8_t> bytes;
  Buffer(int64_t nx, int64_t ny, int64_t nz, int64_t gap, int64_t slab_gap)
      : n{nx, ny, nz}, sy(nx + gap), sz(sy * (ny + slab_gap)) {
    bytes.assign(size_t((nz - 1) * sz + (ny - 1) * sy + nx), 0xee);
  }
  uint8_t& at(int64_t x, int64_t y, int64_t z) { return bytes[size_t(x + y * sy + z * sz)]; }
  template <class F>
  void fill(F&& f) {
    for (int64_t z = 0; z < n[2]; ++z)
      for (int64_t y = 0; y < n[1]; ++y)
        for (int64_t x = 0; x < n[0]; ++x) at(x, y, z) = f();
  }
  // Checks the whole box, its samples numbered from lo.
  void check(const int64_t (&lo)[3]) const {
    const View v = view_of(bytes.data(), lo, n, sy, sz);
    const int64_t hi[3] = {lo[0] + n[0] - 1, lo[1] + n[1] - 1, lo[2] + n[2] - 1};
    check_paths(v, lo, hi);
  }
};

}  // namespace

TEST_CASE("solid bits: the fastest path is the one this machine runs", "[mesh]") {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
  CHECK(SolidBits::best_path() ==
        (__builtin_cpu_supports("avx2") ? Path::Avx2 : Path::Sse2));
#endif
  // The default constructor gives the same bits as the chosen path.
  std::vector<uint8_t> s(100);
  for (size_t i = 0; i < s.size(); ++i) s[i] = uint8_t(i * 37);
  const int64_t lo[3] = {0, 0, 0}, hi[3] = {99, 0, 0}, n[3] = {100, 1, 1};
  const View v = view_of(s.data(), lo, n, 100, 100);
  std::vector<uint64_t> a, b;
  const SolidBits x(v, lo, hi, a), y(v, lo, hi, b, SolidBits::best_path());
  CHECK(a == b);
  CHECK(x.uniform() == y.uniform());
}

TEST_CASE("solid bits: every path matches the reference for row lengths 1 to 200 and more",
          "[mesh]") {
  std::mt19937 rng(2024);
  std::vector<int64_t> lengths;
  for (int64_t n = 1; n <= 200; ++n) lengths.push_back(n);
  for (int64_t n : {255, 256, 257, 319, 320, 321, 513, 1000}) lengths.push_back(n);
  for (int64_t n : lengths) {
    // Dense rows, rows with a gap, slabs with a gap; sizes chosen so runs stay short.
    const int64_t ny = 1 + int64_t(rng() % 3), nz = 1 + int64_t(rng() % 3);
    for (auto [gap, slab_gap] : {std::pair<int64_t, int64_t>{0, 0}, {5, 0}, {n + 3, 2}}) {
      Buffer b(n, ny, nz, gap, slab_gap);
      b.fill([&] { return random_byte(rng); });
      b.check({int64_t(rng() % 50), int64_t(rng() % 50), int64_t(rng() % 50)});
    }
  }
}

TEST_CASE("solid bits: uniform boxes are uniform on every path until one sample differs",
          "[mesh]") {
  std::mt19937 rng(7);
  for (int64_t n : {1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 257}) {
    for (bool solid : {true, false}) {
      Buffer b(n, 3, 2, 3, 1);
      // Solid bytes 0 .. 127, air 128 .. 255, the threshold values often.
      auto side = [&] {
        const unsigned r = rng() % 4 == 0 ? 127 : rng() % 128;
        return uint8_t(solid ? r : 255 - r);
      };
      b.fill(side);
      b.check({0, 0, 0});
      // One sample of the other side at the row's first, last, and word-boundary places,
      // in the first, a middle and the last row.
      std::vector<int64_t> xs{0, n - 1, n / 2};
      for (int64_t x : {31, 32, 63, 64, 65, 128, 192}) xs.push_back(x);
      for (int64_t x : xs) {
        if (x >= n) continue;
        for (auto [y, z] : {std::pair<int64_t, int64_t>{0, 0}, {1, 0}, {2, 1}}) {
          const uint8_t keep = b.at(x, y, z);
          b.at(x, y, z) = solid ? 128 : 127;
          b.check({0, 0, 0});
          b.at(x, y, z) = keep;
        }
      }
    }
  }
}

TEST_CASE("solid bits: a box inside a larger view reads only its own samples", "[mesh]") {
  std::mt19937 rng(99);
  Buffer b(300, 6, 5, 0, 0);
  b.fill([&] { return random_byte(rng); });
  const int64_t vlo[3] = {10, 20, 30};
  const View v = view_of(b.bytes.data(), vlo, b.n, b.sy, b.sz);
  for (int r = 0; r < 200; ++r) {
    int64_t lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      const int64_t p = int64_t(rng() % uint64_t(b.n[a])), q = int64_t(rng() % uint64_t(b.n[a]));
      lo[a] = vlo[a] + std::min(p, q);
      hi[a] = vlo[a] + std::max(p, q);
    }
    check_paths(v, lo, hi);
  }
  // All air round an all-solid inner box: the box alone is uniform.
  b.fill([] { return uint8_t(200); });
  for (int64_t z = 1; z < 4; ++z)
    for (int64_t y = 1; y < 5; ++y)
      for (int64_t x = 1; x < 299; ++x) b.at(x, y, z) = 3;
  const int64_t lo[3] = {11, 21, 31}, hi[3] = {10 + 298, 24, 33};
  for (Path p : kPaths) {
    std::vector<uint64_t> s;
    CHECK(SolidBits(v, lo, hi, s, p).uniform());
  }
  check_paths(v, lo, hi);
}

#if defined(__unix__)
TEST_CASE("solid bits: no path reads before the first row or after the last sample",
          "[mesh]") {
  // The box is put against an unreadable page, at the start and at the end of a readable
  // one: a read outside it faults.
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 3 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  uint8_t* mem = static_cast<uint8_t*>(map) + page;
  REQUIRE(mprotect(mem, page, PROT_READ | PROT_WRITE) == 0);
  std::mt19937 rng(5);
  for (int64_t n = 1; n <= 300; ++n) {
    const int64_t ny = 3, nz = 2, sy = n, sz = n * ny;
    const size_t total = size_t(sz * nz);
    if (total > page) break;
    for (uint8_t* at : {mem, mem + page - total}) {
      for (size_t i = 0; i < total; ++i) at[i] = random_byte(rng);
      const int64_t lo[3] = {0, 0, 0}, hi[3] = {n - 1, ny - 1, nz - 1}, dims[3] = {n, ny, nz};
      check_paths(view_of(at, lo, dims, sy, sz), lo, hi);
    }
  }
  munmap(map, 3 * page);
}
#endif

#if defined(VOXKIT_ASAN)
TEST_CASE("solid bits: no path reads the bytes between rows", "[mesh]") {
  // Rows start 8-byte aligned and the bytes after each row are poisoned, so AddressSanitizer
  // reports any read of them (or of the bytes before a row, which belong to the previous
  // gap).
  std::mt19937 rng(13);
  for (int64_t n = 1; n <= 200; ++n) {
    const int64_t sy = (n + 7) / 8 * 8 + 8;
    Buffer b(n, 3, 2, sy - n, 1);
    b.fill([&] { return random_byte(rng); });
    // From each row's end to the next row's (aligned) start, the slab gap's row included.
    for (int64_t z = 0; z < 2; ++z)
      for (int64_t y = 0; y < 3; ++y) {
        const int64_t end = y * b.sy + z * b.sz + n;
        const int64_t next = y + 1 < 3 ? end - n + b.sy : (z + 1) * b.sz;
        if (z == 1 && y == 2) break;
        ASAN_POISON_MEMORY_REGION(b.bytes.data() + end, size_t(next - end));
      }
    b.check({0, 0, 0});
    ASAN_UNPOISON_MEMORY_REGION(b.bytes.data(), b.bytes.size());
  }
}
#endif
