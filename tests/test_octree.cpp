// terrain.dat: golden vectors from FORMATS.md, byte-exact round trips, hand-computed
// checksums, and every malformed file the parser must reject with its offset.
#include <catch2/catch.hpp>

#include "lib/core/error.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_synth.hpp"
#include "tests/octree_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

TEST_CASE("octree parses the lone unmodified leaf and writes it back byte for byte", "[octree]") {
  // maxDepth 10 = 0a 00 00 00; root leaf 01 00 00; veinCount 0.
  const Bytes f = {0x0a, 0, 0, 0, 0x01, 0x00, 0x00, 0, 0, 0, 0};
  const auto v = octree::parse(f);
  CHECK(v.max_depth == 10);
  CHECK(v.size() == 1024);
  CHECK(v.origin() == 512);
  CHECK(v.nodes.size() == 3);
  CHECK(v.vein_count == 0);
  CHECK(octree::write(v) == f);
}

TEST_CASE("octree parses a branch with veins and round trips byte-exactly", "[octree]") {
  const Bytes nodes = cat({Bytes{0x02, 0x03, 0x10, 0x02}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod,
                           kUnmod, unmod_branch()});
  const Bytes veins = cat({vein(-5, 100, 7, 42, 2), vein(1, 2, 3, -1, 0)});
  const Bytes f = dat(12, nodes, 2, veins);
  const auto v = octree::parse(f);
  CHECK(v.nodes.size() == nodes.size());
  CHECK(v.vein_count == 2);
  CHECK(octree::write(v) == f);
  octree::VeinReader r(v);
  octree::Vein a, b, c;
  REQUIRE(r.next(a));
  CHECK(a.world == std::array<int16_t, 3>{-5, 100, 7});
  CHECK(a.id_hash == 42);
  CHECK(a.minables.size() == 10);
  CHECK(a.minables[0] == 127);
  REQUIRE(r.next(b));
  CHECK(b.id_hash == -1);
  CHECK(b.minables.empty());
  CHECK_FALSE(r.next(c));
}

TEST_CASE("octree checksum of hand-made trees matches the arithmetic of FORMATS.md", "[octree]") {
  // 01 00 00: flags 1: (0^1)*257 = 257; density 0: (257^0)*257 = 66049;
  // type 0: (66049^0)*257 = 16974593.
  CHECK(octree::checksum(kUnmod) == 16974593u);
  // 03 80 02: (0^3)*257 = 771; (771^0x80 = 899)*257 = 231043; (231043^2 = 231041)*257 = 59377537.
  CHECK(octree::checksum(Bytes{0x03, 0x80, 0x02}) == 59377537u);
  // 00 + 8 x (01 00 00), mod 2^32: flags 0 -> 0; child 0: (0^0)*257 = 0, leaf -> 16974593;
  // child 1: (16974593^1)*257 = 67502848, leaf -> 257*... = 168363009, 319620353, 538052097;
  // child 2: 840435971 -> 1243679490, 1798049026, 2537099010;
  // child 3: 3494383617 -> 408424448, 1885868032, 3631747072;
  // child 4: 1351095300 -> 3634108677, 1958026757, 701702917;
  // child 5: 4243989248 -> 4078511105, 205333761, 1231169025;
  // child 6: 2877828359 -> 867513094, 3907533062, 3508616966;
  // child 7: 4066394113 -> 1386233856, 4074782720, 3542106112 (int32 -752861184).
  CHECK(octree::checksum(unmod_branch()) == 3542106112u);
  // 02, 03 00 00, 6 x 01 00 00, 03 ff 02: flags 2: 514; child 0: (514^0)*257 = 132098;
  // 03 00 00 -> 33948929, 134940161, 319883009; child 1: 605554432 -> 1008666625,
  // 1529284865, 2184186369; child 2: 2990148867 -> 3964079874, 861278466, 2305233666;
  // child 3: 4034532353 -> 1787696128, 4171371520, 2595623936; child 4: 1355421700 ->
  // 451026181, 4244578821, 4230031109; child 5: 491267840 -> 1701783553, 3566676225,
  // 1807755777; child 6: 736768263 -> 370882310, 827473158, 2207204102; child 7:
  // 315769857 -> flags 3: 3843442178, density 255: 4217193469, type 2: 1486963455.
  const Bytes mixed = cat({Bytes{0x02, 0x03, 0x00, 0x00}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod,
                           kUnmod, Bytes{0x03, 0xff, 0x02}});
  CHECK(octree::checksum(mixed) == 1486963455u);
}

TEST_CASE("octree parser rejects every truncation of a valid file", "[octree]") {
  const Bytes f = dat(10, cat({Bytes{0x02, 0x03, 9, 1}, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod}),
                      1, vein(1, 2, 3, 4, 3));
  REQUIRE_NOTHROW(octree::parse(f));
  for (size_t n = 0; n < f.size(); ++n) {
    const Bytes cut(f.begin(), f.begin() + long(n));
    CHECK_THROWS_AS(octree::parse(cut), Error);
  }
}

TEST_CASE("octree parser names the offset of a truncated node stream", "[octree]") {
  const Bytes f = {0x0a, 0, 0, 0, 0x00, 0x01, 0x00, 0x00};
  CHECK_THROWS_WITH(octree::parse(f), Catch::Contains("offset 8: file ends inside the node stream"));
  CHECK_THROWS_WITH(octree::parse(Bytes{0x0a, 0}), Catch::Contains("offset 2: file ends inside maxDepth"));
  CHECK_THROWS_WITH(octree::parse(Bytes{0x0a, 0, 0, 0, 0x01, 0x00}),
                    Catch::Contains("file ends inside a leaf"));
}

