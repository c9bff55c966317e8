// Blocks from huge-page slabs (see slab_alloc.hpp). Each thread carves its blocks from its own
// slab with a bump pointer; the slab's first bytes count the blocks carved and not yet freed,
// and a high bit says that its thread has moved on to another slab. Whoever brings that count
// to zero with the bit set (the last free, or the retiring thread itself) gives the slab back:
// to a few spares kept for the next slabs, or to the system.
#include "lib/core/slab_alloc.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "lib/core/sanitizer.hpp"

namespace voxkit::slab_detail {

namespace {

constexpr bool kSlabs = !kAddressSanitizer;  // AddressSanitizer sees every block at its exact size

#if defined(__linux__)
constexpr size_t kSlab = size_t(32) << 20;  // aligned to its size: a block's slab is found by masking
constexpr size_t kHeader = 64;
constexpr size_t kLargest = kSlab / 4;      // larger blocks are mapped on their own
constexpr size_t kHugePage = size_t(2) << 20;
constexpr uint64_t kRetired = uint64_t(1) << 63;

struct Header {
  std::atomic<uint64_t> live{0};
};

inline size_t round_up(size_t v, size_t to) { return (v + to - 1) & ~(to - 1); }

// `size` bytes aligned to `align` (both powers of two, size a multiple of 4 KiB), advised for
// huge pages.
char* map_aligned(size_t size, size_t align) {
  void* p = mmap(nullptr, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(p), a = round_up(start, align), end = start + size + align;
  if (a > start) munmap(p, a - start);
  if (end > a + size) munmap(reinterpret_cast<void*>(a + size), end - (a + size));
  madvise(reinterpret_cast<void*>(a), size, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(a);
}

// Emptied slabs kept for the next ones, up to a budget: a process that scatters again and again
// (a benchmark, a residency ring streaming cells in and out) gets mapped pages back instead of
// the kernel clearing fresh ones. Never destroyed: blocks may be freed at exit.
constexpr size_t kSpareSlabs = 8;  // 256 MiB
struct Spares {
  std::mutex m;
  std::vector<char*> slabs;
};
Spares& spares() {
  static Spares* s = new Spares;
  return *s;
}

char* take_slab() {
  {
    Spares& s = spares();
    std::lock_guard<std::mutex> lock(s.m);
    if (!s.slabs.empty()) {
      char* p = s.slabs.back();
      s.slabs.pop_back();
      return p;
    }
  }
  return map_aligned(kSlab, kSlab);
}

void release(Header* h) {
  h->~Header();
  char* p = reinterpret_cast<char*>(h);
  {
    Spares& s = spares();
    std::lock_guard<std::mutex> lock(s.m);
    if (s.slabs.size() < kSpareSlabs) {
      s.slabs.push_back(p);
      return;
    }
  }
  munmap(p, kSlab);
}

// The calling thread's slab and how much of it is carved.
struct Current {
  char* slab = nullptr;
  size_t used = 0;
  Current() = default;
  Current(const Current&) = delete;
  Current& operator=(const Current&) = delete;
  ~Current() { retire(); }
  void retire() {
    if (!slab) return;
    Header* h = reinterpret_cast<Header*>(slab);
    if (h->live.fetch_add(kRetired, std::memory_order_acq_rel) == 0) release(h);
    slab = nullptr;
  }
};
thread_local Current current;
#endif

}  // namespace

#if defined(__linux__)
bool slabs() { return kSlabs; }

void* allocate(size_t bytes) {
  if (!kSlabs) return ::operator new(bytes, std::align_val_t(64));
  const size_t size = round_up(bytes ? bytes : 1, 64);
  if (size > kLargest) return map_aligned(round_up(size, kHugePage), kHugePage);
  Current& c = current;
  if (c.slab) {
    Header* h = reinterpret_cast<Header*>(c.slab);
    // Every block carved from this slab has been freed: carve it again from the start (its
    // pages are mapped already).
    if (h->live.load(std::memory_order_acquire) == 0) c.used = kHeader;
    if (c.used + size > kSlab) c.retire();
  }
  if (!c.slab) {
    c.slab = take_slab();
    new (c.slab) Header;
    c.used = kHeader;
  }
  reinterpret_cast<Header*>(c.slab)->live.fetch_add(1, std::memory_order_relaxed);
  void* p = c.slab + c.used;
  c.used += size;
  return p;
}

void deallocate(void* block, size_t bytes) noexcept {
  // (A null block is ignored, as operator delete ignores it: a caller that passed an empty
  // vector's data() to memcmp lets the compiler drop std::vector's own null check.)
  if (!block) return;
  if (!kSlabs) {
    ::operator delete(block, std::align_val_t(64));
    return;
  }
  const size_t size = round_up(bytes ? bytes : 1, 64);
  if (size > kLargest) {
    munmap(block, round_up(size, kHugePage));
    return;
  }
  Header* h = reinterpret_cast<Header*>(reinterpret_cast<uintptr_t>(block) & ~(kSlab - 1));
  if (h->live.fetch_sub(1, std::memory_order_acq_rel) == kRetired + 1) release(h);
}
#else
bool slabs() { return false; }
void* allocate(size_t bytes) { return ::operator new(bytes, std::align_val_t(64)); }
void deallocate(void* block, size_t) noexcept { ::operator delete(block, std::align_val_t(64)); }
#endif

}  // namespace voxkit::slab_detail
