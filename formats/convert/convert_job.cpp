#include "formats/convert/convert_job.hpp"

#include <algorithm>

#include "formats/zone/region_grid.hpp"
#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_input.hpp"
#include "lib/caves/caves.hpp"
#include "lib/core/error.hpp"
#include "lib/core/zone.hpp"

namespace voxkit::convert {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Auto: return "auto";
    case Kind::Zone: return "zone";
    case Kind::SmChunks: return "sm-chunks";
    case Kind::IceModule: return "ice-module";
  }
  return "?";
}

namespace {

constexpr uint32_t kStep = uint32_t(sm::kAxis) - 1;  // 16: chunks share their last sample

// Paint code of a zone sample -> Scrap Mechanic material: terrain layers 0, 1 and 2 become
// materials 0, 1 and 2; auto, dug soil and layers 3-15 become 0.
uint8_t material_of_paint(uint8_t code) { return code == 2 ? 1 : code == 3 ? 2 : 0; }
// And back: material 0 is "auto" (0), 1 and 2 are layers 1 and 2 (codes 2 and 3).
uint8_t paint_of_material(uint8_t m) { return m == 1 ? 2 : m == 2 ? 3 : 0; }

struct Grids {
  ByteGrid sdf;
  ByteGrid paint;  // empty: none
};

Zone make_zone(Grids g, const Job& job, const std::string& source) {
  Zone z;
  ZoneMeta& m = z.meta;
  m.cells = g.sdf.cells;
  m.voxel_size = job.voxel_size;
  m.origin = job.origin;
  m.chunk_cells = kStep;
  m.edit_box.min = {0, 0, 0};
  m.edit_box.max = {int32_t(m.cells.nx), int32_t(m.cells.ny), int32_t(m.cells.nz)};
  m.hole = {job.origin[0], job.origin[2], job.origin[0] + m.cells.nx * job.voxel_size,
            job.origin[2] + m.cells.nz * job.voxel_size};
  m.height_min = job.origin[1];
  m.height_max = job.origin[1] + m.cells.ny * job.voxel_size;
  m.source = source;
  z.baked = g.sdf;
  z.grid = std::move(g.sdf);
  z.paint = std::move(g.paint);
  return z;
}

// Scrap Mechanic chunks (one per line, or 4913-byte records) assembled into a grid.
Grids from_chunks(std::span<const uint8_t> bytes, const Job& job, const std::string& name, Report& rep) {
  std::vector<sm::Chunk> chunks;
  bool bin = job.chunk_form && *job.chunk_form == sm::Form::Bin;
  if (!job.chunk_form && !bytes.empty() && bytes.size() % sm::kVoxels == 0) {
    try {
      bin = sm::detect(bytes.first(sm::kVoxels)) == sm::Form::Bin;
    } catch (const Error&) {
      bin = false;
    }
  }
  if (bin) {
    if (bytes.size() % sm::kVoxels != 0)
      throw Error(ErrorKind::Data, "binary chunks are 4913-byte records", bytes.size() / sm::kVoxels * sm::kVoxels,
                  "a multiple of 4913 bytes", std::to_string(bytes.size()) + " bytes");
    for (size_t at = 0; at < bytes.size(); at += sm::kVoxels) {
      sm::Chunk c;
      std::copy_n(bytes.begin() + at, sm::kVoxels, c.begin());
      chunks.push_back(c);
    }
  } else {
    size_t at = 0, line = 0;
    while (at < bytes.size()) {
      size_t end = at;
      while (end < bytes.size() && bytes[end] != '\n') ++end;
      ++line;
      size_t stop = end;
      if (stop > at && bytes[stop - 1] == '\r') --stop;
      if (stop > at) {
        try {
          chunks.push_back(sm::decode_any(bytes.subspan(at, stop - at), job.chunk_form));
        } catch (Error& e) {
          e.shift_offset(at);
          e.add_context("line " + std::to_string(line) + ": ");
          throw;
        }
      }
      at = end + 1;
    }
  }
  if (chunks.empty()) throw Error(ErrorKind::Data, "no chunks in the input", 0, "at least one chunk", "none");
  std::array<uint32_t, 3> n = job.chunks.value_or(std::array<uint32_t, 3>{1, 1, 1});
  if (!job.chunks && chunks.size() != 1)
    throw_usage(std::to_string(chunks.size()) + " chunks: say how they are laid out", {{"chunks", "NX,NY,NZ"}});
  if (uint64_t(n[0]) * n[1] * n[2] != chunks.size())
    throw_usage("the chunk grid " + std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]) +
                    " does not hold the " + std::to_string(chunks.size()) + " chunks read",
                {{"chunks", "NX,NY,NZ"}});
  const Dims cells{n[0] * kStep, n[1] * kStep, n[2] * kStep};
  if (cells.samples() > kMaxGridSamples) throw_usage("the chunks make a grid over the sample limit", {{"chunks", "fewer chunks"}});
  Grids g{ByteGrid(cells, 255), ByteGrid(cells, 0)};
  std::vector<uint8_t> seen(cells.samples(), 0);
  bool any_material = false;
  for (uint32_t k = 0; k < n[2]; ++k)
    for (uint32_t j = 0; j < n[1]; ++j)
      for (uint32_t i = 0; i < n[0]; ++i) {
        const sm::Chunk& c = chunks[i + size_t(n[0]) * (j + size_t(n[1]) * k)];
        for (uint32_t x = 0; x < sm::kAxis; ++x)
          for (uint32_t y = 0; y < sm::kAxis; ++y)
            for (uint32_t z = 0; z < sm::kAxis; ++z) {
              const uint8_t v = c[sm::voxel_index(x, y, z)];
              const uint64_t at = cells.index(i * kStep + x, j * kStep + y, k * kStep + z);
              const uint8_t s = sm_density_to_sdf(sm_density(v)), p = paint_of_material(sm_material(v));
              if (seen[at]) {
                rep.overlap_conflicts += g.sdf.data[at] != s || g.paint.data[at] != p;
                continue;
              }
              seen[at] = 1;
              g.sdf.data[at] = s;
              g.paint.data[at] = p;
              any_material |= p != 0;
              rep.painted += p != 0;
            }
      }
  if (!any_material) g.paint = ByteGrid();
  if (rep.overlap_conflicts)
    rep.warnings.push_back(std::to_string(rep.overlap_conflicts) + " shared samples differ between neighbouring chunks in " +
                           name + ": the first chunk's value (in batch order) is kept");
  rep.chunk_grid = n;
  rep.chunks = chunks.size();
  return g;
}

