// A seeded generator of realistic terrain.dat deltas for tests and benchmarks: dug tunnels
// (capsules with a graded rim), flattened base pads (air above, filled soil below), veins
// of minables, and the rooms of a base on each pad.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/octree/octree_shapes.hpp"

namespace voxkit::octree {

struct SynthOptions {
  uint32_t seed = 1;
  int max_depth = 12;
  uint32_t pads = 3;        // flattened base pads, each with rooms on it
  uint32_t tunnels = 200;   // each 64..512 voxels long, radius 2..5
  uint32_t veins = 300;
  // Output grows about linearly with tunnels: 4096^3 with 600 tunnels is about 53 MB.
};

struct SynthResult {
  std::vector<uint8_t> terrain_dat;
  std::vector<Room> rooms;  // cells as world.xml stores them (10x world voxels)
  std::vector<Box3i> pads;  // world coordinates
};

// Throws a usage error for a max_depth outside 4..16. Same options, same bytes.
SynthResult synthesize(const SynthOptions& opts);

// A small world.xml around the rooms: <Rooms>, a <TerrainChunkChecksums> of `checksums`
// zero entries, and a sign whose name holds the character reference &#xB; that strict
// XML parsers reject (real saves contain it).
std::string synth_world_xml(const std::vector<Room>& rooms, size_t checksums);

}  // namespace voxkit::octree
