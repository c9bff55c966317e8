// Inputs of `voxkit mesh`: everything that becomes an SDF byte grid to mesh, with where it
// sits in the world (docs/mesh-export.md, "Inputs").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/grid.hpp"
#include "lib/core/zone.hpp"

namespace voxkit {

// How the bytes of a raw grid read: dig-zone SDF bytes, ice densities (0 empty .. 255
// solid, surface 128), or Scrap Mechanic voxels (material << 6 | density 0..63).
enum class Convention { Sdf, Ice, Sm };
// What the input file is. Auto: a zone file by its magic, a Unity dig-zone asset by its
// `%YAML` header or DigZoneData fields, a raw grid when --cells is given, a Scrap Mechanic
// chunk with --convention sm.
enum class InputKind { Auto, Raw, SmChunk, Zone, Unity };
// Which grid of a zone to mesh: the current one (with the digs, the default) or as baked.
enum class ZoneGrid { Current, Baked };
std::string_view convention_name(Convention c);

struct MeshInputOptions {
  InputKind kind = InputKind::Auto;
  std::optional<ZoneGrid> grid;       // zones and Unity assets (default: current)
  std::optional<Dims> cells;          // raw grid: its cells (required for raw input)
  Convention convention = Convention::Sdf;
  std::string regions_path;           // ice: cave-region grid (uint16 per point)
  std::vector<uint16_t> closed;       // ice: regions still closed (mesh as solid)
  std::string closed_path;            // ice: a file listing more closed regions
  std::optional<double> voxel_size;   // overrides the input's (raw grids: 1 m)
  std::optional<std::array<double, 3>> origin;  // overrides the input's (raw grids: 0)
  uint64_t max_samples = kMaxGridSamples;
};

// What the meshers need, and where the grid sits.
struct MeshSource {
  std::string kind;                     // "raw sdf", "ice module", ...
  ByteGrid sdf;
  ByteGrid paint;                       // empty when the input has no paint
  uint32_t layer_count = 0;
  std::array<double, 3> origin{0, 0, 0};
  double voxel_size = 1.0;
  uint32_t chunk_cells = 16;            // the input's own chunk size (zones), else 16
  std::optional<HoleRect> hole;         // the terrain hole, world metres (zones)
  ZoneFoliage foliage;                  // a zone file's baked foliage (empty otherwise)
  bool dig_zone = false;                // a zone file or dig-zone asset: the package's mesher is the default
};

// Reads `path` ('-' = stdin): a zone file or Unity dig-zone asset (the chosen grid, with the
// zone's chunk cells, placement, hole, and paint with its layer count), or a raw grid of `opts.cells` in `opts.convention`; with
// regions or closed ids (ice only), points of closed regions count as solid. With the sm
// convention and no cells, `path` is a Scrap Mechanic chunk in any of its forms
// (formats/scrap_mechanic/sm_chunk.hpp): 17^3 samples, 16^3 cells. Errors name the file.
MeshSource read_mesh_input(const std::string& path, const MeshInputOptions& opts);

// A Scrap Mechanic chunk (any form) as an SDF grid of 16^3 cells (densities through
// sm_density_to_sdf, lib/core/grid.hpp).
MeshSource read_sm_chunk(const std::string& path);

// Reads a raw grid of one byte per sample ("-" = stdin) whose size must be exactly that of
// `cells`; the cap on samples is checked before anything is read.
ByteGrid read_raw_grid(const std::string& path, const Dims& cells, uint64_t max_samples);

// A zone as a mesh source: `which` grid, placement, chunk cells, hole (when it has an area),
// and the paint grid with the zone's layer count when the zone has been painted.
MeshSource zone_mesh_source(Zone&& zone, ZoneGrid which, std::string kind);

}  // namespace voxkit
