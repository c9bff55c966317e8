// The grass residency ring (lib/grass/residency.hpp) against the engine's own properties
// (GrassResidencyTests), hand-worked cases of its rules, a plain reference model of the
// engine's Update on random camera walks, the panel's numbers, and the camera path reader and
// job (formats/grass/).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "formats/grass/camera_path.hpp"
#include "formats/grass/residency_job.hpp"
#include "lib/core/error.hpp"
#include "lib/grass/residency.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using namespace voxkit::grass;

namespace {

std::vector<CellSlot> by_slot(std::vector<CellSlot> v) {
  std::sort(v.begin(), v.end(), [](const CellSlot& a, const CellSlot& b) { return a.slot < b.slot; });
  return v;
}

// Every slot held once, in range, and held + free = capacity.
void check_slots(const Residency& r) {
  std::set<int32_t> slots;
  for (const CellSlot& c : r.resident()) {
    CHECK(c.slot >= 0);
    CHECK(c.slot < r.capacity());
    slots.insert(c.slot);
    CHECK(r.slot_of(c.cell) == c.slot);
  }
  CHECK(slots.size() == r.count());
  CHECK(r.count() + r.free_slots() == size_t(r.capacity()));
}

// The engine's Update written out as plainly as it reads (full scans, a list in insertion
// order): the reference the ring's faster bookkeeping must agree with, change for change.
struct ReferenceRing {
  CellGrid grid;
  int capacity;
  float hysteresis = kDefaultHysteresis;
  std::vector<CellSlot> resident;  // insertion order
  std::vector<int32_t> free;
  uint64_t refused = 0;

  ReferenceRing(float size, int cap) : grid{size}, capacity(cap) {
    for (int s = cap - 1; s >= 0; --s) free.push_back(s);
  }
  bool has(CellKey c) const {
    return std::any_of(resident.begin(), resident.end(), [&](const CellSlot& s) { return s.cell == c; });
  }
  ResidencyChange update(float x, float z, float range) {
    ResidencyChange ch;
    refused = 0;
    const float keep = range * (1.0f + std::max(hysteresis, 0.0f));
    for (const CellSlot& s : resident)
      if (grid.distance(s.cell, x, z) > keep) ch.evicted.push_back(s);
    for (const CellSlot& gone : ch.evicted) {
      resident.erase(std::find(resident.begin(), resident.end(), gone));
      free.push_back(gone.slot);
    }
    const CellKey lo = grid.cell_of(x - range, z - range), hi = grid.cell_of(x + range, z + range);
    std::vector<CellKey> wanted;
    for (int32_t cz = lo.z; cz <= hi.z; ++cz)
      for (int32_t cx = lo.x; cx <= hi.x; ++cx)
        if (!has({cx, cz}) && grid.distance({cx, cz}, x, z) <= range) wanted.push_back({cx, cz});
    std::stable_sort(wanted.begin(), wanted.end(),
                     [&](CellKey a, CellKey b) { return grid.distance(a, x, z) < grid.distance(b, x, z); });
    for (CellKey c : wanted) {
      if (free.empty()) {
        const float want = grid.distance(c, x, z);
        float far = want;
        int found = -1;
        for (size_t i = 0; i < resident.size(); ++i) {
          const float d = grid.distance(resident[i].cell, x, z);
          if (d > far) far = d, found = int(i);
        }
        if (found < 0) {
          refused = wanted.size() - ch.created.size();
          break;
        }
        ch.evicted.push_back(resident[size_t(found)]);
        free.push_back(resident[size_t(found)].slot);
        resident.erase(resident.begin() + found);
      }
      const int32_t slot = free.back();
      free.pop_back();
      resident.push_back({c, slot});
      ch.created.push_back({c, slot});
    }
    return ch;
  }
};

}  // namespace

