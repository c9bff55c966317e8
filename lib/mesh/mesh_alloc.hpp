// The allocator of mesh arrays: blocks from a size-class pool (lib/mesh/mesh_alloc.cpp), and
// value-initialisation that leaves trivial elements uninitialised.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace voxkit {

// Blocks for mesh arrays (lib/mesh/mesh_alloc.cpp): ::operator new, except that blocks of 257
// bytes to 1 MiB freed by mesh arrays are kept by size class and reused.
namespace mesh_alloc_detail {
void* allocate(size_t bytes);
void deallocate(void* block, size_t bytes) noexcept;
bool pooling();                   // false in AddressSanitizer builds: exact blocks
size_t block_size(size_t bytes);  // the size of the block allocate(bytes) gives
}  // namespace mesh_alloc_detail

// Gives the blocks kept for reuse back to the C library and asks it to return its free pages
// to the system: for a caller that has dropped most of its meshes and goes on to other work
// (a merge, once the chunk meshes are gone), so the peak memory does not hold both.
void release_mesh_memory() noexcept;

// An allocator whose value-initialisation (resize, or a vector of n) leaves trivial elements
// uninitialised: the meshers size their output first and then write every element, so the
// zero fill would be a wasted pass over memory. Its blocks come from mesh_alloc_detail.
template <class T>
struct NoInitAllocator : std::allocator<T> {
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  using value_type = T;
  T* allocate(size_t n) {
    if (n > size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(mesh_alloc_detail::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept { mesh_alloc_detail::deallocate(p, n * sizeof(T)); }
  template <class U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  NoInitAllocator() noexcept = default;
  template <class U>
  NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using MeshArray = std::vector<T, NoInitAllocator<T>>;

}  // namespace voxkit
