// Huge-page slab memory (lib/core/slab_alloc.cpp): aligned blocks that hold what was asked for,
// a thread's slab carved again once all its blocks are freed, blocks freed on other threads,
// slabs filled past their end and given back, blocks too large for a slab, and vectors that
// keep their contents.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "lib/core/slab_alloc.hpp"

using namespace voxkit;
namespace sd = voxkit::slab_detail;

TEST_CASE("slab blocks are aligned to 64 bytes and hold what was asked for", "[slab_alloc]") {
  std::vector<std::pair<uint8_t*, size_t>> blocks;
  for (size_t bytes : {size_t(1), size_t(63), size_t(64), size_t(65), size_t(4096), size_t(524288), size_t(3) << 20}) {
    auto* p = static_cast<uint8_t*>(sd::allocate(bytes));
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
    std::memset(p, int(bytes & 0xFF), bytes);
    blocks.push_back({p, bytes});
  }
  // No block overlaps another: each still holds its own fill.
  for (auto [p, bytes] : blocks) {
    for (size_t i = 0; i < bytes; i += 509) CHECK(p[i] == uint8_t(bytes & 0xFF));
    CHECK(p[bytes - 1] == uint8_t(bytes & 0xFF));
  }
  for (auto [p, bytes] : blocks) sd::deallocate(p, bytes);
  sd::deallocate(nullptr, 100);  // ignored, as operator delete ignores it
}

TEST_CASE("a thread's slab is carved again once every block from it is freed", "[slab_alloc]") {
  if (!sd::slabs()) return;  // AddressSanitizer builds take exact blocks from operator new
  std::thread([] {
    void* a = sd::allocate(1000);
    void* b = sd::allocate(2000);
    sd::deallocate(a, 1000);
    void* c = sd::allocate(1000);
    CHECK(c != a);  // b is still live: the slab goes on from where it was
    sd::deallocate(b, 2000);
    sd::deallocate(c, 1000);
    void* d = sd::allocate(1000);
    CHECK(d == a);  // all freed: carved from the start again
    sd::deallocate(d, 1000);
  }).join();
}

TEST_CASE("slab blocks freed on other threads, past many slabs", "[slab_alloc]") {
  // Four threads each carve 100 MB in blocks of 1 MB (several slabs each, retired as they
  // fill) and hand them over; the main thread checks and frees them all.
  constexpr size_t kBlock = size_t(1) << 20, kCount = 100;
  std::vector<std::vector<uint8_t*>> made(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &made] {
      for (size_t i = 0; i < kCount; ++i) {
        auto* p = static_cast<uint8_t*>(sd::allocate(kBlock));
        p[0] = uint8_t(t), p[kBlock - 1] = uint8_t(i);
        made[size_t(t)].push_back(p);
      }
    });
  for (auto& th : threads) th.join();
  size_t good = 0;
  for (int t = 0; t < 4; ++t)
    for (size_t i = 0; i < kCount; ++i) {
      uint8_t* p = made[size_t(t)][i];
      good += p[0] == uint8_t(t) && p[kBlock - 1] == uint8_t(i);
      sd::deallocate(p, kBlock);
    }
  CHECK(good == 4 * kCount);
}

TEST_CASE("slab vectors keep their contents through growth, copies and other threads", "[slab_alloc]") {
  std::vector<SlabVector<uint32_t>> kept(4);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &ok, &kept] {
      bool good = true;
      for (int round = 0; round < 30; ++round) {
        SlabVector<uint32_t> v;
        for (uint32_t i = 0; i < uint32_t(1000 + 30000 * t + 97 * round); ++i) v.push_back(i * 7);
        SlabVector<uint32_t> copy = v;
        v.clear();
        v.shrink_to_fit();
        for (uint32_t i = 0; i < copy.size(); ++i) good = good && copy[i] == i * 7;
        if (round == 29) kept[size_t(t)] = std::move(copy);
      }
      ok[size_t(t)] = good;
    });
  for (auto& th : threads) th.join();
  CHECK(ok == std::vector<int>(4, 1));
  // Blocks carved on threads that have ended are still whole, and freed here.
  for (int t = 0; t < 4; ++t) {
    REQUIRE(kept[size_t(t)].size() == size_t(1000 + 30000 * t + 97 * 29));
    CHECK(kept[size_t(t)].back() == uint32_t(kept[size_t(t)].size() - 1) * 7);
  }
  kept.clear();
}
