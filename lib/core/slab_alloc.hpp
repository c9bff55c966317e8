// An allocator for large outputs written once in many pieces (the grass scatter's blades per
// cell): blocks carved from 2 MiB-aligned slabs that the kernel is asked to back with huge
// pages. A block of half a megabyte from malloc is 128 pages of 4 KiB, each of which costs a
// fault on its first write; in a virtual machine whose page tables are shadowed by the host,
// that first write costs microseconds even when the page was populated beforehand. Measured
// on such a machine: 140 MB of per-cell blocks took 190 ms to write, the same bytes in huge
// pages 5 ms (docs/grass.md).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace voxkit {

namespace slab_detail {
// A block of `bytes` aligned to 64 bytes: from the calling thread's current slab, a new slab
// when it is full, or a mapping of its own when large. Freed from any thread; a slab is given
// back when every block carved from it is freed and its thread has moved on (up to 256 MiB of
// such slabs are kept for reuse, the rest unmapped).
void* allocate(size_t bytes);
void deallocate(void* block, size_t bytes) noexcept;
bool slabs();  // false in AddressSanitizer builds: exact blocks from operator new (aligned)
}  // namespace slab_detail

template <class T>
struct SlabAllocator : std::allocator<T> {
  static_assert(alignof(T) <= 64);
  using value_type = T;
  T* allocate(size_t n) {
    if (n > size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(slab_detail::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept { slab_detail::deallocate(p, n * sizeof(T)); }
  template <class U>
  struct rebind {
    using other = SlabAllocator<U>;
  };
  SlabAllocator() noexcept = default;
  template <class U>
  SlabAllocator(const SlabAllocator<U>&) noexcept {}
  template <class U>
  bool operator==(const SlabAllocator<U>&) const noexcept {
    return true;
  }
};
template <class T>
using SlabVector = std::vector<T, SlabAllocator<T>>;

}  // namespace voxkit
