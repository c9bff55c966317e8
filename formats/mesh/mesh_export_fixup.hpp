// Post-processing of glTF documents assembled as JSON (the foliage nodes: declared-but-unused
// extensions, the embedded buffer of .gltf) and of the FBX Assimp 5.2 writes (null records,
// creation time stamp, unit scale; docs/mesh-export.md).
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
// A .glb of a document (extensions and generator fixed, lengths and padding computed); a
// data error on unreadable JSON.
std::vector<uint8_t> glb(const GltfParts& parts);
// A .gltf of a document, `bin` embedded as a data URI.
std::vector<uint8_t> gltf(const std::vector<uint8_t>& json, const std::vector<uint8_t>& bin);
// Rewrites a binary FBX with the null records closing nested node lists (which Assimp 5.2
// omits, so readers reject its files), a fixed creation time stamp and a unit scale of
// metres (UnitScaleFactor 100).
std::vector<uint8_t> fbx(std::vector<uint8_t> file);

}  // namespace voxkit::fixup
