// voxkit edit pack|unpack: the dig-zone package's packed 64-bit edits, shown and made.
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

const Names<edit::Op> kOps{{"dig", edit::Op::Dig},     {"add", edit::Op::Add},   {"smooth", edit::Op::Smooth},
                           {"paint", edit::Op::Paint}, {"tree", edit::Op::Tree}, {"detail", edit::Op::Detail}};
const Names<edit::Target> kTargets{{"0.3", edit::Target::V03}, {"0.6", edit::Target::V06}, {"0.7", edit::Target::V07}};

struct EditOptions {
  std::vector<double> pos;
  double radius = 1;
  edit::Op op = edit::Op::Dig;
  uint32_t layer = 0;
  bool world = false, json = false;
  std::string zone;
  edit::Target target = edit::Target::V07;
  std::vector<std::string> edits;
};

nlohmann::json edit_json(uint64_t e, const EditOptions& o, const std::optional<edit::GridLimit>& grid) {
  const edit::Fields f = edit::unpack(e);
  nlohmann::json j = {{"hex", edit::to_hex(e)},
                      {"int64", edit::as_signed(e)},
                      {"x", f.x / 16.0},
                      {"y", f.y / 16.0},
                      {"z", f.z / 16.0},
                      {"radius", f.radius / 8.0},
                      {"op", edit::op_name(f.op)},
                      {"layer", f.layer},
                      {"fields", {{"x", f.x}, {"y", f.y}, {"z", f.z}, {"radius", f.radius}, {"op", f.op}, {"layer", f.layer}}}};
  if (f.op == 4 || f.op == 5) {
    j["spawn"] = {{"yaw_degrees", edit::spawn_yaw_degrees(e)}, {"scale", edit::spawn_scale(e)},
                  {"yaw_index", edit::spawn_yaw_index(e)}, {"scale_index", edit::spawn_scale_index(e)}};
  }
  const auto why = edit::invalid_reason(e, o.target, grid);
  j["valid"] = !why;
  j["invalid"] = why ? nlohmann::json(*why) : nlohmann::json();
  return j;
}

std::string edit_text(uint64_t e, const EditOptions& o, const std::optional<edit::GridLimit>& grid) {
  const edit::Fields f = edit::unpack(e);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s %lld  pos %.4f,%.4f,%.4f  radius %.3f  %s layer %u", edit::to_hex(e).c_str(),
                (long long)edit::as_signed(e), f.x / 16.0, f.y / 16.0, f.z / 16.0, f.radius / 8.0,
                edit::op_name(f.op), f.layer);
  std::string s = buf;
  if (f.op == 4 || f.op == 5) {
    std::snprintf(buf, sizeof buf, "  spawn yaw %.4f scale %.5f", edit::spawn_yaw_degrees(e), edit::spawn_scale(e));
    s += buf;
  }
  if (const auto why = edit::invalid_reason(e, o.target, grid)) s += "  INVALID: " + *why;
  return s;
}

std::optional<edit::GridLimit> grid_of(const Zone* z) {
  if (!z) return std::nullopt;
  return edit::GridLimit{z->meta.cells.nx, z->meta.cells.ny, z->meta.cells.nz};
}

void run_pack(const Context& ctx, const EditOptions& o) {
  if (o.world && o.zone.empty()) throw_usage("edit pack --world needs --zone (its origin and voxel size)");
  std::optional<Zone> zone;
  if (!o.zone.empty()) zone = read_zone_file(o.zone);
  float p[3];
  float r = float(o.radius);
  for (int a = 0; a < 3; ++a) p[a] = float(o.pos[size_t(a)]);
  if (o.world) {
    const ZoneMeta& m = zone->meta;
    for (int a = 0; a < 3; ++a) p[a] = edit::to_grid(o.pos[size_t(a)], m.origin[size_t(a)], m.voxel_size);
    r = float(o.radius) / float(m.voxel_size);
  }
  edit::PackReport rep;
  const uint64_t e = edit::pack(p[0], p[1], p[2], r, o.op, o.layer, &rep);
  if (rep.clamped_position) ctx.warn("the position is outside 0..4095.9375 voxels on some axis: clamped");
  if (rep.clamped_radius) ctx.warn("the radius is outside 0.125..31.875 voxels: clamped");
  const auto grid = grid_of(zone ? &*zone : nullptr);
  if (const auto why = edit::invalid_reason(e, o.target, grid)) throw_usage("the edit is not valid: " + *why);
  ctx.report(o.json ? edit_json(e, o, grid).dump(2) : edit::to_hex(e) + " " + std::to_string(edit::as_signed(e)),
             false, true);
}

