// Post-processing of what Assimp 5.2 writes: declared-but-unused glTF extensions, validator
// findings, the embedded buffer of .gltf, and FBX creation timestamps (docs/mesh-export.md).
#pragma once

#include <cstdint>
#include <vector>

namespace voxkit::fixup {

// A glTF document as its JSON text and its one binary buffer.
struct GltfParts {
  std::vector<uint8_t> json, bin;
};
// The JSON and BIN chunks of a .glb, as written (data error on a malformed container).
GltfParts split_glb(const std::vector<uint8_t>& file);
// Joins documents Assimp wrote for consecutive batches of one scene into one: each holds one
// scene with one root node and the same materials; the first root takes every root's
// children in order, buffers are concatenated (4-byte aligned) and every index is moved.
// A data error for a document of another shape.
GltfParts join(const std::vector<GltfParts>& docs);

// Rewrites the JSON chunk of a .glb (lengths and padding fixed); data errors on a malformed
// container.
std::vector<uint8_t> glb(const std::vector<uint8_t>& file);
// The same for a document already split into its JSON and buffer.
std::vector<uint8_t> glb(const GltfParts& parts);
// Rewrites a .gltf JSON and embeds `bin` (the buffer Assimp wrote beside it) as a data URI.
std::vector<uint8_t> gltf(const std::vector<uint8_t>& json, const std::vector<uint8_t>& bin);
// Rewrites a binary FBX with the null records closing nested node lists (which Assimp 5.2
// omits, so readers reject its files) and a fixed creation time stamp.
std::vector<uint8_t> fbx(std::vector<uint8_t> file);

}  // namespace voxkit::fixup
