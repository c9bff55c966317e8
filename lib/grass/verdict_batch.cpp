// The scatter's verdicts eight candidates at a time (see verdict_batch.hpp): each step is the
// step of scatter.cpp's candidate loop or of surface_sample.hpp for the lane's candidate.
#include "lib/grass/verdict_batch.hpp"

#include <algorithm>
#include <cstring>

#include "lib/core/simd_avx2.hpp"
#include "lib/grass/grass_math.hpp"
#include "lib/grass/surface_sample.hpp"

namespace voxkit::grass::detail {

VerdictSetup::VerdictSetup(const SurfaceGrid& sg, int layer_)
    : surface(&sg),
      layer(layer_),
      weight(layer_ >= 0 ? sg.weights[size_t(layer_)].data() : nullptr),
      inv(power_of_two_reciprocal(sg.spacing)),
      top_x(float(sg.samples_x) - 1.0f),
      top_z(float(sg.samples_z) - 1.0f),
      width_x(sg.width_x()),
      width_z(sg.width_z()) {}

#if VOXKIT_HAVE_AVX2_TARGET
namespace {

#define VX gnu::target("avx2,fma"), gnu::always_inline
using F = __m256;
using I = __m256i;

[[VX]] inline F fv(float v) { return _mm256_set1_ps(v); }
[[VX]] inline I iv(int32_t v) { return _mm256_set1_epi32(v); }
[[VX]] inline F pick(F m, F yes, F no) { return _mm256_blendv_ps(no, yes, m); }

// mix(seed, index) per lane.
[[VX]] inline I mix8(I seed, I index) {
  I h = _mm256_xor_si256(seed, index);
  h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
  h = _mm256_mullo_epi32(h, iv(int32_t(0x7FEB352Du)));
  h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 15));
  h = _mm256_mullo_epi32(h, iv(int32_t(0x846CA68Bu)));
  return _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
}

// unit(h, stream) per lane. The uint32 -> float conversion rounds once: the high and low 16
// bits are exact floats, and their sum is rounded as the whole value would be.
[[VX]] inline F unit8(I h, int stream) {
  const I mixed = mix8(_mm256_xor_si256(h, iv(int32_t(uint32_t(stream) * kStreamSeed))), iv(stream));
  const F hi = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(mixed, 16)), fv(65536.0f));
  const F lo = _mm256_cvtepi32_ps(_mm256_and_si256(mixed, iv(0xFFFF)));
  return _mm256_mul_ps(_mm256_add_ps(hi, lo), fv(0x1p-32f));
}

// lerp_fused per lane: fma(a, 1 - t, b * t).
[[VX]] inline F lerp8(F a, F b, F t) { return _mm256_fmadd_ps(a, _mm256_sub_ps(fv(1.0f), t), _mm256_mul_ps(b, t)); }

[[VX]] inline F over_spacing8(const VerdictSetup& g, F local) {
  return g.inv != 0.0f ? _mm256_mul_ps(local, fv(g.inv)) : _mm256_div_ps(local, fv(g.surface->spacing));
}

struct Axis8 {
  I i0, i1;
  F f;
};
[[VX]] inline Axis8 axis8(const VerdictSetup& g, F local, float top, int32_t samples) {
  F s = over_spacing8(g, local);
  s = pick(_mm256_cmp_ps(s, _mm256_setzero_ps(), _CMP_LT_OQ), _mm256_setzero_ps(), s);
  s = pick(_mm256_cmp_ps(s, fv(top), _CMP_GT_OQ), fv(top), s);
  // The indices are kept on the grid in every lane (a lane off the grid is refused anyway).
  I i0 = _mm256_cvttps_epi32(_mm256_floor_ps(s));
  i0 = _mm256_min_epi32(_mm256_max_epi32(i0, iv(0)), iv(samples - 1));
  const I i1 = _mm256_min_epi32(_mm256_add_epi32(i0, iv(1)), iv(samples - 1));
  return {i0, i1, _mm256_sub_ps(s, _mm256_cvtepi32_ps(i0))};
}

// height_at / weight_at's bilinear fused lerps over `v` (samples_x per row).
[[VX]] inline F bilinear8(const float* v, int32_t samples_x, const Axis8& ax, const Axis8& az) {
  const I row0 = _mm256_mullo_epi32(az.i0, iv(samples_x)), row1 = _mm256_mullo_epi32(az.i1, iv(samples_x));
  const F top = lerp8(_mm256_i32gather_ps(v, _mm256_add_epi32(row0, ax.i0), 4),
                      _mm256_i32gather_ps(v, _mm256_add_epi32(row0, ax.i1), 4), ax.f);
  const F bottom = lerp8(_mm256_i32gather_ps(v, _mm256_add_epi32(row1, ax.i0), 4),
                         _mm256_i32gather_ps(v, _mm256_add_epi32(row1, ax.i1), 4), ax.f);
  return lerp8(top, bottom, az.f);
}

// The lanes of `value` that `pack` names, stored from `to` on.
[[VX]] inline void put(float* to, F value, I pack) { _mm256_storeu_ps(to, _mm256_permutevar8x32_ps(value, pack)); }

