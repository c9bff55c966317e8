// Inputs of `voxkit mesh`: raw SDF, ice and Scrap Mechanic grids, ice modules with cave
// regions, converted to the SDF byte grid the meshers read.
#include "formats/mesh_input.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "formats/io.hpp"
#include "formats/region_grid.hpp"
#include "formats/sm_chunk.hpp"
#include "formats/zone.hpp"
#include "lib/caves.hpp"
#include "lib/error.hpp"

namespace voxkit {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

ByteGrid read_raw(const std::string& path, const Dims& cells, uint64_t max_samples) {
  check_dims(cells, max_samples);
  auto bytes = io::read_all(path, cells.samples());
  return with_source(io::display_name(path), [&] {
    if (bytes.size() != cells.samples())
      throw_data("raw grid size does not match --cells", std::nullopt,
                 std::to_string(cells.samples()) + " bytes", std::to_string(bytes.size()) + " bytes");
    ByteGrid g;
    g.cells = cells;
    g.data = std::move(bytes);
    return g;
  });
}

}  // namespace

Convention parse_convention(std::string_view name) {
  std::string l = lower(name);
  if (l == "sdf") return Convention::Sdf;
  if (l == "ice") return Convention::Ice;
  if (l == "sm") return Convention::Sm;
  throw_usage("unknown convention '" + std::string(name) + "' (expected sdf, ice or sm)");
}

std::string_view convention_name(Convention c) {
  switch (c) {
    case Convention::Ice: return "ice";
    case Convention::Sm: return "sm";
    default: return "sdf";
  }
}

MeshSource read_sm_chunk(const std::string& path) {
  auto bytes = io::read_all(path, uint64_t(1) << 20);
  sm::Form form{};
  sm::Chunk chunk = with_source(io::display_name(path), [&] { return sm::decode_any(bytes, std::nullopt, &form); });
  MeshSource src;
  src.kind = std::string("scrap mechanic chunk (") + sm::form_name(form) + ")";
  src.sdf = ByteGrid(Dims{16, 16, 16}, 255);
  // SM stores z fastest (z + 17y + 289x); voxkit grids store x fastest.
  for (size_t x = 0; x < sm::kAxis; ++x)
    for (size_t y = 0; y < sm::kAxis; ++y)
      for (size_t z = 0; z < sm::kAxis; ++z)
        src.sdf.at(x, y, z) = sm_density_to_sdf(sm_density(chunk[sm::voxel_index(x, y, z)]));
  return src;
}

namespace {

bool is_zone_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint8_t m[zone_file::kMagic.size()] = {};
  const size_t n = std::fread(m, 1, sizeof m, f);
  std::fclose(f);
  return n == sizeof m && std::equal(zone_file::kMagic.begin(), zone_file::kMagic.end(), m);
}

// A zone file's current grid, where the zone sits, its chunk size and terrain hole.
MeshSource read_zone_input(const std::string& path, const MeshInputOptions& opts) {
  zone_file::ReadOptions ro;
  ro.max_samples = opts.max_samples;
  Zone z = with_source(io::display_name(path), [&] { return read_zone_file(path, ro); });
  MeshSource src;
  src.kind = "zone";
  src.sdf = std::move(z.grid);
  src.origin = z.meta.origin;
  src.voxel_size = z.meta.voxel_size;
  src.chunk_cells = z.meta.chunk_cells;
  src.hole = z.meta.hole;
  if (opts.voxel_size) {
    if (!(*opts.voxel_size > 0)) throw_usage("--voxel-size must be positive");
    src.voxel_size = *opts.voxel_size;
  }
  if (opts.origin) src.origin = *opts.origin;
  return src;
}

}  // namespace

MeshSource read_mesh_input(const std::string& path, const MeshInputOptions& opts) {
  if (!opts.cells && opts.convention == Convention::Sm && opts.regions_path.empty() &&
      opts.closed.empty() && opts.closed_path.empty()) {
    MeshSource src = read_sm_chunk(path);
    if (opts.voxel_size) {
      if (!(*opts.voxel_size > 0)) throw_usage("--voxel-size must be positive");
      src.voxel_size = *opts.voxel_size;
    }
    if (opts.origin) src.origin = *opts.origin;
    return src;
  }
  if (!opts.cells && path != "-" && is_zone_file(path)) return read_zone_input(path, opts);
  if (!opts.cells)
    throw_usage("cannot tell the grid of '" + io::display_name(path) +
                "': give --cells NX,NY,NZ (and --convention) for a raw grid");
  bool caves = !opts.regions_path.empty() || !opts.closed.empty() || !opts.closed_path.empty();
  if (caves && opts.convention != Convention::Ice)
    throw_usage("--regions and --closed apply to ice modules (--convention ice)");

  MeshSource src;
  ByteGrid raw = read_raw(path, *opts.cells, opts.max_samples);
  switch (opts.convention) {
    case Convention::Sdf:
      src.kind = "raw sdf";
      src.sdf = std::move(raw);
      break;
    case Convention::Sm:
      src.kind = "raw sm";
      src.sdf = std::move(raw);
      for (auto& b : src.sdf.data) b = sm_density_to_sdf(sm_density(b));
      break;
    case Convention::Ice: {
      src.kind = caves ? "ice module with cave regions" : "ice module";
      std::optional<RegionGrid> regions;
      if (!opts.regions_path.empty()) {
        auto bytes = io::read_all(opts.regions_path, raw.cells.samples() * 2);
        regions = with_source(io::display_name(opts.regions_path),
                              [&] { return decode_region_grid(bytes, raw.cells); });
      }
      std::vector<uint16_t> closed = opts.closed;
      if (!opts.closed_path.empty()) {
        auto text = io::read_text(opts.closed_path, uint64_t(1) << 24);
        auto more = with_source(io::display_name(opts.closed_path), [&] { return parse_region_list(text); });
        closed.insert(closed.end(), more.begin(), more.end());
      }
      std::sort(closed.begin(), closed.end());
      closed.erase(std::unique(closed.begin(), closed.end()), closed.end());
      if (!closed.empty() && !regions)
        throw_usage("closed regions need the region grid (--regions FILE)");
      src.sdf = effective_sdf(raw, regions ? &*regions : nullptr, closed);
      break;
    }
  }
  if (opts.voxel_size) {
    if (!(*opts.voxel_size > 0)) throw_usage("--voxel-size must be positive");
    src.voxel_size = *opts.voxel_size;
  }
  if (opts.origin) src.origin = *opts.origin;
  return src;
}

}  // namespace voxkit
