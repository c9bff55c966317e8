// voxkit caves label: the cave regions of an ice density module, and which are closed.
#include <memory>
#include <nlohmann/json.hpp>

#include "formats/core/io.hpp"
#include "formats/mesh/mesh_input.hpp"
#include "formats/zone/region_grid.hpp"
#include "lib/caves/caves.hpp"
#include "lib/core/error.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct CavesOptions {
  std::string input, output, closed_list, open_faces = "all";
  std::vector<uint32_t> cells;
  bool json = false;
};

uint8_t parse_faces(const std::string& s) {
  if (s == "all") return kAllFaces;
  if (s == "none") return 0;
  uint8_t bits = 0;
  size_t at = 0;
  while (true) {
    size_t comma = s.find(',', at);
    std::string f = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (f == "-x") bits |= kFaceMinX;
    else if (f == "+x") bits |= kFaceMaxX;
    else if (f == "-y") bits |= kFaceMinY;
    else if (f == "+y") bits |= kFaceMaxY;
    else if (f == "-z") bits |= kFaceMinZ;
    else if (f == "+z") bits |= kFaceMaxZ;
    else throw_usage("--open-faces: '" + f + "' is not one of -x,+x,-y,+y,-z,+z, all, none");
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return bits;
}

void run_label(const Context& ctx, const CavesOptions& o) {
  Dims cells = cells_of(o.cells);
  CaveOptions co;
  co.open_faces = parse_faces(o.open_faces);
  io::check_output(o.output, ctx.out());
  if (!o.closed_list.empty()) io::check_output(o.closed_list, ctx.out(false));
  ByteGrid density = read_raw_grid(o.input, cells, kMaxGridSamples);
  CaveLabels labels = label_caves(density, co);
  auto closed = labels.closed_ids();
  io::OutputSet outs;  // both files or neither
  outs.add(o.output, ctx.out()).write(encode_region_grid(labels.regions));
  if (!o.closed_list.empty()) outs.add(o.closed_list, ctx.out(false)).write(format_region_list(closed));
  outs.commit();
  if (o.json) {
    nlohmann::json j;
    j["input"] = o.input;
    j["output"] = o.output;
    j["cells"] = {cells.nx, cells.ny, cells.nz};
    j["regions"] = nlohmann::json::array();
    for (const auto& r : labels.list)
      j["regions"].push_back({{"id", r.id}, {"points", r.points}, {"first", r.first}, {"closed", r.closed}});
    j["closed"] = closed;
    ctx.report(j.dump(2), o.output == "-" || o.closed_list == "-", true);
  } else {
    ctx.info("caves: " + std::to_string(labels.list.size()) + " air regions, " +
             std::to_string(closed.size()) + " closed -> " + o.output);
  }
}

}  // namespace

void add_caves_command(CLI::App& app, Context& ctx) {
  auto* caves = app.add_subcommand("caves", "Cave regions of ice density modules");
  caves->require_subcommand(1);
  auto o = std::make_shared<CavesOptions>();
  auto* label = caves->add_subcommand(
      "label", "Label the air of a module into regions (uint16 per point) and find the closed ones");
  label->add_option("input", o->input, "Density module, 0 empty .. 255 solid ('-' = stdin)")->required();
  add_cells(label, "--cells", o->cells, "Cells NX,NY,NZ of the module")->required();
  label->add_option("-o,--output", o->output, "Region grid (uint16 LE per point; '-' = stdout)")->default_val("-");
  label->add_option("--closed-list", o->closed_list, "Also write the closed region ids, one per line");
  label->add_option("--open-faces", o->open_faces,
                    "Module faces open to the outside: all, none or a list of -x,+x,-y,+y,-z,+z")
      ->capture_default_str();
  label->add_flag("--json", o->json, "Print the regions as JSON");
  label->callback([&ctx, o] { run_label(ctx, *o); });
}

}  // namespace voxkit::cli
