// The arithmetic of the grass scatter, defined once so that the CPU reference and the GPU
// compute shader (bench/grass_gpu.comp) produce the same bits (docs/grass.md, "Exactness").
//
// - The hash and its streams are uint32 and wrap (Vixen's FoliageScatter.Hash / Unit).
// - Float expressions are evaluated in float32, each operation rounded (no contraction: this
//   header's users are compiled with -ffp-contract=off).
// - Sine, cosine and arc cosine are our own: evaluated in double with fixed polynomials and
//   fixed operation order, using only +, - and *, then rounded to float. The result is the
//   correctly rounded float in all but rare hard cases (tests/test_grass.cpp measures it), and
//   the shader evaluates the very same double expressions, so the two agree bit for bit.
//   The engine calls the C runtime's sinf/cosf/acosf, whose last bit differs between
//   runtimes (glibc 2.36 differs from the correctly rounded value for 1.3% of sines and 7.7%
//   of arc cosines), so its rotations are only defined to about an ulp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace voxkit::grass {

constexpr uint32_t kCellSeedX = 0x9E3779B1u;
constexpr uint32_t kCellSeedZ = 0x85EBCA77u;
constexpr uint32_t kStreamSeed = 0x27D4EB2u;  // seven hex digits, as in the engine

// Streams of a candidate's hash.
enum Stream : int {
  kYawStream = 1,
  kPitchStream = 2,
  kScaleStream = 3,
  kJitterXStream = 6,
  kJitterZStream = 7,
  kDensityStream = 8,
  kTintStream = 9,
  kPhaseStream = 10,
};

constexpr float kPi = 3.14159265358979323846f;   // MathF.PI
constexpr float kTau = 6.28318530717958647692f;  // MathF.Tau

// Mix(seed, i): the engine's integer finaliser.
inline uint32_t mix(uint32_t seed, uint32_t index) {
  uint32_t h = seed ^ index;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h;
}

// The hash of candidate `index` of cell (x, z); negative coordinates are reinterpreted as
// their two's-complement bits (-1 -> 0xFFFFFFFF), as C#'s and GLSL's casts do.
inline uint32_t cell_hash(int32_t x, int32_t z, int32_t index) {
  return mix((static_cast<uint32_t>(x) * kCellSeedX) ^ (static_cast<uint32_t>(z) * kCellSeedZ),
             static_cast<uint32_t>(index));
}

// U(h, stream): a float in [0, 1], exactly 1.0 for mixed values >= 4294967168 (the
// uint -> float conversion rounds to nearest even, the divisor is 2^32).
inline float unit(uint32_t hash, int stream) {
  const uint32_t mixed = mix(hash ^ (static_cast<uint32_t>(stream) * kStreamSeed), static_cast<uint32_t>(stream));
  return static_cast<float>(mixed) * 0x1p-32f;
}

// .NET's float.Lerp as the engine runs it: fma(a, 1 - t, b * t), with 1 - t and b * t each
// rounded to float first.
inline float lerp_fused(float a, float b, float t) {
  const float one_minus = 1.0f - t;
  const float bt = b * t;
  return std::fma(a, one_minus, bt);
}

// --- sine, cosine and arc cosine (double evaluation, see the header comment) --------------
// The shader (bench/grass_gpu.comp) repeats these expressions operation for operation; a
// change here must be made there too (the grass_gpu test compares the two).