TEST_CASE("grass residency: the cell grid, floor and distance to the rectangle", "[grass][residency]") {
  const CellGrid g;
  CHECK(g.cell_size() == 32.0f);
  CHECK(g.cell_of(-0.5f, 0.5f) == CellKey{-1, 0});
  CHECK(g.cell_of(31.999f, -32.0f) == CellKey{0, -1});
  CHECK(g.cell_of(-32.001f, 64.0f) == CellKey{-2, 2});
  CHECK(CellGrid{0.25f}.cell_size() == 1.0f);
  CHECK(g.distance({0, 0}, 0.5f, 0.5f) == 0.0f);
  CHECK(g.distance({2, 0}, 0.0f, 0.0f) == 64.0f);
  CHECK(g.distance({1, 1}, 0.0f, 0.0f) == std::sqrt(2.0f * 32 * 32));
  CHECK(g.distance({-1, 0}, 16.0f, 16.0f) == 16.0f);
  CHECK(g.origin_x({-3, 2}) == -96.0f);
  CHECK_THROWS_AS(g.cell_of(3e10f * 32, 0), Error);
  CHECK_THROWS_AS(g.cell_of(NAN, 0), Error);
}

TEST_CASE("grass residency: the cell under the view is resident at any range", "[grass][residency]") {
  Residency ring(32.0f, 64);
  auto ch = ring.update(16.0f, 16.0f, 1.0f);
  CHECK(ring.slot_of({0, 0}) == 0);
  CHECK(ch.created == std::vector<CellSlot>{{{0, 0}, 0}});
  Residency edge(32.0f, 64);
  edge.update(0.5f, 0.5f, 5.0f);
  CHECK(edge.slot_of({0, 0}).has_value());
  CHECK(edge.distance_to({0, 0}, 0.5f, 0.5f) == 0.0f);
}

TEST_CASE("grass residency: free slots are a stack, popped 0, 1, 2, ... and creation is inclusive", "[grass][residency]") {
  Residency ring(32.0f, 3);
  // From (16, 16) at 16 m the square is cells floor(0 / 32) = 0 .. floor(32 / 32) = 1 on both
  // axes (the engine's square: (-1, 0), also 16 m away, is not in it). Wanted: (0,0) at 0,
  // then (1,0) and (0,1) at exactly 16 m (inclusive); (1,1) is 22.6 m away.
  const auto ch = ring.update(16.0f, 16.0f, 16.0f);
  CHECK(ch.created == std::vector<CellSlot>{{{0, 0}, 0}, {{1, 0}, 1}, {{0, 1}, 2}});
  CHECK(ch.evicted.empty());
  CHECK(ring.refused() == 0);
  CHECK(ring.free_slots() == 0);
  CHECK(!ring.slot_of({-1, 0}));
}

TEST_CASE("grass residency: reclaim takes the furthest, the first inserted among equals", "[grass][residency]") {
  Residency ring(32.0f, 3);
  ring.update(16.0f, 16.0f, 16.0f);  // (0,0) 0, (1,0) 1, (0,1) 2
  // From (12, 12) at 20 m (keep 23): (1,0) and (0,1) are both 20 m away and stay; the wanted
  // cells are (0,-1) and (-1,0) at 12 m and (-1,-1) at 16.97 m.
  const auto ch = ring.update(12.0f, 12.0f, 20.0f);
  CHECK(ch.evicted == std::vector<CellSlot>{{{1, 0}, 1}, {{0, 1}, 2}});
  CHECK(ch.created == std::vector<CellSlot>{{{0, -1}, 1}, {{-1, 0}, 2}});
  CHECK(ring.refused() == 1);  // (-1,-1): nothing resident is further than it
  CHECK(ring.resident() == std::vector<CellSlot>{{{0, 0}, 0}, {{0, -1}, 1}, {{-1, 0}, 2}});
}

