#version 450
// The grass scatter of lib/grass/ (scatter.cpp, surface.cpp, grass_math.hpp) as a Vulkan
// compute shader: one workgroup per cell, one invocation per candidate (looping with a stride
// of the workgroup size), the same hash, streams, surface sampling and verdicts, and the same
// 48-byte records BIT FOR BIT. bench/grass_gpu.cpp runs it and compares (docs/grass-gpu.md).
//
// Exactness. Vulkan guarantees correctly rounded +, -, * and comparisons on float and double,
// but not division, square root, fma, sin/cos/acos, and lets a compiler contract a*b+c into an
// fma. So:
//  - every variable that holds float or double arithmetic is `precise` (SPIR-V NoContraction:
//    each operation rounded on its own, in the written order, as the C++ compiled with
//    -ffp-contract=off); the build checks that every OpFAdd/OpFSub/OpFMul is decorated
//    (bench/grass_spirv.py);
//  - signed zeros are preserved (SignedZeroInfNanPreserve, below);
//  - float division, float square root and float fma are emulated with correctly rounded
//    results (div_rn, sqrt_rn, fma_rn below; each says why it is exact);
//  - double -> float rounding is done by round_f (ties to even, whatever OpFConvert does);
//  - uint -> float (the streams' unit()) is done in integers, ties to even (u2f_rne);
//  - sin, cos and acos are grass_math.hpp's detail:: functions transliterated operation for
//    operation in double (same 17-digit constants, same Horner order, same reduction), then
//    rounded by round_f as the C++ static_cast<float> rounds.
// Denormals are not expected in this data (heights, weights and unit draws are far from them).
#extension GL_ARB_gpu_shader_fp64 : enable
#extension GL_EXT_spirv_intrinsics : require

// Signed zeros, infinities and NaNs preserved (SPIR-V SignedZeroInfNanPreserve, 32 and 64 bits):
// without it Vulkan lets the compiler ignore the sign of zero. grass_gpu requires the device to
// support it (VkPhysicalDeviceFloatControlsProperties). It is not enough on Mesa 22.3's lavapipe,
// which still folds 0 * x to +0 (a quaternion component came out -0 where the CPU has +0): see Z
// below. glslang 12 keeps only the last of these two lines (one execution mode per mode
// number); bench/grass_spirv.py adds the 32-bit one back.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 32);
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 64);

layout(local_size_x = 64) in;

struct Cell {
  int x;
  int z;
  uint first;     // where the cell's records begin in `blades` (in records)
  uint capacity;  // how many records it may write
};

layout(std430, set = 0, binding = 0) readonly buffer Params {
  float origin_x, origin_y, origin_z, spacing;
  int samples_x, samples_z, has_holes, layer_mode;  // layer_mode: 0 = a layer bound, -1 none, -2 missing
  float cell_size;
  int side;
  float step;
  float reach;
  float align;
  float density_scale;
  float min_weight, max_weight;
  float min_scale, max_scale;
  float max_slope;
  int random_yaw;
  int needs_weight;  // GrassType's layer is not empty (density_at reads the weight)
  uint cell_count;
  float zero;  // 0.0f from the host: see Z below
} P;
layout(std430, set = 0, binding = 1) readonly buffer Cells { Cell cells[]; };
layout(std430, set = 0, binding = 2) readonly buffer Heights { float height[]; };
layout(std430, set = 0, binding = 3) readonly buffer Holes { uint hole[]; };     // one per quad, 0 or 1
layout(std430, set = 0, binding = 4) readonly buffer Weights { float weight[]; };  // the bound layer's
layout(std430, set = 0, binding = 5) buffer Counts { uint counts[]; };   // 4 per cell: placed, no surface, slope, density
layout(std430, set = 0, binding = 6) writeonly buffer Blades { float blades[]; };  // 12 floats per record
layout(std430, set = 0, binding = 7) writeonly buffer Indices { int indices[]; };  // candidate index per record

