// Zone summaries: counts in parallel with integer sums, so figures never depend on threads.
#include "formats/zone/zone_info.hpp"

#include "formats/zone/unity_asset.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace voxkit {
namespace {

template <class F>
uint64_t sum_over(uint64_t n, F&& f) {
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, n), uint64_t(0),
      [&](const tbb::blocked_range<uint64_t>& r, uint64_t acc) { return acc + f(r.begin(), r.end()); },
      std::plus<uint64_t>());
}

uint64_t count_differences(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  return sum_over(a.size(), [&](uint64_t lo, uint64_t hi) {
    uint64_t c = 0;
    for (uint64_t i = lo; i < hi; ++i) c += a[i] != b[i];
    return c;
  });
}

uint64_t count_nonzero(const std::vector<uint8_t>& a) {
  return sum_over(a.size(), [&](uint64_t lo, uint64_t hi) {
    uint64_t c = 0;
    for (uint64_t i = lo; i < hi; ++i) c += a[i] != 0;
    return c;
  });
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string triple(const std::array<int32_t, 3>& v) {
  std::string s = "(";
  for (int i = 0; i < 3; ++i) {
    s += std::to_string(v[i]);
    s += i < 2 ? ", " : ")";
  }
  return s;
}


}  // namespace

double solid_volume_m3(const ByteGrid& g, double voxel_size) {
  const Dims& c = g.cells;
  const uint64_t sx = c.sx(), sy = c.sy(), sz = c.sz();
  // In units of 1/8 voxel volume (face halving) times 1/64 (the SDF step).
  const uint64_t units = sum_over(sz, [&](uint64_t z0, uint64_t z1) {
    uint64_t acc = 0;
    for (uint64_t z = z0; z < z1; ++z) {
      const uint64_t wz = (z == 0 || z == sz - 1) ? 1 : 2;
      for (uint64_t y = 0; y < sy; ++y) {
        const uint64_t wy = wz * ((y == 0 || y == sy - 1) ? 1 : 2);
        const uint8_t* row = g.data.data() + c.index(0, y, z);
        uint64_t inner = 0;
        for (uint64_t x = 1; x + 1 < sx; ++x) inner += uint64_t(std::clamp(160 - int(row[x]), 0, 64));
        uint64_t edge = uint64_t(std::clamp(160 - int(row[0]), 0, 64)) +
                        uint64_t(std::clamp(160 - int(row[sx - 1]), 0, 64));
        acc += wy * (2 * inner + edge);
      }
    }
    return acc;
  });
  return double(units) / (8.0 * 64.0) * voxel_size * voxel_size * voxel_size;
}

uint64_t chunks_with_surface(const ByteGrid& g, uint32_t cc) {
  const Dims& c = g.cells;
  const uint32_t n[3] = {c.nx, c.ny, c.nz};
  uint64_t nc[3];
  for (int i = 0; i < 3; ++i) nc[i] = (uint64_t(n[i]) + cc - 1) / cc;
  const uint64_t total = nc[0] * nc[1] * nc[2];
  auto span_of = [&](int axis, uint64_t ci, uint64_t& s0, uint64_t& s1) {
    s0 = ci * cc == 0 ? 0 : ci * cc - 1;
    s1 = std::min<uint64_t>(n[axis], ci * cc + cc);
  };
  return sum_over(total, [&](uint64_t lo, uint64_t hi) {
    uint64_t found = 0;
    for (uint64_t ci = lo; ci < hi; ++ci) {
      uint64_t x0, x1, y0, y1, z0, z1;
      span_of(0, ci % nc[0], x0, x1);
      span_of(1, (ci / nc[0]) % nc[1], y0, y1);
      span_of(2, ci / (nc[0] * nc[1]), z0, z1);
      bool solid = false, air = false;
      for (uint64_t z = z0; z <= z1 && !(solid && air); ++z)
        for (uint64_t y = y0; y <= y1 && !(solid && air); ++y) {
          const uint8_t* row = g.data.data() + c.index(0, y, z);
          for (uint64_t x = x0; x <= x1; ++x) {
            if (row[x] < 128) solid = true; else air = true;
          }
        }
      found += solid && air;
    }
    return found;
  });
}

