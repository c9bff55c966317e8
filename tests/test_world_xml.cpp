// world.xml: tolerant room reading, checksum surgery that touches only the values, room
// boxes worked out by hand from FORMATS.md, and malformed inputs reported with offsets.
#include <catch2/catch.hpp>
#include <regex>

#include "formats/core/io.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "formats/stationeers/xml_scan.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;
using namespace voxkit::world_xml;

namespace {

std::string fixture() {
  return io::read_text(std::string(VOXKIT_SOURCE_DIR) + "/test_data/stationeers/world_small.xml");
}

std::string wrap_rooms(const std::string& rooms) {
  return "<WorldData><Rooms>" + rooms + "</Rooms></WorldData>";
}

}  // namespace

TEST_CASE("world.xml rooms are read despite forbidden character references", "[world_xml]") {
  auto rooms = read_rooms(fixture());
  REQUIRE(rooms.size() == 3);
  REQUIRE(rooms[0].cells.size() == 3);
  CHECK(rooms[0].cells[0].x == -1020);
  CHECK(rooms[0].cells[0].y == 4000);
  CHECK(rooms[0].cells[0].z == 770);
  CHECK(rooms[0].cells[2].x == -1000);  // whitespace around the number is allowed
  CHECK(rooms[0].cells[2].z == 790);
  REQUIRE(rooms[1].cells.size() == 1);  // children in any order
  CHECK(rooms[1].cells[0].x == 15000);
  CHECK(rooms[1].cells[0].y == 3010);
  CHECK(rooms[1].cells[0].z == -25);
  CHECK(rooms[2].cells.empty());
}

TEST_CASE("room boxes follow the 2-voxel cells at floor(X/10) plus the margin", "[world_xml]") {
  auto rooms = read_rooms(fixture());
  auto boxes = octree::room_boxes(rooms, 3);
  REQUIRE(boxes.size() == 2);  // the empty room gives none
  // Room 1 corners: (-102,400,77), (-100,400,77), (-100,402,79).
  CHECK(boxes[0] == Box3i{{-105, 397, 74}, {-96, 406, 83}});
  // Room 2 corner: (1500, 301, floor(-2.5) = -3).
  CHECK(boxes[1] == Box3i{{1497, 298, -6}, {1504, 305, 1}});
  CHECK(octree::rooms_bounding_box(rooms, 3) == Box3i{{-105, 298, -6}, {1504, 406, 83}});
  CHECK(octree::room_box(octree::Room{{{-1, -10, -11}}}, 0) == Box3i{{-1, -1, -2}, {0, 0, -1}});
  CHECK(octree::rooms_bounding_box({}, 3).empty());
}

TEST_CASE("world.xml checksums are read in order", "[world_xml]") {
  auto c = read_checksums(fixture());
  REQUIRE(c.size() == 64);
  CHECK(c[0] == -1817292345);
  CHECK(c[3] == 2147483647);
  CHECK(c[4] == -2147483648LL);
  CHECK(c[63] == 63);
}

TEST_CASE("checksum surgery changes only the values' bytes", "[world_xml]") {
  const std::string doc = fixture();
  std::string zeroed = replace_checksums(doc, {});
  auto c = read_checksums(zeroed);
  CHECK(c == std::vector<int64_t>(64, 0));
  // Cut the document into the pieces around each value: they must be identical.
  const std::string head = doc.substr(0, doc.find("<TerrainChunkChecksums>"));
  CHECK(zeroed.substr(0, head.size()) == head);
  const std::string tail = doc.substr(doc.find("</TerrainChunkChecksums>"));
  CHECK(zeroed.substr(zeroed.size() - tail.size()) == tail);
  CHECK(zeroed.find("<int> 0 </int>") != std::string::npos);  // whitespace kept
  // With every value blanked, the documents are the same byte for byte.
  const std::regex value("<int>[^<]*</int>");
  CHECK(std::regex_replace(zeroed, value, "<int/>") == std::regex_replace(doc, value, "<int/>"));
  std::vector<int64_t> v(64);
  for (int i = 0; i < 64; ++i) v[size_t(i)] = int64_t(i) * 1000003 - 7;
  std::string changed = replace_checksums(doc, v);
  CHECK(read_checksums(changed) == v);
  CHECK(read_rooms(changed).size() == 3);
  CHECK(replace_checksums(changed, read_checksums(doc)) == doc);
}

TEST_CASE("checksum surgery refuses a wrong count or a value beyond int32", "[world_xml]") {
  const std::string doc = fixture();
  CHECK_THROWS_WITH(replace_checksums(doc, {1, 2}), Catch::Contains("2 checksum values given for 64"));
  std::vector<int64_t> v(64, 0);
  v[5] = int64_t(1) << 31;
  CHECK_THROWS_WITH(replace_checksums(doc, v), Catch::Contains("does not fit a 32-bit int"));
}