// --- float constants, by their bits (no decimal parsing involved) ---------------------------
#define kPi uintBitsToFloat(0x40490FDBu)        // 3.14159274f (MathF.PI)
#define kTau uintBitsToFloat(0x40C90FDBu)       // 6.28318548f (MathF.Tau)
#define kZeroTol2 uintBitsToFloat(0x2B8CBCCCu)  // 1e-6f * 1e-6f, rounded as float
#define kTiny uintBitsToFloat(0x38D1B717u)      // 1e-4f
#define kSlerpLimit uintBitsToFloat(0x3F7FF972u)  // 1.0f - 1e-4f
#define kUpLimit uintBitsToFloat(0x3F7FF972u)     // 0.9999f (the same float)
#define kTwoM32 uintBitsToFloat(0x2F800000u)    // 2^-32

// --- correctly rounded float helpers -----------------------------------------------------

// The float next to f (finite, non-zero) towards +inf (up) or -inf.
float next_float(float f, bool up) {
  uint b = floatBitsToUint(f);
  bool positive = f > 0.0;
  return uintBitsToFloat((positive == up) ? b + 1u : b - 1u);
}

// d rounded to the nearest float, ties to even. f0 = float(d) is only trusted to be within one
// float ulp of d (a faithful conversion); the midpoint between two adjacent floats has at most 25
// significant bits, so it and every comparison with it are exact in double.
float round_f(double d) {
  float f0 = float(d);
  precise double d0 = double(f0);
  if (d0 == d || f0 == 0.0 || isinf(f0) || isnan(f0)) return f0;
  float other = next_float(f0, d0 < d);
  precise double sum = d0 + double(other);
  precise double mid = sum * 0.5lf;
  if (d == mid) return (floatBitsToUint(f0) & 1u) == 0u ? f0 : other;
  bool past = (d0 < d) ? (d > mid) : (d < mid);
  return past ? other : f0;
}

// a / b, correctly rounded. The quotient of two floats is never exactly a float midpoint m
// (m has an odd 25-bit significand M; m * b = a would need M * B odd with >= 25 bits, but a has
// 24), so comparing a with m * b (25 x 24 = 49 bits: exact in double) tells which side of each
// midpoint the true quotient lies on. q approximates |a / b| to about 2^-50 relative (Newton on
// the reciprocal from the native quotient, which Vulkan bounds to 2.5 ulp), so float(q) is within
// one ulp and one step either way fixes it. Zero and non-finite cases (not in this data) fall
// back to the native operation.
float div_rn(float a, float b) {
  if (a == 0.0 || b == 0.0 || isinf(a) || isinf(b) || isnan(a) || isnan(b)) {
    precise float native = a / b;
    return native;
  }
  float fa = abs(a), fb = abs(b);
  precise double A = double(fa);
  precise double B = double(fb);
  precise float seed = 1.0 / fb;  // only a seed: any value within 2^-20 will do
  precise double y = double(seed);
  for (int i = 0; i < 3; ++i) {
    precise double by = B * y;
    precise double two_minus = 2.0lf - by;
    y = y * two_minus;
  }
  precise double q = A * y;
  float f = float(q);
  precise double fd = double(f);
  precise double up_sum = fd + double(next_float(f, true));
  precise double up_mid = up_sum * 0.5lf;
  precise double up_prod = up_mid * B;
  if (up_prod < A) {
    f = next_float(f, true);
  } else {
    precise double dn_sum = fd + double(next_float(f, false));
    precise double dn_mid = dn_sum * 0.5lf;
    precise double dn_prod = dn_mid * B;
    if (dn_prod > A) f = next_float(f, false);
  }
  bool negative = (a < 0.0) != (b < 0.0);
  return negative ? -f : f;
}

