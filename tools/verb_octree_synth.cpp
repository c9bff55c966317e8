// voxkit octree synth: a seeded synthetic terrain.dat (tunnels, flattened pads, veins),
// optionally a world.xml with the rooms built on the pads, or a whole .save around them.
#include <memory>

#include "formats/core/io.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree_synth.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct SynthCliOptions {
  octree::SynthOptions synth;
  std::string output, world, save;
  double world_mb = 0;
  bool server = false;
};

void run_synth(const Context& ctx, const SynthCliOptions& o) {
  if (o.output.empty() && o.save.empty()) throw_usage("octree synth: give -o terrain.dat and/or --save OUT.save");
  if (o.world_mb < 0 || o.world_mb > 1024) throw_usage("octree synth: --world-xml-mb must be 0..1024");
  if (!o.output.empty()) io::check_output(o.output, ctx.out());
  if (!o.world.empty()) io::check_output(o.world, ctx.out(false));
  if (!o.save.empty()) io::check_output(o.save, ctx.out(false));
  const auto r = octree::synthesize(o.synth);
  // All outputs or none: each is written beside its target, and renamed into place only
  // when every one is complete.
  io::OutputSet outs;
  if (!o.output.empty()) outs.add(o.output, ctx.out()).write(r.terrain_dat);
  if (!o.save.empty()) {
    // The game's members around the terrain, world.xml in the game's layout (signs with
    // the character references it writes), and the members a mod might add.
    save_synth::SaveOptions so;
    so.seed = o.synth.seed;
    so.max_depth = o.synth.max_depth;
    so.world_xml_bytes = uint64_t(o.world_mb * 1e6);
    so.pngs = !o.server;
    outs.add(o.save, ctx.out(false)).write(save_synth::synth_save(r.terrain_dat, r.rooms, so));
  }
  if (!o.world.empty()) {
    const int top = o.synth.max_depth > 10 ? o.synth.max_depth - 10 : 0;
    const std::string xml = octree::synth_world_xml(r.rooms, size_t(1) << (3 * top));
    outs.add(o.world, ctx.out(false)).write(xml);
  }
  outs.commit();
  ctx.info("octree synth: " + std::to_string(r.terrain_dat.size()) + " bytes, " +
           std::to_string(r.rooms.size()) + " rooms on " + std::to_string(r.pads.size()) + " pads");
}

}  // namespace

void add_synth(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<SynthCliOptions>();
  auto* c = parent.add_subcommand("synth", "Write a seeded synthetic terrain.dat (and world.xml rooms)");
  c->add_option("-o,--output", o->output, "terrain.dat ('-' = stdout)");
  c->add_option("--world-xml", o->world, "Also write a world.xml with the rooms");
  c->add_option("--save", o->save,
                "Also write a .save (ZIP): the game's members, this terrain.dat, a world.xml with "
                "the rooms, and members a mod might add");
  c->add_option("--world-xml-mb", o->world_mb,
                "With --save: grow world.xml with things to about this many MB")->capture_default_str();
  c->add_flag("--server", o->server, "With --save: a dedicated server's save (no preview PNGs)");
  c->add_option("--seed", o->synth.seed, "Random seed")->capture_default_str();
  c->add_option("--max-depth", o->synth.max_depth, "maxDepth (12 = 4096^3)")
      ->capture_default_str()->check(CLI::Range(4, 16));
  c->add_option("--pads", o->synth.pads, "Flattened base pads (each with 1-3 rooms)")->capture_default_str();
  c->add_option("--tunnels", o->synth.tunnels,
                "Dug tunnels: the size knob (4096^3: 600 give about 53 MB)")->capture_default_str();
  c->add_option("--veins", o->synth.veins, "Veins of minables")->capture_default_str();
  c->callback([&ctx, o] { run_synth(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
