// The melt job: inputs read and checked before any work, outputs written as one set, and the
// report in text and JSON.
#include "formats/ice/melt_job.hpp"

#include <algorithm>
#include <cstdio>

#include "formats/zone/region_grid.hpp"
#include "lib/core/error.hpp"

namespace voxkit::ice {
namespace {

// Hits and hardness files are text; 1 GiB holds tens of millions of hits.
constexpr uint64_t kMaxHitsBytes = uint64_t(1) << 30;
constexpr uint64_t kMaxListBytes = uint64_t(1) << 24;

ByteGrid read_module(const std::string& path, const Dims& cells) {
  check_dims(cells);
  auto bytes = io::read_all(path, cells.samples());
  return with_source(io::display_name(path), [&] {
    if (bytes.size() != cells.samples())
      throw_data("module size does not match the cells", bytes.size(), std::to_string(cells.samples()) + " bytes (one per point)",
                 std::to_string(bytes.size()) + " bytes");
    ByteGrid g;
    g.cells = cells;
    g.data = std::move(bytes);
    return g;
  });
}

nlohmann::json box_json(const Box3i& b) {
  if (b.empty()) return nullptr;
  return {{"min", {b.min[0], b.min[1], b.min[2]}}, {"max", {b.max[0], b.max[1], b.max[2]}}};
}

std::string box_text(const Box3i& b) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%lld,%lld,%lld .. %lld,%lld,%lld", (long long)b.min[0], (long long)b.min[1],
                (long long)b.min[2], (long long)b.max[0], (long long)b.max[1], (long long)b.max[2]);
  return buf;
}

}  // namespace

MeltReport run_melt_job(const MeltJob& job, const Progress& progress) {
  if (job.module == "-" && job.hits == "-") throw_usage("the module and the hits cannot both come from stdin");
  if (job.output == "-" && job.regions_out == "-") throw_usage("the module and the closed-region list cannot both go to stdout");
  const bool have_closed = !job.closed.empty() || !job.closed_path.empty();
  if (have_closed && job.regions.empty()) throw_usage("closed regions need the region grid");
  if (!job.regions_out.empty() && job.regions.empty()) throw_usage("the closed-region list out needs the region grid");
  if (!job.hardness_path.empty() && !job.melt.hardness.empty())
    throw_usage("hardness samples come from a file or from a list, not both");
  check_dims(job.cells);
  io::check_output(job.output, job.out);
  if (!job.regions_out.empty()) io::check_output(job.regions_out, job.out_text);

  MeltOptions opts = job.melt;
  if (!job.hardness_path.empty()) {
    const std::string text = io::read_text(job.hardness_path, kMaxListBytes);
    opts.hardness = with_source(io::display_name(job.hardness_path), [&] { return parse_hardness(text); });
  }
  ByteGrid density = read_module(job.module, job.cells);
  std::optional<RegionGrid> grid;
  if (!job.regions.empty()) {
    auto bytes = io::read_all(job.regions, job.cells.samples() * 2);
    grid = with_source(io::display_name(job.regions), [&] { return decode_region_grid(bytes, job.cells); });
  }
  MeltRegions regions;
  regions.grid = grid ? &*grid : nullptr;
  regions.closed = job.closed;
  if (!job.closed_path.empty()) {
    const std::string text = io::read_text(job.closed_path, kMaxListBytes);
    auto more = with_source(io::display_name(job.closed_path), [&] { return parse_region_list(text); });
    regions.closed.insert(regions.closed.end(), more.begin(), more.end());
  }
  std::sort(regions.closed.begin(), regions.closed.end());
  regions.closed.erase(std::unique(regions.closed.begin(), regions.closed.end()), regions.closed.end());

  const std::string hits_text = io::read_text(job.hits, kMaxHitsBytes);
  std::vector<MeltHit> hits = with_source(io::display_name(job.hits), [&] { return read_hits(hits_text, job.max_hits); });
  if (job.world) {
    if (!(opts.voxel_size > 0)) throw_usage("melt: the voxel size must be a finite number > 0");
    for (MeltHit& h : hits) {
      for (size_t a = 0; a < 3; ++a) h.centre[a] = (h.centre[a] - job.origin[a]) / opts.voxel_size;
      h.radius /= opts.voxel_size;
    }
  }

  MeltReport rep;
  rep.result = with_source(io::display_name(job.hits), [&] { return melt(density, hits, opts, regions, progress); });

  io::OutputSet outs;  // the module and the list, or neither
  outs.add(job.output, job.out).write(density.data);
  if (!job.regions_out.empty()) outs.add(job.regions_out, job.out_text).write(format_region_list(rep.result.closed_after));
  outs.commit();

  rep.module = job.module;
  rep.hits = job.hits;
  rep.output = job.output;
  if (!job.regions_out.empty()) rep.regions_out = job.regions_out;
  rep.cells = job.cells;
  rep.voxel_size = opts.voxel_size;
  rep.highlight = opts.highlight;
  rep.chunk_cells = opts.chunk_cells;
  rep.world = job.world;
  rep.per_hit = job.per_hit;
  rep.hardness = opts.hardness;
  return rep;
}

