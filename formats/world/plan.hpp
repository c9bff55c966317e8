// Plans of a manifest's jobs for build engines (docs/world.md): one job per tile and stage
// (or per save), each with its inputs (the source files its window reads, the stage's own
// manifest, voxkit's version) and outputs, written as plan.json and either a Snakefile with
// local and Slurm profiles or a build.ninja. Every path is relative to the plan directory.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/world/manifest.hpp"
#include "formats/world/tile_job.hpp"

namespace voxkit::world {

enum class JobKind { Bake, Foliage, Mesh, Preview, Index, Reset };
std::string job_kind_name(JobKind k);

struct PlanJob {
  std::string id;  // "bake_2_3", "index", "reset_3"
  JobKind kind = JobKind::Bake;
  std::optional<std::array<uint32_t, 2>> tile;
  std::string params;                    // the stage's manifest (or rule) the job reads
  std::vector<std::string> inputs;       // everything it reads, params and version included
  std::vector<std::string> outputs;
  std::vector<std::string> argv;         // the command, filled by the caller
};

struct Plan {
  std::string dir;                 // where the plan is written
  ManifestKind kind = ManifestKind::World;
  std::string name;
  std::string version_file = "voxkit.version";
  std::string target;              // what a build makes by default (the index, or every output)
  std::vector<PlanJob> jobs;
  // Files the plan writes besides plan.json and the build file: the stage manifests and the
  // version text (path relative to dir, content).
  std::vector<std::pair<std::string, std::string>> files;
};

// The jobs of a world manifest: bake per tile (inputs: the stage manifest, the height files
// whose rectangle meets the tile's read window, the splat maps, the version), then foliage,
// mesh and preview per tile as the manifest asks, and the index over every output.
Plan plan_world(const WorldManifest& m, const std::string& dir, const std::string& version_text);
// One reset job per save (inputs: the save, the rule, the version); outputs under saves/.
Plan plan_saves(const SavesManifest& m, const std::string& dir, const std::string& version_text);

// The job's command as one shell line (each word quoted when it needs it).
std::string shell_line(const std::vector<std::string>& argv);

enum class Emit { Snakemake, Ninja };

struct PlanWriteResult {
  std::vector<std::string> written;    // files whose content changed (relative to dir)
  std::vector<std::string> unchanged;  // left as they were (their times too)
};

// Writes plan.json, the plan's files, and the Snakefile with profiles/local and
// profiles/slurm (Emit::Snakemake) or build.ninja (Emit::Ninja, with an edge that re-plans
// when the manifest or voxkit changes: `replan` is that command). A file whose content is
// unchanged is not touched, so build engines see only real changes.
PlanWriteResult write_plan(const Plan& plan, Emit emit, const std::vector<std::string>& replan,
                           const std::vector<std::string>& replan_inputs);

// A world manifest as TOML with only the given stages' tables, paths relative to `dir`.
std::string manifest_toml(const WorldManifest& m, const std::string& dir, bool mesh, bool foliage, bool preview);

}  // namespace voxkit::world
