#include "formats/foliage/instances_info.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "formats/foliage/instances.hpp"
#include "lib/core/error.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit::foliage_io {

namespace {

std::string num(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

// Bounds and prototypes of instances, as they are added.
struct Summary {
  uint64_t count = 0;
  std::set<uint32_t> prototypes;
  std::array<double, 3> lo{}, hi{};
  void add(uint32_t prototype, double x, double y, double z) {
    prototypes.insert(prototype);
    const double p[3] = {x, y, z};
    for (int k = 0; k < 3; ++k) {
      lo[k] = count ? std::min(lo[k], p[k]) : p[k];
      hi[k] = count ? std::max(hi[k], p[k]) : p[k];
    }
    ++count;
  }
};

template <class F>
bool reads(F&& f) {
  try {
    f();
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::optional<identify::Description> describe_list(std::span<const uint8_t> bytes, const std::string& name) {
  (void)name;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  Terrain unit;  // normalised positions are described as given
  unit.size = std::array<float, 3>{1, 1, 1};
  std::vector<foliage::TreeInput> trees;
  std::vector<foliage::DetailInput> details;
  std::vector<foliage::SurfaceInput> surface;
  const bool t = reads([&] { trees = read_trees(text, unit); });
  const bool dt = reads([&] { details = read_details(text); });
  const bool s = reads([&] { surface = read_surface(text); });
  Summary sum;
  bool normalized = false;
  std::vector<std::string> kinds;
  if (t) {
    kinds.push_back("trees");
    for (const auto& x : trees) {
      sum.add(x.prototype, x.source[0], x.source[1], x.source[2]);
      normalized = normalized || x.normalized;
    }
  }
  if (s) {
    kinds.push_back("surface_details");
    if (!t)
      for (const auto& x : surface) sum.add(x.prototype, x.position[0], x.position[1], x.position[2]);
  }
  if (dt) {
    kinds.push_back("details");
    if (!t && !s)
      for (const auto& x : details) sum.add(x.prototype, x.x, 0, x.z);
  }
  if (kinds.empty() || sum.count == 0) return std::nullopt;
  identify::Description d;
  d.format = "foliage-list";
  const bool json = detect(text) == ListFormat::Json;
  d.summary = std::string("foliage instance list (") + (json ? "JSON" : "CSV") + ")";
  std::string k;
  for (const auto& x : kinds) k += (k.empty() ? "" : ", ") + x;
  const bool flat = !t && !s;  // details: x and z only
  d.fields = {{"reads as", k},
              {"instances", std::to_string(sum.count)},
              {"prototypes", std::to_string(sum.prototypes.size()) + " distinct (largest " +
                                 std::to_string(*sum.prototypes.rbegin()) + ")"},
              {normalized ? "positions (terrain 0..1)" : "positions",
               flat ? "x " + num(sum.lo[0]) + " .. " + num(sum.hi[0]) + ", z " + num(sum.lo[2]) + " .. " + num(sum.hi[2])
                    : "(" + num(sum.lo[0]) + ", " + num(sum.lo[1]) + ", " + num(sum.lo[2]) + ") .. (" +
                          num(sum.hi[0]) + ", " + num(sum.hi[1]) + ", " + num(sum.hi[2]) + ")"}};
  d.details = {{"encoding", json ? "json" : "csv"},
               {"reads_as", kinds},
               {"instances", sum.count},
               {"prototypes", std::vector<uint32_t>(sum.prototypes.begin(), sum.prototypes.end())},
               {"normalized", normalized},
               {"bounds", flat ? nlohmann::json{{"min", {sum.lo[0], sum.lo[2]}}, {"max", {sum.hi[0], sum.hi[2]}}}
                               : nlohmann::json{{"min", sum.lo}, {"max", sum.hi}}}};
  return d;
}

std::optional<identify::Description> describe_terrain_data(std::span<const uint8_t> bytes, const std::string& name) {
  (void)name;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.find('\0') != std::string_view::npos || !looks_like_terrain_data(text)) return std::nullopt;
  const TerrainDataTrees td = read_terrain_data(text, {});
  Summary sum;
  for (const auto& x : td.trees) sum.add(x.prototype, x.position[0], x.position[1], x.position[2]);
  identify::Description d;
  d.format = "unity-terrain-data";
  d.summary = "Unity TerrainData asset";
  d.fields = {{"size", num(td.size[0]) + " x " + num(td.size[1]) + " x " + num(td.size[2]) + " m"},
              {"trees", std::to_string(td.trees.size())},
              {"tree prototypes", std::to_string(td.prototypes)}};
  if (td.detail_prototypes) d.fields.emplace_back("detail prototypes", std::to_string(*td.detail_prototypes));
  d.details = {{"size", td.size},
               {"trees", td.trees.size()},
               {"tree_prototypes", td.prototypes},
               {"detail_prototypes", td.detail_prototypes ? nlohmann::json(*td.detail_prototypes) : nlohmann::json(nullptr)},
               {"bounds", sum.count ? nlohmann::json{{"min", sum.lo}, {"max", sum.hi}} : nlohmann::json(nullptr)}};
  return d;
}

}  // namespace voxkit::foliage_io