// sqrt(x) for x > 0, correctly rounded. sqrt of a float is never exactly a float midpoint m (M^2
// odd would need >= 49 bits), and m * m (25 x 25 = 50 bits) is exact in double, so x > m * m says
// the root is above m. The double approximation (five Newton steps on 1/sqrt from the classic
// integer seed, as grass_math.hpp's sqrt_newton) is within a few double ulps: float() of it is
// within one float ulp, and one step either way fixes it.
float sqrt_rn(float x) {
  if (!(x > 0.0) || isinf(x)) return sqrt(x);  // zero, negative, NaN, inf: not in this data
  precise double v = double(x);
  uint bits = 0x5F3759DFu - (floatBitsToUint(x) >> 1);
  precise double y = double(uintBitsToFloat(bits));
  for (int i = 0; i < 5; ++i) {
    precise double t = v * y;
    t = t * y;
    t = 0.5lf * t;
    t = 1.5lf - t;
    y = y * t;
  }
  precise double r = v * y;
  float f = float(r);
  precise double fd = double(f);
  precise double up_sum = fd + double(next_float(f, true));
  precise double up_mid = up_sum * 0.5lf;
  precise double up_sq = up_mid * up_mid;
  if (v > up_sq) {
    f = next_float(f, true);
  } else {
    precise double dn_sum = fd + double(next_float(f, false));
    precise double dn_mid = dn_sum * 0.5lf;
    precise double dn_sq = dn_mid * dn_mid;
    if (v < dn_sq) f = next_float(f, false);
  }
  return f;
}

// fma(a, b, c) for floats, correctly rounded (std::fma). p = a * b is exact in double (24 x 24
// bits); s = p + c rounds once and TwoSum gives its exact error e (s + e = a b + c). Rounding s
// to float gives the right answer unless s is exactly a float midpoint and e != 0 (no other float
// midpoint can lie between s and s + e: it would be a double nearer to s + e than s is); then
// the sign of e says which neighbour.
float fma_rn(float a, float b, float c) {
  precise double p = double(a) * double(b);
  precise double cd = double(c);
  precise double s = p + cd;
  precise double bb = s - p;
  precise double sb = s - bb;
  precise double e1 = p - sb;
  precise double e2 = cd - bb;
  precise double e = e1 + e2;
  float f = round_f(s);
  precise double fd = double(f);
  if (e != 0.0lf && fd != s && f != 0.0 && !isinf(f)) {
    float g = next_float(f, fd < s);
    precise double sum = fd + double(g);
    precise double mid = sum * 0.5lf;
    if (mid == s) {
      // the true value s + e is on e's side of the midpoint
      bool want_up = e > 0.0lf;
      float hi = (fd < s) ? g : f;
      float lo = (fd < s) ? f : g;
      f = want_up ? hi : lo;
    }
  }
  return f;
}

// --- grass_math.hpp ------------------------------------------------------------------------

const uint kCellSeedX = 0x9E3779B1u;
const uint kCellSeedZ = 0x85EBCA77u;
const uint kStreamSeed = 0x27D4EB2u;
const int kYawStream = 1;
const int kScaleStream = 3;
const int kJitterXStream = 6;
const int kJitterZStream = 7;
const int kDensityStream = 8;
const int kTintStream = 9;
const int kPhaseStream = 10;

uint mix_hash(uint seed, uint index) {
  uint h = seed ^ index;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h;
}

uint cell_hash(int x, int z, int index) {
  return mix_hash((uint(x) * kCellSeedX) ^ (uint(z) * kCellSeedZ), uint(index));
}

// uint -> float, round to nearest even, in integers (below 2^24 the conversion is exact).
float u2f_rne(uint m) {
  if (m < 0x1000000u) return float(m);
  int n = findMSB(m);  // 24..31
  int sh = n - 23;     // 1..8
  uint q = m >> uint(sh);
  uint rem = m & ((1u << uint(sh)) - 1u);
  uint half_ = 1u << uint(sh - 1);
  if (rem > half_ || (rem == half_ && (q & 1u) != 0u)) q += 1u;  // q <= 2^24: exact below
  precise float r = float(q) * uintBitsToFloat(uint(127 + sh) << 23);
  return r;
}