TEST_CASE("grass residency: a full ring reclaims only from a strictly further resident", "[grass][residency]") {
  Residency ring(32.0f, 2);
  ring.update(16.0f, 16.0f, 0.0f);  // only (0,0): its neighbours are 16 m away
  CHECK(ring.resident() == std::vector<CellSlot>{{{0, 0}, 0}});
  ring.update(16.0f, 16.0f, 40.0f);
  CHECK(ring.resident() == std::vector<CellSlot>{{{0, 0}, 0}, {{0, -1}, 1}});
  CHECK(ring.refused() == 7);  // 8 wanted, 1 placed; (0,-1) at 16 m is not further than (-1,0)
  const auto ch = ring.update(48.0f, 16.0f, 40.0f);
  CHECK(ch.evicted == std::vector<CellSlot>{{{0, -1}, 1}});  // 22.6 m, the furthest
  REQUIRE(!ch.created.empty());
  CHECK(ch.created[0] == CellSlot{{1, 0}, 1});
  CHECK(ch.created.size() == 1);
  CHECK(ring.refused() > 0);

  // The engine's case: nine slots, the camera moves two cells along.
  Residency nine(32.0f, 9);
  nine.update(0.0f, 0.0f, 96.0f);
  CHECK(nine.count() == 9);
  nine.update(64.0f, 0.0f, 96.0f);
  CHECK(nine.slot_of({2, 0}).has_value());
  CHECK(nine.count() == 9);
  check_slots(nine);
}

TEST_CASE("grass residency: a camera wobbling 1 cm on a boundary at 64 m never evicts", "[grass][residency]") {
  Residency ring(32.0f, 64);
  ring.update(0.0f, 0.0f, 64.0f);
  int settled = 0;
  for (int frame = 0; frame < 8; ++frame) {
    const float wobble = frame % 2 == 0 ? 0.01f : -0.01f;
    const auto ch = ring.update(wobble, 0.0f, 64.0f);
    INFO("frame " << frame);
    CHECK(ch.evicted.empty());
    if (ch.created.empty()) ++settled;
    else CHECK(frame < 2);
  }
  CHECK(settled >= 6);
}

TEST_CASE("grass residency: a 9-slot ring at 96 m stands still when the camera does", "[grass][residency]") {
  Residency ring(32.0f, 9);
  ring.update(200.0f, 200.0f, 96.0f);
  const auto chosen = by_slot(ring.resident());
  CHECK(ring.count() == 9);
  CHECK(ring.refused() > 0);
  for (int frame = 0; frame < 8; ++frame) {
    const auto ch = ring.update(200.0f, 200.0f, 96.0f);
    CHECK(ch.empty());
    CHECK(ring.refused() > 0);
  }
  CHECK(by_slot(ring.resident()) == chosen);
}

TEST_CASE("grass residency: a ring too small drops the far cells and says so", "[grass][residency]") {
  Residency ring(32.0f, 4);
  ring.update(16.0f, 16.0f, 96.0f);
  CHECK(ring.count() == 4);
  CHECK(ring.slot_of({0, 0}).has_value());
  // Refused = every wanted cell (within 96 m of the view) but the four placed.
  const CellGrid g;
  uint64_t wanted = 0;
  for (int z = -3; z <= 3; ++z)
    for (int x = -3; x <= 3; ++x) wanted += g.distance({x, z}, 16.0f, 16.0f) <= 96.0f;
  CHECK(ring.refused() == wanted - 4);
  // The four kept are the nearest: the cell under the view and three at 16 m.
  for (const CellSlot& c : ring.resident()) CHECK(g.distance(c.cell, 16.0f, 16.0f) <= 16.0f);
}

TEST_CASE("grass residency: slots are handed back when cells leave and clear returns every slot", "[grass][residency]") {
  Residency ring(32.0f, 64);
  const auto arriving = ring.update(0.0f, 0.0f, 40.0f);
  CHECK(!arriving.created.empty());
  CHECK(arriving.evicted.empty());
  const size_t count = ring.count();
  const auto leaving = ring.update(1000.0f, 1000.0f, 40.0f);
  CHECK(leaving.evicted.size() == count);
  for (const CellSlot& gone : leaving.evicted) CHECK(!ring.slot_of(gone.cell));
  check_slots(ring);

  Residency small(32.0f, 16);
  small.update(0.0f, 0.0f, 40.0f);
  small.clear();
  CHECK(small.count() == 0);
  CHECK(small.free_slots() == 16);
  CHECK(small.refused() == 0);
  const auto again = small.update(0.0f, 0.0f, 40.0f);
  CHECK(again.created.size() == small.count());
  CHECK(small.count() <= 16);
  check_slots(small);
}

TEST_CASE("grass residency: no slot is ever held by two cells", "[grass][residency]") {
  Residency ring(32.0f, 32);
  for (int step = 0; step < 12; ++step) {
    ring.update(float(step) * 24.0f, float(step) * 7.0f, 48.0f);
    check_slots(ring);
  }
}

