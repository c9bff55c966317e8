// The foliage bake and check jobs.
#include "formats/foliage/foliage_job.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "formats/image/png.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

namespace voxkit::foliage_job {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bool ends_with(const std::string& s, const std::string& tail) {
  if (s.size() < tail.size()) return false;
  for (size_t i = 0; i < tail.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - tail.size() + i])) != tail[i]) return false;
  return true;
}

bool is_yaml(std::string_view t) { return t.rfind("%YAML", 0) == 0 || t.rfind("--- !u!", 0) == 0; }

struct Loaded {
  Zone zone;
  std::string asset_text;  // a dig-zone Unity asset input
};

Loaded load_zone(const std::string& path, uint64_t max_input) {
  Loaded L;
  const std::string name = io::display_name(path);
  std::vector<uint8_t> bytes = io::read_all(path, max_input);
  try {
    if (is_zone_file(bytes)) {
      L.zone = read_zone(bytes);
    } else {
      L.asset_text.assign(bytes.begin(), bytes.end());
      L.zone = unity::import_asset(L.asset_text, name);
    }
  } catch (Error& e) {
    e.set_source(name);
    throw;
  }
  return L;
}

template <class F>
auto in_file(const std::string& path, F&& f) {
  return with_source(io::display_name(path), std::forward<F>(f));
}

nlohmann::json counts_json(const foliage::Counts& c) {
  return {{"columns", {{"with_surface", c.columns_surface}, {"standing", c.columns_standing},
                       {"fallen", c.columns_fallen}, {"erased", c.columns_erased}}},
          {"trees", {{"standing", c.trees_standing}, {"fallen", c.trees_fallen}, {"erased", c.trees_erased}}},
          {"surface_details", {{"standing", c.surface_standing}, {"fallen", c.surface_fallen}, {"erased", c.surface_erased}}},
          {"details", {{"standing", c.details_standing}, {"fallen", c.details_fallen}, {"erased", c.details_erased}}}};
}

std::string counts_text(const foliage::Counts& c) {
  auto line = [](const char* what, uint64_t on, uint64_t fell, uint64_t erased) {
    return std::string("  ") + what + ": " + std::to_string(on) + " standing, " + std::to_string(fell) + " fallen, " +
           std::to_string(erased) + " erased\n";
  };
  return line("trees", c.trees_standing, c.trees_fallen, c.trees_erased) +
         line("columns", c.columns_standing, c.columns_fallen, c.columns_erased) +
         line("details", c.details_standing, c.details_fallen, c.details_erased) +
         line("surface details", c.surface_standing, c.surface_fallen, c.surface_erased);
}

}  // namespace

std::vector<uint8_t> mask_bytes(const ZoneFoliage& f, const std::string& path) {
  if (ends_with(path, ".png")) return png::encode_rgba(f.mask_width, f.mask_height, f.mask);
  return f.mask;
}

// --- Bake ------------------------------------------------------------------------------------

