// voxkit octree: the Stationeers terrain verbs (info, reset, checksum, diff, merge, synth, export,
// base) and the helpers they share.
#include "tools/verb_octree.hpp"

#include <sstream>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "lib/core/error.hpp"

namespace voxkit::cli {
namespace octree_verbs {
namespace {

std::vector<double> numbers(const std::string& s, size_t want, const char* what) {
  std::vector<double> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t used = 0;
    double d = 0;
    try {
      d = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) throw_usage(std::string("bad number '") + item + "' in " + what + " '" + s + "'");
    v.push_back(d);
  }
  if (v.size() != want) {
    throw_usage(std::string(what) + " '" + s + "' needs " + std::to_string(want) +
                " comma-separated numbers, found " + std::to_string(v.size()));
  }
  return v;
}

}  // namespace

Box3i parse_box(const std::string& s) {
  const auto v = numbers(s, 6, "box");
  Box3i b;
  // Converting a double outside int64 is undefined; world coordinates stay far below 2^40.
  constexpr double kLimit = double(int64_t(1) << 40);
  for (double d : v)
    if (!(d > -kLimit && d < kLimit)) throw_usage("box '" + s + "' has a coordinate out of range");
  for (int k = 0; k < 3; ++k) {
    const auto a = int64_t(v[size_t(k)]), c = int64_t(v[size_t(k) + 3]);
    if (double(a) != v[size_t(k)] || double(c) != v[size_t(k) + 3]) {
      throw_usage("box '" + s + "' needs whole voxel coordinates");
    }
    b.min[k] = std::min(a, c);
    b.max[k] = std::max(a, c);
  }
  return b;
}

octree::Shape parse_sphere(const std::string& s) {
  const auto v = numbers(s, 4, "sphere");
  if (v[3] < 0) throw_usage("sphere '" + s + "' has a negative radius");
  return octree::Shape::sphere(v[0], v[1], v[2], v[3]);
}

octree::Shape parse_cylinder(const std::string& s) {
  const auto v = numbers(s, 3, "radius");
  if (v[2] < 0) throw_usage("radius '" + s + "' is negative");
  return octree::Shape::cylinder(v[0], v[1], v[2]);
}

int log2_option(int64_t v, const char* option) {
  if (v < 1 || (v & (v - 1)) != 0) {
    throw_usage(std::string(option) + " must be a power of two, found " + std::to_string(v));
  }
  int k = 0;
  while ((int64_t(1) << k) < v) ++k;
  return k;
}

}  // namespace octree_verbs

void add_octree_command(CLI::App& app, Context& ctx) {
  auto* oc = app.add_subcommand("octree", "Stationeers terrain: terrain.dat deltas, Terrain{i}.dat "
                                          "base files, selective resets");
  oc->require_subcommand(1);
  octree_verbs::add_info(*oc, ctx);
  octree_verbs::add_reset(*oc, ctx);
  octree_verbs::add_checksum(*oc, ctx);
  octree_verbs::add_diff_merge(*oc, ctx);
  octree_verbs::add_synth(*oc, ctx);
  octree_verbs::add_export(*oc, ctx);
  octree_verbs::add_base(*oc, ctx);
}

}  // namespace voxkit::cli
