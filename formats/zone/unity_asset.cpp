// Dig-zone Unity assets: writing a zone into a DigZoneData document, its values only or with
// the objects that follow from it, and the package's limits.
#include "formats/zone/unity_asset.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>

#include "formats/zone/unity_yaml.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/codec/rle.hpp"
#include "lib/core/error.hpp"

namespace voxkit::unity {
namespace {

std::string dims_text(const Dims& c) {
  return std::to_string(c.nx) + " x " + std::to_string(c.ny) + " x " + std::to_string(c.nz);
}

void check_samples(const Dims& c) {
  if (c.samples() > kMaxSamples) {
    throw_usage("the zone has " + std::to_string(c.samples()) + " samples, over the dig-zone package's limit of " +
                std::to_string(kMaxSamples) + " (128 Mi): use a smaller zone or a larger voxel size");
  }
}

// What every export needs of the zone: consistent parts and numbers that fit a float.
void check_exportable(const Zone& z) {
  check_samples(z.meta.cells);
  check_zone(z);
  for (double v : {z.meta.voxel_size, z.meta.origin[0], z.meta.origin[1], z.meta.origin[2], z.meta.hole.min_x,
                   z.meta.hole.min_z, z.meta.hole.max_x, z.meta.hole.max_z, z.meta.height_min, z.meta.height_max}) {
    if (!(std::fabs(v) <= double(FLT_MAX))) throw_usage("a zone number does not fit Unity's float: " + std::to_string(v));
  }
  if (!(float(z.meta.voxel_size) > 0)) throw_usage("the zone's voxel size is too small for Unity's float");
  const ZoneHoleCut& cut = z.hole_cut;
  if (!cut.empty() && cut.previous.size() != uint64_t(cut.width) * uint64_t(cut.depth))
    throw_usage("the zone's hole cut does not hold one value per cell");
}

// A name Unity writes as a plain scalar (m_Name, and the sub-assets' names made from it).
void check_asset_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 200 && name.front() != ' ' && name.back() != ' ' && name.front() != '-';
  for (unsigned char c : name)
    ok = ok && (std::isalnum(c) || c >= 0x80 || std::string_view(" _-.()+").find(char(c)) != std::string_view::npos);
  if (!ok) {
    throw_usage("the asset name '" + name + "' is not a plain name (letters, digits, spaces and _ - . ( ) +)",
                {{"asset-name", "the asset name"}});
  }
}

std::string checked_guid(const std::string& guid) {
  std::string g = guid;
  bool ok = g.size() == 32;
  for (char& c : g) {
    c = char(std::tolower(static_cast<unsigned char>(c)));
    ok = ok && std::isxdigit(static_cast<unsigned char>(c));
  }
  if (!ok) throw_usage("the script guid '" + guid + "' is not 32 hex digits", {{"script-guid", "the script guid"}});
  return g;
}

std::string flow3(const std::array<double, 3>& o) {
  return "{x: " + format_float(o[0]) + ", y: " + format_float(o[1]) + ", z: " + format_float(o[2]) + "}";
}

// The zone's own values: cells, voxel size, chunk cells, origin, edit box, hole rect, grids,
// _gridVersion (bumped past the asset's and the zone's, or the zone's for a new asset).
void value_edits(ExportState& s, bool bump_version) {
  const Zone& z = s.zone;
  const ZoneDocument& d = s.doc;
  const std::string_view t = s.text;
  const Field* version = find_any(d, {"_gridVersion", "gridVersion"});
  if (!d.find("gridRle") || !version) {
    throw_data("the DigZoneData document has no gridRle or _gridVersion field: it was saved by DigHoleIt 0.3 or "
               "earlier; open and save it with a current version first", d.begin);
  }
  auto set = [&](const char* key, std::string value) { s.edits.push_back(value_edit(need(d, key), std::move(value))); };
  const Dims& c = z.meta.cells;
  set("nx", std::to_string(c.nx));
  set("ny", std::to_string(c.ny));
  set("nz", std::to_string(c.nz));
  set("voxelSize", format_float(z.meta.voxel_size));
  set("chunkCells", std::to_string(z.meta.chunk_cells));
  set("origin", flow3(z.meta.origin));
  if (d.find("hasOrigin")) set("hasOrigin", "1");
  std::vector<uint8_t> box;
  for (int i = 0; i < 6; ++i) {
    const uint32_t v = uint32_t(i < 3 ? z.meta.edit_box.min[i] : z.meta.edit_box.max[i - 3]);
    for (int k = 0; k < 4; ++k) box.push_back(uint8_t(v >> (8 * k)));
  }
  set("editBox", to_hex(box));
  const auto& h = z.meta.hole;
  set("holeRect", "{x: " + format_float(h.min_x) + ", y: " + format_float(h.min_z) + ", z: " + format_float(h.max_x) +
                      ", w: " + format_float(h.max_z) + "}");
  auto encode = [](const ByteGrid& g) { return g.data.empty() ? std::string() : to_hex(rle::encode(g.data)); };
  set("gridRle", encode(z.grid));
  set("paintRle", encode(z.paint));
  set("baseGridRle", encode(z.baked));
  // A non-empty raw grid of an old version would win over the RLE fields when Unity loads.
  const LegacyFields legacy = legacy_fields(d);
  if (legacy.grid && !hex_field(t, *legacy.grid).empty()) {
    for (const Field* f : {legacy.grid, legacy.paint, legacy.base})
      if (f) s.edits.push_back(value_edit(*f, ""));
  }
  const int64_t old_version = parse_int(t, *version, INT32_MIN, INT32_MAX);
  const int64_t new_version = bump_version
                                  ? std::min<int64_t>(INT32_MAX, std::max<int64_t>(old_version, z.meta.grid_version) + 1)
                                  : std::min<int64_t>(INT32_MAX, z.meta.grid_version);
  s.edits.push_back(value_edit(*version, std::to_string(new_version)));
  if (s.report) {
    s.report->old_grid_version = int(bump_version ? old_version : new_version);
    s.report->new_grid_version = int(new_version);
  }
}

}  // namespace