BakeReport run_bake(const BakeJob& job) {
  const auto t0 = Clock::now();
  BakeReport rep;
  rep.zone = io::display_name(job.zone);
  io::OutputOptions side = job.out;
  side.in_place = false;
  if (job.output.empty()) throw_usage("the foliage bake needs an output zone", {{"output", "an output zone"}});
  io::check_output(job.output, job.out);
  if (!job.mask_out.empty()) io::check_output(job.mask_out, side);
  int stdin_users = (job.zone == "-") + (job.trees == "-") + (job.details == "-") + (job.surface == "-");
  if (stdin_users > 1) throw_usage("only one input can be read from stdin");

  Loaded L = load_zone(job.zone, job.max_input);
  Zone& z = L.zone;
  foliage_io::Terrain terrain = job.terrain;
  std::vector<foliage::TreeInput> trees;
  std::vector<foliage::DetailInput> details;
  std::vector<foliage::SurfaceInput> surface;
  std::optional<uint32_t> tree_protos = job.tree_prototypes, detail_protos = job.detail_prototypes;

  auto read_asset = [&](const std::string& text, const std::string& name, bool want_trees, bool want_surface) {
    in_file(name, [&] {
      foliage_io::AssetFoliage a = foliage_io::read_asset_foliage(text, terrain, want_trees, want_surface);
      if (want_trees) {
        trees = std::move(a.trees);
        rep.trees_from = name + " (terrainTrees)";
      }
      if (want_surface) {
        surface = std::move(a.surface);
        rep.surface_from = name + " (surfaceDetails)";
      }
      return 0;
    });
  };

  if (!job.trees.empty()) {
    const std::string text = io::read_text(job.trees, job.max_input);
    const std::string name = io::display_name(job.trees);
    if (is_yaml(text) && foliage_io::looks_like_terrain_data(text)) {
      auto td = in_file(job.trees, [&] { return foliage_io::read_terrain_data(text, terrain); });
      trees = std::move(td.trees);
      if (!terrain.size) terrain.size = td.size;
      if (!tree_protos && td.prototypes) tree_protos = td.prototypes;
      if (!detail_protos && td.detail_prototypes) detail_protos = td.detail_prototypes;
      rep.trees_from = name + " (TerrainData m_TreeInstances)";
    } else if (is_yaml(text)) {
      read_asset(text, name, true, false);
    } else {
      trees = in_file(job.trees, [&] { return foliage_io::read_trees(text, terrain); });
      rep.trees_from = name;
    }
  } else if (!L.asset_text.empty()) {
    read_asset(L.asset_text, rep.zone, true, false);
  }
  if (!job.details.empty()) {
    const std::string text = io::read_text(job.details, job.max_input);
    details = in_file(job.details, [&] { return foliage_io::read_details(text); });
    rep.details_from = io::display_name(job.details);
  }
  if (!job.surface.empty()) {
    const std::string text = io::read_text(job.surface, job.max_input);
    if (is_yaml(text)) read_asset(text, io::display_name(job.surface), false, true);
    else {
      surface = in_file(job.surface, [&] { return foliage_io::read_surface(text); });
      rep.surface_from = io::display_name(job.surface);
    }
  } else if (!L.asset_text.empty()) {
    read_asset(L.asset_text, rep.zone, false, true);
  }

  foliage::BakeInput in;
  in.trees = trees;
  in.details = details;
  in.surface = surface;
  if (tree_protos) in.tree_prototypes = *tree_protos;
  if (detail_protos) in.detail_prototypes = *detail_protos;
  z.foliage = foliage::bake(z, in, &rep.stats);
  if (terrain.size) {
    z.foliage.has_terrain = true;
    const auto tp = terrain.position.value_or(std::array<float, 3>{0, 0, 0});
    for (int a = 0; a < 3; ++a) {
      z.foliage.terrain_position[size_t(a)] = tp[size_t(a)];
      z.foliage.terrain_size[size_t(a)] = (*terrain.size)[size_t(a)];
    }
  }
  if (rep.stats.hole_from_footprint)
    rep.warnings.push_back("the zone has no terrain hole rectangle: details were kept inside its footprint instead");
  if (rep.stats.trees_bad_prototype)
    rep.warnings.push_back(std::to_string(rep.stats.trees_bad_prototype) + " trees name a prototype past the list: skipped");
  const foliage::Chunks ch = foliage::chunks_of(z.meta.cells, z.meta.chunk_cells);
  rep.chunk_counts = {ch.cx, ch.cy, ch.cz};
  rep.counts = foliage::counts(z.foliage, z.meta.cells);
  rep.chunks = foliage::chunk_counts(z.foliage, z.meta.cells, z.meta.chunk_cells);
  rep.mask_width = z.foliage.mask_width;
  rep.mask_height = z.foliage.mask_height;

  io::OutputSet outs;
  auto& o = outs.add(job.output, job.out);
  o.write(write_zone(z));
  rep.output = job.output;
  if (!job.mask_out.empty()) {
    outs.add(job.mask_out, side).write(mask_bytes(z.foliage, job.mask_out));
    rep.mask_output = job.mask_out;
  }
  outs.commit();
  rep.backup = o.backup_path();
  rep.seconds = since(t0);
  return rep;
}

