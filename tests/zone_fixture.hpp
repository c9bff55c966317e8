// Test helpers for zone files: a small zone with every part filled, and a hand-built
// container writer (docs/formats/zone.md) for crafting damaged or unusual files.
#pragma once

#include <zlib.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "lib/core/zone.hpp"
#include "tests/test_util.hpp"

namespace voxkit::test {

// A zone of `cells` with a terrain grid, a few sculpted and painted samples, height, three
// splat layers and one unknown section.
inline Zone sample_zone(Dims cells = {9, 6, 7}, uint32_t seed = 5) {
  Zone z;
  z.meta.cells = cells;
  z.meta.voxel_size = 0.25;
  z.meta.origin = {32.5, -1.25, 1e-3};
  z.meta.chunk_cells = 4;
  z.meta.border_voxels = 1;
  z.meta.edit_box = {{1, 0, 1}, {int32_t(cells.nx) - 1, int32_t(cells.ny), int32_t(cells.nz) - 1}};
  z.meta.hole = {32.75, 0.25, 34.5, 1.75};
  z.meta.height_min = -0.5;
  z.meta.height_max = 1.0 / 3.0;
  z.meta.layer_names = {"Grass", "Rock", "S\u00e4nd"};
  z.meta.source = "test zone \"quoted\"";
  z.meta.grid_version = 7;
  z.grid = terrain_grid(cells, seed);
  z.baked = z.grid;
  z.grid.data[z.grid.data.size() / 2] ^= 0x5a;
  z.grid.data[3] = 0;
  z.paint = ByteGrid(cells, 0);
  z.paint.data[z.paint.data.size() / 3] = 5;
  z.paint.data[10] = 17;
  z.height.width = cells.nx + 1;
  z.height.depth = cells.nz + 1;
  for (uint32_t i = 0; i < z.height.width * z.height.depth; ++i) z.height.values.push_back(float(i) * 0.125f - 3.f);
  for (int l = 0; l < 3; ++l) {
    ColumnRaster<uint8_t> r;
    r.width = z.height.width;
    r.depth = z.height.depth;
    r.values = random_bytes(r.width * r.depth, seed + l);
    z.splat.push_back(r);
  }
  z.unknown_sections.push_back({{'X', 'T', 'R', 'A'}, {1, 2, 3, 4, 5}});
  return z;
}

// Builds a zone file from raw sections, with correct CRCs (unless `bad_crc`).
struct RawSectionSpec {
  std::string tag;
  uint32_t flags = 0;
  std::vector<uint8_t> payload;
};
inline std::vector<uint8_t> build_zone_file(const std::vector<RawSectionSpec>& secs,
                                            uint16_t major = 1, uint16_t minor = 1) {
  std::vector<uint8_t> out = {0x89, 'V', 'X', 'Z', '\r', '\n', 0x1a, '\n'};
  auto le = [&out](uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(uint8_t(v >> (8 * i)));
  };
  le(major, 2);
  le(minor, 2);
  le(secs.size(), 4);
  for (auto& s : secs) {
    size_t at = out.size();
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(s.tag[i]));
    le(s.flags, 4);
    le(s.payload.size(), 8);
    uLong c = crc32(0, out.data() + at, 16);
    if (!s.payload.empty()) c = crc32(c, s.payload.data(), uInt(s.payload.size()));
    le(c, 4);
    out.insert(out.end(), s.payload.begin(), s.payload.end());
  }
  return out;
}

inline std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

}  // namespace voxkit::test