TEST_CASE("grass residency: random walks agree with the reference model and keep the view's cell resident", "[grass][residency]") {
  std::mt19937 rng(20261203);
  for (int cap : {1, 4, 9, 37, 256}) {
    for (float hyst : {0.15f, 0.0f, -1.0f, 0.6f}) {
      Residency ring(32.0f, cap);
      ring.set_hysteresis(hyst);
      ReferenceRing ref(32.0f, cap);
      ref.hysteresis = hyst;
      float x = 0, z = 0;
      std::uniform_real_distribution<float> step(-20.0f, 20.0f), ranges(0.0f, 120.0f), jump(-3000.0f, 3000.0f);
      float range = 64.0f;
      for (int i = 0; i < 400; ++i) {
        if (i % 97 == 96) x = jump(rng), z = jump(rng);
        else x += step(rng), z += step(rng);
        if (i % 50 == 0) range = std::round(ranges(rng));
        if (i % 131 == 130) {
          ring.clear();
          for (const CellSlot& c : ref.resident) ref.free.push_back(c.slot);
          ref.resident.clear();
        }
        const auto got = ring.update(x, z, range);
        const auto want = ref.update(x, z, range);
        INFO("capacity " << cap << ", hysteresis " << hyst << ", step " << i);
        REQUIRE(got.created == want.created);
        REQUIRE(got.evicted == want.evicted);
        REQUIRE(ring.refused() == ref.refused);
        REQUIRE(ring.resident() == ref.resident);
        REQUIRE(ring.slot_of(ring.grid().cell_of(x, z)).has_value());
        check_slots(ring);
      }
    }
  }
}

TEST_CASE("grass residency: a 10,000-step path at the dispatch's 256 slots", "[grass][residency]") {
  Residency ring(32.0f, 256);
  uint64_t created = 0, evicted = 0;
  for (int i = 0; i < 10000; ++i) {
    const float t = float(i) * 0.01f;
    const auto ch = ring.update(std::sin(t) * 2000.0f + float(i) * 0.5f, std::cos(t * 0.7f) * 1500.0f, 160.0f);
    created += ch.created.size();
    evicted += ch.evicted.size();
  }
  CHECK(created - evicted == ring.count());
  CHECK(ring.count() <= 256);
  check_slots(ring);
}