ZoneSummary summarize_zone(const Zone& z, std::span<const uint8_t> file) {
  ZoneSummary s;
  s.meta = z.meta;
  s.samples = z.meta.cells.samples();
  s.decoded_bytes = z.grid.data.size() + z.baked.data.size() + z.paint.data.size() + 4 * z.height.values.size();
  for (auto& r : z.splat) s.decoded_bytes += r.values.size();
  s.decoded_bytes += z.filled.values.size();
  for (uint8_t v : z.filled.values) s.filled_columns += v != 0;
  s.stored_bytes = file.size();
  s.sections = list_zone_sections(file);
  SampleStats st = sdf_stats(z.grid.data);
  s.solid = st.solid;
  s.air = st.air;
  s.band = st.band;
  s.solid_volume_m3 = solid_volume_m3(z.grid, z.meta.voxel_size);
  const uint32_t cc = z.meta.chunk_cells;
  s.chunks = ((z.meta.cells.nx + uint64_t(cc) - 1) / cc) * ((z.meta.cells.ny + uint64_t(cc) - 1) / cc) *
             ((z.meta.cells.nz + uint64_t(cc) - 1) / cc);
  s.chunks_with_surface = chunks_with_surface(z.grid, cc);
  if (!z.baked.data.empty()) s.sculpted = count_differences(z.grid.data, z.baked.data);
  if (!z.paint.data.empty()) s.painted = count_nonzero(z.paint.data);
  s.has_height = !z.height.values.empty();
  s.splat_layers = z.splat.size();
  s.unknown_sections = z.unknown_sections.size();
  if (!z.hole_cut.empty()) {
    s.hole_cut = z.hole_cut;
    s.hole_cut.previous.clear();
  }
  if (!z.foliage.empty()) {
    s.has_foliage = true;
    s.trees = z.foliage.trees.size();
    s.details = z.foliage.details.size();
    s.surface_details = z.foliage.surface.size();
    s.foliage_counts = foliage::counts(z.foliage, z.meta.cells);
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> zone_summary_fields(const ZoneSummary& s) {
  const ZoneMeta& m = s.meta;
  const Dims& c = m.cells;
  std::vector<std::pair<std::string, std::string>> t;
  auto line = [&t](const std::string& k, const std::string& v) { t.emplace_back(k, v); };
  line("cells", std::to_string(c.nx) + " x " + std::to_string(c.ny) + " x " + std::to_string(c.nz) + " (" +
                    std::to_string(s.samples) + " samples), voxel " + num(m.voxel_size) + " m");
  line("extent", num(c.nx * m.voxel_size) + " x " + num(c.ny * m.voxel_size) + " x " + num(c.nz * m.voxel_size) +
                     " m from (" + num(m.origin[0]) + ", " + num(m.origin[1]) + ", " + num(m.origin[2]) + ")");
  line("memory", std::to_string(s.decoded_bytes) + " bytes decoded");
  line("stored", std::to_string(s.stored_bytes) + " bytes (" + identify::percent(s.stored_bytes, s.decoded_bytes) + ")");
  line("samples", "solid " + std::to_string(s.solid) + " (" + identify::percent(s.solid, s.samples) + "), air " +
                      std::to_string(s.air) + ", surface band " + std::to_string(s.band));
  line("solid volume", fixed(s.solid_volume_m3, 3) + " m^3");
  line("chunks", std::to_string(s.chunks_with_surface) + " of " + std::to_string(s.chunks) + " with a surface (" +
                     std::to_string(m.chunk_cells) + " cells per chunk)");
  line("sculpted", s.sculpted ? std::to_string(*s.sculpted) + " samples differ from the baked grid" : "no baked grid");
  line("painted", s.painted ? std::to_string(*s.painted) + " samples" : "never painted");
  std::string layers;
  for (auto& n : m.layer_names) layers += (layers.empty() ? "" : ", ") + n;
  line("layers", (layers.empty() ? "none named" : layers) + "; splat " + std::to_string(s.splat_layers) +
                     " layers, height texture " + (s.has_height ? "yes" : "no"));
  if (s.filled_columns > 0) {
    const uint64_t columns = c.sx() * c.sz();
    line("filled NoData", std::to_string(s.filled_columns) + " of " + std::to_string(columns) + " columns (" +
                              identify::percent(s.filled_columns, columns) +
                              ") stand on heightmap samples filled by the bake");
  }
  if (m.height_min != 0 || m.height_max != 0) line("height range", num(m.height_min) + " .. " + num(m.height_max) + " m");
  line("edit box", triple(m.edit_box.min) + " .. " + triple(m.edit_box.max));
  line("terrain hole", "x " + num(m.hole.min_x) + " .. " + num(m.hole.max_x) + ", z " + num(m.hole.min_z) + " .. " +
                           num(m.hole.max_z) + " m");
  line("grid version", std::to_string(m.grid_version));
  if (!s.hole_cut.empty()) {
    const ZoneHoleCut& c = s.hole_cut;
    line("terrain cut", std::to_string(c.width) + " x " + std::to_string(c.depth) + " hole cells from (" +
                            std::to_string(c.x) + ", " + std::to_string(c.z) + ")" +
                            (c.resolution ? " of " + std::to_string(c.resolution) + " x " + std::to_string(c.resolution)
                                          : std::string(", holes resolution unknown")));
  }
  if (s.has_foliage) {
    const auto& f = s.foliage_counts;
    line("foliage", std::to_string(s.trees) + " trees (" + std::to_string(f.trees_standing) + " standing), " +
                        std::to_string(s.details) + " details, " + std::to_string(s.surface_details) +
                        " surface details; " + std::to_string(f.columns_standing) + " of " +
                        std::to_string(f.columns_surface) + " columns standing");
  }
  if (!m.source.empty()) line("source", m.source);
  std::string secs;
  for (auto& sec : s.sections) secs += (secs.empty() ? "" : ", ") + sec.tag_string() + " " + std::to_string(sec.length);
  if (!s.sections.empty()) line("sections", secs);
  return t;
}

nlohmann::json zone_summary_json(const ZoneSummary& s) {
  using nlohmann::json;
  const ZoneMeta& m = s.meta;
  json j;
  j["version"] = zone_file::kVersionMajor;
  j["cells"] = {m.cells.nx, m.cells.ny, m.cells.nz};
  j["sample_dims"] = {m.cells.sx(), m.cells.sy(), m.cells.sz()};
  j["samples"] = s.samples;
  j["voxel_size"] = m.voxel_size;
  j["origin"] = {m.origin[0], m.origin[1], m.origin[2]};
  j["chunk_cells"] = m.chunk_cells;
  j["border_voxels"] = m.border_voxels;
  j["memory_bytes"] = s.decoded_bytes;
  j["stored_bytes"] = s.stored_bytes;
  j["counts"] = {{"solid", s.solid}, {"air", s.air}, {"surface_band", s.band}};
  j["solid_volume_m3"] = s.solid_volume_m3;
  j["chunks"] = {{"total", s.chunks}, {"with_surface", s.chunks_with_surface}};
  j["sculpted_samples"] = s.sculpted ? json(*s.sculpted) : json(nullptr);
  j["painted_samples"] = s.painted ? json(*s.painted) : json(nullptr);
  j["layers"] = m.layer_names;
  j["splat_layers"] = s.splat_layers;
  j["height_texture"] = s.has_height;
  j["filled_columns"] = s.filled_columns;
  j["height_range"] = {m.height_min, m.height_max};
  j["edit_box"] = {{"min", {m.edit_box.min[0], m.edit_box.min[1], m.edit_box.min[2]}},
                   {"max", {m.edit_box.max[0], m.edit_box.max[1], m.edit_box.max[2]}}};
  j["hole_rect"] = {{"min_x", m.hole.min_x}, {"min_z", m.hole.min_z}, {"max_x", m.hole.max_x}, {"max_z", m.hole.max_z}};
  j["grid_version"] = m.grid_version;
  j["source"] = m.source;
  json secs = json::array();
  for (auto& sec : s.sections) {
    secs.push_back({{"tag", sec.tag_string()}, {"offset", sec.offset}, {"length", sec.length}, {"flags", sec.flags}});
  }
  j["sections"] = secs;
  j["unknown_sections"] = s.unknown_sections;
  if (!s.hole_cut.empty()) {
    const ZoneHoleCut& c = s.hole_cut;
    j["terrain_cut"] = {{"x", c.x}, {"z", c.z}, {"width", c.width}, {"depth", c.depth},
                        {"resolution", c.resolution ? json(c.resolution) : json(nullptr)}};
  } else {
    j["terrain_cut"] = nullptr;
  }
  if (s.has_foliage) {
    const auto& f = s.foliage_counts;
    j["foliage"] = {{"trees", s.trees},
                    {"details", s.details},
                    {"surface_details", s.surface_details},
                    {"trees_standing", f.trees_standing},
                    {"columns_with_surface", f.columns_surface},
                    {"columns_standing", f.columns_standing},
                    {"details_standing", f.details_standing},
                    {"surface_details_standing", f.surface_standing}};
  } else {
    j["foliage"] = nullptr;
  }
  return j;
}

std::optional<identify::Description> describe_zone(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.size() < zone_file::kMagic.size() ||
      !std::equal(zone_file::kMagic.begin(), zone_file::kMagic.end(), bytes.begin())) {
    return std::nullopt;
  }
  const Zone z = read_zone(bytes);
  const ZoneSummary s = summarize_zone(z, bytes);
  identify::Description d;
  d.format = "zone";
  d.summary = "voxkit zone file, version " + std::to_string(zone_file::kVersionMajor) + "." +
              std::to_string(uint16_t(bytes[10] | bytes[11] << 8));
  d.fields = zone_summary_fields(s);
  d.details = zone_summary_json(s);
  return d;
}

std::optional<identify::Description> describe_unity_asset(std::span<const uint8_t> bytes, const std::string& name) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.substr(0, 5) != "%YAML" || text.find("gridRle:") == std::string_view::npos) return std::nullopt;
  const Zone z = unity::import_asset(text, name);
  ZoneSummary s = summarize_zone(z, write_zone(z));
  s.stored_bytes = bytes.size();
  s.sections.clear();
  identify::Description d;
  d.format = "unity-asset";
  d.summary = "dig-zone Unity asset (DigZoneData)";
  d.fields = zone_summary_fields(s);
  d.details = zone_summary_json(s);
  return d;
}

}  // namespace voxkit
