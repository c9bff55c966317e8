// Plans: jobs with their inputs and outputs, plan.json, a Snakefile and profiles, build.ninja.
#include "formats/world/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "formats/core/io.hpp"
#include "lib/core/error.hpp"

namespace voxkit::world {
namespace fs = std::filesystem;

std::string job_kind_name(JobKind k) {
  switch (k) {
    case JobKind::Bake: return "bake";
    case JobKind::Foliage: return "foliage";
    case JobKind::Mesh: return "mesh";
    case JobKind::Preview: return "preview";
    case JobKind::Index: return "index";
    case JobKind::Reset: return "reset";
  }
  return "?";
}

namespace {

// A TOML basic string (control characters escaped as \uXXXX).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  std::string t = s.str();
  if (t.find_first_of(".eEn") == std::string::npos) t += ".0";
  return t;
}

template <size_t N>
std::string nums(const std::array<double, N>& a) {
  std::string s = "[";
  for (size_t k = 0; k < N; ++k) s += (k ? ", " : "") + num(a[k]);
  return s + "]";
}

std::string strings(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + quoted(v[k]);
  return s + "]";
}

bool meets(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

std::string tile_id(const std::string& kind, uint32_t i, uint32_t j) {
  return kind + "_" + std::to_string(i) + "_" + std::to_string(j);
}

}  // namespace

std::string manifest_toml(const WorldManifest& m, const std::string& dir, bool mesh, bool foliage, bool preview) {
  auto rel = [&](const std::string& p) { return quoted(relative_to(p, dir)); };
  std::ostringstream t;
  t << "# " << m.name << ": written by voxkit plan from " << fs::path(m.path).filename().string()
    << "; edit the manifest, not this file\n";
  t << "[world]\nname = " << quoted(m.name) << "\nmin = " << nums(m.spec.min) << "\nmax = " << nums(m.spec.max)
    << "\nvoxel_size = " << num(m.spec.voxel_size) << "\nchunk_cells = " << m.spec.chunk_cells
    << "\ntile_chunks = " << m.spec.tile_chunks << "\nhalo_chunks = " << m.spec.halo_chunks
    << "\nborder = " << m.spec.border_voxels << "\nheadroom = " << num(m.spec.headroom_voxels) << "\n";
  t << "\n[terrain]\nheight = " << rel(m.height) << "\n";
  if (m.placement.origin) t << "origin = " << nums(*m.placement.origin) << "\n";
  if (m.placement.terrain_size) {
    t << "terrain_size = " << nums(*m.placement.terrain_size) << "\nterrain_pos = " << nums(m.placement.terrain_pos) << "\n";
  }
  if (m.placement.raw_size) t << "raw_size = [" << (*m.placement.raw_size)[0] << ", " << (*m.placement.raw_size)[1] << "]\n";
  if (m.nodata_value) t << "nodata = " << num(*m.nodata_value) << "\n";
  if (!m.splat.empty()) {
    std::vector<std::string> s;
    for (const auto& p : m.splat) s.push_back(relative_to(p, dir));
    t << "splat = " << strings(s) << "\n";
  }
  if (!m.layers.empty()) t << "layers = " << strings(m.layers) << "\n";
  if (mesh && m.mesh) {
    t << "\n[mesh]\nformat = " << quoted(m.mesh->format) << "\nlightmap_size = " << m.mesh->lightmap_size << "\n";
    if (m.mesh->lightmap) t << "lightmap = " << (*m.mesh->lightmap ? "true" : "false") << "\n";
    if (!m.mesh->lods.empty()) {
      t << "lods = [";
      for (size_t k = 0; k < m.mesh->lods.size(); ++k) t << (k ? ", " : "") << num(m.mesh->lods[k]);
      t << "]\n";
    }
  }
  if (foliage && m.foliage) {
    t << "\n[foliage]\n";
    if (!m.foliage->trees.empty()) t << "trees = " << rel(m.foliage->trees) << "\n";
    if (!m.foliage->details.empty()) t << "details = " << rel(m.foliage->details) << "\n";
    if (!m.foliage->surface_details.empty()) t << "surface_details = " << rel(m.foliage->surface_details) << "\n";
  }
  if (preview && m.preview) {
    t << "\n[preview]\nview = " << quoted(m.preview->view) << "\nmin_size = " << m.preview->min_size << "\n";
  }
  return t.str();
}

Plan plan_world(const WorldManifest& m, const std::string& dir, const std::string& version_text) {
  const WorldGrid w = plan_world(m.spec);
  Plan p;
  p.dir = dir;
  p.kind = ManifestKind::World;
  p.name = m.name;
  p.target = "world_index.json";
  p.files.push_back({p.version_file, version_text});
  // Each stage reads a manifest holding only what it needs, so changing one stage's options
  // reruns that stage alone.
  const std::string bake_params = "world/bake.toml", mesh_params = "world/mesh.toml",
                    foliage_params = "world/foliage.toml", preview_params = "world/preview.toml",
                    index_params = "world/world.toml";
  const std::string wdir = (fs::path(dir) / "world").string();
  p.files.push_back({bake_params, manifest_toml(m, wdir, false, false, false)});
  if (m.mesh) p.files.push_back({mesh_params, manifest_toml(m, wdir, true, false, false)});
  if (m.foliage) p.files.push_back({foliage_params, manifest_toml(m, wdir, false, true, false)});
  if (m.preview) p.files.push_back({preview_params, manifest_toml(m, wdir, false, false, true)});
  p.files.push_back({index_params, manifest_toml(m, wdir, true, true, true)});

  auto rel = [&](const std::string& path) { return relative_to(path, dir); };
  const std::vector<heightmap::RasterPart> parts = heightmap::raster_parts(m.height, m.placement);
  std::vector<std::string> index_inputs{index_params, p.version_file};
  for (uint32_t j = 0; j < w.tiles_z(); ++j)
    for (uint32_t i = 0; i < w.tiles_x(); ++i) {
      const TileBox t = tile_box(w, i, j);
      const auto window = tile_read_rect(w, t);
      PlanJob b;
      b.id = tile_id("bake", i, j);
      b.kind = JobKind::Bake;
      b.tile = {i, j};
      b.params = bake_params;
      b.inputs = {bake_params, p.version_file};
      // The VRT itself and the parts whose rectangle meets the tile's window (unknown: all).
      std::set<std::string> seen;
      for (const auto& part : parts)
        if ((!part.rect || meets(*part.rect, window)) && seen.insert(part.path).second) b.inputs.push_back(rel(part.path));
      if (!seen.count(m.height)) b.inputs.push_back(rel(m.height));
      for (const auto& s : m.splat) b.inputs.push_back(rel(s));
      b.outputs = {tile_output(Stage::Bake, i, j, m)};
      const std::string zone = b.outputs[0];
      p.jobs.push_back(b);
      index_inputs.push_back(zone);
      // A job over the tile's zone: the stage's manifest, the version, the zone, `more`.
      auto zone_job = [&](JobKind kind, Stage stage, const std::string& params, std::vector<std::string> more) {
        PlanJob g;
        g.id = tile_id(job_kind_name(kind), i, j);
        g.kind = kind;
        g.tile = {i, j};
        g.params = params;
        g.inputs = {params, p.version_file, zone};
        g.inputs.insert(g.inputs.end(), more.begin(), more.end());
        g.outputs = {tile_output(stage, i, j, m)};
        index_inputs.push_back(g.outputs[0]);
        p.jobs.push_back(std::move(g));
      };
      if (m.foliage) {
        std::vector<std::string> lists;
        for (const auto* list : {&m.foliage->trees, &m.foliage->details, &m.foliage->surface_details})
          if (!list->empty()) lists.push_back(rel(*list));
        zone_job(JobKind::Foliage, Stage::Foliage, foliage_params, lists);
      }
      if (m.mesh) zone_job(JobKind::Mesh, Stage::Mesh, mesh_params, {});
      if (m.preview) zone_job(JobKind::Preview, Stage::Preview, preview_params, {});
    }
  PlanJob x;
  x.id = "index";
  x.kind = JobKind::Index;
  x.params = index_params;
  x.inputs = index_inputs;
  x.outputs = {p.target};
  p.jobs.push_back(x);
  return p;
}

Plan plan_saves(const SavesManifest& m, const std::string& dir, const std::string& version_text) {
  Plan p;
  p.dir = dir;
  p.kind = ManifestKind::Saves;
  p.name = m.name;
  p.target = "";
  p.files.push_back({p.version_file, version_text});
  // The rule as its own file, so changing it reruns every reset and nothing else does.
  const ResetRule& r = m.reset;
  std::ostringstream t;
  t << "# " << m.name << ": the reset rule, written by voxkit plan; edit the manifest, not this file\n[reset]\n";
  auto flag = [&](const char* k, bool v) {
    if (v) t << k << " = true\n";
  };
  flag("keep_rooms", r.keep_rooms);
  flag("rooms_bbox", r.rooms_bbox);
  flag("reset_all_if_no_rooms", r.reset_all_if_no_rooms);
  flag("keep_checksums", r.keep_checksums);
  flag("compat", r.compat);
  flag("any_depth", r.any_depth);
  if (r.margin) t << "margin = " << *r.margin << "\n";
  auto tuples = [&](const char* k, const auto& list) {
    if (list.empty()) return;
    t << k << " = [";
    for (size_t q = 0; q < list.size(); ++q) {
      t << (q ? ", " : "") << "[";
      for (size_t e = 0; e < list[q].size(); ++e) t << (e ? ", " : "") << list[q][e];
      t << "]";
    }
    t << "]\n";
  };
  tuples("keep_box", r.keep_box);
  tuples("drop_box", r.drop_box);
  tuples("keep_sphere", r.keep_sphere);
  tuples("drop_sphere", r.drop_sphere);
  tuples("keep_radius", r.keep_radius);
  tuples("drop_radius", r.drop_radius);
  const std::string rule = "saves/reset.toml";
  p.files.push_back({rule, t.str()});
  for (size_t k = 0; k < m.saves.size(); ++k) {
    PlanJob j;
    j.id = "reset_" + std::to_string(k);
    j.kind = JobKind::Reset;
    j.params = rule;
    j.inputs = {rule, p.version_file, relative_to(m.saves[k], dir)};
    j.outputs = {"saves/" + fs::path(m.saves[k]).filename().string()};
    p.jobs.push_back(j);
  }
  return p;
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || std::string("-_./,=:+@%").find(c) != std::string::npos;
    });
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

