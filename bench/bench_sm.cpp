// Benchmark: Base64 on 1 KB texts and Scrap Mechanic chunk-string decoding, one thread,
// seeded synthetic data, beside memcpy of the same bytes. Prints throughput.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/codec/base64.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;

namespace {

volatile uint64_t g_sink = 0;
// Keeps a result alive so the compiler cannot drop the work that made it.
inline void sink(uint64_t v) { g_sink = g_sink + v; }

// Runs `step` (one pass over the data set) repeatedly for ~0.3 s, best of 3; returns
// seconds per pass.
double time_pass(const std::function<void()>& step) {
  double best = 1e30;
  for (int round = 0; round < 3; ++round) {
    int passes = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
      step();
      ++passes;
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (elapsed < 0.3);
    best = std::min(best, elapsed / passes);
  }
  return best;
}

// A terrain-like chunk: a rolling height surface, density ramping from 0 at the surface
// to 63 below it at `ramp_lo..ramp_hi` density per voxel of depth (soft: 3-10 voxels of
// partial density; sharp: 1-2), material by depth (0 near the top, then 1, some 2 deep).
sm::Chunk terrain_chunk(uint32_t seed, float ramp_lo, float ramp_hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  const float base = 3.f + 11.f * u(rng), amp = 1.f + 4.f * u(rng);
  const float fx = 0.15f + 0.3f * u(rng), fz = 0.1f + 0.3f * u(rng), ph = 6.28f * u(rng);
  const float ramp = ramp_lo + (ramp_hi - ramp_lo) * u(rng);
  sm::Chunk c{};
  for (size_t x = 0; x < sm::kAxis; ++x)
    for (size_t z = 0; z < sm::kAxis; ++z) {
      const float h = base + amp * std::sin(float(x) * fx + ph) * std::cos(float(z) * fz);
      for (size_t y = 0; y < sm::kAxis; ++y) {
        const float depth = h - float(y);
        const int d = std::clamp(int(std::lround(depth * ramp)), 0, 63);
        const int m = depth > 6.f ? 2 : depth > 2.f ? 1 : 0;
        c[sm::voxel_index(x, y, z)] = uint8_t(d == 0 ? 0 : (m << 6 | d));
      }
    }
  return c;
}

}  // namespace

int main() {
  std::printf("bench_sm: one thread, seeded data; best of 3 runs of ~0.3 s each\n");

  // --- Base64 on 1 KB texts: 1024 different 1024-character texts (768 bytes each).
  const size_t kTexts = 1024, kChars = 1024, kBytes = kChars / 4 * 3;
  std::mt19937 rng(12345);
  std::vector<uint8_t> raw(kTexts * kBytes);
  for (auto& b : raw) b = uint8_t(rng());
  std::vector<std::string> texts(kTexts);
  for (size_t i = 0; i < kTexts; ++i)
    texts[i] = base64::encode({raw.data() + i * kBytes, kBytes});
  std::vector<uint8_t> out(kBytes + 8);
  std::string enc_out(kChars + 8, '\0');

  const double t_dec = time_pass([&] {
    for (auto& t : texts) sink(base64::decode_to(t, out.data()));
  });
  const double t_enc = time_pass([&] {
    for (size_t i = 0; i < kTexts; ++i) {
      base64::encode_to({raw.data() + i * kBytes, kBytes}, enc_out.data());
      sink(uint8_t(enc_out[7]));
    }
  });
  std::vector<char> copy_dst(kChars);
  const double t_copy = time_pass([&] {
    for (auto& t : texts) {
      std::memcpy(copy_dst.data(), t.data(), kChars);
      sink(uint8_t(copy_dst[5]));
    }
  });
  const double text_bytes = double(kTexts * kChars);
  std::printf("base64 decode  1 KB texts : %7.2f GB/s of text  (%6.2f GB/s of bytes out)\n",
              text_bytes / t_dec / 1e9, double(kTexts * kBytes) / t_dec / 1e9);
  std::printf("base64 encode  768 B      : %7.2f GB/s of text  (%6.2f GB/s of bytes in)\n",
              text_bytes / t_enc / 1e9, double(kTexts * kBytes) / t_enc / 1e9);
  std::printf("memcpy         1 KB       : %7.2f GB/s\n", text_bytes / t_copy / 1e9);

  // --- Scrap Mechanic chunk strings: 512 terrain-like chunks per set, serialized as the
  // mod does (LZ4 HC level 12, Base64).
  const size_t kChunks = 512;
  struct Set {
    const char* name;
    float lo, hi;
  };
  for (const Set& set : {Set{"soft ramps", 6.f, 22.f}, Set{"sharp surface", 32.f, 63.f}}) {
    std::vector<std::string> strings(kChunks);
    std::vector<std::vector<uint8_t>> blocks(kChunks);
    std::vector<sm::Chunk> chunks(kChunks);
    size_t string_bytes = 0;
    for (size_t i = 0; i < kChunks; ++i) {
      chunks[i] = terrain_chunk(uint32_t(i) * 7919u + 1, set.lo, set.hi);
      blocks[i] = sm::encode_lz4(chunks[i]);
      strings[i] = base64::encode(blocks[i]);
      string_bytes += strings[i].size();
    }
    const double t_sm = time_pass([&] {
      for (auto& s : strings) sink(sm::decode_b64(s)[100]);
    });
    const double t_lz4 = time_pass([&] {
      for (auto& b : blocks) sink(sm::decode_lz4(b)[100]);
    });
    sm::Chunk dst;
    const double t_copy = time_pass([&] {
      for (auto& c : chunks) {
        std::memcpy(dst.data(), c.data(), sm::kVoxels);
        sink(dst[100]);
      }
    });
    std::printf("sm chunks, %s: average string %zu characters\n", set.name,
                string_bytes / kChunks);
    std::printf("  string decode (b64 + lz4) : %9.0f chunks/s  (%.2f GB/s of voxels)\n",
                double(kChunks) / t_sm, double(kChunks * sm::kVoxels) / t_sm / 1e9);
    std::printf("  lz4 block alone           : %9.0f chunks/s\n", double(kChunks) / t_lz4);
    std::printf("  memcpy of the 4913 bytes  : %9.0f chunks/s  (%.2f GB/s)\n",
                double(kChunks) / t_copy, double(kChunks * sm::kVoxels) / t_copy / 1e9);
    const double t_enc = time_pass([&] {
      for (size_t i = 0; i < 16; ++i) sink(sm::encode_b64(chunks[i]).size());
    });
    std::printf("  string encode (HC max)    : %9.0f chunks/s\n", 16.0 / t_enc);
  }
  return g_sink == 42 ? 1 : 0;
}
