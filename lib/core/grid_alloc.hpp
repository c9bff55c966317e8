// Large byte grids quickly: page population in parallel before the zero-fill, and comparison.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/grid.hpp"

namespace voxkit {

// Makes `g` a grid of `dims` whose bytes the caller will overwrite (their values are 0 or
// what they were). A fresh allocation is first populated by the kernel, in parallel slices
// (MADV_POPULATE_WRITE, where the kernel has it), so std::vector's zero-fill runs at memory
// speed instead of taking one page fault per 4 KiB on one core.
void size_grid_for_overwrite(ByteGrid& g, const Dims& dims);

// Maps the pages of a fresh allocation [p, p + n) up front, in parallel slices, with huge
// pages where the kernel offers them; the contents do not change.
void populate_pages(void* p, size_t n);

// Gives `v` room for `n` elements in freshly populated memory (when it has less), so filling
// it costs no page fault per 4 KiB.
template <class T, class A>
void reserve_populated(std::vector<T, A>& v, size_t n) {
  if (v.capacity() >= n) return;
  std::vector<T, A>().swap(v);
  v.reserve(n);
  populate_pages(v.data(), n * sizeof(T));
}

// Asks the C library to give the free pages of its heap back to the system (glibc keeps a
// freed block of any size there once its threshold for separate mappings has grown).
void trim_heap() noexcept;

// Whether a and b hold the same bytes, compared in parallel slices.
bool equal_parallel(std::span<const uint8_t> a, std::span<const uint8_t> b);

}  // namespace voxkit
