// voxkit octree diff / merge: where two deltas of one world differ, and B's modifications
// laid over A.
#include <cstdio>
#include <memory>

#include "formats/core/io.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree_merge.hpp"
#include "tools/verb_octree.hpp"

namespace voxkit::cli::octree_verbs {
namespace {

struct DiffOptions {
  std::string a, b, output;
  bool json = false, any_depth = false;
  int64_t block = 64;
  size_t list = 20;
};

void print_diff(const DiffOptions& o, const Loaded& a, const Loaded& b, const octree::DiffResult& r, bool same) {
  if (o.json) {
    auto list = nlohmann::json::array();
    for (const auto& g : r.regions) {
      auto e = box_json(g.bounds);
      e["volume"] = g.volume;
      list.push_back(e);
    }
    nlohmann::json j{{"a", a.name},
                     {"b", b.name},
                     {"same", same},
                     {"voxels", {{"differing", r.differing_volume},
                                 {"only_a", r.only_a},
                                 {"only_b", r.only_b},
                                 {"both_changed", r.both_changed}}},
                     {"veins", {{"only_a", r.veins_only_a}, {"only_b", r.veins_only_b}, {"common", r.veins_common}}}};
    j["regions"]["block"] = o.block;
    j["regions"]["count"] = r.regions.size();
    j["regions"]["list"] = list;
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  std::printf("%s vs %s: %llu voxels differ (%llu modified only in A, %llu only in B, %llu in both)\n",
              a.name.c_str(), b.name.c_str(), u(r.differing_volume), u(r.only_a), u(r.only_b),
              u(r.both_changed));
  std::printf("regions (%lld-voxel blocks): %zu\n", (long long)o.block, r.regions.size());
  for (size_t i = 0; i < r.regions.size() && i < o.list; ++i) {
    std::printf("  %s  %llu voxels\n", to_string(r.regions[i].bounds).c_str(), u(r.regions[i].volume));
  }
  if (r.regions.size() > o.list) std::printf("  ... %zu more\n", r.regions.size() - o.list);
  std::printf("veins: %llu only in A, %llu only in B, %llu in both\n", u(r.veins_only_a),
              u(r.veins_only_b), u(r.veins_common));
}

void run_diff(const Context& ctx, const DiffOptions& o) {
  const int block_log2 = log2_option(o.block, "--block");
  const Loaded a = load(o.a, o.any_depth);
  const Loaded b = load(o.b, o.any_depth);
  const auto r = with_source(b.name, [&] { return octree::diff(a.view, b.view, block_log2); });
  const bool same = r.differing_volume == 0 && r.veins_only_a == 0 && r.veins_only_b == 0;
  // As cmp and diff do: 0 when the inputs are the same, kExitDiffer when they differ.
  print_diff(o, a, b, r, same);
  std::fflush(stdout);
  if (!same) throw ExitWith{kExitDiffer};
}

void run_merge(const Context& ctx, const DiffOptions& o) {
  io::check_output(o.output, ctx.out());
  const Loaded a = load(o.a, o.any_depth);
  const Loaded b = load(o.b, o.any_depth);
  octree::MergeStats st;
  const auto out = with_source(b.name, [&] { return octree::merge(a.view, b.view, &st); });
  io::write_file(o.output, out, ctx.out());
  ctx.info("octree merge: " + std::to_string(out.size()) + " bytes; modified leaves " +
           std::to_string(st.leaves_from_a) + " from A, " + std::to_string(st.leaves_from_b) +
           " from B; veins " + std::to_string(st.veins_from_a) + " from A, " +
           std::to_string(st.veins_from_b) + " from B");
}

}  // namespace

void add_diff_merge(CLI::App& parent, Context& ctx) {
  auto o = std::make_shared<DiffOptions>();
  auto* d = parent.add_subcommand(
      "diff", "Where two terrain.dat deltas of one world differ (exit 0: the same, 3: they differ)");
  d->add_option("a", o->a, "First terrain.dat")->required();
  d->add_option("b", o->b, "Second terrain.dat")->required();
  d->add_flag("--json", o->json, "Print JSON");
  d->add_option("--block", o->block, "Block edge for regions (power of two)")->capture_default_str();
  d->add_option("--list", o->list, "Regions listed in text output")->capture_default_str();
  d->add_flag("--any-depth", o->any_depth, "Accept maxDepth 0..24");
  d->callback([&ctx, o] { run_diff(ctx, *o); });

  auto* m = parent.add_subcommand("merge", "B's modifications over A, as one terrain.dat");
  m->add_option("a", o->a, "Base delta")->required();
  m->add_option("b", o->b, "Delta laid over it")->required();
  m->add_option("-o,--output", o->output, "Merged terrain.dat ('-' = stdout)")->default_val("-");
  m->add_flag("--any-depth", o->any_depth, "Accept maxDepth 0..24");
  m->callback([&ctx, o] { run_merge(ctx, *o); });
}

}  // namespace voxkit::cli::octree_verbs
