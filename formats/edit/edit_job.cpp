#include "formats/edit/edit_job.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "formats/mesh/mesh_input.hpp"
#include "formats/zone/chunk_blob.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

namespace voxkit::edit_job {
namespace {

using Clock = std::chrono::steady_clock;

struct Loaded {
  InputKind kind = InputKind::Zone;
  Zone zone;
  std::string asset_text;  // Unity: the document the edited grids go back into
  bool had_paint = false;
};

const char* kind_name(InputKind k) {
  switch (k) {
    case InputKind::Zone: return "zone";
    case InputKind::Unity: return "dig-zone Unity asset";
    case InputKind::Raw: return "raw grid";
    default: return "input";
  }
}

Loaded load(const EditJob& job) {
  Loaded L;
  const std::string name = io::display_name(job.input);
  if (job.kind == InputKind::Raw || (job.kind == InputKind::Auto && job.cells)) {
    if (!job.cells) throw_usage("a raw grid needs its cells");
    check_dims(*job.cells);
    L.kind = InputKind::Raw;
    L.zone.meta.cells = *job.cells;
    L.zone.grid = read_raw_grid(job.input, *job.cells, kMaxGridSamples);
    L.zone.baked = L.zone.grid;
    if (!job.paint_in.empty()) {
      L.zone.paint = read_raw_grid(job.paint_in, *job.cells, kMaxGridSamples);
      L.had_paint = true;
    }
    L.zone.meta.edit_box = job.edit_box ? *job.edit_box : edit::default_edit_box(*job.cells);
    L.zone.meta.chunk_cells = job.editor.chunk_cells;
    return L;
  }
  if (!job.paint_in.empty()) throw_usage("a paint grid can be given only with a raw grid");
  std::vector<uint8_t> bytes = io::read_all(job.input, job.max_input);
  try {
    if (job.kind == InputKind::Zone || (job.kind == InputKind::Auto && is_zone_file(bytes))) {
      L.kind = InputKind::Zone;
      L.zone = read_zone(bytes);
    } else {
      L.kind = InputKind::Unity;
      L.asset_text.assign(bytes.begin(), bytes.end());
      L.zone = unity::import_asset(L.asset_text, name);
    }
  } catch (Error& e) {
    e.add_note(name);
    throw;
  }
  L.had_paint = !L.zone.paint.data.empty();
  if (job.edit_box) L.zone.meta.edit_box = *job.edit_box;
  return L;
}

void check_box(const SampleBox& b, const Dims& c) {
  const uint32_t n[3] = {c.nx, c.ny, c.nz};
  for (size_t a = 0; a < 3; ++a)
    if (b.min[a] < 0 || b.max[a] > int32_t(n[a]) || b.min[a] > b.max[a])
      throw_usage("the edit box " + std::to_string(b.min[0]) + "," + std::to_string(b.min[1]) + "," +
                  std::to_string(b.min[2]) + " .. " + std::to_string(b.max[0]) + "," + std::to_string(b.max[1]) + "," +
                  std::to_string(b.max[2]) + " does not lie inside the grid of " + std::to_string(c.nx) + "x" +
                  std::to_string(c.ny) + "x" + std::to_string(c.nz) + " cells");
}

std::string box_text(const SampleBox& b) {
  return std::to_string(b.min[0]) + "," + std::to_string(b.min[1]) + "," + std::to_string(b.min[2]) + " .. " +
         std::to_string(b.max[0]) + "," + std::to_string(b.max[1]) + "," + std::to_string(b.max[2]);
}
nlohmann::json box_json(const SampleBox& b) {
  return {{"min", {b.min[0], b.min[1], b.min[2]}}, {"max", {b.max[0], b.max[1], b.max[2]}}};
}

std::vector<edit::Spawned> spawned_of(const std::vector<uint64_t>& spawns) {
  std::vector<edit::Spawned> out;
  for (uint64_t e : spawns) {
    const auto f = edit::unpack(e);
    out.push_back({e, f.op == uint32_t(edit::Op::Tree), float(f.x) / 16.0f, float(f.y) / 16.0f, float(f.z) / 16.0f});
  }
  return out;
}

std::array<uint32_t, 3> coords_of(uint64_t ci, const std::array<uint32_t, 3>& n) {
  return {uint32_t(ci % n[0]), uint32_t((ci / n[0]) % n[1]), uint32_t(ci / (uint64_t(n[0]) * n[1]))};
}

// Samples that differ between two equal-sized grids, counted in parallel.
uint64_t count_diff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  const size_t block = size_t(1) << 20;
  const size_t blocks = (a.size() + block - 1) / block;
  std::vector<uint64_t> part(blocks, 0);
  tbb::parallel_for(size_t(0), blocks, [&](size_t k) {
    const size_t lo = k * block, hi = std::min(a.size(), lo + block);
    uint64_t n = 0;
    for (size_t i = lo; i < hi; ++i) n += a[i] != b[i];
    part[k] = n;
  });
  uint64_t n = 0;
  for (uint64_t v : part) n += v;
  return n;
}

}  // namespace