// A grid cut into chunks: chunk (i, j, k) holds samples 16i .. 16i + 16 (and so on); samples
// past the grid are air. Written in chunk order, x fastest.
std::vector<uint8_t> to_chunks(const Grids& g, const Job& job, Report& rep) {
  if (!sm::is_text(job.form) && job.form != sm::Form::Bin)
    throw_usage("chunks are written one a line (lua, json, b64) or as 4913-byte records (bin)", {{"form", "lua, json, b64 or bin"}});
  const Dims& c = g.sdf.cells;
  const std::array<uint32_t, 3> n{(c.nx + kStep - 1) / kStep, (c.ny + kStep - 1) / kStep, (c.nz + kStep - 1) / kStep};
  std::vector<uint8_t> out;
  sm::WriteOptions wo;
  wo.one_line = true;
  for (uint32_t k = 0; k < n[2]; ++k)
    for (uint32_t j = 0; j < n[1]; ++j)
      for (uint32_t i = 0; i < n[0]; ++i) {
        sm::Chunk ch;
        for (uint32_t x = 0; x < sm::kAxis; ++x)
          for (uint32_t y = 0; y < sm::kAxis; ++y)
            for (uint32_t z = 0; z < sm::kAxis; ++z) {
              const uint64_t gx = i * kStep + x, gy = j * kStep + y, gz = k * kStep + z;
              uint8_t v = 0;
              if (gx < c.sx() && gy < c.sy() && gz < c.sz()) {
                const uint64_t at = c.index(gx, gy, gz);
                const uint8_t mat = g.paint.data.empty() ? 0 : material_of_paint(g.paint.data[at]);
                v = sm_pack(mat, sdf_to_sm_density(g.sdf.data[at]));
                rep.painted += mat != 0;
              }
              ch[sm::voxel_index(x, y, z)] = v;
            }
        const auto bytes = sm::encode(ch, job.form, wo);
        out.insert(out.end(), bytes.begin(), bytes.end());
      }
  rep.chunk_grid = n;
  rep.chunks = uint64_t(n[0]) * n[1] * n[2];
  return out;
}

}  // namespace