nlohmann::json BakeReport::to_json() const {
  nlohmann::json chunks_j = nlohmann::json::array();
  for (uint32_t ci = 0; ci < chunks.trees.size(); ++ci) {
    if (!chunks.trees[ci] && !chunks.surface[ci] && !chunks.columns[ci]) continue;
    const uint32_t cx = ci % chunk_counts[0], cy = (ci / chunk_counts[0]) % chunk_counts[1],
                   cz = ci / (chunk_counts[0] * chunk_counts[1]);
    chunks_j.push_back({{"chunk", {cx, cy, cz}}, {"index", ci}, {"trees", chunks.trees[ci]},
                        {"surface_details", chunks.surface[ci]}, {"columns", chunks.columns[ci]}});
  }
  nlohmann::json cols = nlohmann::json::array();
  for (uint32_t k = 0; k < chunks.details.size(); ++k)
    if (chunks.details[k]) cols.push_back({{"chunk_column", {k % chunk_counts[0], k / chunk_counts[0]}}, {"details", chunks.details[k]}});
  auto opt = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  return {{"zone", zone},
          {"output", output},
          {"mask_output", opt(mask_output)},
          {"backup", opt(backup)},
          {"sources", {{"trees", opt(trees_from)}, {"details", opt(details_from)}, {"surface_details", opt(surface_from)}}},
          {"mask", {{"width", mask_width}, {"height", mask_height}}},
          {"columns", {{"total", stats.columns}, {"with_surface", stats.columns_with_surface}}},
          {"trees", {{"kept", stats.trees}, {"standing", stats.trees_standing}, {"bad_prototype", stats.trees_bad_prototype}}},
          {"details", {{"kept", stats.details}, {"outside_hole", stats.details_outside_hole},
                       {"no_surface", stats.details_no_surface}, {"bad_prototype", stats.details_bad_prototype}}},
          {"surface_details", {{"kept", stats.surface}, {"standing", stats.surface_standing},
                               {"outside_grid", stats.surface_outside_grid}, {"bad_prototype", stats.surface_bad_prototype}}},
          {"chunk_counts", {chunk_counts[0], chunk_counts[1], chunk_counts[2]}},
          {"chunks", chunks_j},
          {"chunk_columns", cols},
          {"warnings", warnings},
          {"seconds", seconds}};
}

std::string BakeReport::to_text() const {
  std::string s = "foliage bake: " + zone + " -> " + output + (backup.empty() ? "" : " (backup " + backup + ")") + "\n";
  s += "  columns with a surface: " + std::to_string(stats.columns_with_surface) + " of " + std::to_string(stats.columns) + "\n";
  s += "  trees: " + std::to_string(stats.trees) + " kept (" + std::to_string(stats.trees_standing) + " standing)";
  if (stats.trees_bad_prototype) s += ", " + std::to_string(stats.trees_bad_prototype) + " with a bad prototype";
  s += "\n  details: " + std::to_string(stats.details) + " kept";
  if (stats.details_outside_hole) s += ", " + std::to_string(stats.details_outside_hole) + " outside the hole";
  if (stats.details_no_surface) s += ", " + std::to_string(stats.details_no_surface) + " over no surface";
  s += "\n  surface details: " + std::to_string(stats.surface) + " kept (" + std::to_string(stats.surface_standing) + " standing)";
  if (stats.surface_outside_grid) s += ", " + std::to_string(stats.surface_outside_grid) + " outside the grid";
  s += "\n  mask: " + std::to_string(mask_width) + "x" + std::to_string(mask_height) + " RGBA" +
       (mask_output.empty() ? "" : " -> " + mask_output) + "\n";
  s += "  per chunk (x,y,z: trees, surface details, owned columns):\n";
  uint64_t shown = 0;
  for (uint32_t ci = 0; ci < chunks.trees.size(); ++ci) {
    if (!chunks.trees[ci] && !chunks.surface[ci] && !chunks.columns[ci]) continue;
    const uint32_t cx = ci % chunk_counts[0], cy = (ci / chunk_counts[0]) % chunk_counts[1],
                   cz = ci / (chunk_counts[0] * chunk_counts[1]);
    s += "    " + std::to_string(cx) + "," + std::to_string(cy) + "," + std::to_string(cz) + ": " +
         std::to_string(chunks.trees[ci]) + ", " + std::to_string(chunks.surface[ci]) + ", " +
         std::to_string(chunks.columns[ci]) + "\n";
    ++shown;
  }
  if (!shown) s += "    (none)\n";
  uint64_t with_details = 0;
  for (uint32_t v : chunks.details) with_details += v != 0;
  s += "  detail meshes: " + std::to_string(with_details) + " of " + std::to_string(chunks.details.size()) +
       " chunk columns hold details\n";
  return s;
}

