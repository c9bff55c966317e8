#include "formats/grass/scatter_job.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "formats/grass/grass_type_io.hpp"
#include "lib/core/error.hpp"

namespace voxkit::grass {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string g6(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s.empty() ? "none" : s;
}

}  // namespace

ScatterReport run_scatter(const ScatterJob& job) {
  const auto t0 = Clock::now();
  ScatterReport rep;
  if (!job.cells_given && !job.explain)
    throw_usage("the scatter needs cells to scatter or a cell to explain", {{"cells", "cells"}, {"explain", "a cell"}});
  if (!job.output.empty()) {
    if (!job.cells_given) throw_usage("blades are written for a box of cells", {{"cells", "cells"}});
    io::check_output(job.output, job.out);
  }
  const GrassType type = read_grass_type(job.type, &rep.warnings);
  rep.type_name = type.name;
  rep.surface = io::display_name(job.surface);
  const SurfaceGrid surface = read_surface(job.surface, job.terrain, job.max_input, &rep.surface_info);
  rep.setup = make_setup(type, job.cell_size, job.density_scale, surface);
  const ScatterSetup& s = rep.setup;
  if (s.layer == kMissingLayer)
    rep.warnings.push_back("the type's layer '" + type.layer + "' is not a layer of " + rep.surface + " (" +
                           joined(surface.layer_names) + "): its weight reads 0 there");
  if (job.density_scale < 0.0f || job.density_scale > 1.0f)
    rep.warnings.push_back("the density scale " + g6(job.density_scale) + " is clamped to [0, 1]");

  if (job.explain) {
    rep.explained_cell = *job.explain;
    rep.explained = explain(s, surface, CellKey{(*job.explain)[0], (*job.explain)[1]});
  }

  if (job.cells_given) {
    const int32_t x0 = std::min(job.cells[0], job.cells[2]), x1 = std::max(job.cells[0], job.cells[2]);
    const int32_t z0 = std::min(job.cells[1], job.cells[3]), z1 = std::max(job.cells[1], job.cells[3]);
    const uint64_t count = (uint64_t(int64_t(x1) - x0) + 1) * (uint64_t(int64_t(z1) - z0) + 1);
    const uint64_t per_cell = uint64_t(s.side) * uint64_t(s.side);
    if (count > (uint64_t(1) << 24) || count * per_cell > job.max_candidates)
      throw_usage("the box of cells is too large: " + std::to_string(count) + " cells of " + std::to_string(per_cell) +
                      " candidates (at most " + std::to_string(job.max_candidates) + " candidates in all)",
                  {{"cells", "a smaller box"}});
    std::vector<CellKey> keys;
    keys.reserve(count);
    for (int32_t z = z0; z <= z1; ++z)
      for (int32_t x = x0; x <= x1; ++x) keys.push_back({x, z});

    const BladeFormat fmt = job.format ? *job.format : blade_format_of(job.output);
    std::unique_ptr<io::AtomicOutput> out;
    if (!job.output.empty()) out = std::make_unique<io::AtomicOutput>(job.output, job.out);
    if (out && fmt == BladeFormat::Csv) out->write(csv_header());
    if (out && fmt == BladeFormat::Json) out->write(std::string("{\"type\":") + nlohmann::json(type.name).dump() + ",\"cells\":[");
    std::vector<CellResult> for_glb;
    ScatterOptions opts;
    opts.capacity = job.capacity;
    opts.keep_blades = out != nullptr || job.blades_in_report;
    const auto ts = Clock::now();
    constexpr size_t kBatch = 64;
    bool first_json = true;
    for (size_t b = 0; b < keys.size(); b += kBatch) {
      const size_t n = std::min(kBatch, keys.size() - b);
      std::vector<CellResult> part = scatter(s, surface, std::span<const CellKey>(keys.data() + b, n), opts);
      for (CellResult& c : part) {
        for (size_t k = 0; k < 4; ++k) rep.totals[k] += c.counts[k];
        rep.candidates += c.candidates;
        rep.over_capacity += c.over_capacity;
        rep.written += c.blades.size();
        if (out) {
          if (fmt == BladeFormat::Raw) {
            std::vector<uint8_t> bytes;
            append_raw(bytes, c);
            out->write(bytes);
          } else if (fmt == BladeFormat::Csv) {
            std::string text;
            append_csv(text, c);
            out->write(text);
          } else if (fmt == BladeFormat::Json) {
            out->write((first_json ? "" : ",") + cell_json(c, true).dump());
            first_json = false;
          } else {
            for_glb.push_back(c);
          }
        }
        if (!job.blades_in_report) {
          c.blades = {};
          c.indices = {};
        }
        rep.cells.push_back(std::move(c));
      }
    }
    rep.seconds_scatter = since(ts);
    if (out) {
      if (fmt == BladeFormat::Json) out->write(std::string("]}\n"));
      if (fmt == BladeFormat::Glb) out->write(blades_glb(for_glb, type.wind.height));
      out->commit();
      rep.output = io::output_name(job.output);
    }
  }
  rep.seconds_total = since(t0);
  return rep;
}