namespace detail {

// 1/3!, 1/5!, ... 1/17! and 1/2!, 1/4!, ... 1/18! as doubles (17 digits: they read back exactly).
inline constexpr double kSin[8] = {0.16666666666666666, 0.0083333333333333332, 0.00019841269841269841, 2.7557319223985893e-06, 2.505210838544172e-08, 1.6059043836821613e-10, 7.6471637318198164e-13, 2.8114572543455206e-15};
inline constexpr double kCos[9] = {0.5, 0.041666666666666664, 0.0013888888888888889, 2.4801587301587302e-05, 2.7557319223985888e-07, 2.08767569878681e-09, 1.1470745597729725e-11, 4.7794773323873853e-14, 1.5619206968586225e-16};
// The Maclaurin coefficients of asin after u: (2n)! / (4^n (n!)^2 (2n + 1)), n = 1..24.
inline constexpr double kAsin[24] = {0.16666666666666666, 0.074999999999999997, 0.044642857142857144,
                                       0.030381944444444444, 0.022372159090909092, 0.017352764423076924,
                                       0.013964843750000001, 0.011551800896139705, 0.0097616095291940784,
                                       0.0083903358096168151, 0.0073125258735988454, 0.0064472103118896487,
                                       0.0057400376708419236, 0.0051533096823199046, 0.0046601434869150962,
                                       0.0042409070936793632, 0.0038809645588376691, 0.0035692053938259347,
                                       0.0032970595034734849, 0.0030578216492580306, 0.0028461784011089421,
                                       0.0026578706382072901, 0.0024894486782468836, 0.002338091892111975};
inline constexpr double kPiD = 3.1415926535897931;
inline constexpr double kPiO2D = 1.5707963267948966;
inline constexpr double kTwoOverPiD = 0.63661977236758138;
// pi/2 split in two: the first 33 bits (so k * part is exact for k < 2^20) and the rest.
inline constexpr double kPiO2Hi = 1.5707963267341256;
inline constexpr double kPiO2Lo = 6.0771005065061922e-11;

// How many coefficients the polynomials below take for an argument z = r^2 (or u^2): the
// Maclaurin tails left out are below 2^-64 of the result (2^-60 for asin at z near 1/4),
// far under a float's half ulp. Small arguments, the common ones, take fewer terms.
inline int sin_cos_terms(double z, int full) { return z <= 0x1p-8 ? 5 : z <= 0x1p-6 ? 6 : z <= 0x1p-4 ? 7 : full; }
inline int asin_terms(double z) { return z <= 0x1p-8 ? 7 : z <= 0x1p-6 ? 10 : z <= 0x1p-4 ? 15 : 24; }

// sum over i < n of (-1)^i k[i] z^i by Horner from the last term (even terms added, odd ones
// subtracted).
inline double alternating(const double* k, int n, double z) {
  double q = (n - 1) & 1 ? -k[n - 1] : k[n - 1];
  for (int i = n - 2; i >= 0; --i) q = (i & 1) ? q * z - k[i] : q * z + k[i];
  return q;
}

// sin r and cos r for |r| <= pi/4 (a little more is harmless): Taylor through r^17, r^18.
inline double sin_poly(double r) {
  const double z = r * r;
  const double q = alternating(kSin, sin_cos_terms(z, 8), z);
  const double rz = r * z;
  return r - rz * q;
}
inline double cos_poly(double r) {
  const double z = r * r;
  const double c = alternating(kCos, sin_cos_terms(z, 9), z);
  return 1.0 - z * c;
}

// The quadrant k = floor(x * 2/pi + 0.5) and the reduced argument r = (x - k hi) - k lo.
// Accurate for |x| < 2^20; the scatter needs |x| <= 2 pi.
inline double reduce(double x, int32_t& quadrant) {
  const double k = std::floor(x * kTwoOverPiD + 0.5);
  quadrant = static_cast<int32_t>(k);
  const double a = x - k * kPiO2Hi;
  return a - k * kPiO2Lo;
}

inline double sin_d(double x) {
  int32_t k = 0;
  const double r = reduce(x, k);
  switch (k & 3) {
    case 0: return sin_poly(r);
    case 1: return cos_poly(r);
    case 2: return -sin_poly(r);
    default: return -cos_poly(r);
  }
}
inline double cos_d(double x) {
  int32_t k = 0;
  const double r = reduce(x, k);
  switch (k & 3) {
    case 0: return cos_poly(r);
    case 1: return -sin_poly(r);
    case 2: return -cos_poly(r);
    default: return sin_poly(r);
  }
}

// asin u for |u| <= 0.5: u + (u z) P(z), z = u^2, Horner from the last coefficient taken.
inline double asin_poly(double u) {
  const double z = u * u;
  const int n = asin_terms(z);
  double p = kAsin[n - 1];
  for (int i = n - 2; i >= 0; --i) p = p * z + kAsin[i];
  const double uz = u * z;
  return u + uz * p;
}

// sqrt v for a float value v in [0, 1], by five Newton steps on 1/sqrt from the classic
// integer seed: the same operations on every machine, within 2 ulp (double) of the root.
inline double sqrt_newton(double v) {
  if (v == 0.0) return 0.0;
  const float vf = static_cast<float>(v);  // exact: v is a float value
  uint32_t bits;
  std::memcpy(&bits, &vf, 4);
  bits = 0x5F3759DFu - (bits >> 1);
  float seed;
  std::memcpy(&seed, &bits, 4);
  double y = seed;
  for (int i = 0; i < 5; ++i) {
    double t = v * y;
    t = t * y;
    t = 0.5 * t;
    t = 1.5 - t;
    y = y * t;
  }
  return v * y;
}

// acos x for a float x in [-1, 1]: pi/2 - asin x in the middle, 2 asin sqrt((1 - x)/2) above
// 0.5, pi - 2 asin sqrt((1 + x)/2) below -0.5 (1 - x, 1 + x and the halving are exact there).
inline double acos_d(double x) {
  if (x > 0.5) {
    const double v = (1.0 - x) * 0.5;
    return 2.0 * asin_poly(sqrt_newton(v));
  }
  if (x < -0.5) {
    const double v = (1.0 + x) * 0.5;
    return kPiD - 2.0 * asin_poly(sqrt_newton(v));
  }
  return kPiO2D - asin_poly(x);
}

}  // namespace detail

// MathF.Sin, MathF.Cos and MathF.Acos as the scatter uses them (see the header comment).
inline float sin_f(float x) { return static_cast<float>(detail::sin_d(x)); }
inline float cos_f(float x) { return static_cast<float>(detail::cos_d(x)); }
// Both at once (one reduction): the same bits as sin_f(x) and cos_f(x).
inline void sincos_f(float x, float& s, float& c) {
  int32_t k = 0;
  const double r = detail::reduce(x, k);
  const double sp = detail::sin_poly(r), cp = detail::cos_poly(r);
  switch (k & 3) {
    case 0: s = static_cast<float>(sp), c = static_cast<float>(cp); break;
    case 1: s = static_cast<float>(cp), c = static_cast<float>(-sp); break;
    case 2: s = static_cast<float>(-sp), c = static_cast<float>(-cp); break;
    default: s = static_cast<float>(-cp), c = static_cast<float>(sp); break;
  }
}
// Arguments outside [-1, 1] (never passed: callers clamp) give NaN, as acosf does.
inline float acos_f(float x) {
  if (!(x >= -1.0f && x <= 1.0f)) return std::nanf("");
  return static_cast<float>(detail::acos_d(x));
}

}  // namespace voxkit::grass
