#include "lib/grass/scatter.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <string>

#include "lib/core/error.hpp"
#include "lib/grass/grass_math.hpp"
#include "lib/grass/rotation_batch.hpp"
#include "lib/grass/surface_sample.hpp"
#include "lib/grass/verdict_batch.hpp"

namespace voxkit::grass {

const char* refusal_name(Refusal r) {
  switch (r) {
    case Refusal::Placed: return "placed";
    case Refusal::NoSurface: return "no-surface";
    case Refusal::Slope: return "slope";
    case Refusal::Density: return "density";
  }
  return "?";
}

float effective_cell_size(float size) { return size > 1.0f ? size : 1.0f; }

CellKey cell_of(float x, float z, float cell_size) {
  const float size = effective_cell_size(cell_size);
  return {static_cast<int32_t>(std::floor(x / size)), static_cast<int32_t>(std::floor(z / size))};
}

namespace {

inline float clamp01(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }  // MathUtil.Clamp

struct V3 {
  float x, y, z;
};
struct Q {
  float x, y, z, w;
};
constexpr Q kIdentity{0.0f, 0.0f, 0.0f, 1.0f};
constexpr float kZeroTol2 = 1e-6f * 1e-6f;  // ZeroTolerance squared

// Vector3.Normalize: zero below the tolerance, else each component times 1 / sqrt(|v|^2).
inline V3 normalize(V3 v) {
  const float ls = (v.x * v.x + v.y * v.y) + v.z * v.z;
  if (ls < kZeroTol2) return {0.0f, 0.0f, 0.0f};
  const float inv = 1.0f / std::sqrt(ls);
  return {v.x * inv, v.y * inv, v.z * inv};
}
inline bool is_zero(V3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

// Quaternion.Normalize: identity below the tolerance.
inline Q normalize(Q q) {
  const float ls = ((q.x * q.x + q.y * q.y) + q.z * q.z) + q.w * q.w;
  if (ls < kZeroTol2) return kIdentity;
  const float inv = 1.0f / std::sqrt(ls);
  return {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

// Quaternion.FromAxisAngle.
inline Q from_axis_angle(V3 axis, float angle) {
  const V3 u = normalize(axis);
  if (is_zero(u)) return kIdentity;
  const float half = angle * 0.5f;
  float s, c;
  sincos_f(half, s, c);
  return {u.x * s, u.y * s, u.z * s, c};
}

// Quaternion.Concatenate(first, second): the Hamilton product second * first.
inline Q concat(Q first, Q second) {
  const float ax = second.x, ay = second.y, az = second.z, aw = second.w;
  const float bx = first.x, by = first.y, bz = first.z, bw = first.w;
  return {((aw * bx + ax * bw) + ay * bz) - az * by, ((aw * by - ax * bz) + ay * bw) + az * bx,
          ((aw * bz + ax * by) - ay * bx) + az * bw, ((aw * bw - ax * bx) - ay * by) - az * bz};
}

// Quaternion.Slerp.
inline Q slerp(Q from, Q to, float amount) {
  const float t = clamp01(amount);
  float dot = ((from.x * to.x + from.y * to.y) + from.z * to.z) + from.w * to.w;
  Q target = to;
  if (dot < 0.0f) {
    dot = -dot;
    target = {-to.x, -to.y, -to.z, -to.w};
  }
  if (dot > 1.0f - 1e-4f) {
    return normalize(Q{from.x + (target.x - from.x) * t, from.y + (target.y - from.y) * t,
                       from.z + (target.z - from.z) * t, from.w + (target.w - from.w) * t});
  }
  const float theta = acos_f(dot);
  const float sin_theta = sin_f(theta);
  const float from_scale = sin_f((1.0f - t) * theta) / sin_theta;
  const float to_scale = sin_f(t * theta) / sin_theta;
  return {from.x * from_scale + target.x * to_scale, from.y * from_scale + target.y * to_scale,
          from.z * from_scale + target.z * to_scale, from.w * from_scale + target.w * to_scale};
}

// FoliageScatter.FromUpTo: the rotation taking world up onto a unit normal.
inline Q from_up_to(V3 n) {
  float dot = (0.0f * n.x + 1.0f * n.y) + 0.0f * n.z;
  dot = dot < -1.0f ? -1.0f : dot > 1.0f ? 1.0f : dot;
  if (dot > 0.9999f) return kIdentity;
  if (dot < -0.9999f) return from_axis_angle({1.0f, 0.0f, 0.0f}, kPi);
  // Cross(UnitY, n)
  const V3 cross{1.0f * n.z - 0.0f * n.y, 0.0f * n.x - 0.0f * n.z, 0.0f * n.y - 1.0f * n.x};
  return from_axis_angle(normalize(cross), acos_f(dot));
}

// FoliageSurface.Slope's cosine: Dot(Normalize(normal), UnitY).
inline float up_of(const Ground& g) {
  const V3 n = normalize(V3{g.nx, g.ny, g.nz});
  return (n.x * 0.0f + n.y * 1.0f) + n.z * 0.0f;
}
inline float slope_of(float up) { return acos_f(up < -1.0f ? -1.0f : up > 1.0f ? 1.0f : up); }

// The smallest float c in [-1, 1] with slope_of(c) <= max_slope, found by bisection over the
// floats' order and confirmed on 4096 floats either side; false when the arc cosine is not
// monotone there (then every candidate evaluates it).
bool find_slope_threshold(float max_slope, float& threshold) {
  if (std::isnan(max_slope)) return false;
  auto steep = [&](float c) { return slope_of(c) > max_slope; };
  // Map floats in [-1, 1] to ordered integers.
  auto key = [](float f) {
    const int32_t b = std::bit_cast<int32_t>(f);
    return b < 0 ? -(b & 0x7FFFFFFF) : b;
  };
  auto unkey = [](int32_t k) { return k < 0 ? std::bit_cast<float>(static_cast<int32_t>(0x80000000u | static_cast<uint32_t>(-k))) : std::bit_cast<float>(k); };
  int32_t lo = key(-1.0f), hi = key(1.0f);
  if (!steep(unkey(lo))) {  // nothing is too steep
    threshold = -INFINITY;
    return true;
  }
  if (steep(unkey(hi))) {  // everything is too steep
    threshold = INFINITY;
    return true;
  }
  while (hi - lo > 1) {  // steep(lo), !steep(hi)
    const int32_t mid = lo + (hi - lo) / 2;
    (steep(unkey(mid)) ? lo : hi) = mid;
  }
  for (int32_t d = 1; d <= 4096; ++d) {
    if (hi - d >= key(-1.0f) && !steep(unkey(hi - d))) return false;
    if (hi + d - 1 <= key(1.0f) && steep(unkey(hi + d - 1))) return false;
  }
  threshold = unkey(hi);
  return true;
}

struct Prepared {
  bool fast_slope = false;
  float min_up = 0.0f;  // steep iff up < min_up (when fast_slope)
};

Prepared prepare(const ScatterSetup& s) {
  Prepared p;
  p.fast_slope = find_slope_threshold(s.type.max_slope, p.min_up);
  return p;
}

Refusal consider_impl(const ScatterSetup& s, const Prepared& p, const SurfaceGrid& surface, CellKey cell,
                      int32_t index, Blade* blade, Trace* trace) {
  const uint32_t h = cell_hash(cell.x, cell.z, index);
  const auto at = candidate_at(s, cell, index);
  const Ground g = detail::sample(surface, at[0], at[1], s.layer);
  if (trace) {
    trace->index = index, trace->hash = h, trace->x = at[0], trace->z = at[1], trace->ground = g;
  }
  auto done = [&](Refusal r) {
    if (trace) trace->verdict = r;
    return r;
  };
  if (!g.hit) return done(Refusal::NoSurface);
  const float up = up_of(g);
  bool steep;
  if (p.fast_slope && !trace) {
    steep = up < p.min_up;
  } else {
    const float slope = slope_of(up);
    if (trace) trace->slope = slope;
    steep = slope > s.type.max_slope;
  }
  if (steep) return done(Refusal::Slope);
  const float keep = density_at(s.type, g.weight) * clamp01(s.density_scale);
  const float draw = unit(h, kDensityStream);
  if (trace) trace->keep = keep, trace->draw = draw;
  if (draw >= keep) return done(Refusal::Density);
  if (blade) *blade = place(s, g, h);
  return done(Refusal::Placed);
}

}  // namespace

ScatterSetup make_setup(const GrassType& type, float cell_size, float density_scale, const SurfaceGrid& surface) {
  if (auto why = validate(type)) throw Error(ErrorKind::Usage, "grass type: " + *why);
  if (!std::isfinite(cell_size))
    throw Error(ErrorKind::Usage, "grass cell size is not finite", std::nullopt, "a size in metres", std::to_string(cell_size));
  if (!std::isfinite(density_scale))
    throw Error(ErrorKind::Usage, "grass density scale is not finite", std::nullopt, "0..1", std::to_string(density_scale));
  ScatterSetup s;
  s.type = type;
  s.cell_size = effective_cell_size(cell_size);
  s.side = grid_side(type, s.cell_size);
  if (s.side > 46340)
    throw Error(ErrorKind::Usage, "grass grid too fine: the candidate index would not fit an int", std::nullopt,
                "at most 46340 candidates per side", std::to_string(s.side));
  s.step = s.cell_size / static_cast<float>(s.side);
  s.reach = clamp01(type.jitter) * s.step * 0.5f;
  s.align = clamp01(type.align_to_normal);
  s.density_scale = density_scale;
  s.layer = surface.layer_index(type.layer);
  return s;
}

namespace {
[[gnu::always_inline]] inline std::array<float, 2> candidate_at_inline(const ScatterSetup& s, CellKey cell,
                                                                      int32_t index, uint32_t h) {
  const int32_t slot_x = index % s.side, slot_z = index / s.side;
  const float ox = static_cast<float>(cell.x) * s.cell_size, oz = static_cast<float>(cell.z) * s.cell_size;
  const float jx = unit(h, kJitterXStream) * 2.0f - 1.0f, jz = unit(h, kJitterZStream) * 2.0f - 1.0f;
  const float x = (ox + (static_cast<float>(slot_x) + 0.5f) * s.step) + jx * s.reach;
  const float z = (oz + (static_cast<float>(slot_z) + 0.5f) * s.step) + jz * s.reach;
  return {x, z};
}
}  // namespace

std::array<float, 2> candidate_at(const ScatterSetup& s, CellKey cell, int32_t index) {
  return candidate_at_inline(s, cell, index, cell_hash(cell.x, cell.z, index));
}

namespace {
inline float yaw_of(const ScatterSetup& s, uint32_t h) { return s.type.random_yaw ? unit(h, kYawStream) * kTau : 0.0f; }

// The blade's rotation: the yaw about up, turned toward the ground normal by `align`, normalised
// (rotation_batch.cpp computes the same for many blades at once).
[[gnu::always_inline]] inline Q rotation_of(float yaw, const Ground& g, float align) {
  const Q upright = from_axis_angle({0.0f, 1.0f, 0.0f}, yaw);
  Q rotation = upright;
  if (align > 0.0f) {
    const V3 n = normalize(V3{g.nx, g.ny, g.nz});
    if (!is_zero(n)) rotation = concat(slerp(kIdentity, from_up_to(n), align), upright);
  }
  return normalize(rotation);
}

// The blade at g for hash h with rotation r.
[[gnu::always_inline]] inline Blade blade_of(const ScatterSetup& s, const Ground& g, uint32_t h, const Q& r) {
  Blade b{};
  b.position[0] = g.px, b.position[1] = g.py, b.position[2] = g.pz;
  b.scale = lerp_fused(s.type.min_scale, s.type.max_scale, unit(h, kScaleStream));
  b.rotation[0] = r.x, b.rotation[1] = r.y, b.rotation[2] = r.z, b.rotation[3] = r.w;
  b.tint = unit(h, kTintStream);
  b.wind_phase = unit(h, kPhaseStream) * kTau;
  b.padding[0] = b.padding[1] = 0.0f;
  return b;
}

[[gnu::always_inline]] inline Blade place_inline(const ScatterSetup& s, const Ground& g, uint32_t h) {
  return blade_of(s, g, h, rotation_of(yaw_of(s, h), g, s.align));
}
}  // namespace

Blade place(const ScatterSetup& s, const Ground& g, uint32_t h) { return place_inline(s, g, h); }

Refusal consider(const ScatterSetup& s, const SurfaceGrid& surface, CellKey cell, int32_t index, Blade* blade,
                 Trace* trace) {
  return consider_impl(s, Prepared{}, surface, cell, index, blade, trace);
}

namespace {

// DensityAt (lib/grass/grass_type.cpp) with the type's constants taken once: the same
// operations on the same values.
struct Density {
  bool weighted = false;
  float low = 0.0f, span = 1.0f;
  float scale = 1.0f;  // clamp(density_scale, 0, 1)
  explicit Density(const ScatterSetup& s) {
    weighted = needs_weight(s.type);
    low = s.type.min_weight;
    const float high = std::max(s.type.max_weight, low + 1e-4f);
    span = high - low;
    scale = clamp01(s.density_scale);
  }
  // density_at(type, weight) * clamp01(density_scale)
  float keep(float weight) const {
    if (!weighted) return 1.0f * scale;
    float v = (weight - low) / span;
    if (v < 0.0f) v = 0.0f;
    if (v > 1.0f) v = 1.0f;
    const float a = v * v;
    const float b = 3.0f - 2.0f * v;
    return (a * b) * scale;
  }
};

// One cell, in candidate order. Compiled twice below: for any x86-64, and for CPUs with FMA
// (the fused lerps become one instruction instead of a call; the bits are the same).
//
// The same verdicts and blades as consider_impl, candidate by candidate, with the per-cell work
// taken out of the loop (the cell's hash seed, the slot centres) and, when the type's slope
// limit refuses no normal at all (every slope up to pi passes; prepare() proves it), the
// verdict read from the cheap parts of the ground first: on the grid and not in a hole, then
// the layer weight against the density draw. Only a candidate that is placed samples the
// height and the normal (the slope check it skips could not have refused it).
[[gnu::always_inline]] inline void scatter_cell_body(const ScatterSetup& s, const Prepared& p,
                                                     const SurfaceGrid& surface, const ScatterOptions& options,
                                                     CellResult& r) {
  const int32_t side = s.side;
  const int32_t n = side * side;
  r.candidates = static_cast<uint32_t>(n);
  const bool keep_blades = options.keep_blades;
  const CellKey cell = r.cell;
  // cell_hash(x, z, i) == mix(seed, i)
  const uint32_t seed = (static_cast<uint32_t>(cell.x) * kCellSeedX) ^ (static_cast<uint32_t>(cell.z) * kCellSeedZ);
  // candidate_at: the slot centres, (origin + (slot + 0.5) * step), per column and row.
  const float ox = static_cast<float>(cell.x) * s.cell_size, oz = static_cast<float>(cell.z) * s.cell_size;
  std::vector<float> centre_x(static_cast<size_t>(side));
  for (int32_t k = 0; k < side; ++k) centre_x[static_cast<size_t>(k)] = ox + (static_cast<float>(k) + 0.5f) * s.step;
  const float reach = s.reach;
  const Density density(s);
  const bool slope_free = p.fast_slope && p.min_up == -INFINITY;
  const float origin_x = surface.origin_x, origin_z = surface.origin_z;
  const int layer = s.layer;
  uint32_t counts[4] = {0, 0, 0, 0};

  // The placed candidates of a stretch of rows are gathered first, field by field, and turned
  // into blades after their verdicts: both loops stay short and branch-free, and the
  // placement (long chains of dependent double operations) runs over many blades at once.
  // Candidates past the capacity are counted, never placed.
  static thread_local detail::PlacedRun run;
  run.size = 0;
  const size_t room = options.capacity ? options.capacity : SIZE_MAX;
  size_t taken = 0;  // blades kept so far (flushed or in the run)
  // The newest `appended` entries of the run are past the capacity where the cell is full.
  auto over = [&](size_t appended) {
    const size_t keep = std::min(appended, room - taken);
    r.over_capacity += static_cast<uint32_t>(appended - keep);
    run.size -= appended - keep;
    taken += keep;
  };
  // The scalar loop's placed candidate: the same fields as the batch's.
  auto emit = [&](int32_t i, const Ground& g, uint32_t h) {
    const size_t k = run.size++;
    run.px[k] = g.px, run.py[k] = g.py, run.pz[k] = g.pz;
    run.nx[k] = g.nx, run.ny[k] = g.ny, run.nz[k] = g.nz;
    run.yaw[k] = yaw_of(s, h);
    run.scale[k] = lerp_fused(s.type.min_scale, s.type.max_scale, unit(h, kScaleStream));
    run.tint[k] = unit(h, kTintStream);
    run.phase[k] = unit(h, kPhaseStream) * kTau;
    run.index[k] = i;
    over(1);
  };
  // The blades are staged in memory this thread reuses and copied to the cell's own arrays
  // at the end, whose size is then known (room for every candidate would hold half as much
  // again as a typical cell needs, for as long as the result lives).
  static thread_local std::vector<Blade> staged_blades;
  static thread_local std::vector<int32_t> staged_indices;
  staged_blades.clear(), staged_indices.clear();
  // The run into blades, in candidate order.
  auto flush = [&] {
    static thread_local std::vector<float> rot;
    rot.resize(4 * run.size);
    if (detail::rotations_batch_supported()) {
      // Rotations eight or sixteen blades at a time in the lanes of vectors (the same bits).
      detail::rotations_batch(run.yaw, run.nx, run.ny, run.nz, run.size, s.align, rot.data());
    } else {
      for (size_t k = 0; k < run.size; ++k) {
        Ground g;
        g.nx = run.nx[k], g.ny = run.ny[k], g.nz = run.nz[k];
        const Q q = rotation_of(run.yaw[k], g, s.align);
        rot[4 * k] = q.x, rot[4 * k + 1] = q.y, rot[4 * k + 2] = q.z, rot[4 * k + 3] = q.w;
      }
    }
    for (size_t k = 0; k < run.size; ++k) {
      const float* q = &rot[4 * k];
      staged_blades.push_back(Blade{{run.px[k], run.py[k], run.pz[k]}, run.scale[k], {q[0], q[1], q[2], q[3]},
                                    run.tint[k], run.phase[k], {0.0f, 0.0f}});
      staged_indices.push_back(run.index[k]);
    }
    run.size = 0;
  };

  int32_t i = 0;
  // (The batch gathers with 32-bit sample indices.)
  const bool batch = !slope_free && p.fast_slope && surface.height.size() < size_t(INT32_MAX) &&
                     detail::verdicts_batch_supported();
  if (batch) {
    // Eight or sixteen candidates of a row at a time in vector lanes (the same verdicts and
    // grounds).
    const detail::VerdictLanes lanes = detail::verdict_lanes_best();
    const int32_t width = detail::verdict_lane_count(lanes);
    detail::VerdictSetup v(surface, layer);
    v.reach = reach, v.min_up = p.min_up;
    v.weighted = density.weighted, v.low = density.low, v.span = density.span, v.scale = density.scale;
    v.random_yaw = s.type.random_yaw, v.min_scale = s.type.min_scale, v.max_scale = s.type.max_scale;
    detail::PlacedRun* out = keep_blades ? &run : nullptr;
    for (int32_t slot_z = 0; slot_z < side; ++slot_z) {
      const float centre_z = oz + (static_cast<float>(slot_z) + 0.5f) * s.step;
      for (int32_t slot_x = 0; slot_x < side; slot_x += width) {
        const int m = static_cast<int>(std::min<int32_t>(width, side - slot_x));
        const size_t before = run.size;
        detail::verdicts_with(lanes, v, seed, i, &centre_x[static_cast<size_t>(slot_x)], centre_z, m, counts, out);
        if (run.size != before) over(run.size - before);
        if (run.size >= detail::PlacedRun::kRun) flush();
        i += m;
      }
    }
  } else {
    for (int32_t slot_z = 0; slot_z < side; ++slot_z) {
      const float centre_z = oz + (static_cast<float>(slot_z) + 0.5f) * s.step;
      for (int32_t slot_x = 0; slot_x < side; ++slot_x, ++i) {
        if (run.size >= detail::PlacedRun::kRun) flush();
        const uint32_t h = mix(seed, static_cast<uint32_t>(i));
        const float jx = unit(h, kJitterXStream) * 2.0f - 1.0f, jz = unit(h, kJitterZStream) * 2.0f - 1.0f;
        const float x = centre_x[static_cast<size_t>(slot_x)] + jx * reach;
        const float z = centre_z + jz * reach;
        if (slope_free) {
          const float lx = x - origin_x, lz = z - origin_z;
          if (!detail::ground_there(surface, lx, lz)) {
            ++counts[static_cast<size_t>(Refusal::NoSurface)];
            continue;
          }
          const float keep = density.keep(detail::weight_at(surface, lx, lz, layer));
          if (unit(h, kDensityStream) >= keep) {
            ++counts[static_cast<size_t>(Refusal::Density)];
            continue;
          }
          ++counts[static_cast<size_t>(Refusal::Placed)];
          if (keep_blades) emit(i, detail::sample(surface, x, z, layer), h);
          continue;
        }
        // The general order: ground, slope, density.
        const Ground g = detail::sample(surface, x, z, layer);
        if (!g.hit) {
          ++counts[static_cast<size_t>(Refusal::NoSurface)];
          continue;
        }
        const float up = up_of(g);
        const bool steep = p.fast_slope ? up < p.min_up : slope_of(up) > s.type.max_slope;
        if (steep) {
          ++counts[static_cast<size_t>(Refusal::Slope)];
          continue;
        }
        if (unit(h, kDensityStream) >= density.keep(g.weight)) {
          ++counts[static_cast<size_t>(Refusal::Density)];
          continue;
        }
        ++counts[static_cast<size_t>(Refusal::Placed)];
        if (keep_blades) emit(i, g, h);
      }
    }
  }
  for (size_t k = 0; k < 4; ++k) r.counts[k] += counts[k];
  if (keep_blades) {
    flush();
    // (Huge-page slabs: a page fault per 2 MiB at most, none where a slab is reused.)
    r.blades.assign(staged_blades.begin(), staged_blades.end());
    r.indices.assign(staged_indices.begin(), staged_indices.end());
  }
  if (!keep_blades && options.capacity && r.counts[0] > options.capacity)
    r.over_capacity = r.counts[0] - options.capacity;
}

[[gnu::flatten]] void scatter_cell_base(const ScatterSetup& s, const Prepared& p, const SurfaceGrid& surface,
                                        const ScatterOptions& options, CellResult& r) {
  scatter_cell_body(s, p, surface, options, r);
}

[[gnu::flatten, gnu::target("fma")]] void scatter_cell_fma(const ScatterSetup& s, const Prepared& p,
                                                            const SurfaceGrid& surface, const ScatterOptions& options,
                                                            CellResult& r) {
  scatter_cell_body(s, p, surface, options, r);
}

}  // namespace

std::vector<CellResult> scatter(const ScatterSetup& s, const SurfaceGrid& surface, std::span<const CellKey> cells,
                                const ScatterOptions& options) {
  const Prepared p = prepare(s);
  std::vector<CellResult> out(cells.size());
  static const bool fma = __builtin_cpu_supports("fma");
  tbb::parallel_for(size_t{0}, cells.size(), [&](size_t c) {
    out[c].cell = cells[c];
    if (fma)
      scatter_cell_fma(s, p, surface, options, out[c]);
    else
      scatter_cell_base(s, p, surface, options, out[c]);
  });
  return out;
}

std::vector<Trace> explain(const ScatterSetup& s, const SurfaceGrid& surface, CellKey cell) {
  std::vector<Trace> out(static_cast<size_t>(s.side) * s.side);
  for (int32_t i = 0; i < static_cast<int32_t>(out.size()); ++i)
    consider_impl(s, Prepared{}, surface, cell, i, nullptr, &out[static_cast<size_t>(i)]);
  return out;
}

}  // namespace voxkit::grass
