// Option values shared by the verbs, parsed once here with CLI11 straight into the library's
// types: the name tables of enum options (for CLI::CheckedTransformer), comma lists with
// their counts and ranges, and the few values with a grammar of their own. Nothing below
// tools/ parses a command-line string or names a flag.
#pragma once

#include <CLI/CLI.hpp>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <string>
#include <vector>

#include "formats/mesh/mesh_export.hpp"
#include "formats/mesh/mesh_input.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/core/grid.hpp"
#include "lib/bake/heightfield.hpp"
#include "lib/mesh/mesh.hpp"

namespace voxkit::cli {

// Numbers that must be above zero (or at least zero): a short message naming the value
// (CLI11's own ranges print the largest double in full).
inline const CLI::Validator kPositive(
    [](std::string& v) -> std::string {
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(d > 0) || !std::isfinite(d)) return "must be a number above 0, got " + v;
      return {};
    },
    "> 0");
inline const CLI::Validator kNonNegative(
    [](std::string& v) -> std::string {
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(d >= 0) || !std::isfinite(d)) return "must be a number of 0 or more, got " + v;
      return {};
    },
    ">= 0");

// The names of an enum option's values, in the order help and messages list them.
template <class T>
using Names = std::vector<std::pair<std::string, T>>;

inline const Names<MeshFormat> kMeshFormats{
    {"glb", MeshFormat::Glb}, {"gltf", MeshFormat::Gltf}, {"obj", MeshFormat::Obj},
    {"ply", MeshFormat::Ply}, {"stl", MeshFormat::Stl},   {"fbx", MeshFormat::Fbx}};
inline const Names<Mesher> kMeshers{{"surface-nets", Mesher::SurfaceNets},
                                                    {"marching-cubes", Mesher::MarchingCubes}};
inline const Names<InputKind> kInputKinds{{"auto", InputKind::Auto},
                                                          {"raw", InputKind::Raw},
                                                          {"sm-chunk", InputKind::SmChunk},
                                                          {"zone", InputKind::Zone},
                                                          {"unity", InputKind::Unity}};
inline const Names<ZoneGrid> kZoneGrids{{"current", ZoneGrid::Current}, {"baked", ZoneGrid::Baked}};
inline const Names<Convention> kConventions{
    {"sdf", Convention::Sdf}, {"ice", Convention::Ice}, {"sm", Convention::Sm}};
inline const Names<sm::Form> kChunkForms{{"lua", sm::Form::Lua},
                                                         {"json", sm::Form::Json},
                                                         {"bin", sm::Form::Bin},
                                                         {"lz4", sm::Form::Lz4},
                                                         {"b64", sm::Form::B64}};

// An enum option: the value must be one of the names (case-insensitive), and is stored as
// the enum; anything else is a usage error "unknown WHAT 'x' (expected a, b or c)".
template <class T>
CLI::Option* add_enum(CLI::App* cmd, const std::string& name, T& value, const Names<T>& names,
                      const std::string& what, const std::string& help) {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i].first;
  }
  return cmd->add_option_function<std::string>(
                name,
                [&value, &names, what, list](const std::string& given) {
                  std::string l = given;
                  for (auto& c : l) c = char(std::tolower(static_cast<unsigned char>(c)));
                  for (const auto& [n, v] : names) {
                    if (n == l) {
                      value = v;
                      return;
                    }
                  }
                  throw CLI::ValidationError("unknown " + what + " '" + given + "' (expected " + list + ")");
                },
                help)
      ->type_name("NAME");
}

// "NX,NY,NZ": cells of a grid, each 1..2^30, the grid within the sample cap.
CLI::Option* add_cells(CLI::App* cmd, const std::string& name, std::vector<uint32_t>& value, const std::string& help);
Dims cells_of(const std::vector<uint32_t>& v);

// A comma list of exactly `count` finite numbers.
CLI::Option* add_numbers(CLI::App* cmd, const std::string& name, std::vector<double>& value, int count,
                         const std::string& help);

// LOD ratios, each in (0, 1); check_lod_order (a usage error) that they decrease.
CLI::Option* add_lod_list(CLI::App* cmd, const std::string& name, std::vector<double>& value, const std::string& help);
void check_lod_order(const std::vector<double>& lods);

// "min", "value:N" or "nearest".
CLI::Option* add_nodata_fill(CLI::App* cmd, const std::string& name, NodataFill& value, const std::string& help);

}  // namespace voxkit::cli
