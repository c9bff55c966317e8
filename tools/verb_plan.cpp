// voxkit plan: a manifest's jobs as plan.json plus a Snakefile (local and Slurm profiles) or a
// build.ninja, for build engines to schedule, cache and retry (docs/world.md).
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <sstream>

#include "formats/core/versions.hpp"
#include "formats/world/plan.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {
namespace fs = std::filesystem;

const Names<world::Emit> kEmits{{"snakemake", world::Emit::Snakemake}, {"ninja", world::Emit::Ninja}};

struct PlanCli {
  std::string manifest, dir, voxkit;
  world::Emit emit = world::Emit::Snakemake;
  bool json = false;
};

std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("voxkit") : p.string();
}

std::string tile_arg(const world::PlanJob& j) {
  return std::to_string((*j.tile)[0]) + "," + std::to_string((*j.tile)[1]);
}

template <size_t N>
std::string joined(const std::array<int64_t, N>& a) {
  std::string s;
  for (size_t k = 0; k < N; ++k) s += (k ? "," : "") + std::to_string(a[k]);
  return s;
}

// The command of each job: voxkit's flags are named here, in tools/, only.
void fill_commands(world::Plan& plan, const world::Manifest& m, const std::string& vk) {
  const std::string dir = plan.dir;
  auto rel = [&](const std::string& p) { return world::relative_to(p, dir); };
  for (world::PlanJob& j : plan.jobs) {
    std::vector<std::string> a{vk, "-q", "-f"};
    const std::string out = j.outputs.at(0);
    switch (j.kind) {
      case world::JobKind::Bake:
        a.insert(a.end(), {"tile", "bake", j.params, "--tile", tile_arg(j), "-o", out});
        break;
      case world::JobKind::Mesh:
        a.insert(a.end(), {"tile", "mesh", j.params, "--tile", tile_arg(j), "--zone", j.inputs.at(2), "-o", out});
        break;
      case world::JobKind::Foliage: {
        const auto& f = *m.world.foliage;
        a.insert(a.end(), {"foliage", "bake", j.inputs.at(2)});
        if (!f.trees.empty()) a.insert(a.end(), {"--trees", rel(f.trees)});
        if (!f.details.empty()) a.insert(a.end(), {"--details", rel(f.details)});
        if (!f.surface_details.empty()) a.insert(a.end(), {"--surface-details", rel(f.surface_details)});
        a.insert(a.end(), {"-o", out});
        break;
      }
      case world::JobKind::Preview: {
        const auto& p = *m.world.preview;
        a.insert(a.end(), {"preview", j.inputs.at(2), "--view", p.view, "--min-size", std::to_string(p.min_size), "-o", out});
        break;
      }
      case world::JobKind::Index:
        a.insert(a.end(), {"tile", "index", j.params, "--dir", ".", "-o", out});
        break;
      case world::JobKind::Reset: {
        const world::ResetRule& r = m.saves.reset;
        a.insert(a.end(), {"octree", "reset", j.inputs.at(2), "-o", out});
        if (r.keep_rooms) a.push_back("--keep-rooms");
        if (r.rooms_bbox) a.push_back("--rooms-bbox");
        if (r.reset_all_if_no_rooms) a.push_back("--reset-all-if-no-rooms");
        if (r.keep_checksums) a.push_back("--keep-checksums");
        if (r.compat) a.push_back("--compat");
        if (r.any_depth) a.push_back("--any-depth");
        if (r.margin) a.insert(a.end(), {"--margin", std::to_string(*r.margin)});
        for (const auto& b : r.keep_box) a.insert(a.end(), {"--keep-box", joined(b)});
        for (const auto& b : r.drop_box) a.insert(a.end(), {"--drop-box", joined(b)});
        for (const auto& b : r.keep_sphere) a.insert(a.end(), {"--keep-sphere", joined(b)});
        for (const auto& b : r.drop_sphere) a.insert(a.end(), {"--drop-sphere", joined(b)});
        for (const auto& b : r.keep_radius) a.insert(a.end(), {"--keep-radius", joined(b)});
        for (const auto& b : r.drop_radius) a.insert(a.end(), {"--drop-radius", joined(b)});
        break;
      }
    }
    j.argv = std::move(a);
  }
}

}  // namespace

void add_plan_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<PlanCli>();
  auto* cmd = app.add_subcommand(
      "plan", "Plan a world's tiles (or many saves' resets) as jobs for Snakemake (local, Slurm) or Ninja");
  cmd->add_option("manifest", o->manifest, "World or saves manifest (TOML)")->required();
  add_enum(cmd, "--emit", o->emit, kEmits, "engine",
           "snakemake (a Snakefile with profiles/local and profiles/slurm) or ninja (build.ninja)")
      ->required();
  cmd->add_option("-o,--output", o->dir, "Plan directory (made if missing; paths in it are relative to it)")->required();
  cmd->add_option("--voxkit", o->voxkit, "The voxkit the jobs run (default: this one, by its absolute path)");
  cmd->add_flag("--json", o->json, "Print the plan (plan.json) instead of a summary");
  cmd->callback([&ctx, o] {
    const world::Manifest m = world::read_manifest(o->manifest);
    const std::string vk = o->voxkit.empty() ? self_path() : o->voxkit;
    const std::string version = build_versions_text();
    world::Plan plan = m.kind == world::ManifestKind::World ? world::plan_world(m.world, o->dir, version)
                                                             : world::plan_saves(m.saves, o->dir, version);
    fill_commands(plan, m, vk);
    std::vector<std::string> replan{vk, "-q", "plan", world::relative_to(o->manifest, o->dir), "--emit",
                                    o->emit == world::Emit::Ninja ? "ninja" : "snakemake", "-o", "."};
    if (!o->voxkit.empty()) replan.insert(replan.end(), {"--voxkit", o->voxkit});
    std::vector<std::string> replan_inputs{world::relative_to(o->manifest, o->dir)};
    if (fs::path(vk).is_absolute()) replan_inputs.push_back(vk);
    const auto w = world::write_plan(plan, o->emit, replan, replan_inputs);
    std::ostringstream s;
    size_t tiles = 0;
    for (const auto& j : plan.jobs) tiles += j.kind == world::JobKind::Bake || j.kind == world::JobKind::Reset;
    s << plan.name << ": " << plan.jobs.size() << " jobs ("
      << tiles << (plan.kind == world::ManifestKind::World ? " tiles" : " saves") << ") -> " << o->dir << " ("
      << w.written.size() << " files written, " << w.unchanged.size() << " unchanged)\n";
    if (o->json) {
      const std::string path = (fs::path(o->dir) / "plan.json").string();
      ctx.report(io::read_text(path), false, true);
    } else {
      ctx.report(s.str(), false, false);
    }
  });
}

}  // namespace voxkit::cli