float unit_draw(uint hash, int stream) {
  uint mixed = mix_hash(hash ^ (uint(stream) * kStreamSeed), uint(stream));
  precise float r = u2f_rne(mixed) * kTwoM32;
  return r;
}

float lerp_fused(float a, float b, float t) {
  precise float one_minus = 1.0 - t;
  precise float bt = b * t;
  return fma_rn(a, one_minus, bt);
}

// detail:: of grass_math.hpp, operation for operation.
const double kSin[8] = double[8](0.16666666666666666lf, 0.0083333333333333332lf, 0.00019841269841269841lf,
                                 2.7557319223985893e-06lf, 2.505210838544172e-08lf, 1.6059043836821613e-10lf,
                                 7.6471637318198164e-13lf, 2.8114572543455206e-15lf);
const double kCos[9] = double[9](0.5lf, 0.041666666666666664lf, 0.0013888888888888889lf, 2.4801587301587302e-05lf,
                                 2.7557319223985888e-07lf, 2.08767569878681e-09lf, 1.1470745597729725e-11lf,
                                 4.7794773323873853e-14lf, 1.5619206968586225e-16lf);
const double kAsin[24] = double[24](0.16666666666666666lf, 0.074999999999999997lf, 0.044642857142857144lf,
                                    0.030381944444444444lf, 0.022372159090909092lf, 0.017352764423076924lf,
                                    0.013964843750000001lf, 0.011551800896139705lf, 0.0097616095291940784lf,
                                    0.0083903358096168151lf, 0.0073125258735988454lf, 0.0064472103118896487lf,
                                    0.0057400376708419236lf, 0.0051533096823199046lf, 0.0046601434869150962lf,
                                    0.0042409070936793632lf, 0.0038809645588376691lf, 0.0035692053938259347lf,
                                    0.0032970595034734849lf, 0.0030578216492580306lf, 0.0028461784011089421lf,
                                    0.0026578706382072901lf, 0.0024894486782468836lf, 0.002338091892111975lf);
const double kPiD = 3.1415926535897931lf;
const double kPiO2D = 1.5707963267948966lf;
const double kTwoOverPiD = 0.63661977236758138lf;
const double kPiO2Hi = 1.5707963267341256lf;
const double kPiO2Lo = 6.0771005065061922e-11lf;

// How many coefficients the polynomials take for z = r^2 (grass_math.hpp: sin_cos_terms and
// asin_terms): the same thresholds, exact powers of two.
int sin_cos_terms(double z, int full) {
  return z <= 0.00390625lf ? 5 : z <= 0.015625lf ? 6 : z <= 0.0625lf ? 7 : full;
}
int asin_terms(double z) {
  return z <= 0.00390625lf ? 7 : z <= 0.015625lf ? 10 : z <= 0.0625lf ? 15 : 24;
}

// grass_math.hpp's alternating(): Horner from the last coefficient taken, even terms added,
// odd ones subtracted.
double sin_poly(double r) {
  precise double z = r * r;
  int n = sin_cos_terms(z, 8);
  precise double q = ((n - 1) & 1) != 0 ? -kSin[n - 1] : kSin[n - 1];
  for (int i = n - 2; i >= 0; --i) q = (i & 1) != 0 ? q * z - kSin[i] : q * z + kSin[i];
  precise double rz = r * z;
  precise double res = r - rz * q;
  return res;
}

double cos_poly(double r) {
  precise double z = r * r;
  int n = sin_cos_terms(z, 9);
  precise double c = ((n - 1) & 1) != 0 ? -kCos[n - 1] : kCos[n - 1];
  for (int i = n - 2; i >= 0; --i) c = (i & 1) != 0 ? c * z - kCos[i] : c * z + kCos[i];
  precise double res = 1.0lf - z * c;
  return res;
}