namespace {

nlohmann::json plan_json(const Plan& p) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const PlanJob& j : p.jobs) {
    nlohmann::json e{{"id", j.id}, {"stage", job_kind_name(j.kind)}, {"params", j.params},
                     {"inputs", j.inputs}, {"outputs", j.outputs}, {"argv", j.argv}, {"shell", shell_line(j.argv)}};
    e["tile"] = j.tile ? nlohmann::json{(*j.tile)[0], (*j.tile)[1]} : nlohmann::json(nullptr);
    jobs.push_back(std::move(e));
  }
  return {{"format", "voxkit plan 1"},
          {"name", p.name},
          {"kind", p.kind == ManifestKind::World ? "world" : "saves"},
          {"version_file", p.version_file},
          {"target", p.target.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.target)},
          {"jobs", jobs}};
}

// Ninja's escapes: $ and space and colon in paths.
std::string ninja_path(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '$' || c == ' ' || c == ':') out += '$';
    out += c;
  }
  return out;
}

std::string ninja_value(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

std::string build_ninja(const Plan& p, const std::vector<std::string>& replan, const std::vector<std::string>& replan_inputs) {
  std::ostringstream n;
  n << "# " << p.name << ": the jobs of a voxkit plan, one edge per job (docs/world.md).\n"
    << "# Run from anywhere with ninja -C <this directory>; re-planned when the manifest or voxkit changes.\n"
    << "ninja_required_version = 1.10\n\n";
  std::set<JobKind> kinds;
  for (const PlanJob& j : p.jobs) kinds.insert(j.kind);
  for (JobKind k : kinds) {
    n << "rule " << job_kind_name(k) << "\n  command = $cmd\n  description = " << job_kind_name(k) << " $id\n";
    if (k == JobKind::Index) n << "  pool = console\n";
    n << "\n";
  }
  n << "rule replan\n  command = $cmd\n  description = re-plan\n  generator = 1\n  restat = 1\n\n";
  n << "build build.ninja: replan";
  for (const auto& in : replan_inputs) n << " " << ninja_path(in);
  n << "\n  cmd = " << ninja_value(shell_line(replan)) << "\n\n";
  std::vector<std::string> all;
  for (const PlanJob& j : p.jobs) {
    n << "build";
    for (const auto& o : j.outputs) n << " " << ninja_path(o);
    n << ": " << job_kind_name(j.kind);
    for (const auto& in : j.inputs) n << " " << ninja_path(in);
    n << "\n  id = " << j.id << "\n  cmd = " << ninja_value(shell_line(j.argv)) << "\n";
    for (const auto& o : j.outputs) all.push_back(o);
  }
  n << "\ndefault";
  if (!p.target.empty()) n << " " << ninja_path(p.target);
  else
    for (const auto& o : all) n << " " << ninja_path(o);
  n << "\n";
  return n.str();
}

// The Slurm profile: jobs submitted with sbatch through Snakemake's Slurm executor.
std::string slurm_profile() {
  return "# Jobs go to Slurm through Snakemake's Slurm executor (it needs USER set), one sbatch\n"
         "# per job, into the cluster's default partition; add slurm_partition=NAME (and\n"
         "# slurm_account=NAME where accounting is on) to the resources below for another.\n"
         "# A failed job is submitted once more. Jobs the executor sends to Slurm are never\n"
         "# taken from Snakemake's between-workflow cache (7.21 looks it up for local jobs only).\n"
         "slurm: true\n"
         "jobs: 64\n"
         "retries: 1\n"
         "latency-wait: 10\n"
         "# Above 1, Snakemake 7.21 polls Slurm only every 33 s.\n"
         "max-status-checks-per-second: 1\n"
         "printshellcmds: true\n"
         "rerun-incomplete: true\n"
         "default-resources:\n"
         "  - runtime=60\n"
         "  - mem_mb=2048\n";
}

// The Snakefile: rules per stage whose inputs and commands come from plan.json.
std::string snakefile(const Plan& p) {
  std::set<JobKind> kinds;
  std::map<JobKind, std::string> pattern;
  for (const PlanJob& j : p.jobs) {
    kinds.insert(j.kind);
    if (j.tile && !pattern.count(j.kind)) {
      // tiles/<stage>/tile_I_J.ext -> tiles/<stage>/tile_{i}_{j}.ext
      const std::string o = j.outputs[0];
      const std::string key = "tile_" + std::to_string((*j.tile)[0]) + "_" + std::to_string((*j.tile)[1]) + ".";
      const size_t at = o.rfind(key);
      pattern[j.kind] = o.substr(0, at) + "tile_{i}_{j}." + o.substr(at + key.size());
    }
  }
  std::ostringstream s;
  s << "# " << p.name << ": the jobs of a voxkit plan, one rule per stage, one job per "
    << (p.kind == ManifestKind::World ? "tile" : "save") << " (docs/world.md).\n"
    << "# Run in this directory with the profile in profiles/local (or profiles/slurm), docs/world.md.\n"
    << "# Inputs and commands come from plan.json; re-run voxkit plan after changing the manifest.\n"
    << "import json\n\n"
    << "with open(\"plan.json\") as _f:\n    PLAN = json.load(_f)\n"
    << "JOBS = {j[\"id\"]: j for j in PLAN[\"jobs\"]}\n\n"
    << "wildcard_constraints:\n    i=r\"\\d+\",\n    j=r\"\\d+\",\n    n=r\"\\d+\"\n\n"
    << "def _tile(kind):\n    return lambda w: JOBS[kind + \"_\" + w.i + \"_\" + w.j]\n\n";
  if (p.kind == ManifestKind::World) {
    s << "rule all:\n    input: PLAN[\"target\"]\n    default_target: True\n\n";
  } else {
    s << "rule all:\n    input: [o for j in PLAN[\"jobs\"] for o in j[\"outputs\"]]\n    default_target: True\n\n";
  }
  for (JobKind k : kinds) {
    const std::string name = job_kind_name(k);
    if (k == JobKind::Index) {
      s << "rule index:\n    input: JOBS[\"index\"][\"inputs\"]\n    output: JOBS[\"index\"][\"outputs\"]\n"
        << "    params: cmd=JOBS[\"index\"][\"shell\"]\n    cache: \"omit-software\"\n    shell: \"{params.cmd}\"\n\n";
    } else if (k == JobKind::Reset) {
      s << "RESETS = {j[\"outputs\"][0]: j for j in PLAN[\"jobs\"] if j[\"stage\"] == \"reset\"}\n\n"
        << "rule reset:\n    input: lambda w: RESETS[\"saves/\" + w.name][\"inputs\"]\n    output: \"saves/{name}\"\n"
        << "    params: cmd=lambda w: RESETS[\"saves/\" + w.name][\"shell\"]\n    cache: \"omit-software\"\n"
        << "    shell: \"{params.cmd}\"\n\n";
    } else {
      s << "rule " << name << ":\n    input: lambda w: _tile(\"" << name << "\")(w)[\"inputs\"]\n"
        << "    output: \"" << pattern[k] << "\"\n"
        << "    params: cmd=lambda w: _tile(\"" << name << "\")(w)[\"shell\"]\n"
        << "    cache: \"omit-software\"\n"
        << "    shell: \"{params.cmd}\"\n\n";
    }
  }
  return s.str();
}

}  // namespace