// --- Check -----------------------------------------------------------------------------------

CheckReport run_check(const CheckJob& job) {
  const auto t0 = Clock::now();
  CheckReport rep;
  rep.zone = io::display_name(job.zone);
  io::OutputOptions side = job.out;
  side.in_place = false;
  if (!job.output.empty()) io::check_output(job.output, job.out);
  if (!job.mask_out.empty()) io::check_output(job.mask_out, side);
  if (job.zone == "-" && job.log == "-") throw_usage("the zone and the log cannot both be read from stdin");

  Loaded L = load_zone(job.zone, job.max_input);
  Zone& z = L.zone;
  if (z.foliage.empty()) throw_usage(rep.zone + " holds no baked foliage (bake it first)");
  ZoneFoliage& f = z.foliage;
  const Dims& cells = z.meta.cells;
  const uint32_t cc = z.meta.chunk_cells;
  const foliage::Chunks ch = foliage::chunks_of(cells, cc);
  rep.chunks = ch.count();

  auto apply_erase = [&](uint64_t e) {
    const edit::Fields fl = edit::unpack(e);
    const std::array<float, 3> p{float(fl.x) / 16.0f, float(fl.y) / 16.0f, float(fl.z) / 16.0f};
    rep.erased_items += foliage::erase(f, cells, p, float(fl.radius) / 8.0f, fl.op == uint32_t(edit::Op::Tree));
    ++rep.erases;
  };

  // 1. Catch up with the zone as it is: erases it recorded since the last check, and the
  //    chunks whose samples changed since (by hash), or everything from the baked state when
  //    its erases are not an extension of those already applied.
  std::vector<uint8_t> reach(ch.count(), 0);
  bool hashes_fresh = false;
  std::vector<uint64_t> hashes;
  const bool prefix_ok = f.erases_seen <= z.erases.size() &&
                         foliage::erases_hash(std::span(z.erases).first(f.erases_seen)) == f.erases_hash;
  if (!prefix_ok) {
    rep.restarted = true;
    foliage::restore_baked(f);
    std::fill(reach.begin(), reach.end(), 1);
    for (uint64_t e : z.erases) apply_erase(e);
    rep.reach = "all chunks (the zone's erases do not extend those of the last check)";
  } else {
    for (size_t i = f.erases_seen; i < z.erases.size(); ++i) apply_erase(z.erases[i]);
    if (z.meta.grid_version != f.grid_version || f.chunk_hash.size() != ch.count()) {
      hashes = foliage::chunk_hashes(z.grid, cc);
      hashes_fresh = true;
      for (uint32_t ci : foliage::chunks_reached(cells, cc, f.chunk_hash, hashes)) reach[ci] = 1;
      rep.reach = "chunks whose samples changed since the last check";
    } else {
      rep.reach = "none: the grid is as last checked";
    }
  }

  // 2. The log, applied as the runtime applies it; its dirty chunks join the reach.
  if (!job.log.empty()) {
    rep.log = io::display_name(job.log);
    const std::vector<uint8_t> bytes = io::read_all(job.log, job.max_input);
    edit_log::ReadOptions lo;
    lo.name = rep.log;
    const edit_log::Format fmt = job.log_format ? *job.log_format : edit_log::detect(bytes);
    const edit_log::Log log = edit_log::read(bytes, fmt, lo);
    if (log.cells && !(*log.cells == cells))
      throw_data("the log " + rep.log + " was recorded for another grid", 0,
                 std::to_string(cells.nx) + "x" + std::to_string(cells.ny) + "x" + std::to_string(cells.nz),
                 std::to_string(log.cells->nx) + "x" + std::to_string(log.cells->ny) + "x" + std::to_string(log.cells->nz));
    const ByteGrid input_grid = z.grid;
    const bool had_paint = !z.paint.data.empty();
    const ByteGrid input_paint = had_paint ? z.paint : ByteGrid();
    edit::EditorOptions eo = job.editor;
    eo.chunk_cells = cc;
    std::vector<edit::Spawned> spawned;
    for (uint64_t e : z.spawns) {
      const auto fl = edit::unpack(e);
      spawned.push_back({e, fl.op == uint32_t(edit::Op::Tree), float(fl.x) / 16.0f, float(fl.y) / 16.0f, float(fl.z) / 16.0f});
    }
    edit::Editor ed(input_grid, had_paint ? &input_paint : nullptr, z.meta.edit_box, eo, nullptr, nullptr, spawned);
    const ZoneFoliage input_state = f;  // what a reset returns to (the input is the runtime's asset)
    const std::vector<uint64_t> input_erases = z.erases;
    std::vector<uint64_t> erases = z.erases;
    auto is_erase = [](uint64_t e) {
      const auto fl = edit::unpack(e);
      return (fl.op == 4 || fl.op == 5) && fl.layer == 0;
    };
    if (log.network) {
      std::vector<edit::NetRecord> recs;
      for (const auto& r : log.records)
        recs.push_back({r.kind == edit_log::Record::Kind::Reset ? edit::NetRecord::Kind::Reset : edit::NetRecord::Kind::Edit,
                        r.edit, r.seq, r.epoch});
      // A receiver starts from the asset: the input, without its spawned objects.
      edit::Editor fresh(input_grid, had_paint ? &input_paint : nullptr, z.meta.edit_box, eo);
      const edit::NetReport nr = edit::replay_network(fresh, recs);
      rep.edits = nr.applied;
      f = input_state;
      erases.clear();
      for (uint64_t e : nr.log)
        if (is_erase(e)) {
          apply_erase(e);
          erases.push_back(e);
        }
      for (uint64_t ci : fresh.dirty_chunks()) reach[ci] = 1;
      z.grid = fresh.grid();
      if (had_paint || fresh.paint_touched()) z.paint = fresh.paint();
      z.spawns.clear();
      for (const auto& s : fresh.spawned()) z.spawns.push_back(s.edit);
    } else {
      for (size_t i = 0; i < log.records.size(); ++i) {
        const auto& r = log.records[i];
        if (r.kind == edit_log::Record::Kind::Reset) {
          ed.reset();
          f = input_state;
          erases = input_erases;
          continue;
        }
        ++rep.edits;
        const edit::EditEffect fx = ed.apply(r.edit);
        if (fx.outcome == edit::Outcome::Invalid)
          throw Error(ErrorKind::Data, "edit " + std::to_string(i) + " of " + rep.log + " (" + edit::to_hex(r.edit) +
                                           ", records counted from 0) is invalid: " + fx.why + "; nothing was written");
        if (is_erase(r.edit)) {
          apply_erase(r.edit);
          erases.push_back(r.edit);
        }
      }
      for (uint64_t ci : ed.dirty_chunks()) reach[ci] = 1;
      z.grid = ed.grid();
      if (had_paint || ed.paint_touched()) z.paint = ed.paint();
      z.spawns.clear();
      for (const auto& s : ed.spawned()) z.spawns.push_back(s.edit);
    }
    if (z.grid.data != input_grid.data) {
      ++z.meta.grid_version;
      hashes_fresh = false;  // the hashes were of the grid before the log
    }
    z.erases = erases;
    rep.reach = rep.reach.rfind("none", 0) == 0 ? "the chunks the log made dirty"
                                                : rep.reach + ", and the chunks the log made dirty";
  }
  if (job.full) {
    std::fill(reach.begin(), reach.end(), 1);
    rep.reach = "all chunks (a full check)";
  }

  // 3. Re-check the chunks reached.
  std::vector<uint32_t> list;
  for (uint32_t ci = 0; ci < reach.size(); ++ci)
    if (reach[ci]) list.push_back(ci);
  rep.rechecked = list.size();
  const auto tc = Clock::now();
  foliage::recheck(z.grid, cc, f, list);
  rep.check_seconds = since(tc);
  if (hashes_fresh) f.chunk_hash = std::move(hashes);
  else if (rep.restarted || job.full) f.chunk_hash = foliage::chunk_hashes(z.grid, cc);
  else foliage::update_chunk_hashes(z.grid, cc, list, f.chunk_hash);
  f.grid_version = z.meta.grid_version;
  f.erases_seen = uint32_t(z.erases.size());
  f.erases_hash = foliage::erases_hash(z.erases);

  rep.counts = foliage::counts(f, cells);
  rep.diff = foliage::diff(f, cells);
  io::OutputSet outs;
  if (!job.output.empty()) {
    auto& o = outs.add(job.output, job.out);
    o.write(write_zone(z));
    rep.output = job.output;
  }
  if (!job.mask_out.empty()) {
    outs.add(job.mask_out, side).write(mask_bytes(f, job.mask_out));
    rep.mask_output = job.mask_out;
  }
  outs.commit();
  rep.seconds = since(t0);
  return rep;
}

