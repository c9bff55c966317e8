// Seeded synthetic Stationeers saves for tests, fixtures and benchmarks: a realistic
// world.xml (rooms of several bases, signs whose names hold &#xB;, things, atmospheres,
// TerrainChunkChecksums) and the .save ZIP around a given terrain.dat.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/octree/octree_shapes.hpp"

namespace voxkit::save_synth {

// Rooms of `bases` bases spread over a world of 2^max_depth voxels per axis (world x and z
// in [-size/2, size/2), y in [0, size)); each base a few box-shaped rooms of 2-voxel cells.
std::vector<octree::Room> synth_rooms(uint32_t seed, int bases, int max_depth);

struct WorldXmlOptions {
  uint32_t seed = 1;
  int max_depth = 12;           // TerrainChunkChecksums gets 8^(max_depth - 10) entries
  uint64_t target_bytes = 0;    // add things until the document is about this large
  int signs = 6;                // signs with &#xB; (and other references) in their names
};

// A world.xml holding `rooms` under <Rooms>, in the game's layout.
std::string synth_world_xml(const std::vector<octree::Room>& rooms,
                            const WorldXmlOptions& opts);

struct SaveOptions {
  uint32_t seed = 1;
  int max_depth = 12;
  uint64_t world_xml_bytes = 0;  // see WorldXmlOptions::target_bytes
  bool pngs = true;              // preview.png and screenshot.png (a dedicated server has none)
  bool mod_members = true;       // members a mod might add, after the game's
  int level = 6;                 // zlib level of deflated members
};

// The members, in order: world_meta.xml, world.xml, terrain.dat, preview.png,
// screenshot.png, then for mods: mods/SynthMod/state.xml (deflated, with a data
// descriptor), SynthMod.bin (stored, with an extra field), notes/readme.txt (deflated).
// preview.png is stored, every other game member deflated.
std::vector<uint8_t> synth_save(std::span<const uint8_t> terrain_dat,
                                const std::vector<octree::Room>& rooms,
                                const SaveOptions& opts);

// A small valid PNG (w x h, RGB: the colour, its blue channel XORed with x + y), encoded by
// png::encode at level 9.
std::vector<uint8_t> synth_png(uint32_t w, uint32_t h, uint32_t rgb);

}  // namespace voxkit::save_synth