// For each mask of eight lanes, the set lanes in order (then zeros): the permutation that packs
// a batch's placed lanes to its front.
struct PackTable {
  alignas(32) int32_t lanes[256][8];
  PackTable() {
    for (int m = 0; m < 256; ++m) {
      int k = 0;
      for (int l = 0; l < 8; ++l)
        if (m >> l & 1) lanes[m][k++] = l;
      while (k < 8) lanes[m][k++] = 0;
    }
  }
};
const PackTable kPack;

[[gnu::target("avx2,fma")]] void verdicts8_impl(const VerdictSetup& v, uint32_t seed, int32_t first,
                                                 const float* centre_x, float centre_z, int n, uint32_t* counts,
                                                 PlacedRun* placed) {
  const SurfaceGrid& sg = *v.surface;
  const VerdictSetup& g = v;
  const int32_t samples_x = sg.samples_x, samples_z = sg.samples_z;
  // Lanes past n repeat the last candidate's place (their results are not written).
  alignas(32) float cx[8];
  for (int k = 0; k < 8; ++k) cx[k] = centre_x[k < n ? k : n - 1];
  const I h = mix8(iv(int32_t(seed)), _mm256_add_epi32(iv(first), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  const F jx = _mm256_sub_ps(_mm256_mul_ps(unit8(h, kJitterXStream), fv(2.0f)), fv(1.0f));
  const F jz = _mm256_sub_ps(_mm256_mul_ps(unit8(h, kJitterZStream), fv(2.0f)), fv(1.0f));
  const F x = _mm256_add_ps(_mm256_load_ps(cx), _mm256_mul_ps(jx, fv(v.reach)));
  const F z = _mm256_add_ps(fv(centre_z), _mm256_mul_ps(jz, fv(v.reach)));
  // SampleAt: on the grid, not in a hole.
  const F lx = _mm256_sub_ps(x, fv(sg.origin_x)), lz = _mm256_sub_ps(z, fv(sg.origin_z));
  const F zero = _mm256_setzero_ps();
  F off = _mm256_or_ps(_mm256_cmp_ps(lx, zero, _CMP_LT_OQ), _mm256_cmp_ps(lz, zero, _CMP_LT_OQ));
  off = _mm256_or_ps(off, _mm256_or_ps(_mm256_cmp_ps(lx, fv(g.width_x), _CMP_GT_OQ), _mm256_cmp_ps(lz, fv(g.width_z), _CMP_GT_OQ)));
  int off_bits = _mm256_movemask_ps(off);
  if (!sg.hole.empty()) {
    // quad_missing: floor(local / spacing) kept on the grid, read a lane at a time.
    const I qx = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(_mm256_floor_ps(over_spacing8(g, lx))), iv(0)),
                                  iv(samples_x - 2));
    const I qz = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(_mm256_floor_ps(over_spacing8(g, lz))), iv(0)),
                                  iv(samples_z - 2));
    alignas(32) int32_t q[8];
    _mm256_store_si256(reinterpret_cast<I*>(q), _mm256_add_epi32(_mm256_mullo_epi32(qz, iv(samples_x - 1)), qx));
    for (int k = 0; k < 8; ++k)
      if (!(off_bits >> k & 1) && sg.hole[size_t(q[k])] != 0) off_bits |= 1 << k;
  }
  // The height and the normal from four neighbours one step away.
  const F sp = fv(sg.spacing);
  const Axis8 ax = axis8(g, lx, g.top_x, samples_x), az = axis8(g, lz, g.top_z, samples_z);
  const Axis8 ax_l = axis8(g, _mm256_sub_ps(lx, sp), g.top_x, samples_x);
  const Axis8 ax_r = axis8(g, _mm256_add_ps(lx, sp), g.top_x, samples_x);
  const Axis8 az_d = axis8(g, _mm256_sub_ps(lz, sp), g.top_z, samples_z);
  const Axis8 az_u = axis8(g, _mm256_add_ps(lz, sp), g.top_z, samples_z);
  const F height = bilinear8(sg.height.data(), samples_x, ax, az);
  const F left = bilinear8(sg.height.data(), samples_x, ax_l, az), right = bilinear8(sg.height.data(), samples_x, ax_r, az);
  const F down = bilinear8(sg.height.data(), samples_x, ax, az_d), up = bilinear8(sg.height.data(), samples_x, ax, az_u);
  F nx = _mm256_sub_ps(left, right), ny = _mm256_mul_ps(fv(2.0f), sp), nz = _mm256_sub_ps(down, up);
  {
    const F all_zero = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(nx, zero, _CMP_EQ_OQ), _mm256_cmp_ps(ny, zero, _CMP_EQ_OQ)),
                                     _mm256_cmp_ps(nz, zero, _CMP_EQ_OQ));
    const F ls = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, nx), _mm256_mul_ps(ny, ny)), _mm256_mul_ps(nz, nz));
    const F small = _mm256_cmp_ps(ls, fv(1e-6f * 1e-6f), _CMP_LT_OQ);
    const F inv = _mm256_div_ps(fv(1.0f), _mm256_sqrt_ps(ls));
    const F sx = _mm256_andnot_ps(small, _mm256_mul_ps(nx, inv)), sy = _mm256_andnot_ps(small, _mm256_mul_ps(ny, inv)),
            sz = _mm256_andnot_ps(small, _mm256_mul_ps(nz, inv));
    nx = pick(all_zero, zero, sx), ny = pick(all_zero, fv(1.0f), sy), nz = pick(all_zero, zero, sz);
  }
  const F weight = g.weight ? bilinear8(g.weight, samples_x, ax, az) : fv(v.layer == kNoLayer ? 1.0f : 0.0f);
  // up_of: the normal normalised once more, its y.
  F upness;
  {
    const F ls = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, nx), _mm256_mul_ps(ny, ny)), _mm256_mul_ps(nz, nz));
    const F small = _mm256_cmp_ps(ls, fv(1e-6f * 1e-6f), _CMP_LT_OQ);
    const F inv = _mm256_div_ps(fv(1.0f), _mm256_sqrt_ps(ls));
    const F ux = _mm256_andnot_ps(small, _mm256_mul_ps(nx, inv)), uy = _mm256_andnot_ps(small, _mm256_mul_ps(ny, inv)),
            uz = _mm256_andnot_ps(small, _mm256_mul_ps(nz, inv));
    upness = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ux, zero), _mm256_mul_ps(uy, fv(1.0f))), _mm256_mul_ps(uz, zero));
  }
  const int steep_bits = _mm256_movemask_ps(_mm256_cmp_ps(upness, fv(v.min_up), _CMP_LT_OQ));
  // The density draw against the curve.
  F keep;
  if (v.weighted) {
    F t = _mm256_div_ps(_mm256_sub_ps(weight, fv(v.low)), fv(v.span));
    t = pick(_mm256_cmp_ps(t, zero, _CMP_LT_OQ), zero, t);
    t = pick(_mm256_cmp_ps(t, fv(1.0f), _CMP_GT_OQ), fv(1.0f), t);
    const F a = _mm256_mul_ps(t, t), b = _mm256_sub_ps(fv(3.0f), _mm256_mul_ps(fv(2.0f), t));
    keep = _mm256_mul_ps(_mm256_mul_ps(a, b), fv(v.scale));
  } else {
    keep = fv(1.0f * v.scale);
  }
  const int thin_bits = _mm256_movemask_ps(_mm256_cmp_ps(unit8(h, kDensityStream), keep, _CMP_GE_OQ));
  // The verdict of each lane: no surface, else too steep, else too thin, else placed.
  const int live = (1 << n) - 1;
  const int steep_only = steep_bits & ~off_bits, thin_only = thin_bits & ~(off_bits | steep_bits);
  const int placed_bits = live & ~(off_bits | steep_bits | thin_bits);
  counts[0] += uint32_t(__builtin_popcount(placed_bits));
  counts[1] += uint32_t(__builtin_popcount(off_bits & live));
  counts[2] += uint32_t(__builtin_popcount(steep_only & live));
  counts[3] += uint32_t(__builtin_popcount(thin_only & live));
  if (!placed) return;
  // The placed lanes, packed to the front of each field (the lanes after them are written too
  // and overwritten by the next batch): place()'s streams of the hash as well.
  const I pack = _mm256_load_si256(reinterpret_cast<const I*>(kPack.lanes[placed_bits]));
  const size_t at = placed->size;
  put(placed->px + at, x, pack), put(placed->py + at, _mm256_add_ps(height, fv(sg.origin_y)), pack);
  put(placed->pz + at, z, pack);
  put(placed->nx + at, nx, pack), put(placed->ny + at, ny, pack), put(placed->nz + at, nz, pack);
  put(placed->yaw + at, v.random_yaw ? _mm256_mul_ps(unit8(h, kYawStream), fv(kTau)) : zero, pack);
  put(placed->scale + at, lerp8(fv(v.min_scale), fv(v.max_scale), unit8(h, kScaleStream)), pack);
  put(placed->tint + at, unit8(h, kTintStream), pack);
  put(placed->phase + at, _mm256_mul_ps(unit8(h, kPhaseStream), fv(kTau)), pack);
  const I index = _mm256_add_epi32(iv(first), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_storeu_si256(reinterpret_cast<I*>(placed->index + at), _mm256_permutevar8x32_epi32(index, pack));
  placed->size = at + size_t(__builtin_popcount(placed_bits));
}

#undef VX

}  // namespace

bool verdicts8_supported() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
}

void verdicts8(const VerdictSetup& v, uint32_t seed, int32_t first, const float* centre_x, float centre_z, int n,
               uint32_t* counts, PlacedRun* placed) {
  verdicts8_impl(v, seed, first, centre_x, centre_z, n, counts, placed);
}

#else

bool verdicts8_supported() { return false; }
void verdicts8(const VerdictSetup&, uint32_t, int32_t, const float*, float, int, uint32_t*, PlacedRun*) {}

#endif

}  // namespace voxkit::grass::detail