TEST_CASE("an empty <int/> checksum reads as 0 and is written out", "[world_xml]") {
  std::string doc = "<W><TerrainChunkChecksums><int/><int>4</int></TerrainChunkChecksums></W>";
  CHECK(read_checksums(doc) == std::vector<int64_t>{0, 4});
  CHECK(replace_checksums(doc, {-3, 9}) ==
        "<W><TerrainChunkChecksums><int>-3</int><int>9</int></TerrainChunkChecksums></W>");
  CHECK(replace_checksums("<W/>", {}) == "<W/>");
}

TEST_CASE("world.xml malformed structure is reported with the byte offset", "[world_xml]") {
  CHECK_THROWS_WITH(read_rooms(wrap_rooms("<Room><Grids><Grid><x>1</x><y>2</y></Grid></Grids></Room>")),
                    Catch::Contains("offset 31: <Grid> lacks <z>"));
  CHECK_THROWS_WITH(read_rooms(wrap_rooms("<Room><Grids><Grid><x>1a</x>")),
                    Catch::Contains("offset 40: <x> does not hold an integer") &&
                        Catch::Contains("found '1a'"));
  CHECK_THROWS_WITH(read_rooms(wrap_rooms("<Room><Grids></Room>")),
                    Catch::Contains("offset 31: end tag does not match") &&
                        Catch::Contains("expected </Grids>, found </Room>"));
  CHECK_THROWS_WITH(read_rooms("<WorldData><Rooms>"),
                    Catch::Contains("offset 18: element <Rooms> opened at offset 11 is not closed"));
  CHECK_THROWS_WITH(read_rooms("<a><!-- x </a>"), Catch::Contains("offset 3: unterminated comment"));
  CHECK_THROWS_WITH(read_rooms("<a b=\"1></a>"),
                    Catch::Contains("offset 5: unterminated attribute value"));
  CHECK_THROWS_WITH(read_rooms("<a><</a>"), Catch::Contains("offset 4: expected an element name"));
  CHECK_THROWS_WITH(read_rooms("<a x<b>"), Catch::Contains("offset 4: '<' inside the tag"));
  CHECK_THROWS_WITH(read_rooms("</a>"), Catch::Contains("offset 0: end tag </a> without"));
  CHECK_THROWS_WITH(read_rooms(wrap_rooms("<Room><Grids><Grid><x><b/>1</x>")),
                    Catch::Contains("<x> holds an element"));
  CHECK_THROWS_WITH(read_checksums("<W><TerrainChunkChecksums><int>x</int>"),
                    Catch::Contains("offset 31: <int> does not hold an integer"));
}

TEST_CASE("world.xml reader rejects every truncation inside the structure", "[world_xml]") {
  const std::string doc = fixture();
  const size_t root_end = doc.rfind("</WorldData>");
  for (size_t n = doc.find("<WorldData") + 1; n < root_end; n += 7) {
    INFO("cut at " << n);
    CHECK_THROWS_AS(read_rooms(doc.substr(0, n)), Error);
  }
}

TEST_CASE("tokenizer passes comments, CDATA, PIs, DOCTYPE and references through", "[world_xml]") {
  std::string doc = "<?xml version=\"1.0\"?><!DOCTYPE w [<!ENTITY e \"<>\">]><w a='>' b=\"<\">"
                    "t&#xB;<!--c--><![CDATA[<x>]]><?p?><e/></w>";
  xml::Walker w(doc);
  std::vector<xml::Kind> kinds;
  for (;;) {
    auto t = w.next();
    if (t.kind == xml::Kind::Eof) break;
    kinds.push_back(t.kind);
  }
  using K = xml::Kind;
  CHECK(kinds == std::vector<K>{K::Pi, K::Doctype, K::Start, K::Text, K::Comment, K::Cdata,
                                K::Pi, K::Empty, K::End});
}

TEST_CASE("synthetic world.xml holds the rooms it was given and 64 checksums", "[world_xml]") {
  auto rooms = save_synth::synth_rooms(42, 4, 12);
  save_synth::WorldXmlOptions o;
  o.target_bytes = 200000;
  std::string doc = save_synth::synth_world_xml(rooms, o);
  CHECK(doc.size() >= 190000);
  CHECK(doc.find("&#xB;") != std::string::npos);
  auto back = read_rooms(doc);
  REQUIRE(back.size() == rooms.size());
  for (size_t i = 0; i < rooms.size(); ++i) {
    REQUIRE(back[i].cells.size() == rooms[i].cells.size());
    for (size_t j = 0; j < rooms[i].cells.size(); ++j) {
      CHECK(back[i].cells[j].x == rooms[i].cells[j].x);
      CHECK(back[i].cells[j].y == rooms[i].cells[j].y);
      CHECK(back[i].cells[j].z == rooms[i].cells[j].z);
    }
  }
  CHECK(read_checksums(doc).size() == 64);
  o.max_depth = 10;
  CHECK(read_checksums(save_synth::synth_world_xml(rooms, o)).size() == 1);
}