double reduce(double x, out int quadrant) {
  precise double t = x * kTwoOverPiD + 0.5lf;
  precise double k = floor(t);
  quadrant = int(k);
  precise double a = x - k * kPiO2Hi;
  precise double res = a - k * kPiO2Lo;
  return res;
}

double sin_d(double x) {
  int k;
  precise double r = reduce(x, k);
  switch (k & 3) {
    case 0: return sin_poly(r);
    case 1: return cos_poly(r);
    case 2: return -sin_poly(r);
    default: return -cos_poly(r);
  }
}

double cos_d(double x) {
  int k;
  precise double r = reduce(x, k);
  switch (k & 3) {
    case 0: return cos_poly(r);
    case 1: return -sin_poly(r);
    case 2: return -cos_poly(r);
    default: return sin_poly(r);
  }
}

double asin_poly(double u) {
  precise double z = u * u;
  int n = asin_terms(z);
  precise double p = kAsin[n - 1];
  for (int i = n - 2; i >= 0; --i) p = p * z + kAsin[i];
  precise double uz = u * z;
  precise double res = u + uz * p;
  return res;
}

double sqrt_newton(double v) {
  if (v == 0.0lf) return 0.0lf;
  float vf = float(v);  // exact: v is a float value
  uint bits = 0x5F3759DFu - (floatBitsToUint(vf) >> 1);
  precise double y = double(uintBitsToFloat(bits));
  for (int i = 0; i < 5; ++i) {
    precise double t = v * y;
    t = t * y;
    t = 0.5lf * t;
    t = 1.5lf - t;
    y = y * t;
  }
  precise double res = v * y;
  return res;
}

double acos_d(double x) {
  if (x > 0.5lf) {
    precise double v = (1.0lf - x) * 0.5lf;
    precise double a = asin_poly(sqrt_newton(v));
    precise double res = 2.0lf * a;
    return res;
  }
  if (x < -0.5lf) {
    precise double v = (1.0lf + x) * 0.5lf;
    precise double a = asin_poly(sqrt_newton(v));
    precise double res = kPiD - 2.0lf * a;
    return res;
  }
  precise double a = asin_poly(x);
  precise double res = kPiO2D - a;
  return res;
}

float sin_f(float x) { return round_f(sin_d(double(x))); }
float cos_f(float x) { return round_f(cos_d(double(x))); }
float acos_f(float x) {
  if (!(x >= -1.0 && x <= 1.0)) return uintBitsToFloat(0x7FC00000u);
  return round_f(acos_d(double(x)));
}

// --- surface.cpp ---------------------------------------------------------------------------

struct Axis {
  int i0, i1;
  float f;
};

Axis axis_of(float local, float spacing, int samples) {
  precise float s = div_rn(local, spacing);
  precise float top = float(samples) - 1.0;
  if (s < 0.0) s = 0.0;
  if (s > top) s = top;
  Axis a;
  a.i0 = int(floor(s));
  a.i1 = min(a.i0 + 1, samples - 1);
  precise float f = s - float(a.i0);
  a.f = f;
  return a;
}

float height_at(float lx, float lz) {
  Axis ax = axis_of(lx, P.spacing, P.samples_x);
  Axis az = axis_of(lz, P.spacing, P.samples_z);
  int row0 = az.i0 * P.samples_x, row1 = az.i1 * P.samples_x;
  precise float top = lerp_fused(height[row0 + ax.i0], height[row0 + ax.i1], ax.f);
  precise float bottom = lerp_fused(height[row1 + ax.i0], height[row1 + ax.i1], ax.f);
  return lerp_fused(top, bottom, az.f);
}