nlohmann::json MeltReport::to_json() const {
  const MeltResult& r = result;
  nlohmann::json j;
  j["module"] = module;
  j["hits_file"] = hits;
  j["output"] = output;
  j["regions_out"] = regions_out ? nlohmann::json(*regions_out) : nlohmann::json();
  j["cells"] = {cells.nx, cells.ny, cells.nz};
  j["voxel_size"] = voxel_size;
  j["hits"] = r.hits.size();
  j["litres"] = r.litres(voxel_size);
  j["bytes_removed"] = r.bytes_removed;
  j["points_changed"] = r.points_changed;
  j["solid"] = {{"start", r.solid_start}, {"before", r.solid_before}, {"after", r.solid_after}};
  j["remaining"] = r.remaining;
  j["highlight"] = {{"threshold", highlight},
                    {"at_start", r.highlight_at_start},
                    {"hit", r.highlight_hit ? nlohmann::json(*r.highlight_hit) : nlohmann::json()}};
  j["completed"] = {{"done", r.completed},
                    {"at_start", r.completed_at_start},
                    {"hit", r.completed_hit ? nlohmann::json(*r.completed_hit) : nlohmann::json()}};
  j["regions_opened"] = nlohmann::json::array();
  for (const auto& o : r.opened) j["regions_opened"].push_back({{"id", o.id}, {"hit", o.hit}});
  j["closed_after"] = r.closed_after;
  j["changed_box"] = box_json(r.changed);
  j["chunks"] = {{"cells", chunk_cells}, {"grid", r.chunk_grid}, {"remesh", r.remesh}};
  if (per_hit) {
    j["per_hit"] = nlohmann::json::array();
    for (const auto& h : r.hits)
      j["per_hit"].push_back({{"hit", h.hit},
                              {"amount", h.amount},
                              {"hardness", h.hardness ? nlohmann::json(*h.hardness) : nlohmann::json()},
                              {"depth", h.depth},
                              {"litres", melt_litres(h.bytes_removed, voxel_size)},
                              {"bytes_removed", h.bytes_removed},
                              {"points_changed", h.points_changed},
                              {"solid_after", h.solid_after},
                              {"changed_box", box_json(h.changed)},
                              {"opened", h.opened}});
  }
  return j;
}

std::string MeltReport::to_text() const {
  const MeltResult& r = result;
  std::string t;
  auto line = [&t](const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    t += buf;
  };
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  line("melt: %zu hits on %s (%ux%ux%u cells, %g m voxels) -> %s\n", r.hits.size(), io::display_name(module).c_str(),
       cells.nx, cells.ny, cells.nz, voxel_size, output == "-" ? "<stdout>" : output.c_str());
  line("removed: %.3f L (%llu bytes over %llu points)\n", r.litres(voxel_size), u(r.bytes_removed), u(r.points_changed));
  line("solid points: %llu -> %llu; remaining %.4f%% of %llu\n", u(r.solid_before), u(r.solid_after), 100.0 * r.remaining,
       u(r.solid_start));
  if (r.highlight_at_start)
    line("highlight (%g%% left): already reached before the first hit\n", 100.0 * highlight);
  else if (r.highlight_hit)
    line("highlight (%g%% left): reached at hit %llu\n", 100.0 * highlight, u(*r.highlight_hit));
  else
    line("highlight (%g%% left): not reached\n", 100.0 * highlight);
  if (r.completed_at_start)
    line("completed: already before the first hit\n");
  else if (r.completed_hit)
    line("completed: at hit %llu\n", u(*r.completed_hit));
  else
    line("completed: no\n");
  if (r.opened.empty()) {
    line("regions opened: none\n");
  } else {
    t += "regions opened:";
    for (const auto& o : r.opened) line(" %u (hit %llu)", unsigned(o.id), u(o.hit));
    t += "\n";
  }
  if (regions_out) line("closed regions left: %zu -> %s\n", r.closed_after.size(), regions_out->c_str());
  line("changed box: %s\n", r.changed.empty() ? "none" : box_text(r.changed).c_str());
  const uint64_t total = uint64_t(r.chunk_grid[0]) * r.chunk_grid[1] * r.chunk_grid[2];
  line("chunks to remesh: %zu of %llu%s", r.remesh.size(), u(total), r.remesh.empty() ? "" : ":");
  const size_t shown = std::min<size_t>(r.remesh.size(), 64);
  for (size_t i = 0; i < shown; ++i) line(" %u,%u,%u", r.remesh[i][0], r.remesh[i][1], r.remesh[i][2]);
  if (r.remesh.size() > shown) line(" ... %zu more", r.remesh.size() - shown);
  t += "\n";
  if (per_hit) {
    for (const auto& h : r.hits) {
      line("hit %llu: amount %.6g", u(h.hit), h.amount);
      if (h.hardness) line(" (hardness %.6g at depth %.4g m)", *h.hardness, h.depth);
      line(", %.3f L, %llu points, solid %llu", melt_litres(h.bytes_removed, voxel_size), u(h.points_changed),
           u(h.solid_after));
      if (!h.changed.empty()) t += ", box " + box_text(h.changed);
      if (!h.opened.empty()) {
        t += ", opened";
        for (uint16_t id : h.opened) line(" %u", unsigned(id));
      }
      t += "\n";
    }
  }
  return t;
}

}  // namespace voxkit::ice
