// Mesh-array memory (lib/mesh/mesh_alloc.cpp): size classes that hold what was asked for, blocks
// reused within a class, and arrays that behave as vectors across allocations and threads.
#include <catch2/catch.hpp>

#include <cstring>
#include <thread>
#include <vector>

#include "lib/mesh/mesh.hpp"

using namespace voxkit;
namespace ma = voxkit::mesh_alloc_detail;

TEST_CASE("mesh array blocks hold what was asked for, with at most a fifth to spare", "[mesh_alloc]") {
  size_t last = 0;
  for (size_t bytes = 1; bytes <= (size_t(1) << 21); bytes += bytes < 4096 ? 1 : 61) {
    const size_t b = ma::block_size(bytes);
    INFO("bytes " << bytes << ", block " << b);
    REQUIRE(b >= bytes);
    CHECK(b >= last);  // larger requests never get smaller blocks
    last = b;
    if (ma::pooling() && bytes > 256 && bytes <= (size_t(1) << 20)) {
      CHECK(b * 4 <= bytes * 5 + 4);
      CHECK(ma::block_size(b) == b);  // a block's own size is its class
    } else {
      CHECK(b == bytes);
    }
  }
}

TEST_CASE("mesh array blocks are reused within their class", "[mesh_alloc]") {
  if (!ma::pooling()) return;  // AddressSanitizer builds allocate every array exactly
  void* a = ma::allocate(5000);
  std::memset(a, 1, ma::block_size(5000));
  ma::deallocate(a, 5000);
  // 4900 bytes fall in 5000's class: the freed block comes back.
  REQUIRE(ma::block_size(4900) == ma::block_size(5000));
  void* b = ma::allocate(4900);
  CHECK(b == a);
  ma::deallocate(b, 4900);
  // Outside the classes (small, huge) blocks go straight to the system.
  void* s = ma::allocate(100);
  void* h = ma::allocate(size_t(3) << 20);
  ma::deallocate(s, 100);
  ma::deallocate(h, size_t(3) << 20);
}

TEST_CASE("mesh arrays keep their contents through growth, copies and other threads", "[mesh_alloc]") {
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &ok] {
      bool good = true;
      for (int round = 0; round < 50; ++round) {
        MeshArray<uint32_t> v;
        for (uint32_t i = 0; i < uint32_t(1000 + 3000 * t + 97 * round); ++i) v.push_back(i * 7);
        MeshArray<uint32_t> copy = v;
        v.clear();
        v.shrink_to_fit();
        for (uint32_t i = 0; i < copy.size(); ++i) good = good && copy[i] == i * 7;
        Mesh m;
        m.positions.resize(300 + size_t(round));
        for (auto& p : m.positions) p = {1.0f, 2.0f, 3.0f};
        good = good && m.positions.back()[2] == 3.0f;
      }
      ok[size_t(t)] = good;
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) CHECK(ok[size_t(t)] == 1);
}
