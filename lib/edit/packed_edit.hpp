// The dig-zone package's packed edit: one 64-bit integer holding a position (1/16 voxel), a
// radius (1/8 voxel), an op and a layer (docs/formats/packed-edit.md). Packing uses the
// package's float32 arithmetic and round-half-to-even; unpacking is exact.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace voxkit::edit {

enum class Op : uint8_t { Dig = 0, Add = 1, Smooth = 2, Paint = 3, Tree = 4, Detail = 5 };

// Which package versions an edit is written for: the ops and layers their receivers accept.
enum class Target {
  V03,  // 0.3 and earlier: a 3-bit layer (bits 62-63 zero), ops dig/add/paint, layer <= 5
  V06,  // 0.4-0.6: a 5-bit layer, ops dig/add/paint, layer <= 17
  V07,  // 0.7: all six ops; dig/add/paint layer <= 17, smooth/tree/detail any layer 0-31
};

inline constexpr uint32_t kLayerMax = 17;     // the highest paint value (0.4 and later)
inline constexpr uint32_t kLegacyLayerMax = 5;  // up to 0.3

// The fields as stored.
struct Fields {
  uint32_t x = 0, y = 0, z = 0;  // position x 16
  uint32_t radius = 1;           // radius x 8, 1..255
  uint32_t op = 0;               // 0..7 (6 and 7 are no op)
  uint32_t layer = 0;            // 0..31
};

uint64_t pack_fields(const Fields& f);
Fields unpack(uint64_t edit);

// What packing from grid units did to out-of-range values.
struct PackReport {
  bool clamped_position = false, clamped_radius = false;
};

// Packs a position and radius in grid units (voxels) as the package does: each component
// times 16.0f (radius times 8.0f) in float32, rounded half to even, clamped to 0..65535
// (radius 1..255); op masked with 7, layer with 31. Throws a usage error for a position whose
// x 16 does not fit an int32 (the package's result then depends on its runtime) or is not
// finite.
uint64_t pack(float x, float y, float z, float radius, Op op, uint32_t layer, PackReport* report = nullptr);

// Grid position of a world point: (world - origin) / voxel size, in float32.
float to_grid(double world, double origin, double voxel_size);

// The int64 bit pattern the package's C# `long` holds (negative for layers >= 16).
inline int64_t as_signed(uint64_t e) { return int64_t(e); }

// Why `edit` is not accepted by a receiver of `target`, or nothing when it is. With a grid
// (cells), a position past the grid is refused as the VRChat runtime refuses it.
struct GridLimit {
  uint32_t nx = 0, ny = 0, nz = 0;
};
std::optional<std::string> invalid_reason(uint64_t edit, Target target, std::optional<GridLimit> grid = {});

const char* op_name(uint32_t op);  // "dig", ..., "op6", "op7"

// The 0.7 runtimes' spawn yaw (degrees) and scale of a tree or detail edit.
double spawn_yaw_degrees(uint64_t edit);
double spawn_scale(uint64_t edit);
uint32_t spawn_yaw_index(uint64_t edit);    // 0..1023
uint32_t spawn_scale_index(uint64_t edit);  // 0..255

// "0x01140641003800C4"
std::string to_hex(uint64_t edit);
// Reads "0x..." hex (or bare hex with a letter a-f) or a signed decimal int64 (the C# value),
// or an unsigned decimal up to 2^64-1; nothing when `text` is neither.
std::optional<uint64_t> parse_edit(const std::string& text);

}  // namespace voxkit::edit
