// Benchmark: dig-zone RLE and the chunk packer on a seeded synthetic terrain grid, one thread,
// each beside a plain memcpy of the same grid bytes. Usage: bench_codecs [NX NY NZ [CHUNK]]
#include <tbb/global_control.h>

#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "lib/codec/chunk_pack.hpp"
#include "lib/core/grid.hpp"
#include "lib/codec/rle.hpp"

using namespace voxkit;

namespace {

// Rolling hills from a few seeded sine octaves plus gentle terraces: a heightfield, so
// every column is solid below one surface and air above it (no overhangs).
ByteGrid terrain(Dims cells, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> phase(0.f, 6.2831853f), freq(0.6f, 1.4f);
  struct Octave { float fx, fz, px, pz, amp; };
  std::vector<Octave> octaves;
  float amp = 0.18f, f = 0.012f;
  for (int i = 0; i < 5; ++i, amp *= 0.45f, f *= 2.1f)
    octaves.push_back({f * freq(rng), f * freq(rng), phase(rng), phase(rng), amp});
  ByteGrid g(cells, 0);
  const float ny = float(cells.ny);
  std::vector<float> column(cells.sy());
  for (uint64_t z = 0; z < cells.sz(); ++z)
    for (uint64_t x = 0; x < cells.sx(); ++x) {
      float h = 0.45f;
      for (const auto& o : octaves)
        h += o.amp * std::sin(float(x) * o.fx + o.px) * std::cos(float(z) * o.fz + o.pz);
      h *= ny;
      // Soft terraces: pull the height towards multiples of 6 voxels.
      const float t = std::round(h / 6.f) * 6.f;
      h += 0.35f * (t - h);
      for (uint64_t y = 0; y < cells.sy(); ++y) g.at(x, y, z) = quantize_sdf(float(y) - h);
    }
  return g;
}

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Best time of `reps` runs of f, in seconds of this thread's CPU time: on a shared machine
// that is what the code costs, while wall time also counts the time other work held the core.
double best_of(int reps, const std::function<void()>& f) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const double t0 = cpu_seconds();
    f();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

void report(const char* what, double bytes, double seconds, double memcpy_gbs) {
  const double gbs = bytes / seconds / 1e9;
  std::printf("%-28s %8.2f GB/s  %5.1f%% of memcpy\n", what, gbs, 100.0 * gbs / memcpy_gbs);
}

}  // namespace

int main(int argc, char** argv) {
  Dims cells{512, 128, 512};
  uint32_t cc = chunk_pack::kDefaultChunkCells;
  if (argc >= 4) cells = {uint32_t(std::atoi(argv[1])), uint32_t(std::atoi(argv[2])), uint32_t(std::atoi(argv[3]))};
  if (argc >= 5) cc = uint32_t(std::atoi(argv[4]));
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);

  ByteGrid g = terrain(cells, 12345);
  const double bytes = double(g.data.size());
  std::printf("grid %ux%ux%u cells, %zu samples (seed 12345), one thread\n", cells.nx, cells.ny,
              cells.nz, g.data.size());

  std::vector<uint8_t> copy(g.data.size()), out(g.data.size());
  const int reps = 7;
  const double t_memcpy = best_of(reps, [&] { std::memcpy(copy.data(), g.data.data(), g.data.size()); });
  const double memcpy_gbs = bytes / t_memcpy / 1e9;
  std::printf("%-28s %8.2f GB/s\n", "memcpy", memcpy_gbs);

  std::vector<uint8_t> enc;
  const double t_enc = best_of(reps, [&] { enc = rle::encode(g.data); });
  const double t_dec = best_of(reps, [&] { rle::decode_into(enc, out); });
  if (out != g.data) {
    std::fprintf(stderr, "rle round trip failed\n");
    return 1;
  }
  std::printf("rle stream: %zu bytes (%.2f%% of the grid)\n", enc.size(), 100.0 * double(enc.size()) / bytes);
  report("rle encode", bytes, t_enc, memcpy_gbs);
  report("rle decode", bytes, t_dec, memcpy_gbs);
  // The whole-stream decoder, which checks the count and allocates the samples itself.
  std::vector<uint8_t> whole;
  const double t_dec_alloc = best_of(reps, [&] { whole = rle::decode(enc, rle::kMaxCount); });
  if (whole != g.data) {
    std::fprintf(stderr, "rle round trip failed\n");
    return 1;
  }
  report("  into a new vector", bytes, t_dec_alloc, memcpy_gbs);

  const auto layout = chunk_pack::make_layout(cells, cc);
  chunk_pack::Packed packed;
  const double t_pack = best_of(reps, [&] { packed = chunk_pack::pack(layout, g.data); });
  // Into a grid allocated once, as rle decode does above.
  const double t_unpack = best_of(reps, [&] { chunk_pack::unpack_into(layout, packed.offsets, packed.blob, out); });
  if (out != g.data) {
    std::fprintf(stderr, "chunk pack round trip failed\n");
    return 1;
  }
  size_t uniform = 0;
  for (int32_t o : packed.offsets) uniform += o < 0;
  std::printf("chunk blob: %u cells per chunk, %zu chunks (%zu uniform), %zu bytes (%.2f%% of the grid)\n",
              cc, packed.offsets.size(), uniform, packed.blob.size(),
              100.0 * double(packed.blob.size()) / bytes);
  report("chunk pack", bytes, t_pack, memcpy_gbs);
  report("chunk unpack (whole grid)", bytes, t_unpack, memcpy_gbs);
  const double t_unpack_alloc = best_of(reps, [&] { out = chunk_pack::unpack(layout, packed.offsets, packed.blob); });
  report("  with a new grid each time", bytes, t_unpack_alloc, memcpy_gbs);
  return 0;
}
