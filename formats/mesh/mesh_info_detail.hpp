// What the mesh describers of `voxkit info` share (formats/mesh/mesh_info.cpp: glTF;
// mesh_info_text.cpp: PLY, STL, OBJ). Internal to them.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "formats/core/identify.hpp"

namespace voxkit::mesh_info::detail {

using json = nlohmann::json;

inline uint32_t rd32(std::span<const uint8_t> b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}


// The shortest text that reads back to the same double.
inline std::string num(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

inline std::string join(const std::vector<std::string>& v, const char* none = "none") {
  if (v.empty()) return none;
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Axis-aligned bounds of the finite positions seen.
struct Bounds {
  std::array<double, 3> lo{}, hi{};
  bool any = false;
  void add(double x, double y, double z) {
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) return;
    const double p[3] = {x, y, z};
    for (int i = 0; i < 3; ++i) {
      lo[i] = any ? std::min(lo[i], p[i]) : p[i];
      hi[i] = any ? std::max(hi[i], p[i]) : p[i];
    }
    any = true;
  }
  // The same numbers as text() gives, so a mesh has the same bounds in every format: a
  // float32 value (what binary formats store) as the double its shortest text reads as.
  json to_json() const {
    if (!any) return nullptr;
    auto n = [](double v) { return std::strtod(coord(v).c_str(), nullptr); };
    return {{"min", {n(lo[0]), n(lo[1]), n(lo[2])}}, {"max", {n(hi[0]), n(hi[1]), n(hi[2])}}};
  }
  // Numbers that are float32 values (as every format here stores them) in float32's shortest form.
  static std::string coord(double v) {
    const float f = float(v);
    if (double(f) != v) return num(v);
    char b[32];
    const auto r = std::to_chars(b, b + sizeof b, f);
    return std::string(b, r.ptr);
  }
  std::string text() const {
    if (!any) return "none";
    const auto num = coord;
    return "(" + num(lo[0]) + ", " + num(lo[1]) + ", " + num(lo[2]) + ") .. (" + num(hi[0]) + ", " + num(hi[1]) +
           ", " + num(hi[2]) + ")";
  }
};

// The facts every mesh description holds, then the format's own.
identify::Description mesh_description(const std::string& format, const std::string& summary, uint64_t vertices,
                                        uint64_t triangles, const Bounds& b, const std::vector<std::string>& attrs);

}  // namespace voxkit::mesh_info::detail
