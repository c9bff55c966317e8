// Mesh paint: slot choice per chunk, the uv0.y layer code, and interpolated vertex weights.
#include <catch2/catch.hpp>

#include "lib/core/error.hpp"
#include "lib/mesh/mesh.hpp"
#include "tests/mesh_test_util.hpp"

using namespace voxkit;

namespace {

// A floor at y = 2.5 over 16x6x16 cells.
ByteGrid floor_grid() {
  ByteGrid g({16, 6, 16}, 0);
  for (uint32_t z = 0; z <= 16; ++z)
    for (uint32_t y = 0; y <= 6; ++y)
      for (uint32_t x = 0; x <= 16; ++x) g.at(x, y, z) = quantize_sdf(float(y) - 2.5f);
  return g;
}

MeshOptions painted(const ByteGrid& paint, Mesher m, uint32_t layers = 0) {
  MeshOptions o;
  o.mesher = m;
  o.chunk_cells = 8;
  o.paint.paint = &paint;
  o.paint.layer_count = layers;
  return o;
}

}  // namespace

TEST_CASE("paint slots are the painted layers ascending, then the lowest unpainted",
          "[mesh_paint]") {
  // 0 auto, 5 dug soil, 7 = layer 5, 2 = layer 1.
  std::vector<uint8_t> p = {0, 5, 7, 2, 7, 0};
  PaintSlots s = paint_slots(p, 0);
  CHECK(s.layers == std::array<uint8_t, 4>{1, 5, 0, 2});
  CHECK(s.code() == float(1 | 5 << 4 | 0 << 8 | 2 << 12));
  CHECK(s.code() == 8273.0f);
  // Nothing painted: layers 0-3, code 0x3210.
  CHECK(paint_slots(std::vector<uint8_t>{0, 5, 0}, 0).code() == 12816.0f);
  // More than four painted layers: the four lowest win.
  std::vector<uint8_t> many = {17, 1, 4, 8, 11, 14};  // layers 15, 0, 3, 6, 9, 12
  CHECK(paint_slots(many, 0).layers == std::array<uint8_t, 4>{0, 3, 6, 9});
  // Layers the terrain does not have read as auto; values above 17 too.
  CHECK(paint_slots(std::vector<uint8_t>{11, 200, 2}, 8).layers ==
        std::array<uint8_t, 4>{1, 0, 2, 3});
  // The largest code stays an exact float below 2^16.
  PaintSlots top;
  top.layers = {15, 15, 15, 15};
  CHECK(top.code() == 65535.0f);
}

TEST_CASE("paint weights interpolate over the cell's corners", "[mesh_paint]") {
  ByteGrid g = floor_grid();
  ByteGrid paint(g.cells, 3);  // terrain layer 2 everywhere...
  for (uint32_t z = 0; z <= 16; ++z)
    for (uint32_t y = 0; y <= 6; ++y)
      for (uint32_t x = 0; x <= 3; ++x) paint.at(x, y, z) = 5;  // ...but dug soil at x <= 3
  for (Mesher m : {Mesher::SurfaceNets, Mesher::MarchingCubes}) {
    Mesh mesh = mesh_whole(g, painted(paint, m));
    REQUIRE(mesh.colors.size() == mesh.vertex_count());
    REQUIRE(mesh.uv0.size() == mesh.vertex_count());
    const float code = float(2 | 0 << 4 | 1 << 8 | 3 << 12);
    for (size_t i = 0; i < mesh.vertex_count(); ++i) {
      const float x = mesh.positions[i][0];
      const auto& c = mesh.colors[i];
      const auto& uv = mesh.uv0[i];
      CHECK(uv[1] == code);
      CHECK(c[1] == 0.0f);
      CHECK(c[2] == 0.0f);
      CHECK(c[3] == 0.0f);
      float dug = x <= 3.0f ? 1.0f : x >= 4.0f ? 0.0f : 4.0f - x;
      CHECK(uv[0] == Approx(dug).margin(1e-6));
      CHECK(c[0] == Approx(1.0f - dug).margin(1e-6));
    }
  }
}

TEST_CASE("paint slots are chosen per chunk and shared by all its vertices", "[mesh_paint]") {
  ByteGrid g = floor_grid();
  ByteGrid paint(g.cells, 0);
  for (uint32_t z = 0; z <= 16; ++z)
    for (uint32_t y = 0; y <= 6; ++y)
      for (uint32_t x = 10; x <= 16; ++x) paint.at(x, y, z) = 9;  // layer 7, chunk x = 1 only
  for (Mesher m : {Mesher::SurfaceNets, Mesher::MarchingCubes}) {
    auto chunks = mesh_chunks(g, painted(paint, m));
    REQUIRE(chunks.size() == 4);
    for (const auto& c : chunks) {
      const float want = c.chunk[0] == 0 ? 12816.0f : float(7 | 0 << 4 | 1 << 8 | 2 << 12);
      for (const auto& uv : c.mesh.uv0) CHECK(uv[1] == want);
      for (size_t i = 0; i < c.mesh.vertex_count(); ++i) {
        // Auto carries no slot weight: the weights never sum above one.
        const auto& col = c.mesh.colors[i];
        CHECK(col[0] + col[1] + col[2] + col[3] + c.mesh.uv0[i][0] <= 1.0f + 1e-6f);
        if (c.mesh.positions[i][0] < 9.0f) CHECK(col[0] == 0.0f);
      }
    }
  }
}

TEST_CASE("meshing without paint leaves colours and uv0 empty", "[mesh_paint]") {
  ByteGrid g = floor_grid();
  MeshOptions o;
  o.normals = false;
  Mesh m = mesh_whole(g, o);
  CHECK(m.colors.empty());
  CHECK(m.uv0.empty());
  CHECK(m.normals.empty());
  ByteGrid small({4, 4, 4}, 0);
  ByteGrid paint = small;
  MeshOptions bad = painted(paint, Mesher::SurfaceNets);
  CHECK_THROWS_AS(mesh_whole(g, bad), Error);
}

TEST_CASE("paint from a chunk's own sample box gives the same mesh", "[mesh_paint]") {
  ByteGrid g = test::cave_terrain({20, 12, 20}, 8);
  ByteGrid paint(g.cells, 0);
  for (size_t i = 0; i < paint.data.size(); ++i) paint.data[i] = uint8_t(i * 7 % 19);
  for (Mesher m : {Mesher::SurfaceNets, Mesher::MarchingCubes}) {
    MeshOptions o = painted(paint, m, 12);
    auto n = chunk_counts(g.cells, 8);
    for (uint32_t ci = 0; ci < n[0] * n[1] * n[2]; ++ci) {
      std::array<int32_t, 3> c{int32_t(ci % n[0]), int32_t(ci / n[0] % n[1]),
                               int32_t(ci / (n[0] * n[1]))};
      auto box = chunk_sample_box(g.cells, 8, c);
      std::vector<uint8_t> s, p;  // exact-size copies: ASan sees any read outside the box
      for (uint32_t z = box.lo[2]; z <= box.hi[2]; ++z)
        for (uint32_t y = box.lo[1]; y <= box.hi[1]; ++y)
          for (uint32_t x = box.lo[0]; x <= box.hi[0]; ++x) {
            s.push_back(g.at(x, y, z));
            p.push_back(paint.at(x, y, z));
          }
      Mesh a = mesh_chunk_samples(g.cells, c, s, p, o);
      CHECK(test::same_mesh(a, mesh_chunk(g, c, o)));
      CHECK(a.uv0.size() == a.vertex_count());
    }
  }
}