bool quad_missing(float lx, float lz) {
  if (P.has_holes == 0) return false;
  precise float sx = div_rn(lx, P.spacing);
  precise float sz = div_rn(lz, P.spacing);
  int qx = int(floor(sx));
  int qz = int(floor(sz));
  qx = clamp(qx, 0, P.samples_x - 2);
  qz = clamp(qz, 0, P.samples_z - 2);
  return hole[qz * (P.samples_x - 1) + qx] != 0u;
}

struct Ground {
  float px, py, pz;
  float nx, ny, nz;
  float weight;
  bool hit;
};

Ground sample_ground(float x, float z) {
  Ground g;
  g.px = 0.0; g.py = 0.0; g.pz = 0.0;
  g.nx = 0.0; g.ny = 1.0; g.nz = 0.0;
  g.weight = 0.0;
  g.hit = false;
  precise float lx = x - P.origin_x;
  precise float lz = z - P.origin_z;
  precise float wx = float(P.samples_x - 1) * P.spacing;
  precise float wz = float(P.samples_z - 1) * P.spacing;
  if (lx < 0.0 || lz < 0.0 || lx > wx || lz > wz) return g;
  if (quad_missing(lx, lz)) return g;
  precise float h = height_at(lx, lz);
  g.px = x;
  precise float py = h + P.origin_y;
  g.py = py;
  g.pz = z;
  precise float lxm = lx - P.spacing;
  precise float lxp = lx + P.spacing;
  precise float lzm = lz - P.spacing;
  precise float lzp = lz + P.spacing;
  precise float left = height_at(lxm, lz);
  precise float right = height_at(lxp, lz);
  precise float down = height_at(lx, lzm);
  precise float up = height_at(lx, lzp);
  precise float nx = left - right;
  precise float ny = 2.0 * P.spacing;
  precise float nz = down - up;
  if (nx == 0.0 && ny == 0.0 && nz == 0.0) {
    nx = 0.0; ny = 1.0; nz = 0.0;
  } else {
    precise float ls = (nx * nx + ny * ny) + nz * nz;
    if (ls < kZeroTol2) {
      nx = 0.0; ny = 0.0; nz = 0.0;
    } else {
      precise float root = sqrt_rn(ls);
      precise float inv = div_rn(1.0, root);
      nx = nx * inv; ny = ny * inv; nz = nz * inv;
    }
  }
  g.nx = nx; g.ny = ny; g.nz = nz;
  if (P.layer_mode == -1) {
    g.weight = 1.0;
  } else if (P.layer_mode < 0) {
    g.weight = 0.0;
  } else {
    Axis ax = axis_of(lx, P.spacing, P.samples_x);
    Axis az = axis_of(lz, P.spacing, P.samples_z);
    int row0 = az.i0 * P.samples_x, row1 = az.i1 * P.samples_x;
    precise float top = lerp_fused(weight[row0 + ax.i0], weight[row0 + ax.i1], ax.f);
    precise float bottom = lerp_fused(weight[row1 + ax.i0], weight[row1 + ax.i1], ax.f);
    g.weight = lerp_fused(top, bottom, az.f);
  }
  g.hit = true;
  return g;
}

// --- scatter.cpp ---------------------------------------------------------------------------

float clamp01(float v) { return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v); }

vec3 normalize3(vec3 v) {
  precise float ls = (v.x * v.x + v.y * v.y) + v.z * v.z;
  if (ls < kZeroTol2) return vec3(0.0);
  precise float inv = div_rn(1.0, sqrt_rn(ls));
  precise vec3 r = vec3(v.x * inv, v.y * inv, v.z * inv);
  return r;
}
bool is_zero3(vec3 v) { return v.x == 0.0 && v.y == 0.0 && v.z == 0.0; }

// Z is 0.0f read from the buffer, so the compiler cannot fold 0 * x to 0 or x + 0 to x (both
// lose the sign of a zero; Mesa's lavapipe folds them even with SignedZeroInfNanPreserve). Every
// zero that enters arithmetic below is Z, never a literal.
#define Z P.zero
#define kIdentity vec4(Z, Z, Z, 1.0)

