// The sub-assets of a DigZoneData asset in Unity's YAML (Unity 2022.3): chunk meshes (Mesh,
// class 43) and textures (Texture2D, class 28), written as the editor saves them, and
// textures read back (docs/formats/unity-asset.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/mesh/package_mesher.hpp"

namespace voxkit::unity {

// The vertex layout of a chunk mesh: one stream, each vertex's channels one after another:
// position float3 (offset 0), normal float3 (12), color float4 (24), uv0 float2 (40) and,
// when the mesh has lightmap UVs, uv1 float2 (48). 48 or 56 bytes a vertex.
uint32_t vertex_stride(const package::ChunkMesh& mesh);

// The "--- !u!43 &ID" document of `mesh`, named `name`; lines end with `eol`. The mesh must
// have triangles and every attribute for every vertex (uv1 for all or none). 16-bit
// indices up to 65535 vertices, else 32-bit.
std::string mesh_document(int64_t id, const std::string& name, const package::ChunkMesh& mesh,
                          const std::string& eol);

// Unity's TextureFormat values the asset uses.
inline constexpr int kRGBA32 = 4;
inline constexpr int kRHalf = 15;

// A texture without mipmaps, clamped, linear, readable: rows from the bottom, texels from the
// left, `width * height * bytes per texel` bytes.
struct Texture {
  std::string name;
  uint32_t width = 0, height = 0;
  int format = kRGBA32;
  int filter = 1;  // 0 point, 1 bilinear
  std::vector<uint8_t> data;
};

// The "--- !u!28 &ID" document of `tex`.
std::string texture_document(int64_t id, const Texture& tex, const std::string& eol);

// Reads a Texture2D document (text[begin, end)): its size, format and texels, or nothing
// when it is not an uncompressed RGBA32 or RHalf texture of one image and one mip. Throws a
// data error (offset into `text`) when its data does not match its size.
bool read_texture(std::string_view text, size_t begin, size_t end, Texture& out);

// IEEE half floats (RHalf): round to nearest even, overflow to infinity; and back.
uint16_t float_to_half(float value);
float half_to_float(uint16_t bits);

}  // namespace voxkit::unity
