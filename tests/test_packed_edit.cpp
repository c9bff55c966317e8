// Packed edits: the worked examples of the specs page (float32, ties to even, clamps), the
// signed view, validity per target, spawn yaw and scale, hex and decimal reading.
#include <catch2/catch.hpp>

#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

using namespace voxkit;
using edit::Op;

TEST_CASE("packed edits match the worked examples bit for bit", "[edit]") {
  struct Case {
    float x, y, z, r;
    Op op;
    uint32_t layer;
    uint64_t want;
  };
  const Case cases[] = {
      {12.25f, 3.5f, 100.0625f, 2.5f, Op::Add, 0, 0x01140641003800C4ull},
      {3, 4, 5, 1.5f, Op::Paint, 5, 0x2B0C005000400030ull},
      {12.25f, 7.5f, 30, 1.5f, Op::Tree, 2, 0x140C01E0007800C4ull},
      {3, 4, 5, 1.0f, Op::Detail, 0, 0x0508005000400030ull},
      {20, 10, 20, 2.0f, Op::Paint, 17, 0x8B10014000A00140ull},
      {10, 10, 10, 2.0f, Op::Smooth, 16, 0x821000A000A000A0ull},
      {8, 8.3f, 8, 3.0f, Op::Dig, 0, 0x0018008000850080ull},
      {0.03125f, 0.09375f, -1, 0.01f, Op::Dig, 0, 0x0001000000020000ull},
      {5000, 1, 1, 40, Op::Add, 2, 0x11FF00100010FFFFull},
  };
  for (const auto& c : cases) {
    INFO(edit::to_hex(c.want));
    CHECK(edit::pack(c.x, c.y, c.z, c.r, c.op, c.layer) == c.want);
  }
  CHECK(edit::as_signed(0x01140641003800C4ull) == 77693969818452164ll);
  CHECK(edit::as_signed(0x8B10014000A00140ull) == -8426233528410177216ll);
}

TEST_CASE("packing rounds half to even and reports clamps", "[edit]") {
  edit::PackReport r;
  // 0.5 -> 0 and 1.5 -> 2 (ties to even); -1 clamps to 0; radius 0.08 -> 0 -> clamps to 1
  const auto f = edit::unpack(edit::pack(0.03125f, 0.09375f, -1, 0.01f, Op::Dig, 0, &r));
  CHECK(f.x == 0);
  CHECK(f.y == 2);
  CHECK(f.z == 0);
  CHECK(f.radius == 1);
  CHECK(r.clamped_position);
  CHECK(r.clamped_radius);
  edit::pack(1, 2, 3, 1, Op::Dig, 0, &r);
  CHECK_FALSE(r.clamped_position);
  CHECK_FALSE(r.clamped_radius);
  // 8.3f x 16 in float32 is 132.8 -> 133
  CHECK(edit::unpack(edit::pack(8, 8.3f, 8, 3, Op::Dig, 0)).y == 133);
  // op and layer are masked
  CHECK(edit::unpack(edit::pack(1, 1, 1, 1, Op::Add, 33)).layer == 1);
}

TEST_CASE("positions whose x16 leaves int32 are refused, not guessed", "[edit]") {
  CHECK_THROWS_AS(edit::pack(2e8f, 1, 1, 1, Op::Dig, 0), Error);
  CHECK_THROWS_AS(edit::pack(1, NAN, 1, 1, Op::Dig, 0), Error);
  CHECK_THROWS_AS(edit::pack(1, 1, 1, INFINITY, Op::Dig, 0), Error);
}

TEST_CASE("unpack reads every field and pack_fields is its inverse", "[edit]") {
  for (uint64_t e : {0x01140641003800C4ull, 0x8B10014000A00140ull, 0xFFFFFFFFFFFFFFFFull, 0ull}) {
    CHECK(edit::pack_fields(edit::unpack(e)) == e);
  }
  const auto f = edit::unpack(0x01140641003800C4ull);
  CHECK(f.x == 196);
  CHECK(f.y == 56);
  CHECK(f.z == 1601);
  CHECK(f.radius == 20);
  CHECK(f.op == 1);
  CHECK(f.layer == 0);
}

