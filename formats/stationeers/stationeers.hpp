// Stationeers terrain as files: a terrain.dat delta loaded from a bare file or a .save, the
// rooms of world.xml, and the reset job (docs/octree-reset.md) with its typed report.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_reset.hpp"
#include "lib/octree/octree_shapes.hpp"

namespace voxkit::stationeers {

// terrain.dat of a 4096^3 world is tens of MB; 2 GiB leaves room and stays far from int32
// offsets.
inline constexpr uint64_t kMaxTerrainBytes = uint64_t(2) << 30;
// world.xml is tens of MB in real saves.
inline constexpr uint64_t kMaxWorldBytes = uint64_t(1) << 30;

// A delta read from a bare terrain.dat or from a .save (terrain.dat + world.xml members).
struct Loaded {
  std::string path, name;            // as given, and as printed
  bool is_save = false;
  std::vector<uint8_t> bytes;        // terrain.dat
  octree::DeltaView view;            // into bytes
  std::optional<std::string> world;  // world.xml, from the save
  // Where the two members came from in the save, so a rewrite can reuse their unchanged
  // compressed blocks without inflating them again.
  save::MemberOrigin terrain_origin, world_origin;
};

// Reads and validates; errors name the file (and the member, for a save).
Loaded load(const std::string& path, bool any_depth);
// Reads a world.xml file given beside a bare terrain.dat.
std::string load_world(const std::string& path);
// The rooms of a world.xml (tolerant reader), as cells for the reset shapes.
std::vector<octree::Room> rooms_of(const std::string& xml, const std::string& name);
// True when the file starts like a ZIP archive (a .save); false for stdin.
bool is_save_file(const std::string& path);

// A reset of a terrain.dat or a save.
struct ResetJob {
  std::string input;
  std::string output;        // "" with in_place or dry_run (a save without -o is in place)
  bool in_place = false;     // a bare terrain.dat rewritten (saves are unless output is set)
  bool dry_run = false;
  bool any_depth = false;
  bool compat = false;
  octree::Region region;     // the explicit keep and drop shapes
  bool keep_rooms = false;   // add the rooms of world.xml to the keep shapes
  bool rooms_bbox = false;   // ... as their one bounding box
  int64_t margin = 3;
  std::string world;         // world.xml beside a bare terrain.dat
  // A rooms-based reset of a world with no rooms resets all terrain: refused unless set.
  bool reset_all_if_no_rooms = false;
  bool keep_checksums = false;
  uint64_t max_output = octree::kDefaultMaxOutputBytes;  // refuse a larger terrain.dat
  io::OutputOptions out;     // for a new output (force, binary)
  io::Backup backup;         // for an edit in place
};

struct ResetReport {
  std::string file, kind;  // the input as printed; "save" or "terrain.dat"
  bool dry_run = false, compat = false;
  std::vector<std::string> keep, drop;  // the shapes, described
  octree::ResetStats stats;
  struct Rooms {
    size_t rooms = 0, cells = 0;
    int64_t margin = 0;
    bool bbox = false;
  };
  std::optional<Rooms> rooms;
  struct Checksums {
    size_t entries = 0, nonzero = 0;
    bool zeroed = false;
  };
  std::optional<Checksums> checksums;  // saves only
  struct SaveInfo {
    uint64_t members = 0, bytes_before = 0, bytes_after = 0, reused_bytes = 0;
    bool written = false;
  };
  std::optional<SaveInfo> save;
  std::optional<std::string> output;  // what was written (none for a dry run)
  std::optional<std::string> backup;  // the backup made
  std::vector<std::string> warnings;

  nlohmann::json to_json() const;
  std::string to_text() const;
};

// Runs the reset and writes its output (or nothing, for a dry run).
ResetReport run_reset(const ResetJob& job);

}  // namespace voxkit::stationeers
