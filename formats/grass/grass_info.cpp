#include "formats/grass/grass_info.hpp"

#include <algorithm>
#include <charconv>

#include "formats/grass/camera_path.hpp"
#include "formats/grass/grass_type_io.hpp"
#include "lib/core/error.hpp"
#include "lib/grass/grass_type.hpp"

namespace voxkit::grass {

namespace {
// The shortest text that reads back to the same float.
std::string num(float v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}
}  // namespace

std::optional<identify::Description> describe_grass_type(std::span<const uint8_t> bytes, const std::string& name) {
  const auto syntax = syntax_of_extension(name);
  if (!syntax) return std::nullopt;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  GrassType t;
  std::vector<std::string> warnings;
  if (*syntax == GrassTypeSyntax::Vxgrass) {
    t = decode_grass_type(text, *syntax, name, &warnings);
  } else {
    // A .toml or .json file is a grass type only when it reads as one.
    try {
      t = decode_grass_type(text, *syntax, name, &warnings);
    } catch (const Error&) {
      return std::nullopt;
    }
    if (t.name.empty()) return std::nullopt;
  }
  identify::Description d;
  d.format = "grass-type";
  d.summary = std::string("Vixen grass type (") + syntax_name(*syntax) + ")";
  const auto problem = validate(t);
  const int side = grid_side(t, 32.0f);
  d.fields = {{"name", t.name},
              {"layer", t.layer.empty() ? "(none: grows everywhere)" : t.layer},
              {"weights", num(t.min_weight) + " .. " + num(t.max_weight)},
              {"density", num(t.density) + " candidates/m^2 (" + std::to_string(side) + " x " + std::to_string(side) +
                              " per 32 m cell)"},
              {"jitter", num(t.jitter)},
              {"scale", num(t.min_scale) + " .. " + num(t.max_scale)},
              {"random yaw", t.random_yaw ? "yes" : "no"},
              {"align", num(t.align_to_normal)},
              {"max slope", num(t.max_slope) + " rad"},
              {"cull", num(t.start_cull_distance) + " .. " + num(t.end_cull_distance) + " m"},
              {"valid", problem ? "no: " + *problem : "yes"}};
  for (const auto& w : warnings) d.fields.emplace_back("warning", w);
  d.details = nlohmann::json::parse(write_grass_type_json(t));
  d.details["valid"] = !problem.has_value();
  if (problem) d.details["problem"] = *problem;
  d.details["candidates_per_32m_cell"] = uint64_t(side) * uint64_t(side);
  return d;
}

std::optional<identify::Description> describe_camera_path(std::span<const uint8_t> bytes, const std::string& name) {
  (void)name;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  CameraPath path;
  try {
    path = read_camera_path(text);
  } catch (const Error&) {
    return std::nullopt;  // a loose format: only a file that reads whole is claimed
  }
  uint64_t views = 0, clears = 0, ranged = 0;
  std::array<float, 3> lo{}, hi{};
  float rlo = 0, rhi = 0;
  for (const CameraStep& s : path.steps) {
    if (s.clear) {
      ++clears;
      continue;
    }
    const float p[3] = {s.x, s.y, s.z};
    for (int k = 0; k < 3; ++k) {
      lo[k] = views ? std::min(lo[k], p[k]) : p[k];
      hi[k] = views ? std::max(hi[k], p[k]) : p[k];
    }
    if (s.range) {
      rlo = ranged ? std::min(rlo, *s.range) : *s.range;
      rhi = ranged ? std::max(rhi, *s.range) : *s.range;
      ++ranged;
    }
    ++views;
  }
  if (views == 0) return std::nullopt;
  identify::Description d;
  d.format = "camera-path";
  d.summary = "camera path (grass residency)";
  d.fields = {{"steps", std::to_string(path.steps.size()) + " (" + std::to_string(views) + " views, " +
                            std::to_string(clears) + " clears)"},
              {"header", path.header ? "yes" : "no"},
              {"views", "(" + num(lo[0]) + ", " + num(lo[1]) + ", " + num(lo[2]) + ") .. (" + num(hi[0]) + ", " +
                            num(hi[1]) + ", " + num(hi[2]) + ")"},
              {"own range", ranged ? num(rlo) + " .. " + num(rhi) + " m (on " + std::to_string(ranged) + " of the views)"
                                   : std::string("none (the job's range applies)")}};
  d.details = {{"steps", path.steps.size()},
               {"views", views},
               {"clears", clears},
               {"header", path.header},
               {"bounds", {{"min", lo}, {"max", hi}}},
               {"ranged_views", ranged},
               {"range", ranged ? nlohmann::json{{"min", rlo}, {"max", rhi}} : nlohmann::json(nullptr)}};
  return d;
}

}  // namespace voxkit::grass