TEST_CASE("grass residency: bad parameters are usage errors, a bad view a data error, nothing changed", "[grass][residency]") {
  auto usage = [](auto f, const char* hint) {
    const auto e = test::thrown_error(f);
    REQUIRE(e);
    CHECK(e->kind() == ErrorKind::Usage);
    CHECK(e->has_hint(hint));
  };
  usage([] { Residency(32.0f, 0); }, "capacity");
  usage([] { Residency(32.0f, -3); }, "capacity");
  usage([] { Residency(32.0f, kMaxRingCapacity + 1); }, "capacity");
  usage([] { Residency(0.5f, 8); }, "cell-size");
  usage([] { Residency(NAN, 8); }, "cell-size");
  Residency ring(32.0f, 8);
  ring.update(0.0f, 0.0f, 40.0f);
  const auto before = ring.resident();
  usage([&] { ring.update(0.0f, 0.0f, -1.0f); }, "range");
  usage([&] { ring.update(0.0f, 0.0f, NAN); }, "range");
  usage([&] { ring.update(0.0f, 0.0f, INFINITY); }, "range");
  usage([&] { ring.update(0.0f, 0.0f, 1e7f); }, "range");  // 625,001^2 cells to scan
  usage([&] { ring.set_hysteresis(NAN); }, "hysteresis");
  const auto e = test::thrown_error([&] { ring.update(NAN, 0.0f, 40.0f); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Data);
  CHECK(ring.resident() == before);
}

TEST_CASE("grass residency: the panel's memory figure and density scale", "[grass][residency]") {
  CHECK(ring_memory_bytes(160.0f, 32.0f, 4096) == uint64_t(11 * 11) * 4096 * 48);  // the default panel
  CHECK(ring_memory_bytes(160.0f, 32.0f, 4096) == 23789568);
  CHECK(ring_memory_bytes(100.0f, 32.0f, 4096) == uint64_t(9 * 9) * 4096 * 48);  // ceil(3.125) = 4
  CHECK(ring_memory_bytes(0.0f, 32.0f, 256) == 256 * 48);
  CHECK(ring_memory_bytes(2000.0f, 0.5f, 65536) == uint64_t(4001) * 4001 * 65536 * 48);  // cells below 1 m are 1 m
  CHECK(ring_memory_bytes(16.0f, 32.0f, 4096, 32) == 9 * 4096 * 32);
  CHECK_THROWS_AS(ring_memory_bytes(-1.0f, 32.0f, 4096), Error);
  CHECK_THROWS_AS(ring_memory_bytes(3e38f, 1.0f, 4096), Error);
  CHECK(density_scale(true, 1.0f) == 1.0f);
  CHECK(density_scale(true, 0.25f) == 0.25f);
  CHECK(density_scale(true, 1.5f) == 1.0f);
  CHECK(density_scale(true, -2.0f) == 0.0f);
  CHECK(density_scale(false, 0.7f) == 0.0f);
}

// --- the camera path -------------------------------------------------------------------------

namespace {

std::string data_error(const std::string& text, uint64_t max_steps = kMaxCameraSteps) {
  const auto e = test::thrown_error([&] { read_camera_path(text, max_steps); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Data);
  return e->what();
}

}  // namespace

TEST_CASE("camera path: rows, ranges, clear, comments, a header, CRLF and a BOM", "[grass][camera_path]") {
  const std::string text =
      "\xEF\xBB\xBF# a walk\r\n"
      "\r\n"
      "X, y, Z, Range\r\n"
      "0,1.5,0\r\n"
      "  16 , 0 , -16.25 , 96 \n"
      "clear\n"
      "   # indented comment\n"
      "1e2,-0,3,0\n";
  const CameraPath p = read_camera_path(text);
  CHECK(p.header);
  REQUIRE(p.steps.size() == 4);
  CHECK(p.steps[0].x == 0.0f);
  CHECK(p.steps[0].y == 1.5f);
  CHECK(!p.steps[0].range);
  CHECK(p.steps[0].line == 4);
  CHECK(p.steps[1].x == 16.0f);
  CHECK(p.steps[1].z == -16.25f);
  CHECK(p.steps[1].range == 96.0f);
  CHECK(p.steps[2].clear);
  CHECK(p.steps[2].line == 6);
  CHECK(p.steps[3].x == 100.0f);
  CHECK(p.steps[3].range == 0.0f);
  CHECK(p.steps[3].line == 8);
  CHECK(text.substr(p.steps[1].offset, 4) == "16 ,");
  // Float32 reading: 0.1 is the float nearest 0.1.
  CHECK(read_camera_path("0.1,0,0").steps[0].x == 0.1f);
  CHECK(read_camera_path("").steps.empty());
  CHECK(!read_camera_path("1,2,3\n").header);
  // Written and read back.
  const CameraPath back = read_camera_path(write_camera_path(p.steps));
  REQUIRE(back.steps.size() == p.steps.size());
  for (size_t i = 0; i < p.steps.size(); ++i) {
    CHECK(back.steps[i].clear == p.steps[i].clear);
    CHECK(back.steps[i].x == p.steps[i].x);
    CHECK(back.steps[i].range == p.steps[i].range);
  }
}

TEST_CASE("camera path: bad rows name the line, the offset, expected and found", "[grass][camera_path]") {
  std::string m = data_error("0,0,0\n1,2\n");
  CHECK(m.find("offset 6") != std::string::npos);
  CHECK(m.find("line 2") != std::string::npos);
  CHECK(m.find("wrong number of fields") != std::string::npos);
  CHECK(m.find("found 2") != std::string::npos);
  m = data_error("0,0,0\n1,2,3,4,5,6\n");
  CHECK(m.find("more than 4") != std::string::npos);
  m = data_error("0,0,0\n1, x2 ,3\n");
  CHECK(m.find("offset 9") != std::string::npos);
  CHECK(m.find("'y' is not a number") != std::string::npos);
  CHECK(m.find("'x2'") != std::string::npos);
  m = data_error("1,2,3,-5\n");
  CHECK(m.find("the range is negative") != std::string::npos);
  CHECK(m.find("offset 6") != std::string::npos);
  CHECK(data_error("1,2,3,\n").find("'range' is empty") != std::string::npos);
  CHECK(data_error("1e39,0,0\n").find("out of the float32 range") != std::string::npos);
  CHECK(data_error("0,nan,0\n").find("'y' is not finite") != std::string::npos);
  CHECK(data_error("0,0,0x10\n").find("'z' is not a number") != std::string::npos);
  CHECK(data_error("0,0,+1\n").find("'z' is not a number") != std::string::npos);
  CHECK(data_error("x,y\n").find("not a header") != std::string::npos);
  CHECK(data_error("position,y,z\n").find("not a header") != std::string::npos);
  m = data_error("1,2,3\nx,y,z\n");
  CHECK(m.find("line 2") != std::string::npos);
  CHECK(m.find("only the first row may be a header") != std::string::npos);
  CHECK(data_error("Clear\n").find("not a header") != std::string::npos);
  CHECK(data_error("1,2,3\nclear\n4,5,6\n", 2).find("too many steps") != std::string::npos);
  CHECK(read_camera_path("x,y,z\n1,2,3\nclear\n", 2).steps.size() == 2);
}

TEST_CASE("grass residency job: a path through the ring, its report and its errors", "[grass][residency_job]") {
  test::TempDir dir;
  const std::string path = (dir.path / "camera.csv").string();
  std::ofstream(path) << "x,y,z,range\n16,0,16\n16,0,16\n80,0,16,64\nclear\n16,0,16\n";
  grass_residency::Job job;
  job.path = path;
  job.range = 40.0f;
  job.capacity = 9;
  const auto rep = grass_residency::run(job);
  REQUIRE(rep.steps.size() == 5);
  CHECK(rep.steps[0].created.size() == 9);
  CHECK(rep.steps[0].refused == 0);  // 9 cells within 40 m of (16, 16)
  CHECK(!rep.steps[1].changed());
  CHECK(rep.steps[2].range == 64.0f);
  CHECK(rep.steps[3].clear);
  CHECK(rep.steps[3].cleared.size() == 9);
  CHECK(rep.steps[3].resident_count == 0);
  CHECK(rep.steps[4].created.size() == 9);
  CHECK(rep.memory_bytes == ring_memory_bytes(40.0f, 32.0f, 4096));
  const auto j = rep.to_json();
  CHECK(j["steps"].size() == 5);
  CHECK(j["steps"][0]["created"][0] == nlohmann::json::array({0, 0, 0}));
  CHECK(j["steps"][0]["camera"] == nlohmann::json::array({16.0, 0.0, 16.0}));
  CHECK(j["steps"][3]["camera"].is_null());
  CHECK(j["summary"]["steps"] == 5);
  CHECK(j["summary"]["memory_bytes"] == uint64_t(5 * 5) * 4096 * 48);  // ceil(40 / 32) = 2
  CHECK(j["steps"][1]["resident"].size() == 9);
  const std::string text = rep.to_text();
  CHECK(text.find("step 1 ") == std::string::npos);  // nothing changed
  CHECK(text.find("step 3 (line 5): clear, 9 cells dropped") != std::string::npos);
  CHECK(text.find("memory: (2*2+1)^2 = 25 cells x 4096 blades x 48 bytes = 4915200 bytes") != std::string::npos);

  // A row without a range, and no default: a usage error naming the line.
  job.range.reset();
  auto e = test::thrown_error([&] { grass_residency::run(job); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Usage);
  CHECK(e->has_hint("range"));
  CHECK(std::string(e->what()).find("line 2") != std::string::npos);
  // A bad row: a data error naming the file.
  std::ofstream(path) << "1,2,3,4\n5,6\n";
  job.range = 40.0f;
  e = test::thrown_error([&] { grass_residency::run(job); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Data);
  CHECK(e->source() == path);
  job.capacity = 0;
  e = test::thrown_error([&] { grass_residency::run(job); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Usage);
}
