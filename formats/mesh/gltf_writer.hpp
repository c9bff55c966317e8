// glTF 2.0 writer for chunk meshes: .glb (JSON and BIN chunks) and .gltf (the buffer embedded
// as a base64 data URI). Byte layouts: the glTF 2.0 specification, sections 3 and 4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/mesh/mesh_scene.hpp"

namespace voxkit::gltf_writer {

// The whole file. Each mesh is one primitive (mode 4, material 0) with one accessor and one
// buffer view per attribute, in the order POSITION, NORMAL, TEXCOORD_0, TEXCOORD_1, COLOR_0,
// then the uint32 indices; every accessor carries min and max. Texture v is stored as 1 - v
// (glTF's texture origin is top-left). Deterministic, and the same for any thread count.
std::vector<uint8_t> write(const mesh_scene::Scene& scene, bool binary);

// The .glb of write(scene, true), the same bytes, handed to `sink` in pieces (the header and
// JSON, then the buffer in slabs of whole meshes of about `slab_bytes`, each filled in parallel)
// instead of being held whole in memory. Returns the file's size.
using Sink = std::function<void(const uint8_t* data, size_t size)>;
uint64_t write_glb_stream(const mesh_scene::Scene& scene, const Sink& sink, uint64_t slab_bytes = uint64_t(4) << 20);

// A .gltf whose buffer is a file of its own: the JSON text (as write(scene, false) lays it
// out, with buffers[0].uri = `bin_uri`, percent-encoded) to `gltf_sink`, the buffer's bytes
// (exactly its byteLength, in slabs) to `bin_sink`. Returns the bytes of both.
uint64_t write_gltf_separate(const mesh_scene::Scene& scene, const std::string& bin_uri, const Sink& gltf_sink,
                             const Sink& bin_sink, uint64_t slab_bytes = uint64_t(4) << 20);

// Base64 (RFC 4648, with padding) of `n` bytes appended to `out`.
void append_base64(std::vector<uint8_t>& out, const uint8_t* data, size_t n);

// A .glb container around a JSON text and a binary buffer: the JSON chunk padded with spaces,
// the BIN chunk with zeros, no BIN chunk when the buffer is empty.
std::vector<uint8_t> glb_container(const std::string& json, const uint8_t* bin, size_t bin_size);

// A .glb turned into a .gltf whose buffer is a file of its own: the .gltf text (the glb's
// JSON with buffers[0].uri = `bin_uri`, percent-encoded, indented with tabs) and where the BIN
// chunk's bytes are in `glb`, to be written as that file unchanged. A glb without a BIN chunk
// gives bin_size 0 and no uri. A data error on a malformed container.
struct SeparateBuffer {
  std::string gltf;
  size_t bin_offset = 0, bin_size = 0;
};
SeparateBuffer separate_buffer(const std::vector<uint8_t>& glb, const std::string& bin_uri);

// The generator string every glTF output carries.
const char* generator();

}  // namespace voxkit::gltf_writer
