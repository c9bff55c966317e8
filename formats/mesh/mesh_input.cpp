// Inputs of `voxkit mesh`: raw SDF, ice and Scrap Mechanic grids, ice modules with cave
// regions, converted to the SDF byte grid the meshers read.
#include "formats/mesh/mesh_input.hpp"

#include <algorithm>
#include <span>
#include <cctype>

#include "formats/core/io.hpp"
#include "formats/zone/region_grid.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/caves/caves.hpp"
#include "lib/core/error.hpp"

namespace voxkit {
namespace {

// What describes a raw grid, and the options that give it.
const std::string kRawGridFix = "give the cells NX,NY,NZ (and the convention) for a raw grid";
const Error::Hint kCellsHint{"cells", "the cells"}, kConventionHint{"convention", "the convention"};
// The options of cave regions.
const std::string kCavesOptions = "the region grid and the closed regions";
const std::vector<Error::Hint> kCavesHints{{"regions", "the region grid"}, {"closed", "the closed regions"}};

MeshSource sm_chunk_source(std::span<const uint8_t> bytes, const std::string& path) {
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

bool starts_with(std::span<const uint8_t> b, std::string_view s) {
  return b.size() >= s.size() && std::equal(s.begin(), s.end(), b.begin(),
                                            [](char c, uint8_t u) { return uint8_t(c) == u; });
}

// A Unity asset: the YAML directive (after an optional BOM), or the DigZoneData grid fields
// near the start of a headerless text.
bool is_unity_asset(std::span<const uint8_t> b) {
  if (starts_with(b, "\xEF\xBB\xBF")) b = b.subspan(3);
  if (starts_with(b, "%YAML")) return true;
  std::string_view head(reinterpret_cast<const char*>(b.data()), std::min<size_t>(b.size(), 1 << 16));
  return head.find("voxelSize:") != std::string_view::npos && head.find("gridRle:") != std::string_view::npos;
}

// Applies the voxel size and origin options; a zone's hole moves with the grid.
void place(MeshSource& src, const MeshInputOptions& opts) {
  const auto old_origin = src.origin;
  const double old_size = src.voxel_size;
  if (opts.voxel_size) {
    if (!(*opts.voxel_size > 0)) {
      throw_usage("the voxel size must be positive", {{"voxel-size", "the voxel size"}});
    }
    src.voxel_size = *opts.voxel_size;
  }
  if (opts.origin) src.origin = *opts.origin;
  if (src.hole) {
    const double k = src.voxel_size / old_size;
    auto& h = *src.hole;
    h = HoleRect{src.origin[0] + (h.min_x - old_origin[0]) * k, src.origin[2] + (h.min_z - old_origin[2]) * k,
                 src.origin[0] + (h.max_x - old_origin[0]) * k, src.origin[2] + (h.max_z - old_origin[2]) * k};
  }
}

}  // namespace

ByteGrid read_raw_grid(const std::string& path, const Dims& cells, uint64_t max_samples) {
  check_dims(cells, max_samples);
  auto bytes = io::read_all(path, cells.samples());
  return with_source(io::display_name(path), [&] {
    if (bytes.size() != cells.samples())
      throw Error(ErrorKind::Data, "raw grid size does not match the cells", std::nullopt,
                  std::to_string(cells.samples()) + " bytes", std::to_string(bytes.size()) + " bytes")
          .set_hint("cells", "the cells");
    ByteGrid g;
    g.cells = cells;
    g.data = std::move(bytes);
    return g;
  });
}

MeshSource zone_mesh_source(Zone&& zone, ZoneGrid which, std::string kind) {
  MeshSource src;
  src.dig_zone = true;
  const ZoneMeta& m = zone.meta;
  if (which == ZoneGrid::Baked) {
    if (zone.baked.data.empty()) {
      throw_usage("the zone has no baked grid (mesh the current grid)",
                  {{"grid-current", "the current grid"}});
    }
    src.sdf = std::move(zone.baked);
    src.kind = kind + " (baked grid)";
  } else {
    src.sdf = std::move(zone.grid);
    src.kind = kind + " (current grid)";
    // Paint describes the current surface (dug soil, sculpted layers), not the baked one.
    if (!zone.paint.data.empty()) {
      src.paint = std::move(zone.paint);
      src.layer_count = uint32_t(m.layer_names.size());
    }
  }
  src.origin = m.origin;
  src.voxel_size = m.voxel_size;
  src.chunk_cells = m.chunk_cells;
  if (m.hole.max_x > m.hole.min_x && m.hole.max_z > m.hole.min_z) src.hole = m.hole;
  src.foliage = std::move(zone.foliage);
  return src;
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
  return sm_chunk_source(bytes, path);
}

MeshSource read_mesh_input(const std::string& path, const MeshInputOptions& opts) {
  const bool caves = !opts.regions_path.empty() || !opts.closed.empty() || !opts.closed_path.empty();
  InputKind kind = opts.kind;
  std::vector<uint8_t> bytes;
  bool have_bytes = false;
  if (kind == InputKind::Auto && !opts.cells) {
    // Read once (stdin cannot be re-read), then look at the content.
    bytes = io::read_all(path);
    have_bytes = true;
    if (is_zone_file(bytes)) kind = InputKind::Zone;
    else if (is_unity_asset(bytes)) kind = InputKind::Unity;
    else if (opts.convention == Convention::Sm && !caves) kind = InputKind::SmChunk;
    else
      throw_usage("cannot tell the grid of '" + io::display_name(path) +
                      "': not a zone file or Unity dig-zone asset; " + kRawGridFix +
                      ", or the input kind",
                  {kCellsHint, kConventionHint, {"input", "the input kind"}});
  }
  if (kind == InputKind::Auto) kind = InputKind::Raw;
  if (opts.grid && kind != InputKind::Zone && kind != InputKind::Unity)
    throw_usage("the grid choice applies to zone files and Unity assets",
                {{"grid", "the grid choice"}});

  if (kind == InputKind::Zone || kind == InputKind::Unity || kind == InputKind::SmChunk) {
    if (opts.cells) {
      throw_usage("the cells option applies to raw grids, not to this input",
                  {{"cells", "the cells option"}});
    }
    if (caves) throw_usage(kCavesOptions + " apply to ice modules (raw grids)", kCavesHints);
    MeshSource src;
    if (kind == InputKind::SmChunk) {
      if (!have_bytes) bytes = io::read_all(path, uint64_t(1) << 20);
      src = sm_chunk_source(bytes, path);
    } else if (kind == InputKind::Zone) {
      if (!have_bytes) bytes = io::read_all(path);
      zone_file::ReadOptions ro;
      ro.max_samples = opts.max_samples;
      // Only the grid that is meshed (and the paint of the current one) is decoded.
      const ZoneGrid which = opts.grid.value_or(ZoneGrid::Current);
      ro.current_grid = which == ZoneGrid::Current;
      ro.baked_grid = which == ZoneGrid::Baked;
      ro.textures = false;
      Zone z = with_source(io::display_name(path), [&] { return read_zone(bytes, ro); });
      src = zone_mesh_source(std::move(z), which, "zone file");
    } else {
      if (!have_bytes) bytes = io::read_all(path);
      std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      Zone z = with_source(io::display_name(path),
                           [&] { return unity::import_asset(text, io::display_name(path), opts.max_samples); });
      src = zone_mesh_source(std::move(z), opts.grid.value_or(ZoneGrid::Current), "unity dig-zone asset");
    }
    place(src, opts);
    return src;
  }

  if (!opts.cells)
    throw_usage("cannot tell the grid of '" + io::display_name(path) + "': " + kRawGridFix,
                {kCellsHint, kConventionHint});
  if (caves && opts.convention != Convention::Ice) {
    auto hints = kCavesHints;
    hints.push_back({"convention", "convention"});
    throw_usage(kCavesOptions + " apply to ice modules (convention ice)", hints);
  }

  MeshSource src;
  ByteGrid raw = read_raw_grid(path, *opts.cells, opts.max_samples);
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
        throw_usage("closed regions need the region grid", {{"regions", ""}});
      src.sdf = effective_sdf(raw, regions ? &*regions : nullptr, closed);
      break;
    }
  }
  place(src, opts);
  return src;
}

}  // namespace voxkit