void check_package_limits(const Dims& c) {
  // DigZoneBaker.Validate, in its order and words.
  if (c.nx < kMinCells[0] || c.ny < kMinCells[1] || c.nz < kMinCells[2]) {
    throw_usage("the zone has " + dims_text(c) + " cells, fewer than the dig-zone package bakes (\"Cells must be at least "
                "8 x 4 x 8.\")");
  }
  check_samples(c);
  if (c.nx > kMaxAxisCells || c.ny > kMaxAxisCells || c.nz > kMaxAxisCells) {
    throw_usage("the zone has " + dims_text(c) + " cells, more than the dig-zone package bakes (\"Cells per axis must "
                "be at most 4095.\")");
  }
}

std::string export_asset(std::string_view t, const Zone& z, ExportReport* report) {
  check_exportable(z);
  const ExportOptions opts;
  ExportState s(t, z, opts, report);
  value_edits(s, true);
  if (!z.foliage.empty()) foliage_edits(s);
  return apply_edits(s);
}

std::string write_asset(std::string_view t, const Zone& z, const ExportOptions& opts, ExportReport* report, bool fresh) {
  check_package_limits(z.meta.cells);
  check_exportable(z);
  if (!opts.asset_name.empty()) check_asset_name(opts.asset_name);
  const std::string guid = opts.script_guid.empty() ? std::string() : checked_guid(opts.script_guid);
  ExportState s(t, z, opts, report);
  s.fresh = fresh;
  value_edits(s, !fresh);
  const Field* name = s.doc.find("m_Name");
  if (!opts.asset_name.empty() && name) s.edits.push_back(value_edit(*name, opts.asset_name));
  s.name = !opts.asset_name.empty() ? opts.asset_name : name ? trimmed_value(t, *name) : std::string();
  if (s.name.empty()) s.name = "DigZone";
  if (const Field* script = s.doc.find("m_Script"); script && !guid.empty())
    s.edits.push_back(value_edit(*script, "{fileID: 11500000, guid: " + guid + ", type: 3}"));
  // A bake without an anchor leaves the lattice at the origin.
  const Field *anchor = s.doc.find("latticeAnchor"), *has = s.doc.find("hasLatticeAnchor");
  if (anchor && has && trimmed_value(t, *has) == "0") {
    s.edits.push_back(value_edit(*anchor, flow3(z.meta.origin)));
    s.edits.push_back(value_edit(*has, "1"));
  }
  mesh_edits(s);
  texture_edits(s);
  if (!z.foliage.empty()) foliage_edits(s);
  return apply_edits(s);
}

std::string update_asset(std::string_view t, const Zone& z, const ExportOptions& opts, ExportReport* report) {
  return write_asset(t, z, opts, report, false);
}

}  // namespace voxkit::unity
