// Seeded generator of realistic world.xml documents and .save archives.
#include "formats/stationeers/save_synth.hpp"

#include <random>

#include "formats/image/png.hpp"
#include "formats/stationeers/zip.hpp"

namespace voxkit::save_synth {
namespace {

std::string fixed(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", d(rng));
  return buf;
}

const char* kPrefabs[] = {"StructureWallIron", "StructureFrame", "StructureCableStraight",
                          "StructurePipeStraight", "ItemIronOre", "StructureSolarPanel",
                          "ItemKitWall", "StructureBattery", "StructureLightLong"};

// Atmospheres, rooms and checksums: the end of the document after <AllThings>.
std::string world_tail(const std::vector<octree::Room>& rooms, int max_depth,
                       std::mt19937& rng) {
  std::string s;
  s += "  </AllThings>\n";
  // Atmospheres also hold <Grid> elements: they are not rooms.
  s += "  <Atmospheres>\n    <AtmosphereSaveData>\n      <Grid><x>10</x><y>20</y><z>30</z></Grid>\n"
       "      <Oxygen>" + fixed(rng, 0, 50) + "</Oxygen>\n    </AtmosphereSaveData>\n"
       "  </Atmospheres>\n";
  s += "  <Rooms>\n";
  uint64_t room_id = 1;
  for (auto& r : rooms) {
    s += "    <Room>\n      <RoomId>" + std::to_string(room_id++) + "</RoomId>\n      <Grids>\n";
    for (auto& c : r.cells) {
      s += "        <Grid>\n          <x>" + std::to_string(c.x) + "</x>\n          <y>" +
           std::to_string(c.y) + "</y>\n          <z>" + std::to_string(c.z) +
           "</z>\n        </Grid>\n";
    }
    s += "      </Grids>\n      <IsSealed>true</IsSealed>\n    </Room>\n";
  }
  s += "  </Rooms>\n";
  s += "  <Notes><![CDATA[<x>1</x> is not a room cell]]></Notes>\n";
  s += "  <TerrainChunkChecksums>\n";
  const int chunks = max_depth > 10 ? 1 << (3 * (max_depth - 10)) : 1;
  for (int i = 0; i < chunks; ++i) {
    s += "    <int>" + std::to_string(int32_t(rng())) + "</int>\n";
  }
  s += "  </TerrainChunkChecksums>\n</WorldData>\n";
  return s;
}

}  // namespace

std::vector<octree::Room> synth_rooms(uint32_t seed, int bases, int max_depth) {
  std::mt19937 rng(seed);
  const int64_t size = int64_t(1) << max_depth;
  std::uniform_int_distribution<int64_t> horiz(-size / 2 + 64, size / 2 - 64);
  std::uniform_int_distribution<int64_t> height(size / 4, size / 2);
  std::uniform_int_distribution<int> rooms_per_base(1, 4), extent(1, 6), offset(-12, 12);
  std::vector<octree::Room> rooms;
  for (int b = 0; b < bases; ++b) {
    const int64_t bx = horiz(rng) & ~int64_t(1), by = height(rng) & ~int64_t(1),
                  bz = horiz(rng) & ~int64_t(1);
    const int n = rooms_per_base(rng);
    for (int r = 0; r < n; ++r) {
      octree::Room room;
      const int64_t ox = bx + 2 * offset(rng), oz = bz + 2 * offset(rng);
      const int ex = extent(rng), ey = 1 + extent(rng) / 3, ez = extent(rng);
      for (int i = 0; i < ex; ++i)
        for (int j = 0; j < ey; ++j)
          for (int k = 0; k < ez; ++k) {
            // The game writes grid positions at 10x scale; cells are 2 voxels apart.
            room.cells.push_back({(ox + 2 * i) * 10, (by + 2 * j) * 10, (oz + 2 * k) * 10});
          }
      rooms.push_back(std::move(room));
    }
  }
  return rooms;
}

std::string synth_world_xml(const std::vector<octree::Room>& rooms,
                            const WorldXmlOptions& o) {
  std::mt19937 rng(o.seed);
  std::string s;
  s.reserve(size_t(o.target_bytes) + (1 << 16));
  s += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
  s += "<WorldData xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" "
       "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n";
  s += "  <GameVersion>0.2.5499.24517</GameVersion>\n";
  s += "  <WorldSettings>\n    <WorldName>Lunar</WorldName>\n    <Seed>" +
       std::to_string(rng()) + "</Seed>\n    <Difficulty>Normal</Difficulty>\n"
       "    <!-- maxDepth " + std::to_string(o.max_depth) + " -->\n  </WorldSettings>\n";
  s += "  <WorldTime>" + fixed(rng, 1000, 90000) + "</WorldTime>\n";
  s += "  <AllThings>\n";
  uint64_t ref = 100000;
  auto thing = [&](const std::string& type, const std::string& prefab, const std::string& name) {
    s += "    <ThingSaveData xsi:type=\"" + type + "\">\n";
    s += "      <ReferenceId>" + std::to_string(ref++) + "</ReferenceId>\n";
    s += "      <PrefabName>" + prefab + "</PrefabName>\n";
    if (!name.empty()) s += "      <CustomName>" + name + "</CustomName>\n";
    s += "      <WorldPosition><x>" + fixed(rng, -2000, 2000) + "</x><y>" +
         fixed(rng, 0, 900) + "</y><z>" + fixed(rng, -2000, 2000) + "</z></WorldPosition>\n";
    s += "      <WorldRotation><x>0</x><y>0</y><z>0</z><w>1</w></WorldRotation>\n";
    s += "      <Health>" + fixed(rng, 0, 100) + "</Health>\n";
    s += "    </ThingSaveData>\n";
  };
  // Signs: the game writes control characters of player text as character references,
  // which XML 1.0 forbids.
  const char* names[] = {"Base&#xB;North", "Airlock &#x1F; 2", "Greenhouse&#xB;&#xB;",
                         "Fuel &amp; O2", "&#8;Storage", "Sign &lt;3 &#xC;"};
  for (int i = 0; i < o.signs; ++i) {
    thing("StructureSaveData", "StructureSign1x1", names[i % 6]);
  }
  // What follows the things is built first, so the things can fill up to the target size.
  const std::string tail = world_tail(rooms, o.max_depth, rng);
  std::uniform_int_distribution<size_t> prefab(0, std::size(kPrefabs) - 1);
  while (s.size() + tail.size() < o.target_bytes) {
    thing("StructureSaveData", kPrefabs[prefab(rng)], "");
  }
  s += tail;
  return s;
}

std::vector<uint8_t> synth_png(uint32_t w, uint32_t h, uint32_t rgb) {
  RgbImage img;
  img.width = w;
  img.height = h;
  img.rgb.reserve(size_t(w) * h * 3);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      img.rgb.push_back(uint8_t(rgb >> 16));
      img.rgb.push_back(uint8_t(rgb >> 8));
      img.rgb.push_back(uint8_t(rgb ^ (x + y)));
    }
  }
  // Level 9: the level these pictures have always been deflated at, so synthetic saves keep
  // their bytes.
  return png::encode(img, 9);
}

