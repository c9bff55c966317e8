// voxkit tile: the jobs over one tile of a world manifest (bake, mesh) and the world index.
#include <memory>
#include <sstream>

#include "formats/world/tile_job.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct TileCli {
  std::string manifest;
  std::vector<uint32_t> tile;
  std::string zone, output = "-", dir = ".";
  bool json = false;
};

CLI::Option* add_tile(CLI::App* cmd, std::vector<uint32_t>& tile) {
  return cmd->add_option("--tile", tile, "The tile I,J (columns along x, rows along z, from 0)")
      ->delimiter(',')
      ->expected(2)
      ->type_name("I,J")
      ->required();
}

std::string mesh_text(const world::TileMeshResult& r, const std::string& output) {
  std::ostringstream s;
  s << "tile " << r.box.i << "," << r.box.j << ": " << r.mesh.chunks_meshed << " chunks with a surface, "
    << r.mesh.lods.at(0).vertices << " vertices, " << r.mesh.lods.at(0).triangles << " triangles, "
    << r.mesh.bytes.size() << " bytes -> " << output << "\n";
  return s.str();
}

}  // namespace

void add_tile_command(CLI::App& app, Context& ctx) {
  CLI::App* tile = app.add_subcommand("tile", "Tiles of a world manifest: bake one exactly, mesh its chunks, index the world");
  tile->require_subcommand(1);

  {
    auto o = std::make_shared<TileCli>();
    auto* cmd = tile->add_subcommand(
        "bake", "Bake one tile (and its halo) into a zone equal to the same region of a whole-world bake");
    cmd->add_option("manifest", o->manifest, "World manifest (TOML)")->required();
    add_tile(cmd, o->tile);
    cmd->add_option("-o,--output", o->output, "The tile's zone (.vxz, '-' = stdout)")->default_val("-");
    cmd->add_flag("--json", o->json, "Print the report as JSON");
    cmd->callback([&ctx, o] {
      world::TileBakeJob job;
      job.manifest = o->manifest;
      job.i = o->tile.at(0);
      job.j = o->tile.at(1);
      job.output = o->output;
      job.out = ctx.out();
      const auto r = world::run_tile_bake(job, ctx.progress("bake"));
      const auto& c = r.zone.meta.cells;
      std::ostringstream s;
      s << "tile " << r.box.i << "," << r.box.j << ": " << c.nx << "x" << c.ny << "x" << c.nz << " cells (own cells x "
        << r.box.core_min[0] << ".." << r.box.core_max[0] << ", z " << r.box.core_min[1] << ".." << r.box.core_max[1]
        << " of the world), read " << r.read[0] << "x" << r.read[1] << " of " << r.info.width << "x" << r.info.depth
        << " height samples -> " << o->output << "\n";
      ctx.report(o->json ? world::report_json(r, o->output).dump(2) + "\n" : s.str(), o->output == "-", o->json);
    });
  }
  {
    auto o = std::make_shared<TileCli>();
    auto* cmd = tile->add_subcommand(
        "mesh", "Mesh one tile's own chunks with the package's mesher, named and placed as the whole world's");
    cmd->add_option("manifest", o->manifest, "World manifest (TOML; its [mesh] table gives the options)")->required();
    add_tile(cmd, o->tile);
    cmd->add_option("--zone", o->zone, "The tile's zone (tile bake's output)")->required();
    cmd->add_option("-o,--output", o->output, "Mesh file (format from the manifest; '-' = stdout)")->default_val("-");
    cmd->add_flag("--json", o->json, "Print the report as JSON");
    cmd->callback([&ctx, o] {
      world::TileMeshJob job;
      job.manifest = o->manifest;
      job.i = o->tile.at(0);
      job.j = o->tile.at(1);
      job.zone = o->zone;
      job.output = o->output;
      job.out = ctx.out();
      const auto r = world::run_tile_mesh(job, ctx.progress("mesh"));
      nlohmann::json j{{"output", o->output},
                       {"tile", {r.box.i, r.box.j}},
                       {"chunks", r.mesh.chunks_meshed},
                       {"vertices", r.mesh.lods.at(0).vertices},
                       {"triangles", r.mesh.lods.at(0).triangles},
                       {"bytes", r.mesh.bytes.size()}};
      ctx.report(o->json ? j.dump(2) + "\n" : mesh_text(r, o->output), o->output == "-", o->json);
    });
  }
  {
    auto o = std::make_shared<TileCli>();
    auto* cmd = tile->add_subcommand(
        "index", "Write the world index: every tile's boxes, files, sizes and content hashes");
    cmd->add_option("manifest", o->manifest, "World manifest (TOML)")->required();
    cmd->add_option("--dir", o->dir, "The plan directory holding tiles/ (default .)");
    cmd->add_option("-o,--output", o->output, "Index (JSON, '-' = stdout)")->default_val("-");
    cmd->callback([&ctx, o] {
      world::IndexJob job;
      job.manifest = o->manifest;
      job.dir = o->dir;
      job.output = o->output;
      job.out = ctx.out(false);
      const auto index = world::run_index(job);
      std::ostringstream s;
      s << "world " << index["world"].get<std::string>() << ": " << index["tiles"].size() << " tiles indexed -> "
        << o->output << "\n";
      ctx.report(s.str(), o->output == "-", false);
    });
  }
}

}  // namespace voxkit::cli
