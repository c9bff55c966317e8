// Every verb's --help ends with examples (where the verb has none of its own) and the global
// flags, which CLI11 lists only under `voxkit --help`.
#include <map>
#include <string>
#include <vector>

#include "tools/verbs.hpp"

namespace voxkit::cli {

namespace {

// Examples by the verb's path ("zone extract").
const std::map<std::string, std::vector<std::string>>& examples() {
  static const std::map<std::string, std::vector<std::string>> m{
      {"bake",
       {"voxkit bake dem.tif -o quarry.vxz --center 7000,600,8000 --size 256,60,256 --voxel-size 1",
        "voxkit bake terrain.raw --terrain-size 512,120,512 -o z.vxz --splat control.png --layers grass,rock"}},
      {"rebake", {"voxkit rebake quarry.vxz dem-2026.tif -o quarry-new.vxz"}},
      {"preview",
       {"voxkit preview quarry.vxz -o top.png", "voxkit preview quarry.vxz --view slice --slice z=120 -o slice.png"}},
      {"mesh",
       {"voxkit mesh quarry.vxz -o quarry.glb --stats", "voxkit mesh quarry.vxz -o quarry.obj --merge",
        "voxkit mesh chunk.txt -o chunk.ply"}},
      {"caves label", {"voxkit caves label module.raw --cells 64,64,64 -o module.regions"}},
      {"melt", {"voxkit melt module.raw hits.csv --cells 64,64,64 -o melted.raw"}},
      {"zone import-unity", {"voxkit zone import-unity DigZone_Quarry.asset -o quarry.vxz"}},
      {"zone export-unity",
       {"voxkit zone export-unity quarry.vxz -o DigZone_Quarry.asset", "voxkit zone export-unity quarry.vxz DigZone_Quarry.asset"}},
      {"zone hole-mask", {"voxkit zone hole-mask quarry.vxz --terrain-pos 0,0,0 --terrain-size 1000,600,1000 --hole-resolution 512 -o holes.png"}},
      {"info", {"voxkit info quarry.vxz", "voxkit info terrain.dat --json", "voxkit info grid.raw --cells 32,32,32"}},
      {"octree info", {"voxkit octree info world.save", "voxkit octree info terrain.dat --json"}},
      {"octree reset",
       {"voxkit octree reset world.save --keep-rooms --margin 8", "voxkit octree reset terrain.dat --drop-radius 0,0,200 -o new.dat"}},
      {"octree checksum",
       {"voxkit octree checksum Terrain0.dat Terrain1.dat",
        "voxkit octree checksum world.save --base-dir Worlds/Mars2/Terrain --check",
        "voxkit octree checksum world.save --base-dir Worlds/Mars2/Terrain --update",
        "voxkit octree checksum world.xml --update --in-place"}},
      {"octree base",
       {"voxkit octree base terrain.dat -o Terrain0.dat", "voxkit octree base nodes.bin --from nodes --max-depth 10 -o Terrain3.dat",
        "voxkit -f octree base Terrain3.dat -o Terrain3.dat"}},
      {"octree diff", {"voxkit octree diff before.dat after.dat --json"}},
      {"octree merge", {"voxkit octree merge base.dat overlay.dat -o merged.dat"}},
      {"octree synth", {"voxkit octree synth -o terrain.dat --seed 7", "voxkit octree synth --save world.save --max-depth 10"}},
      {"octree export", {"voxkit octree export terrain.dat --box 0,0,0,127,63,127 -o area.vxz"}},
      {"save list", {"voxkit save list world.save"}},
      {"save extract", {"voxkit save extract world.save terrain.dat -o terrain.dat"}},
      {"save replace", {"voxkit save replace world.save terrain.dat=new-terrain.dat", "voxkit save replace -n world.save world.xml=world.xml"}},
      {"save rooms", {"voxkit save rooms world.save --json"}},
      {"pack", {"voxkit pack grid.raw --cells 64,32,64 -o chunks.bin", "voxkit pack quarry.vxz -o chunks.bin"}},
      {"unpack", {"voxkit unpack chunks.bin -o grid.raw", "voxkit unpack chunks.bin --chunk 1,0,2 -o chunk.raw"}},
      {"rle encode", {"voxkit rle encode grid.raw -o grid.rle", "voxkit rle encode quarry.vxz -o grid.rle",
                      "voxkit rle encode --batch grids.vxb -o streams.vxb"}},
      {"rle decode", {"voxkit rle decode grid.rle -o grid.raw",
                      "voxkit rle decode --batch --keep-going streams.vxb -o grids.vxb"}},
      {"b64 encode", {"voxkit b64 encode block.lz4 -o block.txt", "printf 'abc' | voxkit b64 encode --no-newline",
                      "voxkit b64 encode --batch blocks.vxb -o blocks.txt"}},
      {"b64 decode", {"voxkit b64 decode block.txt -o block.lz4",
                      "voxkit b64 decode --batch strings.txt -o blocks.vxb"}},
      {"lz4 compress", {"voxkit lz4 compress chunk.bin -o chunk.lz4",
                        "voxkit lz4 compress --batch --hc chunks.vxb -o blocks.vxb"}},
      {"lz4 decompress", {"voxkit lz4 decompress chunk.lz4 --size 4913 -o chunk.bin",
                          "voxkit lz4 decompress --batch --size 4913 blocks.vxb -o chunks.vxb"}},
      {"chunk convert",
       {"voxkit chunk convert chunk.txt --to lua -o chunk.lua", "voxkit chunk convert chunks.txt --batch --to json -o chunks.json",
        "voxkit chunk convert chunks.txt --batch --keep-going --json --to bin -o chunks.vxb"}},
      {"edit pack", {"voxkit edit pack --pos 10,4,12 --radius 1.5 --op dig"}},
      {"edit unpack", {"voxkit edit unpack 0x0114a3c2000a0b01 --json"}},
      {"edit apply", {"voxkit edit apply quarry.vxz edits.txt -o dug.vxz", "voxkit edit apply quarry.vxz edits.json --in-place"}},
      {"edit replay", {"voxkit edit replay quarry.vxz session.vxlog -o replayed.vxz"}},
      {"edit diff", {"voxkit edit diff quarry.vxz dug.vxz --json"}},
      {"foliage check", {"voxkit foliage check quarry-foliage.vxz --json"}},
      {"grass scatter",
       {"voxkit grass scatter Meadow.vxgrass quarry.vxz --cells 214,246,221,253 -o blades.glb",
        "voxkit grass scatter Meadow.vxgrass quarry.vxz --explain 215,247",
        "voxkit grass scatter Meadow.vxgrass dem.tif --splat control.png --layers Grass,Rock --cells=-2,-2,1,1 --json"}},
      {"grass residency", {"voxkit grass residency --path camera.csv --range 160 --capacity 256 --json"}},
      {"grass type", {"voxkit grass type Meadow.vxgrass --to json"}},
      {"tile bake", {"voxkit tile bake world.toml --tile 2,3 -o tile_2_3.vxz"}},
      {"tile mesh", {"voxkit tile mesh world.toml --tile 2,3 --zone tile_2_3.vxz -o tile_2_3.glb"}},
      {"tile index", {"voxkit tile index world.toml --dir plan -o plan/world_index.json"}},
      {"plan",
       {"voxkit plan world.toml --emit ninja -o plan && ninja -C plan",
        "voxkit plan world.toml --emit snakemake -o plan && cd plan && snakemake --profile profiles/local",
        "voxkit plan saves.toml --emit snakemake -o resets"}},
  };
  return m;
}

const char* kGlobalFlags =
    "Global flags (before or after the verb): -q,--quiet (no diagnostics or progress), -f,--force (overwrite "
    "outputs), -j,--threads N (worker threads; results never depend on it), --version.";

void walk(CLI::App* app, const std::string& path) {
  for (CLI::App* sub : app->get_subcommands({})) {
    const std::string p = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    std::string footer = sub->get_footer();
    if (footer.find("Example") == std::string::npos) {
      const auto it = examples().find(p);
      if (it != examples().end()) {
        std::string ex = "Examples:";
        for (const auto& e : it->second) ex += "\n  " + e;
        footer = footer.empty() ? ex : footer + "\n\n" + ex;
      }
    }
    sub->footer((footer.empty() ? "" : footer + "\n\n") + kGlobalFlags);
    walk(sub, p);
  }
}

}  // namespace

void add_help_footers(CLI::App& app) { walk(&app, ""); }

}  // namespace voxkit::cli