void run_unpack(const Context& ctx, const EditOptions& o) {
  std::optional<Zone> zone;
  if (!o.zone.empty()) zone = read_zone_file(o.zone);
  const auto grid = grid_of(zone ? &*zone : nullptr);
  nlohmann::json list = nlohmann::json::array();
  std::string text;
  size_t invalid = 0;
  for (const auto& s : o.edits) {
    const auto e = edit::parse_edit(s);
    if (!e) throw_usage("'" + s + "' is not an edit (hex 0x..., or a decimal int64)");
    invalid += edit::invalid_reason(*e, o.target, grid).has_value();
    if (o.json) list.push_back(edit_json(*e, o, grid));
    else text += edit_text(*e, o, grid) + "\n";
  }
  ctx.report(o.json ? list.dump(2) : text, false, true);
  if (invalid) throw Error(ErrorKind::Data, std::to_string(invalid) + " of " + std::to_string(o.edits.size()) +
                                                " edits are not valid for the target");
}

}  // namespace

void add_edit_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("edit", "The dig-zone package's packed 64-bit edits: pack and unpack");
  cmd->require_subcommand(1);
  auto o = std::make_shared<EditOptions>();

  auto* pack = cmd->add_subcommand("pack", "Pack one edit as the package does (float32, round half to even)");
  add_numbers(pack, "--pos", o->pos, 3, "Position X,Y,Z in grid voxels (with --world: world metres)")->required();
  pack->add_option("--radius", o->radius, "Radius in voxels (with --world: metres)")->required()->check(CLI::Range(0.0, 1e6));
  add_enum(pack, "--op", o->op, kOps, "op", "dig, add, smooth, paint, tree or detail")->required();
  pack->add_option("--layer", o->layer,
                   "Paint value (paint, add), smooth strength x31 (smooth), prefab index + 1 (tree, detail; 0 erases)")
      ->capture_default_str()
      ->check(CLI::Range(0, 31));
  pack->add_flag("--world", o->world, "--pos and --radius are world metres, converted with --zone's origin and voxel size");
  pack->add_option("--zone", o->zone, "Zone file (.vxz): its placement for --world, its grid for the validity check");
  add_enum(pack, "--target", o->target, kTargets, "target",
           "Package version the edit is for: 0.3, 0.6 or 0.7 (which ops and layers are valid)")
      ->default_str("0.7");
  pack->add_flag("--json", o->json, "Print the edit and its fields as JSON");
  pack->callback([&ctx, o] { run_pack(ctx, *o); });

  auto* unpack = cmd->add_subcommand("unpack", "Show the fields of packed edits (hex or signed decimal)");
  unpack->add_option("edits", o->edits, "Edits: 0x0114... or -8426233528410177216")->required();
  unpack->add_option("--zone", o->zone, "Zone file (.vxz): positions past its grid are reported invalid");
  add_enum(unpack, "--target", o->target, kTargets, "target", "Package version to check the edits against: 0.3, 0.6 or 0.7")
      ->default_str("0.7");
  unpack->add_flag("--json", o->json, "Print the fields as JSON");
  unpack->callback([&ctx, o] { run_unpack(ctx, *o); });
}

}  // namespace voxkit::cli
