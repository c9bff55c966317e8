// Post-processing of what Assimp 5.2 writes: declared-but-unused glTF extensions, validator
// findings, the embedded buffer of .gltf, and FBX creation timestamps (docs/mesh-export.md).
#pragma once

#include <cstdint>
#include <vector>

namespace voxkit::fixup {

// Rewrites the JSON chunk of a .glb (lengths and padding fixed); data errors on a malformed
// container.
std::vector<uint8_t> glb(const std::vector<uint8_t>& file);
// Rewrites a .gltf JSON and embeds `bin` (the buffer Assimp wrote beside it) as a data URI.
std::vector<uint8_t> gltf(const std::vector<uint8_t>& json, const std::vector<uint8_t>& bin);
// Rewrites a binary FBX with the null records closing nested node lists (which Assimp 5.2
// omits, so readers reject its files) and a fixed creation time stamp.
std::vector<uint8_t> fbx(std::vector<uint8_t> file);

}  // namespace voxkit::fixup