nlohmann::json ScatterReport::to_json(bool blades) const {
  nlohmann::json j;
  j["type"] = type_name;
  j["surface"] = {{"file", surface},
                  {"kind", surface_info.kind},
                  {"columns", surface_info.columns},
                  {"columns_without_ground", surface_info.columns_without_ground},
                  {"layers", surface_info.layer_names}};
  j["grid"] = {{"cell_size", setup.cell_size}, {"side", setup.side}, {"step", setup.step},
               {"candidates_per_cell", uint64_t(setup.side) * uint64_t(setup.side)},
               {"density_scale", setup.density_scale}};
  if (!output.empty()) j["output"] = output;
  nlohmann::json cl = nlohmann::json::array();
  for (const auto& c : cells) cl.push_back(cell_json(c, blades));
  j["cells"] = std::move(cl);
  j["totals"] = {{"candidates", candidates},
                 {"placed", totals[0]},
                 {"refused", {{"no_surface", totals[1]}, {"slope", totals[2]}, {"density", totals[3]}}},
                 {"over_capacity", over_capacity},
                 {"written", written}};
  if (!explained.empty()) {
    nlohmann::json e = nlohmann::json::array();
    for (const Trace& t : explained) {
      nlohmann::json c = {{"index", t.index}, {"x", t.x}, {"z", t.z}, {"verdict", refusal_name(t.verdict)}};
      if (t.ground.hit) {
        c["height"] = t.ground.py;
        c["slope"] = t.slope;
        c["weight"] = t.ground.weight;
        if (t.verdict != Refusal::Slope) c["keep"] = t.keep, c["draw"] = t.draw;
      }
      e.push_back(c);
    }
    j["explain"] = {{"x", explained_cell[0]}, {"z", explained_cell[1]}, {"candidates", std::move(e)}};
  }
  j["seconds"] = {{"scatter", seconds_scatter}, {"total", seconds_total}};
  j["warnings"] = warnings;
  return j;
}

std::string ScatterReport::to_text() const {
  std::string s = "grass type '" + type_name + "' on " + surface + " (" + surface_info.kind + ", layers " +
                  joined(surface_info.layer_names) + ")\n";
  s += "cells of " + g6(setup.cell_size) + " m, " + std::to_string(setup.side) + " x " + std::to_string(setup.side) +
       " candidates, step " + g6(setup.step) + " m\n";
  if (!explained.empty()) {
    std::array<uint64_t, 4> n{};
    s += "cell " + std::to_string(explained_cell[0]) + "," + std::to_string(explained_cell[1]) + ", candidate by candidate:\n";
    for (const Trace& t : explained) {
      ++n[static_cast<size_t>(t.verdict)];
      s += "  " + std::to_string(t.index) + " at (" + g6(t.x) + ", " + g6(t.z) + "): ";
      switch (t.verdict) {
        case Refusal::NoSurface: s += "no surface (off the ground, in a hole or dug)"; break;
        case Refusal::Slope: s += "too steep: slope " + g6(t.slope) + " > " + g6(setup.type.max_slope) + " rad"; break;
        case Refusal::Density:
          s += "density: draw " + g6(t.draw) + " >= keep " + g6(t.keep) + " (weight " + g6(t.ground.weight) + ")";
          break;
        case Refusal::Placed: s += "placed (draw " + g6(t.draw) + " < keep " + g6(t.keep) + ")"; break;
      }
      s += "\n";
    }
    s += "  placed " + std::to_string(n[0]) + ", no surface " + std::to_string(n[1]) + ", slope " + std::to_string(n[2]) +
         ", density " + std::to_string(n[3]) + "\n";
  }
  const bool each = cells.size() <= 256;
  for (const auto& c : cells) {
    if (!each) break;
    s += "cell " + std::to_string(c.cell.x) + "," + std::to_string(c.cell.z) + ": placed " + std::to_string(c.counts[0]) +
         " of " + std::to_string(c.candidates) + "; refused: no surface " + std::to_string(c.counts[1]) + ", slope " +
         std::to_string(c.counts[2]) + ", density " + std::to_string(c.counts[3]);
    if (c.over_capacity) s += "; over capacity " + std::to_string(c.over_capacity);
    s += "\n";
  }
  if (!cells.empty()) {
    s += std::to_string(cells.size()) + " cells, " + std::to_string(candidates) + " candidates: placed " +
         std::to_string(totals[0]) + ", no surface " + std::to_string(totals[1]) + ", slope " + std::to_string(totals[2]) +
         ", density " + std::to_string(totals[3]);
    if (over_capacity) s += ", over capacity " + std::to_string(over_capacity);
    s += "\n";
    if (!each) s += "(per-cell counts: in the JSON report)\n";
  }
  if (!output.empty()) s += std::to_string(written) + " blades written to " + output + "\n";
  s += "scatter " + g6(seconds_scatter) + " s, total " + g6(seconds_total) + " s\n";
  return s;
}

}  // namespace voxkit::grass
