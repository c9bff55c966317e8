// The scatter's verdicts a row's stretch at a time (see verdict_batch.hpp): the primitives of
// each build, then the kernel (verdict_lanes.inc) over them, then the choice at run time.
#include "lib/grass/verdict_batch.hpp"

#include <algorithm>
#include <cstring>

#include "lib/core/simd_avx2.hpp"
#include "lib/grass/grass_math.hpp"
#include "lib/grass/surface_sample.hpp"

// GCC 12's AVX-512 intrinsics start from a deliberately undefined register, which
// -Wuninitialized reports at every use once they are inlined here: a false report.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

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

// --- AVX2 and FMA: eight lanes ------------------------------------------------------------------
namespace lanes_avx2 {

#define VX gnu::target("avx2,fma"), gnu::always_inline
#define VXF gnu::target("avx2,fma")

constexpr size_t kLanes = 8;
using F = __m256;
using I = __m256i;
using FM = __m256;

[[VX]] inline F fv(float v) { return _mm256_set1_ps(v); }
[[VX]] inline I iv(int32_t v) { return _mm256_set1_epi32(v); }
[[VX]] inline I lane_index() { return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }
[[VX]] inline F add(F a, F b) { return _mm256_add_ps(a, b); }
[[VX]] inline F sub(F a, F b) { return _mm256_sub_ps(a, b); }
[[VX]] inline F mul(F a, F b) { return _mm256_mul_ps(a, b); }
[[VX]] inline F fdiv(F a, F b) { return _mm256_div_ps(a, b); }
[[VX]] inline F fsqrt(F a) { return _mm256_sqrt_ps(a); }
[[VX]] inline F fma(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
[[VX]] inline F ffloor(F a) { return _mm256_floor_ps(a); }
[[VX]] inline F to_float(I a) { return _mm256_cvtepi32_ps(a); }
[[VX]] inline I to_int(F a) { return _mm256_cvttps_epi32(a); }
[[VX]] inline I ixor(I a, I b) { return _mm256_xor_si256(a, b); }
[[VX]] inline I iand(I a, I b) { return _mm256_and_si256(a, b); }
[[VX]] inline I iadd(I a, I b) { return _mm256_add_epi32(a, b); }
template <int S>
[[VX]] inline I srl(I a) {
  return _mm256_srli_epi32(a, S);
}
[[VX]] inline I imul(I a, I b) { return _mm256_mullo_epi32(a, b); }
[[VX]] inline I imin(I a, I b) { return _mm256_min_epi32(a, b); }
[[VX]] inline I imax(I a, I b) { return _mm256_max_epi32(a, b); }
[[VX]] inline FM lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
[[VX]] inline FM gt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
[[VX]] inline FM ge(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
[[VX]] inline FM eq(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
[[VX]] inline FM mor(FM a, FM b) { return _mm256_or_ps(a, b); }
[[VX]] inline FM mand(FM a, FM b) { return _mm256_and_ps(a, b); }
[[VX]] inline F pick(FM m, F yes, F no) { return _mm256_blendv_ps(no, yes, m); }
[[VX]] inline F zero_where(FM m, F v) { return _mm256_andnot_ps(m, v); }
[[VX]] inline uint32_t bits(FM m) { return uint32_t(_mm256_movemask_ps(m)); }
[[VX]] inline F gather(const float* base, I index) { return _mm256_i32gather_ps(base, index, 4); }
[[VX]] inline F load(const float* p) { return _mm256_load_ps(p); }
[[VX]] inline void store_i(int32_t* p, I v) { _mm256_store_si256(reinterpret_cast<I*>(p), v); }

// For each mask of eight lanes, the set lanes in order (then zeros): the permutation that packs
// a batch's chosen lanes to its front.
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

[[VX]] inline I pack_of(uint32_t chosen) { return _mm256_load_si256(reinterpret_cast<const I*>(kPack.lanes[chosen])); }
[[VX]] inline void put(float* to, F v, uint32_t chosen) {
  _mm256_storeu_ps(to, _mm256_permutevar8x32_ps(v, pack_of(chosen)));
}
[[VX]] inline void put_i(int32_t* to, I v, uint32_t chosen) {
  _mm256_storeu_si256(reinterpret_cast<I*>(to), _mm256_permutevar8x32_epi32(v, pack_of(chosen)));
}

#include "lib/grass/verdict_lanes.inc"

#undef VX
#undef VXF
}  // namespace lanes_avx2

// --- AVX-512: sixteen lanes, masks in mask registers -------------------------------------------
namespace lanes_avx512 {

#define VX gnu::target("avx512f,avx512dq,avx512vl,avx512bw"), gnu::always_inline
#define VXF gnu::target("avx512f,avx512dq,avx512vl,avx512bw")

constexpr size_t kLanes = 16;
using F = __m512;
using I = __m512i;
using FM = __mmask16;

[[VX]] inline F fv(float v) { return _mm512_set1_ps(v); }
[[VX]] inline I iv(int32_t v) { return _mm512_set1_epi32(v); }
[[VX]] inline I lane_index() { return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
[[VX]] inline F add(F a, F b) { return _mm512_add_ps(a, b); }
[[VX]] inline F sub(F a, F b) { return _mm512_sub_ps(a, b); }
[[VX]] inline F mul(F a, F b) { return _mm512_mul_ps(a, b); }
[[VX]] inline F fdiv(F a, F b) { return _mm512_div_ps(a, b); }
[[VX]] inline F fsqrt(F a) { return _mm512_sqrt_ps(a); }
[[VX]] inline F fma(F a, F b, F c) { return _mm512_fmadd_ps(a, b, c); }
[[VX]] inline F ffloor(F a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
[[VX]] inline F to_float(I a) { return _mm512_cvtepi32_ps(a); }
[[VX]] inline I to_int(F a) { return _mm512_cvttps_epi32(a); }
[[VX]] inline I ixor(I a, I b) { return _mm512_xor_si512(a, b); }
[[VX]] inline I iand(I a, I b) { return _mm512_and_si512(a, b); }
[[VX]] inline I iadd(I a, I b) { return _mm512_add_epi32(a, b); }
template <int S>
[[VX]] inline I srl(I a) {
  return _mm512_srli_epi32(a, S);
}
[[VX]] inline I imul(I a, I b) { return _mm512_mullo_epi32(a, b); }
[[VX]] inline I imin(I a, I b) { return _mm512_min_epi32(a, b); }
[[VX]] inline I imax(I a, I b) { return _mm512_max_epi32(a, b); }
[[VX]] inline FM lt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
[[VX]] inline FM gt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
[[VX]] inline FM ge(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
[[VX]] inline FM eq(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
[[VX]] inline FM mor(FM a, FM b) { return static_cast<FM>(a | b); }
[[VX]] inline FM mand(FM a, FM b) { return static_cast<FM>(a & b); }
[[VX]] inline F pick(FM m, F yes, F no) { return _mm512_mask_blend_ps(m, no, yes); }
[[VX]] inline F zero_where(FM m, F v) { return _mm512_maskz_mov_ps(static_cast<FM>(~m), v); }
[[VX]] inline uint32_t bits(FM m) { return uint32_t(m); }
[[VX]] inline F gather(const float* base, I index) { return _mm512_i32gather_ps(index, base, 4); }
[[VX]] inline F load(const float* p) { return _mm512_load_ps(p); }
[[VX]] inline void store_i(int32_t* p, I v) { _mm512_store_si512(p, v); }
// The chosen lanes compressed to the front of a register, then stored whole (a compressing
// store to memory is slow on some of these CPUs).
[[VX]] inline void put(float* to, F v, uint32_t chosen) {
  _mm512_storeu_ps(to, _mm512_maskz_compress_ps(static_cast<__mmask16>(chosen), v));
}
[[VX]] inline void put_i(int32_t* to, I v, uint32_t chosen) {
  _mm512_storeu_si512(to, _mm512_maskz_compress_epi32(static_cast<__mmask16>(chosen), v));
}

#include "lib/grass/verdict_lanes.inc"

#undef VX
#undef VXF
}  // namespace lanes_avx512

using simd::has_avx512;

}  // namespace

bool verdict_lanes_supported(VerdictLanes lanes) {
  if (lanes == VerdictLanes::Avx512) return has_avx512();
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
}
bool verdicts_batch_supported() { return verdict_lanes_supported(VerdictLanes::Avx2); }
VerdictLanes verdict_lanes_best() { return has_avx512() ? VerdictLanes::Avx512 : VerdictLanes::Avx2; }
int verdict_lane_count(VerdictLanes lanes) { return lanes == VerdictLanes::Avx512 ? 16 : 8; }

void verdicts_with(VerdictLanes lanes, const VerdictSetup& v, uint32_t seed, int32_t first, const float* centre_x,
                   float centre_z, int n, uint32_t* counts, PlacedRun* placed) {
  if (lanes == VerdictLanes::Avx512)
    lanes_avx512::verdicts_impl(v, seed, first, centre_x, centre_z, n, counts, placed);
  else
    lanes_avx2::verdicts_impl(v, seed, first, centre_x, centre_z, n, counts, placed);
}

#else

bool verdict_lanes_supported(VerdictLanes) { return false; }
bool verdicts_batch_supported() { return false; }
VerdictLanes verdict_lanes_best() { return VerdictLanes::Avx2; }
int verdict_lane_count(VerdictLanes lanes) { return lanes == VerdictLanes::Avx512 ? 16 : 8; }
void verdicts_with(VerdictLanes, const VerdictSetup&, uint32_t, int32_t, const float*, float, int, uint32_t*,
                   PlacedRun*) {}

#endif

}  // namespace voxkit::grass::detail
