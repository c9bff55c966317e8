// Scattered blades written out (docs/grass.md, "Outputs"): the engine's 48-byte GPU records
// (raw), CSV, JSON, or a glTF binary with one EXT_mesh_gpu_instancing node per cell.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/grass/scatter.hpp"

namespace voxkit::grass {

enum class BladeFormat : uint8_t { Raw, Csv, Json, Glb };

// By the name's extension: .csv, .json, .glb; anything else (and "-") is raw.
BladeFormat blade_format_of(const std::string& path);

// Little-endian 48-byte records, cell by cell, each cell's blades in candidate order.
void append_raw(std::vector<uint8_t>& out, const CellResult& cell);
// "cell_x,cell_z,index,x,y,z,scale,qx,qy,qz,qw,tint,wind_phase" (floats with 9 digits:
// they read back to the same bits).
std::string csv_header();
void append_csv(std::string& out, const CellResult& cell);
// One cell: {"x", "z", "candidates", "placed", "refused": {...}, "over_capacity", and with
// `blades` the list of {"index", "position", "rotation", "scale", "tint", "wind_phase"}}.
nlohmann::json cell_json(const CellResult& cell, bool blades);

// A GLB: a blade mesh (a tapered two-sided strip `height` metres tall) instanced per cell
// (nodes "cell X,Z" with EXT_mesh_gpu_instancing), in glTF's right-handed space: x negated
// and rotations mirrored, as voxkit's meshes of the same world are.
std::vector<uint8_t> blades_glb(const std::vector<CellResult>& cells, float blade_height);

}  // namespace voxkit::grass
