// voxkit octree synth: a seeded synthetic terrain.dat (tunnels, flattened pads, veins) and
// optionally a world.xml with the rooms built on the pads.
#include <memory>

#include "formats/io.hpp"
#include "lib/octree_synth.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct SynthCliOptions {
  octree::SynthOptions synth;
  std::string output, world;
};

void run_synth(const Context& ctx, const SynthCliOptions& o) {
  io::check_output(o.output, ctx.out());
  if (!o.world.empty()) io::check_output(o.world, ctx.out(false));
  const auto r = octree::synthesize(o.synth);
  io::write_file(o.output, r.terrain_dat, ctx.out());
  if (!o.world.empty()) {
    const int top = o.synth.max_depth > 10 ? o.synth.max_depth - 10 : 0;
    const std::string xml = octree::synth_world_xml(r.rooms, size_t(1) << (3 * top));
    io::write_file(o.world, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(xml.data()), xml.size()),
                   ctx.out(false));
  }
  ctx.info("octree synth: " + std::to_string(r.terrain_dat.size()) + " bytes, " +
           std::to_string(r.rooms.size()) + " rooms on " + std::to_string(r.pads.size()) + " pads");
}

}  // namespace

void add_synth(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<SynthCliOptions>();
  auto* c = parent.add_subcommand("synth", "Write a seeded synthetic terrain.dat (and world.xml rooms)");
  c->add_option("-o,--output", o->output, "terrain.dat ('-' = stdout)")->required();
  c->add_option("--world-xml", o->world, "Also write a world.xml with the rooms");
  c->add_option("--seed", o->synth.seed, "Random seed")->capture_default_str();
  c->add_option("--depth", o->synth.max_depth, "maxDepth (12 = 4096^3)")
      ->capture_default_str()->check(CLI::Range(4, 16));
  c->add_option("--pads", o->synth.pads, "Flattened base pads (each with 1-3 rooms)")->capture_default_str();
  c->add_option("--tunnels", o->synth.tunnels,
                "Dug tunnels: the size knob (4096^3: 600 give about 53 MB)")->capture_default_str();
  c->add_option("--veins", o->synth.veins, "Veins of minables")->capture_default_str();
  c->callback([&ctx, o] { run_synth(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
