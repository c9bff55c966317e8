// Sizing large byte grids: parallel page population, then the vector's zero-fill.
#include "lib/grid_alloc.hpp"

#include <sys/mman.h>
#include <tbb/parallel_for.h>

#include <cstdint>

namespace voxkit {
namespace {

#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // Linux 5.14; older kernels answer EINVAL and are skipped
#endif

constexpr uintptr_t kPage = 4096;
constexpr size_t kPopulateSlice = size_t(16) << 20;

}  // namespace

void size_grid_for_overwrite(ByteGrid& g, const Dims& dims) {
  const size_t n = size_t(dims.samples());
  g.cells = dims;
  if (g.data.size() == n) return;
  if (g.data.capacity() < n) {
    std::vector<uint8_t>().swap(g.data);
    g.data.reserve(n);
    // Whole pages inside the new buffer only; the madvise does not change their contents
    // (fresh anonymous memory reads as zero either way), it only maps them up front.
    const uintptr_t p = reinterpret_cast<uintptr_t>(g.data.data());
    const uintptr_t a = (p + kPage - 1) & ~(kPage - 1), b = (p + n) & ~(kPage - 1);
    if (b > a + kPopulateSlice) {
      const size_t slices = (b - a + kPopulateSlice - 1) / kPopulateSlice;
      tbb::parallel_for(size_t(0), slices, [&](size_t k) {
        const uintptr_t s = a + k * kPopulateSlice, e = std::min<uintptr_t>(b, s + kPopulateSlice);
        madvise(reinterpret_cast<void*>(s), e - s, kPopulateWrite);
      });
    }
  }
  g.data.resize(n);
}

}  // namespace voxkit