std::vector<uint8_t> synth_save(std::span<const uint8_t> terrain_dat,
                                const std::vector<octree::Room>& rooms,
                                const SaveOptions& o) {
  std::mt19937 rng(o.seed);
  WorldXmlOptions wo;
  wo.seed = o.seed;
  wo.max_depth = o.max_depth;
  wo.target_bytes = o.world_xml_bytes;
  const std::string world = synth_world_xml(rooms, wo);
  const std::string meta =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<WorldMetaData>\n"
      "  <WorldName>Lunar</WorldName>\n  <GameVersion>0.2.5499.24517</GameVersion>\n"
      "  <SaveTime>" + std::to_string(rng() % 1000000) + "</SaveTime>\n</WorldMetaData>\n";
  auto bytes = [](const std::string& s) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  zip::Writer w;
  zip::Writer::Options d;
  d.level = o.level;
  d.mod_time = uint16_t((13 << 11) | (37 << 5) | 12);  // 13:37:24
  d.mod_date = uint16_t(((2026 - 1980) << 9) | (11 << 5) | 30);
  zip::Writer::Options stored = d;
  stored.method = 0;
  w.add("world_meta.xml", bytes(meta), d);
  w.add("world.xml", bytes(world), d);
  w.add("terrain.dat", terrain_dat, d);
  if (o.pngs) {
    w.add("preview.png", synth_png(64, 36, 0x304050), stored);
    w.add("screenshot.png", synth_png(160, 90, 0x806040), d);
  }
  if (o.mod_members) {
    zip::Writer::Options desc = d;
    desc.descriptor = true;
    std::string state = "<SynthMod version=\"3\">\n";
    for (int i = 0; i < 200; ++i) state += "  <Entry id=\"" + std::to_string(rng() % 9999) + "\"/>\n";
    state += "</SynthMod>\n";
    w.add("mods/SynthMod/state.xml", bytes(state), desc);
    zip::Writer::Options ext = stored;
    // An extended-timestamp extra field (id 0x5455): flags 1, mtime.
    ext.extra = {0x55, 0x54, 5, 0, 1, 0x40, 0x3a, 0x6c, 0x69};
    std::vector<uint8_t> blob(4096);
    for (auto& b : blob) b = uint8_t(rng());
    w.add("SynthMod.bin", blob, ext);
    w.add("notes/readme.txt", bytes(std::string("Saved with SynthMod.\n")), d);
  }
  return w.finish();
}

}  // namespace voxkit::save_synth