EditReport run_edit(const EditJob& job) {
  const auto t0 = Clock::now();
  EditReport rep;
  rep.file = io::display_name(job.input);
  rep.log = io::display_name(job.log);
  rep.replay = job.replay;
  if (job.input == "-" && job.log == "-") throw_usage("the input and the log cannot both be read from stdin");
  if (!job.paint_out.empty() && job.kind != InputKind::Raw && !job.cells)
    throw_usage("a paint output can be written only for a raw grid");

  // Refuse outputs that exist before any work is done.
  io::OutputOptions mesh_opts = job.out;
  mesh_opts.in_place = false;
  if (!job.output.empty()) io::check_output(job.output, job.out);
  if (!job.paint_out.empty()) io::check_output(job.paint_out, mesh_opts);
  if (!job.mesh_out.empty()) io::check_output(job.mesh_out, mesh_opts);
  if (job.blob_in.empty() != job.blob_out.empty()) throw_usage("the chunk blob needs both its input and its output");
  if (!job.blob_out.empty()) io::check_output(job.blob_out, mesh_opts);

  Loaded L = load(job);
  rep.kind = kind_name(L.kind);
  Zone& z = L.zone;
  std::vector<uint8_t> blob_file;
  chunk_blob::View v;
  if (!job.blob_in.empty()) {
    blob_file = io::read_all(job.blob_in, job.max_input);
    try {
      v = chunk_blob::read(blob_file);
    } catch (Error& e) {
      e.add_note(io::display_name(job.blob_in));
      throw;
    }
    // A raw grid has no chunk size of its own: it takes the blob's.
    if (L.kind == InputKind::Raw) z.meta.chunk_cells = v.layout.chunk_cells;
  }
  check_box(z.meta.edit_box, z.meta.cells);

  edit_log::ReadOptions lo;
  lo.name = rep.log;
  const std::vector<uint8_t> log_bytes = io::read_all(job.log, job.max_input);
  const edit_log::Format fmt = job.log_format ? *job.log_format : edit_log::detect(log_bytes);
  rep.log_format = edit_log::format_name(fmt);
  edit_log::Log log = edit_log::read(log_bytes, fmt, lo);
  rep.network = log.network;
  rep.records = log.records.size();
  if (log.cells && !(*log.cells == z.meta.cells)) {
    throw_data("the log " + rep.log + " was recorded for a grid of " + std::to_string(log.cells->nx) + "x" +
                   std::to_string(log.cells->ny) + "x" + std::to_string(log.cells->nz) + " cells, not this one",
               0, std::to_string(z.meta.cells.nx) + "x" + std::to_string(z.meta.cells.ny) + "x" +
                      std::to_string(z.meta.cells.nz),
               std::to_string(log.cells->nx) + "x" + std::to_string(log.cells->ny) + "x" + std::to_string(log.cells->nz));
  }
  if (job.vrchat_capacity && log.edit_count() > 4096)
    rep.warnings.push_back("the log holds " + std::to_string(log.edit_count()) +
                           " edits: more than the VRChat runtime's default capacity of 4096");

  // The grids the editor starts from. The runtimes' "baked" state is the grid and paint the
  // zone or asset holds (what ResetToBaked copies back), so a reset in the log, and the reset
  // a replay starts with, return to the input as it was read.
  const ByteGrid input_grid = z.grid;
  const ByteGrid input_paint = L.had_paint ? z.paint : ByteGrid(z.meta.cells, 0);
  edit::EditorOptions eo = job.editor;
  eo.chunk_cells = z.meta.chunk_cells ? z.meta.chunk_cells : eo.chunk_cells;
  const bool fresh = job.replay || log.network;
  edit::Editor ed(input_grid, L.had_paint ? &input_paint : nullptr, z.meta.edit_box, eo, nullptr, nullptr,
                  fresh ? std::vector<edit::Spawned>{} : spawned_of(z.spawns));
  std::vector<uint64_t> erases = fresh ? std::vector<uint64_t>{} : z.erases;

  if (log.network) {
    std::vector<edit::NetRecord> recs;
    recs.reserve(log.records.size());
    for (const auto& r : log.records)
      recs.push_back({r.kind == edit_log::Record::Kind::Reset ? edit::NetRecord::Kind::Reset : edit::NetRecord::Kind::Edit,
                      r.edit, r.seq, r.epoch});
    edit::NetReport nr = edit::replay_network(ed, recs, job.at);
    if (nr.records < recs.size()) rep.stopped_at = nr.records;
    rep.edits = nr.applied;
    rep.resets = nr.resets;
    rep.changed = nr.changed;
    rep.unchanged = nr.unchanged;
    rep.visited = nr.visited;
    erases.clear();
    for (uint64_t e : nr.log) {
      const auto f = edit::unpack(e);
      if ((f.op == 4 || f.op == 5) && f.layer == 0) erases.push_back(e);
    }
    rep.net = std::move(nr);
  } else {
    uint64_t done = 0;
    for (size_t i = 0; i < log.records.size(); ++i) {
      const auto& r = log.records[i];
      if (r.kind == edit_log::Record::Kind::Reset) {
        ed.reset();
        erases.clear();
        ++rep.resets;
        continue;
      }
      if (done >= job.at) {
        rep.stopped_at = done;
        break;
      }
      ++done;
      ++rep.edits;
      const edit::EditEffect fx = ed.apply(r.edit);
      rep.visited += fx.visited;
      if (fx.outcome == edit::Outcome::Invalid) {
        if (!job.skip_invalid)
          throw Error(ErrorKind::Data, "edit " + std::to_string(i) + " of " + rep.log + " (" + edit::to_hex(r.edit) +
                                           ", records counted from 0) is invalid: " + fx.why +
                                           "; nothing was written");
        rep.invalid.push_back({i, r.edit, fx.why});
        continue;
      }
      const auto f = edit::unpack(r.edit);
      if ((f.op == 4 || f.op == 5) && f.layer == 0) erases.push_back(r.edit);
      if (fx.outcome == edit::Outcome::Changed)
        ++rep.changed;
      else
        ++rep.unchanged;
    }
  }

  // The result, against the input.
  rep.samples_changed = count_diff(ed.grid().data, input_grid.data);
  rep.paint_changed = count_diff(ed.paint().data, input_paint.data);
  if (ed.any_change()) rep.changed_box = ed.changed_box();
  const auto counts = ed.chunk_counts();
  const std::vector<uint64_t> dirty = ed.dirty_chunks();
  for (uint64_t ci : dirty) rep.dirty_chunks.push_back(coords_of(ci, counts));
  z.spawns.clear();
  for (const auto& s : ed.spawned()) z.spawns.push_back(s.edit);
  z.erases = erases;
  rep.spawns = z.spawns.size();
  rep.erases = z.erases.size();

  const bool grid_changed = rep.samples_changed > 0;
  const bool paint_now = L.had_paint || ed.paint_touched() || rep.paint_changed > 0;
  z.grid = std::move(ed.grid());
  if (paint_now) z.paint = std::move(ed.paint());
  if (grid_changed && L.kind != InputKind::Raw) ++z.meta.grid_version;

  // The outputs, all or nothing.
  io::OutputSet outs;
  if (!job.output.empty()) {
    auto& o = outs.add(job.output, job.out);
    switch (L.kind) {
      case InputKind::Zone: o.write(write_zone(z)); break;
      case InputKind::Unity: o.write(unity::export_asset(L.asset_text, z)); break;
      default: o.write(z.grid.data); break;
    }
    rep.output = job.output;
  }
  if (!job.paint_out.empty()) {
    if (z.paint.data.empty()) z.paint = ByteGrid(z.meta.cells, 0);
    outs.add(job.paint_out, mesh_opts).write(z.paint.data);
    rep.paint_output = job.paint_out;
  }
  if (!job.blob_out.empty()) {
    if (!(v.layout.cells == z.meta.cells) || v.layout.chunk_cells != eo.chunk_cells)
      throw_data("the chunk blob " + io::display_name(job.blob_in) + " is not of this grid", std::nullopt,
                 std::to_string(z.meta.cells.nx) + "x" + std::to_string(z.meta.cells.ny) + "x" +
                     std::to_string(z.meta.cells.nz) + " cells in chunks of " + std::to_string(eo.chunk_cells),
                 std::to_string(v.layout.cells.nx) + "x" + std::to_string(v.layout.cells.ny) + "x" +
                     std::to_string(v.layout.cells.nz) + " cells in chunks of " + std::to_string(v.layout.chunk_cells));
    const chunk_pack::Packed packed = chunk_pack::repack(v.layout, v.offsets, v.blob, z.grid.data, dirty);
    outs.add(job.blob_out, mesh_opts).write(chunk_blob::write(v.layout, packed));
    rep.blob_output = job.blob_out;
    rep.blob_chunks = v.layout.chunk_count();
    rep.blob_reencoded = dirty.size();
  }
  if (!job.mesh_out.empty()) {
    MeshSource src = zone_mesh_source(Zone(z), ZoneGrid::Current, rep.kind);
    if (L.kind == InputKind::Raw) {
      src.dig_zone = false;
      src.chunk_cells = eo.chunk_cells;
      src.paint = paint_now ? z.paint : ByteGrid();
    }
    MeshJob mj = job.mesh;
    std::vector<std::array<int32_t, 3>> only;
    for (const auto& c : rep.dirty_chunks) only.push_back({int32_t(c[0]), int32_t(c[1]), int32_t(c[2])});
    mj.only_chunks = std::move(only);
    mj.chunk_cells = eo.chunk_cells;
    MeshJobResult mr = run_mesh_job(src, mj);
    rep.mesh_chunks = mr.chunks_exported;
    rep.mesh_triangles = mr.lods.empty() ? 0 : mr.lods[0].triangles;
    outs.add(job.mesh_out, mesh_opts).write(mr.bytes);
    rep.mesh_output = job.mesh_out;
  }
  outs.commit();
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

nlohmann::json EditReport::to_json() const {
  nlohmann::json j = {{"file", file},
                      {"kind", kind},
                      {"log", log},
                      {"log_format", log_format},
                      {"mode", replay ? "replay" : "apply"},
                      {"network", network},
                      {"records", records},
                      {"edits", edits},
                      {"changed", changed},
                      {"unchanged", unchanged},
                      {"resets", resets},
                      {"visited_samples", visited},
                      {"samples_changed", samples_changed},
                      {"paint_changed", paint_changed},
                      {"spawns", spawns},
                      {"erases", erases},
                      {"seconds", seconds}};
  j["changed_box"] = changed_box ? box_json(*changed_box) : nlohmann::json();
  nlohmann::json chunks = nlohmann::json::array();
  for (const auto& c : dirty_chunks) chunks.push_back({c[0], c[1], c[2]});
  j["dirty_chunks"] = chunks;
  nlohmann::json inv = nlohmann::json::array();
  for (const auto& i : invalid) inv.push_back({{"index", i.index}, {"edit", edit::to_hex(i.edit)}, {"why", i.why}});
  j["invalid"] = inv;
  j["stopped_at"] = stopped_at ? nlohmann::json(*stopped_at) : nlohmann::json();
  if (net) {
    nlohmann::json n = {{"applied", net->applied},   {"duplicates", net->duplicates}, {"stale", net->stale},
                        {"invalid", net->invalid},   {"buffered", net->buffered},     {"overflow", net->overflow},
                        {"resets", net->resets},     {"epoch", net->epoch},           {"count", net->count},
                        {"waiting", net->waiting},   {"waiting_newer_epoch", net->waiting_newer_epoch}};
    n["first_missing"] = net->first_missing ? nlohmann::json(*net->first_missing) : nlohmann::json();
    j["network_replay"] = n;
  }
  auto opt = [](const std::optional<std::string>& s) { return s ? nlohmann::json(*s) : nlohmann::json(); };
  j["output"] = opt(output);
  j["paint_output"] = opt(paint_output);
  j["mesh_output"] = opt(mesh_output);
  j["blob_output"] = opt(blob_output);
  if (blob_output) j["blob"] = {{"chunks", blob_chunks}, {"reencoded", blob_reencoded}};
  if (mesh_output) j["mesh"] = {{"chunks", mesh_chunks}, {"triangles", mesh_triangles}};
  j["warnings"] = warnings;
  return j;
}

std::string EditReport::to_text() const {
  std::string s;
  s += file + " (" + kind + "): " + (replay ? "replayed " : "applied ") + log + " (" + log_format +
       (network ? ", network records" : "") + ")\n";
  s += "  edits " + std::to_string(edits) + ": " + std::to_string(changed) + " changed something, " +
       std::to_string(unchanged) + " changed nothing";
  if (!invalid.empty()) s += ", " + std::to_string(invalid.size()) + " invalid skipped";
  if (resets) s += ", " + std::to_string(resets) + " reset" + (resets > 1 ? "s" : "");
  s += "\n";
  if (stopped_at) s += "  stopped after " + std::to_string(*stopped_at) + " edits, as asked\n";
  if (net) {
    s += "  network: " + std::to_string(net->applied) + " applied, " + std::to_string(net->duplicates) +
         " duplicates, " + std::to_string(net->stale) + " of older epochs, " + std::to_string(net->buffered) +
         " buffered, " + std::to_string(net->overflow) + " lost to a full buffer; epoch " +
         std::to_string(net->epoch) + ", " + std::to_string(net->count) + " entries\n";
    if (net->first_missing)
      s += "  gap: sequence " + std::to_string(*net->first_missing) + " never arrived; " +
           std::to_string(net->waiting) + " records wait behind it\n";
    if (net->waiting_newer_epoch)
      s += "  " + std::to_string(net->waiting_newer_epoch) + " records of a newer epoch never saw its reset\n";
  }
  s += "  samples changed " + std::to_string(samples_changed) + ", paint changed " + std::to_string(paint_changed) +
       "\n";
  s += "  changed box " + (changed_box ? box_text(*changed_box) : std::string("none")) + "\n";
  s += "  chunks to remesh " + std::to_string(dirty_chunks.size()) + "\n";
  if (spawns || erases) s += "  spawned trees and details " + std::to_string(spawns) + ", erases " + std::to_string(erases) + "\n";
  for (const auto& i : invalid) s += "  invalid edit " + std::to_string(i.index) + " " + edit::to_hex(i.edit) + ": " + i.why + "\n";
  if (output) s += "  wrote " + *output + "\n";
  if (paint_output) s += "  wrote paint " + *paint_output + "\n";
  if (mesh_output)
    s += "  wrote " + std::to_string(mesh_chunks) + " remeshed chunks (" + std::to_string(mesh_triangles) +
         " triangles) to " + *mesh_output + "\n";
  if (blob_output)
    s += "  wrote the chunk blob " + *blob_output + " (" + std::to_string(blob_reencoded) + " of " +
         std::to_string(blob_chunks) + " chunks re-encoded)\n";
  for (const auto& w : warnings) s += "  warning: " + w + "\n";
  return s;
}

DiffReport run_diff(const std::string& a, const std::string& b, uint64_t max_input) {
  DiffReport rep;
  rep.a = io::display_name(a);
  rep.b = io::display_name(b);
  EditJob ja, jb;
  ja.input = a;
  jb.input = b;
  ja.max_input = jb.max_input = max_input;
  const Loaded A = load(ja), B = load(jb);
  if (!(A.zone.meta.cells == B.zone.meta.cells)) {
    rep.same_cells = false;
    return rep;
  }
  const Zone &za = A.zone, &zb = B.zone;
  const Dims& c = za.meta.cells;
  const ByteGrid zero = (za.paint.data.empty() || zb.paint.data.empty()) ? ByteGrid(c, 0) : ByteGrid();
  const ByteGrid& pa = za.paint.data.empty() ? zero : za.paint;
  const ByteGrid& pb = zb.paint.data.empty() ? zero : zb.paint;
  int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, hi[3] = {-1, -1, -1};
  for (uint64_t zz = 0; zz < c.sz(); ++zz)
    for (uint64_t y = 0; y < c.sy(); ++y) {
      const uint64_t row = c.index(0, y, zz);
      for (uint64_t x = 0; x < c.sx(); ++x) {
        const uint64_t i = row + x;
        const bool g = za.grid.data[i] != zb.grid.data[i], p = pa.data[i] != pb.data[i];
        if (!g && !p) continue;
        rep.grid_samples += g;
        rep.paint_samples += p;
        const int64_t v[3] = {int64_t(x), int64_t(y), int64_t(zz)};
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
      }
    }
  rep.spawns_differ = za.spawns != zb.spawns || za.erases != zb.erases;
  if (hi[0] >= 0) {
    rep.box = SampleBox{{int32_t(lo[0]), int32_t(lo[1]), int32_t(lo[2])}, {int32_t(hi[0]), int32_t(hi[1]), int32_t(hi[2])}};
    const uint32_t cc = za.meta.chunk_cells ? za.meta.chunk_cells : 16;
    const edit::ChunkRange r = edit::affected_chunks(*rep.box, c, cc);
    // Only the chunks whose own samples (with their one-sample border) hold a difference.
    for (uint32_t cz = r.lo[2]; cz <= r.hi[2]; ++cz)
      for (uint32_t cy = r.lo[1]; cy <= r.hi[1]; ++cy)
        for (uint32_t cx = r.lo[0]; cx <= r.hi[0]; ++cx) {
          const uint32_t ch[3] = {cx, cy, cz};
          const uint32_t n[3] = {c.nx, c.ny, c.nz};
          uint64_t b0[3], b1[3];
          for (int k = 0; k < 3; ++k) {
            b0[k] = ch[k] * cc == 0 ? 0 : ch[k] * cc - 1;
            b1[k] = std::min<uint64_t>(n[k], uint64_t(ch[k]) * cc + cc);
          }
          bool any = false;
          for (uint64_t zz = b0[2]; zz <= b1[2] && !any; ++zz)
            for (uint64_t y = b0[1]; y <= b1[1] && !any; ++y)
              for (uint64_t x = b0[0]; x <= b1[0]; ++x) {
                const uint64_t i = c.index(x, y, zz);
                if (za.grid.data[i] != zb.grid.data[i] || pa.data[i] != pb.data[i]) {
                  any = true;
                  break;
                }
              }
          if (any) rep.chunks.push_back({cx, cy, cz});
        }
    std::sort(rep.chunks.begin(), rep.chunks.end(), [](const auto& p, const auto& q) {
      return std::tie(p[2], p[1], p[0]) < std::tie(q[2], q[1], q[0]);
    });
  }
  return rep;
}

nlohmann::json DiffReport::to_json() const {
  nlohmann::json j = {{"a", a}, {"b", b}, {"differ", differ()}, {"same_cells", same_cells},
                      {"grid_samples", grid_samples}, {"paint_samples", paint_samples},
                      {"spawns_differ", spawns_differ}};
  j["box"] = box ? box_json(*box) : nlohmann::json();
  nlohmann::json ch = nlohmann::json::array();
  for (const auto& c : chunks) ch.push_back({c[0], c[1], c[2]});
  j["chunks"] = ch;
  return j;
}

std::string DiffReport::to_text() const {
  if (!same_cells) return a + " and " + b + " have different grid dimensions\n";
  if (!differ()) return a + " and " + b + " hold the same grid, paint and spawns\n";
  std::string s = a + " and " + b + " differ: " + std::to_string(grid_samples) + " grid samples, " +
                  std::to_string(paint_samples) + " paint samples" + (spawns_differ ? ", spawned foliage" : "") + "\n";
  if (box) s += "  box " + box_text(*box) + "\n";
  s += "  chunks " + std::to_string(chunks.size()) + "\n";
  return s;
}

}  // namespace voxkit::edit_job
