// Cave regions: labelling a hand-made ice module, closed pockets, and effective density.
#include <catch2/catch.hpp>

#include "lib/caves/caves.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh.hpp"

using namespace voxkit;

namespace {

// 12x8x12 cells of solid ice with open air from y = 6 up, a closed 2x2x2 pocket, a shaft
// from the open air down to y = 2, and a pocket touching the -x face.
ByteGrid module(bool with_pocket = true) {
  ByteGrid g({12, 8, 12}, 255);
  for (uint32_t z = 0; z <= 12; ++z)
    for (uint32_t y = 6; y <= 8; ++y)
      for (uint32_t x = 0; x <= 12; ++x) g.at(x, y, z) = 0;
  if (with_pocket)
    for (uint32_t z = 3; z <= 4; ++z)
      for (uint32_t y = 2; y <= 3; ++y)
        for (uint32_t x = 3; x <= 4; ++x) g.at(x, y, z) = 0;
  for (uint32_t y = 2; y <= 5; ++y) g.at(9, y, 9) = 100;
  g.at(0, 2, 6) = 128;  // exactly the surface level: air
  g.at(1, 2, 6) = 0;
  return g;
}

}  // namespace

TEST_CASE("caves labels air regions in sample order and finds the closed pocket", "[caves]") {
  CaveLabels l = label_caves(module());
  REQUIRE(l.list.size() == 3);
  CHECK(l.list[0].id == 1);
  CHECK(l.list[0].first == std::array<uint32_t, 3>{0, 6, 0});
  CHECK(l.list[0].points == 13 * 3 * 13 + 4);  // open air and the shaft
  CHECK_FALSE(l.list[0].closed);
  CHECK(l.list[1].first == std::array<uint32_t, 3>{3, 2, 3});
  CHECK(l.list[1].points == 8);
  CHECK(l.list[1].closed);
  CHECK(l.list[2].first == std::array<uint32_t, 3>{0, 2, 6});
  CHECK(l.list[2].points == 2);
  CHECK_FALSE(l.list[2].closed);  // it touches the -x face, open by default
  CHECK(l.closed_ids() == std::vector<uint16_t>{2});
  const Dims& d = l.regions.cells;
  CHECK(l.regions.ids[d.index(0, 0, 0)] == 0);
  CHECK(l.regions.ids[d.index(9, 3, 9)] == 1);
  CHECK(l.regions.ids[d.index(4, 3, 4)] == 2);
  CHECK(l.regions.ids[d.index(1, 2, 6)] == 3);
}

TEST_CASE("caves treats only the faces named open as open", "[caves]") {
  CaveOptions top_only;
  top_only.open_faces = kFaceMaxY;
  CaveLabels l = label_caves(module(), top_only);
  CHECK(l.closed_ids() == std::vector<uint16_t>{2, 3});
  CaveOptions none;
  none.open_faces = 0;
  CHECK(label_caves(module(), none).closed_ids() == std::vector<uint16_t>{1, 2, 3});
}

TEST_CASE("caves effective density hides closed regions from the mesher", "[caves]") {
  ByteGrid g = module();
  CaveLabels l = label_caves(g);
  auto closed = l.closed_ids();
  ByteGrid eff = effective_sdf(g, &l.regions, closed);
  ByteGrid plain = effective_sdf(module(false), nullptr, {});
  CHECK(eff.data == plain.data);
  MeshOptions o;
  o.chunk_cells = 4;
  Mesh with = mesh_whole(eff, o), without = mesh_whole(plain, o);
  CHECK(with.positions == without.positions);
  CHECK(with.indices == without.indices);
  // Opened, the pocket makes a mesh of its own.
  ByteGrid open = effective_sdf(g, &l.regions, {});
  CHECK(mesh_whole(open, o).triangle_count() > without.triangle_count());
  CHECK(open.at(0, 0, 0) == ice_to_sdf(255));
  CHECK(open.at(3, 2, 3) == ice_to_sdf(0));
}

TEST_CASE("caves rejects a region grid of another size", "[caves]") {
  ByteGrid g = module();
  RegionGrid r{{12, 8, 11}, std::vector<uint16_t>(13 * 9 * 12, 0)};
  CHECK_THROWS_AS(effective_sdf(g, &r, {}), Error);
  RegionGrid short_ids{g.cells, std::vector<uint16_t>(5, 0)};
  CHECK_THROWS_AS(effective_sdf(g, &short_ids, {}), Error);
}

TEST_CASE("caves refuses more than 65535 regions", "[caves]") {
  // Isolated air points on a checkerboard of ice: one region each.
  ByteGrid g({140, 40, 140}, 255);
  uint64_t n = 0;
  for (uint32_t z = 1; z < 140; z += 2)
    for (uint32_t y = 1; y < 40; y += 2)
      for (uint32_t x = 1; x < 140; x += 2, ++n) g.at(x, y, z) = 0;
  REQUIRE(n > 65535);
  CHECK_THROWS_AS(label_caves(g), Error);
}
