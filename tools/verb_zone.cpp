// voxkit zone import-unity|export-unity: zone files <-> the dig-zone package's Unity assets.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "formats/core/io.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct ZoneOptions {
  std::string asset, zone, output = "-";
  std::string export_output;  // empty: update the asset in place
  std::string asset_name, script_guid;
  BackupFlags backup;
  bool json = false;
};

std::string dims_text(const Dims& c) {
  return std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" + std::to_string(c.nz);
}

void run_import(const Context& ctx, const ZoneOptions& o) {
  io::check_output(o.output, ctx.out());
  const std::string name = io::display_name(o.asset);
  const std::string text = io::read_text(o.asset);
  // The file name without its directory, so the zone's bytes do not depend on where it ran.
  const std::string base = std::filesystem::path(name).filename().string();
  Zone z = with_source(name, [&] { return unity::import_asset(text, base); });
  write_zone_file(o.output, z, ctx.out());
  if (z.baked.data.empty()) ctx.warn(name + ": the asset has no baked grid (baseGridRle is empty); the zone has none either");
  ctx.info("zone: imported " + dims_text(z.meta.cells) + " cells (" + std::to_string(z.meta.cells.samples()) +
           " samples) from " + name + (z.paint.data.empty() ? ", never painted" : ", with paint"));
}

void run_export(const Context& ctx, const ZoneOptions& o) {
  const bool fresh = o.asset.empty();
  if (fresh && o.export_output.empty()) throw_usage("export-unity: a new asset (no ASSET given) needs -o OUT.asset");
  const bool in_place = o.export_output.empty();
  const std::string target = in_place ? o.asset : o.export_output;
  if (in_place && o.asset == "-") throw_usage("export-unity: an asset read from stdin needs -o");
  const io::OutputOptions out_opts = in_place ? ctx.in_place(o.backup, false) : ctx.out(false);
  io::check_output(target, out_opts);
  Zone z = read_zone_file(o.zone);
  unity::ExportOptions eo;
  eo.asset_name = o.asset_name;
  eo.script_guid = o.script_guid;
  unity::ExportReport report;
  std::string out;
  std::string name;
  if (fresh) {
    // The asset's name: the output file's, as Unity names an asset after its file.
    if (eo.asset_name.empty())
      eo.asset_name = target == "-" ? "DigZone" : std::filesystem::path(target).stem().string();
    name = io::display_name(o.zone);
    out = with_source(name, [&] { return unity::new_asset(z, eo, &report); });
  } else {
    const std::string text = io::read_text(o.asset);
    name = io::display_name(o.asset);
    out = with_source(name, [&] { return unity::update_asset(text, z, eo, &report); });
  }
  const std::string backup =
      io::write_file(target, std::span(reinterpret_cast<const uint8_t*>(out.data()), out.size()), out_opts);
  for (const auto& w : report.warnings) ctx.warn(name + ": " + w);
  if (o.json) {
    nlohmann::json j;
    j["asset"] = target;
    j["created"] = fresh;
    j["backup"] = backup.empty() ? nlohmann::json(nullptr) : nlohmann::json(backup);
    j["fields"] = report.fields;
    j["warnings"] = report.warnings;
    j["grid_version"] = {{"old", report.old_grid_version}, {"new", report.new_grid_version}};
    j["cells"] = {z.meta.cells.nx, z.meta.cells.ny, z.meta.cells.nz};
    j["meshes"] = {{"written", report.meshes}, {"removed", report.meshes_removed}};
    j["textures"] = {{"written", report.textures}, {"removed", report.textures_removed}};
    j["vertices"] = report.vertices;
    j["triangles"] = report.triangles;
    ctx.report(j.dump(2), target == "-", true);
  }
  const std::string meshes = std::to_string(report.meshes) + " chunk meshes (" + std::to_string(report.triangles) +
                             " triangles), " + std::to_string(report.textures) + " textures";
  if (fresh) {
    ctx.info("zone: wrote a new asset " + io::display_name(target) + ": " + dims_text(z.meta.cells) + " cells, " +
             meshes + ", _gridVersion " + std::to_string(report.new_grid_version));
  } else {
    ctx.info("zone: wrote " + dims_text(z.meta.cells) + " cells into " + io::display_name(target) + " (" +
             std::to_string(report.fields.size()) + " fields, " + meshes + ", _gridVersion " +
             std::to_string(report.old_grid_version) + " -> " + std::to_string(report.new_grid_version) + ")" +
             (backup.empty() ? "" : ", backup " + backup));
  }
}

}  // namespace

void add_zone_command(CLI::App& app, Context& ctx) {
  auto* zone = app.add_subcommand("zone", "Zone files and the dig-zone package's Unity assets");
  zone->require_subcommand(1);
  auto opt = std::make_shared<ZoneOptions>();

  auto* imp = zone->add_subcommand("import-unity", "Make a zone file from a DigZoneData Unity asset");
  imp->add_option("asset", opt->asset, "DigZoneData .asset (Unity YAML; '-' = stdin)")->required();
  imp->add_option("-o,--output", opt->output, "Zone file to write ('-' = stdout)")->capture_default_str();
  imp->callback([&ctx, opt] { run_import(ctx, *opt); });

  auto* exp = zone->add_subcommand(
      "export-unity",
      "Write a zone as a DigZoneData asset: a new one, or into an existing one (its other values kept)");
  exp->add_option("zone", opt->zone, "Zone file (.vxz; '-' = stdin)")->required();
  exp->add_option("asset", opt->asset, "DigZoneData .asset to update; without it a new asset is made (needs -o)");
  exp->add_option("-o,--output", opt->export_output, "Write the asset here instead of in place ('-' = stdout)");
  exp->add_option("--asset-name", opt->asset_name,
                  "The asset's name (m_Name, and its sub-assets' names); default: the output's file name (new), "
                  "the asset's own (update)");
  exp->add_option("--script-guid", opt->script_guid,
                  "The guid of the DigZoneData script in your project, when it is not the package's");
  add_backup_flags(exp, opt->backup);
  exp->add_flag("--json", opt->json, "Print what was changed as JSON (on stderr when the asset goes to stdout)");
  exp->callback([&ctx, opt] { run_export(ctx, *opt); });
}

}  // namespace voxkit::cli