nlohmann::json CheckReport::to_json() const {
  auto opt = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  return {{"zone", zone},
          {"log", opt(log)},
          {"output", opt(output)},
          {"mask_output", opt(mask_output)},
          {"edits", edits},
          {"erase_edits", erases},
          {"erased_items", erased_items},
          {"chunks", chunks},
          {"rechecked_chunks", rechecked},
          {"reach", reach},
          {"restarted_from_bake", restarted},
          {"counts", counts_json(counts)},
          {"fell", {{"trees", diff.trees_fell}, {"columns", diff.columns_fell}, {"details", diff.details_fell},
                    {"surface_details", diff.surface_fell}}},
          {"stand_again", {{"trees", diff.trees_rose}, {"columns", diff.columns_rose}, {"details", diff.details_rose},
                           {"surface_details", diff.surface_rose}}},
          {"differs_from_bake", !diff.empty()},
          {"warnings", warnings},
          {"seconds", seconds},
          {"check_seconds", check_seconds}};
}

std::string CheckReport::to_text() const {
  std::string s = "foliage check: " + zone + (log.empty() ? "" : " with " + log + " (" + std::to_string(edits) + " edits)") + "\n";
  s += "  re-checked " + std::to_string(rechecked) + " of " + std::to_string(chunks) + " chunks: " + reach + "\n";
  if (erases) s += "  " + std::to_string(erases) + " erase edits took " + std::to_string(erased_items) + " items\n";
  s += counts_text(counts);
  if (diff.empty()) {
    s += "  as baked: nothing fell\n";
  } else {
    s += "  against the bake: " + std::to_string(diff.trees_fell.size()) + " trees, " +
         std::to_string(diff.columns_fell.size()) + " columns, " + std::to_string(diff.details_fell.size()) +
         " details and " + std::to_string(diff.surface_fell.size()) + " surface details fell; " +
         std::to_string(diff.trees_rose.size() + diff.columns_rose.size() + diff.surface_rose.size()) +
         " stand that did not\n";
    if (!diff.trees_fell.empty()) {
      s += "  trees that fell:";
      for (size_t i = 0; i < diff.trees_fell.size() && i < 32; ++i) s += " " + std::to_string(diff.trees_fell[i]);
      if (diff.trees_fell.size() > 32) s += " ... (the JSON report lists all)";
      s += "\n";
    }
  }
  if (!output.empty()) s += "  -> " + output + "\n";
  if (!mask_output.empty()) s += "  mask -> " + mask_output + "\n";
  return s;
}

}  // namespace voxkit::foliage_job
