// `voxkit info` describer for Scrap Mechanic chunks in any of their forms.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "formats/core/identify.hpp"

namespace voxkit::sm {

// Describes a chunk in any form (format id "sm-chunk"; details in docs/info-json.md):
// form, voxels per material, density histogram, solid voxels (density above 31) and the
// sizes of its LZ4 HC block and serialized string. Claims only input that decodes as a
// chunk; a 4913-byte binary file is claimed only when no voxel has material bits 3 (the
// game writes materials 0-2), so dig-zone grids of 16^3 cells are left to other readers.
std::optional<identify::Description> describe_sm_chunk(std::span<const uint8_t> bytes,
                                                       const std::string& name);

}  // namespace voxkit::sm