vec4 normalize4(vec4 q) {
  precise float ls = ((q.x * q.x + q.y * q.y) + q.z * q.z) + q.w * q.w;
  if (ls < kZeroTol2) return kIdentity;
  precise float inv = div_rn(1.0, sqrt_rn(ls));
  precise vec4 r = vec4(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
  return r;
}

vec4 from_axis_angle(vec3 axis, float angle) {
  vec3 u = normalize3(axis);
  if (is_zero3(u)) return kIdentity;
  precise float half_ = angle * 0.5;
  float s = sin_f(half_);
  precise vec4 r = vec4(u.x * s, u.y * s, u.z * s, cos_f(half_));
  return r;
}

// Quaternion.Concatenate(first, second): second * first.
vec4 concat(vec4 first, vec4 second) {
  float ax = second.x, ay = second.y, az = second.z, aw = second.w;
  float bx = first.x, by = first.y, bz = first.z, bw = first.w;
  precise float rx = ((aw * bx + ax * bw) + ay * bz) - az * by;
  precise float ry = ((aw * by - ax * bz) + ay * bw) + az * bx;
  precise float rz = ((aw * bz + ax * by) - ay * bx) + az * bw;
  precise float rw = ((aw * bw - ax * bx) - ay * by) - az * bz;
  return vec4(rx, ry, rz, rw);
}

vec4 slerp(vec4 from, vec4 to, float amount) {
  float t = clamp01(amount);
  precise float d = ((from.x * to.x + from.y * to.y) + from.z * to.z) + from.w * to.w;
  vec4 target = to;
  if (d < 0.0) {
    d = -d;
    target = vec4(-to.x, -to.y, -to.z, -to.w);
  }
  if (d > kSlerpLimit) {
    precise vec4 l = vec4(from.x + (target.x - from.x) * t, from.y + (target.y - from.y) * t,
                          from.z + (target.z - from.z) * t, from.w + (target.w - from.w) * t);
    return normalize4(l);
  }
  float theta = acos_f(d);
  float sin_theta = sin_f(theta);
  precise float om = 1.0 - t;
  precise float a1 = om * theta;
  precise float a2 = t * theta;
  float from_scale = div_rn(sin_f(a1), sin_theta);
  float to_scale = div_rn(sin_f(a2), sin_theta);
  precise vec4 r = vec4(from.x * from_scale + target.x * to_scale, from.y * from_scale + target.y * to_scale,
                        from.z * from_scale + target.z * to_scale, from.w * from_scale + target.w * to_scale);
  return r;
}

vec4 from_up_to(vec3 n) {
  precise float d = (Z * n.x + 1.0 * n.y) + Z * n.z;
  d = d < -1.0 ? -1.0 : (d > 1.0 ? 1.0 : d);
  if (d > kUpLimit) return kIdentity;
  if (d < -kUpLimit) return from_axis_angle(vec3(1.0, Z, Z), kPi);
  precise vec3 c = vec3(1.0 * n.z - Z * n.y, Z * n.x - Z * n.z, Z * n.y - 1.0 * n.x);
  return from_axis_angle(normalize3(c), acos_f(d));
}

float up_of(Ground g) {
  vec3 n = normalize3(vec3(g.nx, g.ny, g.nz));
  precise float r = (n.x * Z + n.y * 1.0) + n.z * Z;
  return r;
}

float slope_of(float up) { return acos_f(up < -1.0 ? -1.0 : (up > 1.0 ? 1.0 : up)); }

float density_at(float w) {
  if (P.needs_weight == 0) return 1.0;
  float low = P.min_weight;
  precise float lt = low + kTiny;
  float high = (P.max_weight < lt) ? lt : P.max_weight;  // std::max(max_weight, low + 1e-4f)
  precise float num = w - low;
  precise float den = high - low;
  precise float v = div_rn(num, den);
  if (v < 0.0) v = 0.0;
  if (v > 1.0) v = 1.0;
  precise float a = v * v;
  precise float b = 3.0 - 2.0 * v;
  precise float r = a * b;
  return r;
}

vec2 candidate_at(Cell c, int index) {
  int slot_x = index % P.side, slot_z = index / P.side;
  uint h = cell_hash(c.x, c.z, index);
  precise float ox = float(c.x) * P.cell_size;
  precise float oz = float(c.z) * P.cell_size;
  precise float jx = unit_draw(h, kJitterXStream) * 2.0 - 1.0;
  precise float jz = unit_draw(h, kJitterZStream) * 2.0 - 1.0;
  precise float x = (ox + (float(slot_x) + 0.5) * P.step) + jx * P.reach;
  precise float z = (oz + (float(slot_z) + 0.5) * P.step) + jz * P.reach;
  return vec2(x, z);
}

shared uint s_counts[4];

void main() {
  uint cell_index = gl_WorkGroupID.x;
  if (gl_LocalInvocationIndex == 0u) {
    s_counts[0] = 0u; s_counts[1] = 0u; s_counts[2] = 0u; s_counts[3] = 0u;
  }
  barrier();
  Cell c = cells[cell_index];
  int n = P.side * P.side;
  for (int i = int(gl_LocalInvocationIndex); i < n; i += int(gl_WorkGroupSize.x)) {
    uint h = cell_hash(c.x, c.z, i);
    vec2 at = candidate_at(c, i);
    Ground g = sample_ground(at.x, at.y);
    if (!g.hit) {
      atomicAdd(s_counts[1], 1u);
      continue;
    }
    float up = up_of(g);
    float slope = slope_of(up);
    if (slope > P.max_slope) {
      atomicAdd(s_counts[2], 1u);
      continue;
    }
    precise float keep = density_at(g.weight) * clamp01(P.density_scale);
    float draw = unit_draw(h, kDensityStream);
    if (draw >= keep) {
      atomicAdd(s_counts[3], 1u);
      continue;
    }
    uint slot = atomicAdd(s_counts[0], 1u);
    if (slot >= c.capacity) continue;

    // place()
    precise float yaw = (P.random_yaw != 0) ? unit_draw(h, kYawStream) * kTau : 0.0;
    float scale = lerp_fused(P.min_scale, P.max_scale, unit_draw(h, kScaleStream));
    vec4 upright = from_axis_angle(vec3(Z, 1.0, Z), yaw);
    vec4 rotation = upright;
    if (P.align > 0.0) {
      vec3 nn = normalize3(vec3(g.nx, g.ny, g.nz));
      if (!is_zero3(nn)) rotation = concat(slerp(kIdentity, from_up_to(nn), P.align), upright);
    }
    vec4 r = normalize4(rotation);
    precise float phase = unit_draw(h, kPhaseStream) * kTau;
    uint base = (c.first + slot) * 12u;
    blades[base + 0u] = g.px;
    blades[base + 1u] = g.py;
    blades[base + 2u] = g.pz;
    blades[base + 3u] = scale;
    blades[base + 4u] = r.x;
    blades[base + 5u] = r.y;
    blades[base + 6u] = r.z;
    blades[base + 7u] = r.w;
    blades[base + 8u] = unit_draw(h, kTintStream);
    blades[base + 9u] = phase;
    blades[base + 10u] = 0.0;
    blades[base + 11u] = 0.0;
    indices[c.first + slot] = i;
  }
  memoryBarrierShared();
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    counts[cell_index * 4u + 0u] = s_counts[0];
    counts[cell_index * 4u + 1u] = s_counts[1];
    counts[cell_index * 4u + 2u] = s_counts[2];
    counts[cell_index * 4u + 3u] = s_counts[3];
  }
}
