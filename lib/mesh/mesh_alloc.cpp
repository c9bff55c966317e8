// Memory for mesh arrays (MeshArray, lib/mesh/mesh.hpp): blocks of 257 bytes to 1 MiB are kept
// when freed, by size class, and handed out again. Chunked meshing allocates thousands of
// arrays of a few kilobytes at a time; glibc serves such requests from its sorted bins and
// reads the header of every freed block it passes, each a cache miss when the meshes that
// held them were freed long before. A process that meshes again and again (a benchmark, an
// editor re-meshing, a batch of zones) gets its blocks back from a list instead.
#include "lib/mesh/mesh_alloc.hpp"

#include <atomic>
#include <bit>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#include "lib/core/grid_alloc.hpp"
#include "lib/core/sanitizer.hpp"

namespace voxkit::mesh_alloc_detail {

namespace {

constexpr bool kPool = !kAddressSanitizer;  // AddressSanitizer sees every array at its exact size

// Size classes: four per octave above 256 bytes (class 0 holds 257 to 320) up to 1 MiB, each
// block as large as its class, so that a block freed from one array fits any other of its
// class (at most a fifth of a block is slack). Smaller blocks are glibc's thread cache's.
constexpr size_t kMin = 256, kMax = size_t(1) << 20;
constexpr int kClasses = 4 * (20 - 8);
constexpr size_t kBudget = size_t(256) << 20;  // bytes kept at most

// The class of a block of `bytes` (kMin < bytes <= kMax) and its size.
inline int size_class(size_t bytes, size_t& size) {
  const int k = int(std::bit_width(bytes - 1)) - 1;  // 2^k < bytes <= 2^(k + 1)
  const size_t q = (bytes - 1) >> (k - 2);             // 4 .. 7
  size = (q + 1) << (k - 2);
  return 4 * (k - 8) + int(q - 4);
}

struct Pool {
  struct Class {
    std::mutex m;
    std::vector<void*> free;
  };
  Class classes[kClasses];
  std::atomic<size_t> kept{0};
};

// Never destroyed: meshes may be freed by other static objects' destructors at exit.
Pool& pool() {
  static Pool* p = new Pool;
  return *p;
}

}  // namespace

bool pooling() { return kPool; }

size_t block_size(size_t bytes) {
  size_t size = bytes;
  if (kPool && bytes > kMin && bytes <= kMax) size_class(bytes, size);
  return size;
}

void* allocate(size_t bytes) {
  size_t size = bytes;
  if (!kPool || bytes <= kMin || bytes > kMax) return ::operator new(bytes);
  const int c = size_class(bytes, size);
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lock(p.classes[c].m);
    auto& list = p.classes[c].free;
    if (!list.empty()) {
      void* block = list.back();
      list.pop_back();
      p.kept -= size;
      return block;
    }
  }
  return ::operator new(size);
}

void deallocate(void* block, size_t bytes) noexcept {
  size_t size = bytes;
  if (!kPool || bytes <= kMin || bytes > kMax) return ::operator delete(block);
  const int c = size_class(bytes, size);
  Pool& p = pool();
  if (p.kept.fetch_add(size) + size > kBudget) {
    p.kept -= size;
    ::operator delete(block);
    return;
  }
  try {
    std::lock_guard<std::mutex> lock(p.classes[c].m);
    p.classes[c].free.push_back(block);
  } catch (...) {  // no room to list it: give it back
    p.kept -= size;
    ::operator delete(block);
  }
}

}  // namespace voxkit::mesh_alloc_detail

namespace voxkit {

void release_mesh_memory() noexcept {
  using namespace mesh_alloc_detail;
  if (kPool) {
    Pool& p = pool();
    for (auto& c : p.classes) {
      std::vector<void*> blocks;
      {
        std::lock_guard<std::mutex> lock(c.m);
        blocks.swap(c.free);
      }
      for (void* b : blocks) ::operator delete(b);
    }
    p.kept = 0;
  }
  trim_heap();
}

}  // namespace voxkit