TEST_CASE("validity follows the target's ops and layers", "[edit]") {
  const uint64_t paint17 = 0x8B10014000A00140ull, smooth16 = 0x821000A000A000A0ull;
  const uint64_t tree = 0x140C01E0007800C4ull, dug = 0x2B0C005000400030ull;
  CHECK_FALSE(edit::invalid_reason(paint17, edit::Target::V07));
  CHECK_FALSE(edit::invalid_reason(paint17, edit::Target::V06));
  CHECK(edit::invalid_reason(paint17, edit::Target::V03));
  CHECK_FALSE(edit::invalid_reason(dug, edit::Target::V03));
  CHECK_FALSE(edit::invalid_reason(smooth16, edit::Target::V07));
  CHECK(edit::invalid_reason(smooth16, edit::Target::V06));
  CHECK(edit::invalid_reason(tree, edit::Target::V06));
  // a dig, add or paint layer over 17 is refused even for 0.7
  CHECK(edit::invalid_reason(edit::pack(1, 1, 1, 1, Op::Paint, 18), edit::Target::V07));
  CHECK_FALSE(edit::invalid_reason(edit::pack(1, 1, 1, 1, Op::Tree, 31), edit::Target::V07));
  // ops 6 and 7 are never edits
  edit::Fields f;
  f.op = 6;
  CHECK(*edit::invalid_reason(edit::pack_fields(f), edit::Target::V07) == "op 6 is no edit (ops are 0-5)");
  f.op = 7;
  CHECK(edit::invalid_reason(edit::pack_fields(f), edit::Target::V07));
  // a position past the grid
  const edit::GridLimit g{16, 16, 16};
  CHECK_FALSE(edit::invalid_reason(edit::pack(16, 16, 16, 1, Op::Dig, 0), edit::Target::V07, g));
  CHECK(edit::invalid_reason(edit::pack(16.0625f, 1, 1, 1, Op::Dig, 0), edit::Target::V07, g));
}

TEST_CASE("spawn yaw and scale indices of the worked examples", "[edit]") {
  CHECK(edit::spawn_yaw_index(0x140C01E0007800C4ull) == 200);
  CHECK(edit::spawn_scale_index(0x140C01E0007800C4ull) == 6);
  CHECK(edit::spawn_yaw_degrees(0x140C01E0007800C4ull) == Approx(70.3125));
  CHECK(edit::spawn_scale(0x140C01E0007800C4ull) == Approx(0.80941).epsilon(1e-5));
  CHECK(edit::spawn_yaw_index(0x01140641003800C4ull) == 247);
  CHECK(edit::spawn_scale_index(0x01140641003800C4ull) == 69);
  CHECK(edit::spawn_yaw_index(0x0508005000400030ull) == 48);
  CHECK(edit::spawn_scale_index(0x0508005000400030ull) == 1);
}

TEST_CASE("edits are read as hex or as the signed or unsigned decimal", "[edit]") {
  CHECK(edit::parse_edit("0x01140641003800C4") == 0x01140641003800C4ull);
  CHECK(edit::parse_edit("01140641003800c4") == 0x01140641003800C4ull);
  CHECK(edit::parse_edit("77693969818452164") == 0x01140641003800C4ull);
  CHECK(edit::parse_edit("-8426233528410177216") == 0x8B10014000A00140ull);
  CHECK(edit::parse_edit("10020510545299374400") == 0x8B10014000A00140ull);
  CHECK_FALSE(edit::parse_edit(""));
  CHECK_FALSE(edit::parse_edit("0x"));
  CHECK_FALSE(edit::parse_edit("0x1234567890abcdef0"));
  CHECK_FALSE(edit::parse_edit("12z"));
  CHECK_FALSE(edit::parse_edit("99999999999999999999"));
  CHECK_FALSE(edit::parse_edit("-99999999999999999999"));
  CHECK(edit::to_hex(0x01140641003800C4ull) == "0x01140641003800C4");
}
