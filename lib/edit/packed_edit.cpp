// Packed edits: the package's layout, rounding, clamps and validity rules.
#include "lib/edit/packed_edit.hpp"

#include <cerrno>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "lib/core/error.hpp"

namespace voxkit::edit {
namespace {

// Mathf.RoundToInt (Math.Round): half to even, in the default rounding mode.
int64_t round_half_even(float v) { return int64_t(std::nearbyint(v)); }

uint32_t clamp_u(int64_t v, uint32_t lo, uint32_t hi, bool& clamped) {
  if (v < int64_t(lo)) {
    clamped = true;
    return lo;
  }
  if (v > int64_t(hi)) {
    clamped = true;
    return hi;
  }
  return uint32_t(v);
}

// value x scale in float32, which must fit an int32 as the package's conversion needs.
int64_t scaled(float v, float scale, const char* what) {
  const float s = v * scale;
  if (!std::isfinite(s) || !(std::fabs(s) < 2147483520.0f)) {
    throw_usage(std::string("the edit's ") + what + " is too far outside the grid to pack (" + std::to_string(v) +
                " voxels)");
  }
  return round_half_even(s);
}

}  // namespace

uint64_t pack_fields(const Fields& f) {
  return uint64_t(f.x & 0xffff) | uint64_t(f.y & 0xffff) << 16 | uint64_t(f.z & 0xffff) << 32 |
         uint64_t(f.radius & 0xff) << 48 | uint64_t(f.op & 7) << 56 | uint64_t(f.layer & 31) << 59;
}

Fields unpack(uint64_t e) {
  Fields f;
  f.x = uint32_t(e & 0xffff);
  f.y = uint32_t(e >> 16 & 0xffff);
  f.z = uint32_t(e >> 32 & 0xffff);
  f.radius = uint32_t(e >> 48 & 0xff);
  f.op = uint32_t(e >> 56 & 7);
  f.layer = uint32_t(e >> 59 & 31);
  return f;
}

uint64_t pack(float x, float y, float z, float radius, Op op, uint32_t layer, PackReport* report) {
  PackReport r;
  Fields f;
  f.x = clamp_u(scaled(x, 16.0f, "x"), 0, 65535, r.clamped_position);
  f.y = clamp_u(scaled(y, 16.0f, "y"), 0, 65535, r.clamped_position);
  f.z = clamp_u(scaled(z, 16.0f, "z"), 0, 65535, r.clamped_position);
  f.radius = clamp_u(scaled(radius, 8.0f, "radius"), 1, 255, r.clamped_radius);
  f.op = uint32_t(op) & 7;
  f.layer = layer & 31;
  if (report) *report = r;
  return pack_fields(f);
}

float to_grid(double world, double origin, double voxel_size) {
  return (float(world) - float(origin)) / float(voxel_size);
}

const char* op_name(uint32_t op) {
  static const char* names[8] = {"dig", "add", "smooth", "paint", "tree", "detail", "op6", "op7"};
  return names[op & 7];
}

std::optional<std::string> invalid_reason(uint64_t e, Target target, std::optional<GridLimit> grid) {
  const Fields f = unpack(e);
  if (f.op >= 6) return std::string("op ") + std::to_string(f.op) + " is no edit (ops are 0-5)";
  const bool basic = f.op == 0 || f.op == 1 || f.op == 3;
  if (target != Target::V07 && !basic) {
    return std::string(op_name(f.op)) + " edits need the 0.7 runtimes";
  }
  if (target == Target::V03) {
    if (f.layer > kLegacyLayerMax) {
      return "layer " + std::to_string(f.layer) + " is over " + std::to_string(kLegacyLayerMax) +
             ", the highest a 0.3 receiver reads";
    }
  } else if (basic && f.layer > kLayerMax) {
    return "layer " + std::to_string(f.layer) + " is over " + std::to_string(kLayerMax) + " for a " +
           op_name(f.op) + " edit";
  }
  if (grid) {
    const uint32_t lim[3] = {grid->nx * 16, grid->ny * 16, grid->nz * 16}, at[3] = {f.x, f.y, f.z};
    for (int a = 0; a < 3; ++a) {
      if (at[a] > lim[a]) {
        return std::string("the position's ") + "xyz"[a] + " (" + std::to_string(at[a] / 16.0) +
               " voxels) is past the grid (" + std::to_string(lim[a] / 16) + " cells)";
      }
    }
  }
  return std::nullopt;
}

uint32_t spawn_yaw_index(uint64_t u) {
  const int64_t e = int64_t(u);
  return uint32_t((e ^ (e >> 21) ^ (e >> 37)) & 1023);
}

uint32_t spawn_scale_index(uint64_t u) {
  const int64_t e = int64_t(u);
  return uint32_t(((e >> 5) ^ (e >> 26) ^ (e >> 41)) & 255);
}

double spawn_yaw_degrees(uint64_t e) { return spawn_yaw_index(e) * 360.0 / 1024.0; }
double spawn_scale(uint64_t e) { return 0.8 + spawn_scale_index(e) * 0.4 / 255.0; }

std::string to_hex(uint64_t e) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llX", (unsigned long long)e);
  return buf;
}

std::optional<uint64_t> parse_edit(const std::string& t) {
  if (t.empty()) return std::nullopt;
  const bool hex_prefix = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  bool has_letter = false, all_hex = true;
  for (size_t i = hex_prefix ? 2 : 0; i < t.size(); ++i) {
    const char c = t[i];
    const bool digit = c >= '0' && c <= '9';
    const bool letter = (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    has_letter |= letter;
    all_hex &= digit || letter;
  }
  char* end = nullptr;
  errno = 0;
  if (hex_prefix || (has_letter && all_hex)) {
    const char* s = t.c_str() + (hex_prefix ? 2 : 0);
    if (!all_hex || std::char_traits<char>::length(s) > 16) return std::nullopt;
    const unsigned long long v = std::strtoull(s, &end, 16);
    if (errno || *end) return std::nullopt;
    return uint64_t(v);
  }
  if (t[0] == '-') {
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (errno || *end || end == t.c_str()) return std::nullopt;
    return uint64_t(v);
  }
  if (t[0] < '0' || t[0] > '9') return std::nullopt;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
  if (errno || *end) return std::nullopt;
  return uint64_t(v);
}

}  // namespace voxkit::edit