PlanWriteResult write_plan(const Plan& p, Emit emit, const std::vector<std::string>& replan,
                           const std::vector<std::string>& replan_inputs) {
  std::vector<std::pair<std::string, std::string>> files = p.files;
  files.push_back({"plan.json", plan_json(p).dump(1) + "\n"});
  if (emit == Emit::Ninja) {
    files.push_back({"build.ninja", build_ninja(p, replan, replan_inputs)});
  } else {
    files.push_back({"Snakefile", snakefile(p)});
    files.push_back({"profiles/local/config.yaml",
                     "# Two cores on this machine; a failed job is tried once more.\ncores: 2\nretries: 1\n"
                     "printshellcmds: true\nrerun-incomplete: true\n"});
    files.push_back({"profiles/slurm/config.yaml", slurm_profile()});
  }
  PlanWriteResult r;
  std::error_code ec;
  fs::create_directories(p.dir, ec);
  if (ec) throw Error(ErrorKind::Io, "cannot make the plan directory " + p.dir + ": " + ec.message());
  for (const auto& [rel, text] : files) {
    const fs::path path = fs::path(p.dir) / rel;
    fs::create_directories(path.parent_path(), ec);
    if (io::exists(path.string())) {
      std::string old;
      try {
        old = io::read_text(path.string(), uint64_t(256) << 20);
      } catch (const Error&) {
      }
      if (old == text) {
        r.unchanged.push_back(rel);
        continue;
      }
    }
    io::OutputOptions o;
    o.force = true;
    o.binary = false;
    io::write_file(path.string(), std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), o);
    r.written.push_back(rel);
  }
  return r;
}

}  // namespace voxkit::world