Report run(const Job& job) {
  Report rep;
  rep.input = io::display_name(job.input);
  if (job.to == Kind::Auto) throw_usage("say what to convert to", {{"to", "zone, sm-chunks or ice-module"}});
  if (!(job.voxel_size > 0)) throw_usage("the voxel size must be above 0", {{"voxel-size", "a size in metres"}});
  io::check_output(job.output, job.out);
  if (!job.regions_out.empty()) {
    if (job.to != Kind::IceModule) throw_usage("cave regions are written with an ice module", {{"regions", ""}});
    io::check_output(job.regions_out, job.out);
  }
  std::vector<uint8_t> bytes = io::read_all(job.input, job.max_input);

  Kind from = job.from;
  std::optional<Zone> zone;
  if (from == Kind::Auto || from == Kind::Zone) {
    zone = read_zone_if_any(bytes, rep.input);
    if (zone) from = Kind::Zone;
    else if (from == Kind::Zone) throw Error(ErrorKind::Data, "not a zone file or a dig-zone asset", 0);
    else from = job.cells ? Kind::IceModule : Kind::SmChunks;
  }
  if (from == job.to) throw_usage(std::string("the input is already ") + kind_name(from), {{"to", "another kind"}});
  rep.from = kind_name(from);
  rep.to = kind_name(job.to);

  Grids g;
  switch (from) {
    case Kind::Zone:
      g.sdf = std::move(zone->grid);
      g.paint = std::move(zone->paint);
      break;
    case Kind::SmChunks:
      g = with_source(rep.input, [&] { return from_chunks(bytes, job, rep.input, rep); });
      break;
    case Kind::IceModule: {
      if (!job.cells) throw_usage("an ice module is raw densities: give its cells", {{"cells", "NX,NY,NZ"}});
      const Dims& c = *job.cells;
      if (bytes.size() != c.samples())
        throw Error(ErrorKind::Data, "the ice module's size does not match its cells", std::min<uint64_t>(bytes.size(), c.samples()),
                    std::to_string(c.samples()) + " bytes", std::to_string(bytes.size()) + " bytes");
      g.sdf = ByteGrid(c, 0);
      convert_ice_to_sdf(bytes, g.sdf.data);
      break;
    }
    case Kind::Auto: break;
  }
  bytes = {};
  rep.cells = g.sdf.cells;

  std::vector<uint8_t> out;
  switch (job.to) {
    case Kind::Zone: {
      const std::string source = std::string("voxkit convert ") + rep.input + " (" + rep.from + ")";
      out = write_zone(make_zone(std::move(g), job, source));
      rep.lost = from == Kind::SmChunks ? "material 0 reads back as auto paint; the zone has no height or splat rasters"
                                        : "an ice module has no paint; the zone has no height or splat rasters";
      break;
    }
    case Kind::SmChunks:
      out = to_chunks(g, job, rep);
      rep.lost = "densities keep 64 levels of the 256 SDF bytes; paint other than terrain layers 0-2 becomes material "
                 "0, and layer 0 and auto are both material 0";
      break;
    case Kind::IceModule: {
      out.resize(g.sdf.data.size());
      convert_sdf_to_ice(g.sdf.data, out);
      if (!job.regions_out.empty()) {
        ByteGrid density(g.sdf.cells, 0);
        density.data = out;
        CaveOptions co;
        co.open_faces = job.open_faces;
        const CaveLabels labels = label_caves(density, co);
        rep.regions = uint32_t(labels.list.size());
        rep.closed_regions = uint32_t(labels.closed_ids().size());
        io::write_file(job.regions_out, encode_region_grid(labels.regions), job.out);
      }
      rep.lost = "paint and materials (an ice module holds densities only)";
      break;
    }
    case Kind::Auto: break;
  }
  rep.output = io::output_name(job.output);
  io::write_file(job.output, out, job.out);
  return rep;
}

nlohmann::json Report::to_json() const {
  nlohmann::json j = {{"input", input}, {"output", output}, {"from", from}, {"to", to},
                      {"cells", {cells.nx, cells.ny, cells.nz}}, {"painted_samples", painted}, {"lost", lost},
                      {"warnings", warnings}};
  if (chunks) j["chunks"] = {{"count", chunks}, {"grid", chunk_grid}, {"overlap_conflicts", overlap_conflicts}};
  if (regions) j["regions"] = {{"count", regions}, {"closed", closed_regions}};
  return j;
}

std::string Report::to_text() const {
  std::string s = "convert: " + input + " (" + from + ") -> " + output + " (" + to + "): " + std::to_string(cells.nx) +
                  " x " + std::to_string(cells.ny) + " x " + std::to_string(cells.nz) + " cells";
  if (chunks)
    s += ", " + std::to_string(chunks) + " chunks (" + std::to_string(chunk_grid[0]) + " x " +
         std::to_string(chunk_grid[1]) + " x " + std::to_string(chunk_grid[2]) + ", x fastest)";
  if (regions) s += ", " + std::to_string(regions) + " cave regions (" + std::to_string(closed_regions) + " closed)";
  s += "\n  not carried: " + lost + "\n";
  return s;
}

}  // namespace voxkit::convert