TEST_CASE("octree parser rejects extra bytes after the last vein", "[octree]") {
  Bytes f = dat(10, kUnmod);
  f.push_back(0x00);
  CHECK_THROWS_WITH(octree::parse(f), Catch::Contains("offset 11: extra bytes after the last vein"));
}

TEST_CASE("octree parser rejects flag bits other than IS_LEAF and IS_MODIFIED", "[octree]") {
  for (uint8_t bad : {0x04, 0x08, 0x10, 0x20, 0x80, 0x05}) {
    const Bytes f = dat(10, Bytes{bad, 0, 0});
    CHECK_THROWS_WITH(octree::parse(f), Catch::Contains("offset 4: node flags have unknown bits") &&
                                            Catch::Contains("found " + hex_byte(bad)));
  }
  // Deeper in the tree: child 3 of the root at offset 4 + 1 + 3*3 = 14.
  const Bytes f = dat(10, cat({Bytes{0x00}, kUnmod, kUnmod, kUnmod, Bytes{0x41, 0, 0}, kUnmod, kUnmod, kUnmod, kUnmod}));
  CHECK_THROWS_WITH(octree::parse(f), Catch::Contains("offset 14: node flags have unknown bits (depth 1)"));
}

TEST_CASE("octree parser rejects a maxDepth the game does not use unless asked", "[octree]") {
  for (int32_t d : {-1, 0, 9, 13, 1000}) {
    const Bytes f = dat(d, kUnmod);
    CHECK_THROWS_WITH(octree::parse(f), Catch::Contains("offset 0: maxDepth") &&
                                            Catch::Contains("expected 10..12, found " + std::to_string(d)));
  }
  CHECK(octree::parse(dat(3, kUnmod), {true}).max_depth == 3);
  CHECK_THROWS_WITH(octree::parse(dat(25, kUnmod), {true}), Catch::Contains("expected 0..24, found 25"));
}

TEST_CASE("octree parser rejects a node deeper than maxDepth", "[octree]") {
  // maxDepth 1: the root's children are leaves of one voxel; a branch there is too deep.
  const Bytes f = dat(1, cat({Bytes{0x02}, kUnmod, kUnmod, Bytes{0x00}, kUnmod}), 0);
  CHECK_THROWS_WITH(octree::parse(f, {true}),
                    Catch::Contains("offset 11: branch at depth 1 puts its children beyond maxDepth 1"));
  CHECK_THROWS_WITH(octree::parse(dat(0, Bytes{0x00}), {true}), Catch::Contains("offset 4: branch at depth 0"));
}

TEST_CASE("octree parser rejects bad vein counts before reading veins", "[octree]") {
  CHECK_THROWS_WITH(octree::parse(dat(10, kUnmod, -1)), Catch::Contains("offset 7: negative vein count"));
  // 2 veins claimed, 17 bytes left: at most 1.
  CHECK_THROWS_WITH(octree::parse(dat(10, kUnmod, 2, vein(0, 0, 0, 0, 0))),
                    Catch::Contains("offset 7: vein count is beyond the file (expected at most 1 veins in 17 bytes, found 2)"));
  CHECK_THROWS_WITH(octree::parse(dat(10, kUnmod, 0x7fffffff)), Catch::Contains("vein count is beyond the file"));
}

TEST_CASE("octree parser rejects a vein with more than 254 minables", "[octree]") {
  Bytes v = vein(0, 0, 0, 0, 0);
  v[16] = 255;
  v.resize(v.size() + 255 * 5, 0);
  CHECK_THROWS_WITH(octree::parse(dat(10, kUnmod, 1, v)),
                    Catch::Contains("offset 27: vein 0 has too many minables (expected at most 254, found 255)"));
}

TEST_CASE("octree parser rejects truncated minables", "[octree]") {
  Bytes v = vein(0, 0, 0, 0, 4);
  v.resize(v.size() - 1);
  CHECK_THROWS_WITH(octree::parse(dat(10, kUnmod, 1, v)), Catch::Contains("file ends inside the minables of vein 0"));
}

TEST_CASE("octree synthetic deltas parse and round trip byte-exactly", "[octree]") {
  octree::SynthOptions o;
  o.max_depth = 10;
  o.tunnels = 6;
  o.veins = 5;
  o.pads = 2;
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    o.seed = seed;
    const auto r = octree::synthesize(o);
    const auto v = octree::parse(r.terrain_dat);
    CHECK(octree::write(v) == r.terrain_dat);
    CHECK(v.vein_count == 5);
    CHECK(r.rooms.size() >= 2);
  }
  CHECK(octree::synthesize(o).terrain_dat == octree::synthesize(o).terrain_dat);
}

TEST_CASE("octree skip_subtree finds the end of each subtree", "[octree]") {
  const Bytes nodes = cat({Bytes{0x00}, unmod_branch(), kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod, kUnmod});
  CHECK(octree::skip_subtree(nodes.data(), 0) == nodes.size());
  CHECK(octree::skip_subtree(nodes.data(), 1) == 1 + 25);
}
