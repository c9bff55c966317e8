// Large byte grids: parallel page population before the zero-fill, parallel comparison.
#include "lib/core/grid_alloc.hpp"

#include <tbb/parallel_for.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace voxkit {
namespace {

#if defined(__linux__)
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // Linux 5.14; older kernels answer EINVAL and are skipped
#endif

constexpr uintptr_t kPage = 4096;
constexpr uintptr_t kHugePage = uintptr_t(2) << 20;
constexpr size_t kPopulateSlice = size_t(16) << 20;

// Maps the whole pages inside [p, p + n) up front, in parallel slices when large. The madvise
// calls do not change the contents (fresh anonymous memory reads as zero either way). Huge
// pages where the kernel offers them on request: a 2 MiB page is cleared in one go instead of
// 512 faults, and the bake's writes miss the TLB less. Even one call for a few pages pays:
// a page fault costs several microseconds, far more in a virtual machine.
void populate(uintptr_t p, size_t n) {
  const uintptr_t a = (p + kPage - 1) & ~(kPage - 1), b = (p + n) & ~(kPage - 1);
  const uintptr_t ha = (p + kHugePage - 1) & ~(kHugePage - 1), hb = (p + n) & ~(kHugePage - 1);
  if (hb > ha) madvise(reinterpret_cast<void*>(ha), hb - ha, MADV_HUGEPAGE);
  if (b <= a) return;
  if (b - a <= kPopulateSlice) {
    madvise(reinterpret_cast<void*>(a), b - a, kPopulateWrite);
    return;
  }
  const size_t slices = (b - a + kPopulateSlice - 1) / kPopulateSlice;
  tbb::parallel_for(size_t(0), slices, [&](size_t k) {
    const uintptr_t s = a + k * kPopulateSlice, e = std::min<uintptr_t>(b, s + kPopulateSlice);
    madvise(reinterpret_cast<void*>(s), e - s, kPopulateWrite);
  });
}
#else
void populate(uintptr_t, size_t) {}  // elsewhere the zero-fill maps the pages
#endif

}  // namespace

void populate_pages(void* p, size_t n) { populate(reinterpret_cast<uintptr_t>(p), n); }

void trim_heap() noexcept {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

bool equal_parallel(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  if (a.size() != b.size()) return false;
  constexpr size_t kSlice = size_t(8) << 20;
  const size_t slices = (a.size() + kSlice - 1) / kSlice;
  std::atomic<bool> same{true};
  tbb::parallel_for(size_t(0), slices, [&](size_t k) {
    if (!same.load(std::memory_order_relaxed)) return;
    const size_t s = k * kSlice, len = std::min(kSlice, a.size() - s);
    if (std::memcmp(a.data() + s, b.data() + s, len) != 0) same.store(false, std::memory_order_relaxed);
  });
  return same.load();
}

void size_grid_for_overwrite(ByteGrid& g, const Dims& dims) {
  const size_t n = size_t(dims.samples());
  g.cells = dims;
  if (g.data.size() == n) return;
  if (g.data.capacity() < n) {
    std::vector<uint8_t>().swap(g.data);
    g.data.reserve(n);
    populate(reinterpret_cast<uintptr_t>(g.data.data()), n);
  }
  g.data.resize(n);
}

}  // namespace voxkit
