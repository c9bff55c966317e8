// Mesh and Texture2D documents of the dig-zone asset, in the YAML form Unity 2022.3 saves:
// the keys, their order and indentation as in the package's own baked example asset.
#include "formats/zone/unity_mesh.hpp"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "formats/zone/unity_asset.hpp"
#include "lib/core/error.hpp"

namespace voxkit::unity {
namespace {

constexpr char kDigits[] = "0123456789abcdef";

void hex_byte_to(std::string& out, uint8_t b) {
  out += kDigits[b >> 4];
  out += kDigits[b & 15];
}

void hex_u32_to(std::string& out, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) hex_byte_to(out, uint8_t(v >> (8 * i)));
}

void hex_float_to(std::string& out, float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  hex_u32_to(out, u, 4);
}

std::string vec3(const std::array<float, 3>& v) {
  return "{x: " + format_float(v[0]) + ", y: " + format_float(v[1]) + ", z: " + format_float(v[2]) + "}";
}

// Unity's AABB of a set of points: centre and half extent, in float.
struct Aabb {
  std::array<float, 3> lo{FLT_MAX, FLT_MAX, FLT_MAX}, hi{-FLT_MAX, -FLT_MAX, -FLT_MAX};
  bool any = false;
  void add(const std::array<float, 3>& p) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], p[a]);
      hi[a] = std::max(hi[a], p[a]);
    }
    any = true;
  }
  std::array<float, 3> center() const {
    if (!any) return {0, 0, 0};
    return {(hi[0] + lo[0]) * 0.5f, (hi[1] + lo[1]) * 0.5f, (hi[2] + lo[2]) * 0.5f};
  }
  std::array<float, 3> extent() const {
    if (!any) return {0, 0, 0};
    return {(hi[0] - lo[0]) * 0.5f, (hi[1] - lo[1]) * 0.5f, (hi[2] - lo[2]) * 0.5f};
  }
};

struct Lines {
  std::string& s;
  const std::string& eol;
  void operator()(std::string_view line) {
    s.append(line);
    s += eol;
  }
};

// One entry of m_Channels: Unity's VertexAttribute order (position, normal, tangent, color,
// uv0..uv7, blend weight, blend indices); format 0 is float32.
void channel(Lines& k, uint32_t offset, uint32_t dimension) {
  k("    - stream: 0");
  k("      offset: " + std::to_string(offset));
  k("      format: 0");
  k("      dimension: " + std::to_string(dimension));
}

void packed_channel(Lines& k, const char* name, bool range_and_start) {
  k(std::string("    ") + name + ":");
  k("      m_NumItems: 0");
  if (range_and_start) {
    k("      m_Range: 0");
    k("      m_Start: 0");
  }
  k("      m_Data: ");
  k("      m_BitSize: 0");
}

void stream_data(Lines& k) {
  k("  m_StreamData:");
  k("    serializedVersion: 2");
  k("    offset: 0");
  k("    size: 0");
  k("    path: ");
}

}  // namespace

uint32_t vertex_stride(const package::ChunkMesh& m) { return m.uv1.empty() ? 48 : 56; }

std::string mesh_document(int64_t id, const std::string& name, const package::ChunkMesh& m, const std::string& eol) {
  const size_t n = m.positions.size();
  if (m.indices.empty() || m.normals.size() != n || m.colors.size() != n || m.uv0.size() != n ||
      (!m.uv1.empty() && m.uv1.size() != n) || m.indices.size() % 3 != 0) {
    throw_usage("a chunk mesh to write has no triangles or attributes missing for some vertices");
  }
  const bool index16 = n <= 65535;
  const uint32_t stride = vertex_stride(m);
  uint32_t first = UINT32_MAX, last = 0;
  Aabb used, all;
  for (uint32_t i : m.indices) {
    if (i >= n) throw_usage("a chunk mesh to write has an index past its vertices");
    first = std::min(first, i);
    last = std::max(last, i);
    used.add(m.positions[i]);
  }
  for (const auto& p : m.positions) all.add(p);

  std::string s;
  s.reserve(2048 + m.indices.size() * (index16 ? 4 : 8) + n * stride * 2);
  Lines k{s, eol};
  k("--- !u!43 &" + std::to_string(id));
  k("Mesh:");
  k("  m_ObjectHideFlags: 0");
  k("  m_CorrespondingSourceObject: {fileID: 0}");
  k("  m_PrefabInstance: {fileID: 0}");
  k("  m_PrefabAsset: {fileID: 0}");
  k("  m_Name: " + name);
  k("  serializedVersion: 11");
  k("  m_SubMeshes:");
  k("  - serializedVersion: 2");
  k("    firstByte: 0");
  k("    indexCount: " + std::to_string(m.indices.size()));
  k("    topology: 0");
  k("    baseVertex: 0");
  k("    firstVertex: " + std::to_string(first));
  k("    vertexCount: " + std::to_string(last - first + 1));
  k("    localAABB:");
  k("      m_Center: " + vec3(used.center()));
  k("      m_Extent: " + vec3(used.extent()));
  k("  m_Shapes:");
  k("    vertices: []");
  k("    shapes: []");
  k("    channels: []");
  k("    fullWeights: []");
  k("  m_BindPose: []");
  k("  m_BoneNameHashes: ");
  k("  m_RootBoneNameHash: 0");
  k("  m_BonesAABB: []");
  k("  m_VariableBoneCountWeights:");
  k("    m_Data: ");
  k("  m_MeshCompression: 0");
  k("  m_IsReadable: 1");
  k("  m_KeepVertices: 0");
  k("  m_KeepIndices: 0");
  k(std::string("  m_IndexFormat: ") + (index16 ? "0" : "1"));
  s += "  m_IndexBuffer: ";
  for (uint32_t i : m.indices) hex_u32_to(s, i, index16 ? 2 : 4);
  s += eol;
  k("  m_VertexData:");
  k("    serializedVersion: 3");
  k("    m_VertexCount: " + std::to_string(n));
  k("    m_Channels:");
  channel(k, 0, 3);   // position
  channel(k, 12, 3);  // normal
  channel(k, 0, 0);   // tangent
  channel(k, 24, 4);  // color
  channel(k, 40, 2);  // uv0
  channel(k, m.uv1.empty() ? 0 : 48, m.uv1.empty() ? 0 : 2);
  for (int c = 6; c < 14; ++c) channel(k, 0, 0);  // uv2..uv7, blend weight, blend indices
  k("    m_DataSize: " + std::to_string(uint64_t(n) * stride));
  s += "    _typelessdata: ";
  for (size_t v = 0; v < n; ++v) {
    for (float f : m.positions[v]) hex_float_to(s, f);
    for (float f : m.normals[v]) hex_float_to(s, f);
    for (float f : m.colors[v]) hex_float_to(s, f);
    for (float f : m.uv0[v]) hex_float_to(s, f);
    if (!m.uv1.empty())
      for (float f : m.uv1[v]) hex_float_to(s, f);
  }
  s += eol;
  k("  m_CompressedMesh:");
  packed_channel(k, "m_Vertices", true);
  packed_channel(k, "m_UV", true);
  packed_channel(k, "m_Normals", true);
  packed_channel(k, "m_Tangents", true);
  packed_channel(k, "m_Weights", false);
  packed_channel(k, "m_NormalSigns", false);
  packed_channel(k, "m_TangentSigns", false);
  packed_channel(k, "m_FloatColors", true);
  packed_channel(k, "m_BoneIndices", false);
  packed_channel(k, "m_Triangles", false);
  k("    m_UVInfo: 0");
  k("  m_LocalAABB:");
  k("    m_Center: " + vec3(all.center()));
  k("    m_Extent: " + vec3(all.extent()));
  k("  m_MeshUsageFlags: 0");
  k("  m_CookingOptions: 30");
  k("  m_BakedConvexCollisionMesh: ");
  k("  m_BakedTriangleCollisionMesh: ");
  k("  m_MeshMetrics[0]: 1");
  k("  m_MeshMetrics[1]: 1");
  k("  m_MeshOptimizationFlags: 1");
  stream_data(k);
  return s;
}

std::string texture_document(int64_t id, const Texture& t, const std::string& eol) {
  const size_t bytes = t.data.size();
  std::string s;
  s.reserve(1500 + bytes * 2);
  Lines k{s, eol};
  k("--- !u!28 &" + std::to_string(id));
  k("Texture2D:");
  k("  m_ObjectHideFlags: 0");
  k("  m_CorrespondingSourceObject: {fileID: 0}");
  k("  m_PrefabInstance: {fileID: 0}");
  k("  m_PrefabAsset: {fileID: 0}");
  k("  m_Name: " + t.name);
  k("  m_ImageContentsHash:");
  k("    serializedVersion: 2");
  k("    Hash: 00000000000000000000000000000000");
  k("  m_ForcedFallbackFormat: 4");
  k("  m_DownscaleFallback: 0");
  k("  m_IsAlphaChannelOptional: 0");
  k("  serializedVersion: 2");
  k("  m_Width: " + std::to_string(t.width));
  k("  m_Height: " + std::to_string(t.height));
  k("  m_CompleteImageSize: " + std::to_string(bytes));
  k("  m_MipsStripped: 0");
  k("  m_TextureFormat: " + std::to_string(t.format));
  k("  m_MipCount: 1");
  k("  m_IsReadable: 1");
  k("  m_IsPreProcessed: 0");
  k("  m_IgnoreMipmapLimit: 0");
  k("  m_MipmapLimitGroupName: ");
  k("  m_StreamingMipmaps: 0");
  k("  m_StreamingMipmapsPriority: 0");
  k("  m_VTOnly: 0");
  k("  m_AlphaIsTransparency: 0");
  k("  m_ImageCount: 1");
  k("  m_TextureDimension: 2");
  k("  m_TextureSettings:");
  k("    serializedVersion: 2");
  k("    m_FilterMode: " + std::to_string(t.filter));
  k("    m_Aniso: 1");
  k("    m_MipBias: 0");
  k("    m_WrapU: 1");
  k("    m_WrapV: 1");
  k("    m_WrapW: 1");
  k("  m_LightmapFormat: 0");
  k("  m_ColorSpace: 0");
  k("  m_PlatformBlob: ");
  k("  image data: " + std::to_string(bytes));
  s += "  _typelessdata: ";
  for (uint8_t b : t.data) hex_byte_to(s, b);
  s += eol;
  stream_data(k);
  return s;
}

bool read_texture(std::string_view t, size_t begin, size_t end, Texture& out) {
  // The document's two-space keys; a value may go on over deeper lines of hex digits.
  struct Value {
    size_t at = 0;
    std::string_view text;
  };
  std::vector<std::pair<std::string, Value>> keys;
  for (size_t pos = begin; pos < end;) {
    size_t nl = t.find('\n', pos);
    if (nl == std::string_view::npos || nl > end) nl = end;
    std::string_view line = t.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t colon = line.find(": ");
    if (line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ' && colon != std::string_view::npos) {
      keys.push_back({std::string(line.substr(2, colon - 2)), {pos + colon + 2, line.substr(colon + 2)}});
    } else if (!keys.empty() && line.size() > 4 && line.substr(0, 4) == "    " &&
               line.find(':') == std::string_view::npos && keys.back().first == "_typelessdata") {
      const size_t at = keys.back().second.at;
      keys.back().second.text = t.substr(at, pos + line.size() - at);
    }
    pos = nl + 1;
  }
  auto get = [&](const char* key) -> const Value* {
    for (const auto& [k, v] : keys)
      if (k == key) return &v;
    return nullptr;
  };
  auto number = [&](const char* key, int64_t lo, int64_t hi, int64_t& v) {
    const Value* f = get(key);
    if (!f) return false;
    const std::string s(f->text);
    char* e = nullptr;
    errno = 0;
    v = std::strtoll(s.c_str(), &e, 10);
    return !s.empty() && (*e == 0 || *e == ' ' || *e == '\r') && !errno && v >= lo && v <= hi;
  };
  int64_t w = 0, h = 0, format = 0, mips = 0, images = 0, size = 0;
  if (!number("m_Width", 1, 16384, w) || !number("m_Height", 1, 16384, h) || !number("m_TextureFormat", 0, INT32_MAX, format))
    return false;
  if (format != kRGBA32 && format != kRHalf) return false;
  if ((number("m_MipCount", 0, INT32_MAX, mips) && mips != 1) || (number("m_ImageCount", 0, INT32_MAX, images) && images != 1))
    return false;
  const Value* data = get("_typelessdata");
  if (!data) return false;
  const uint64_t expect = uint64_t(w) * uint64_t(h) * (format == kRGBA32 ? 4 : 2);
  if (number("image data", 0, INT64_MAX, size) && uint64_t(size) != expect) {
    throw_data("a texture's image data does not match its size", get("image data")->at,
               std::to_string(expect) + " bytes", std::to_string(size) + " bytes");
  }
  uint64_t digits = 0;
  for (char c : data->text)
    if (c != ' ' && c != '\r' && c != '\n' && c != '\t') ++digits;
  if (digits == 0 && size == 0) return false;  // its texels are elsewhere (streamed)
  if (digits != expect * 2) {
    throw_data("a texture's _typelessdata does not match its size", data->at, std::to_string(expect) + " bytes",
               std::to_string(digits / 2) + " bytes");
  }
  out.width = uint32_t(w);
  out.height = uint32_t(h);
  out.format = int(format);
  out.data = from_hex(data->text, data->at);
  if (const Value* n = get("m_Name")) out.name = std::string(n->text);
  return true;
}

uint16_t float_to_half(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  const uint16_t sign = uint16_t((x >> 16) & 0x8000);
  const uint32_t exp = (x >> 23) & 0xff, mant = x & 0x7fffff;
  if (exp == 0xff) return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  const int e = int(exp) - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return sign;
    const uint32_t m = mant | 0x800000;
    const int shift = 14 - e;
    uint32_t h = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1))) ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = (uint32_t(e) << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // a carry rounds up to the next binade or infinity
  return uint16_t(sign | h);
}

float half_to_float(uint16_t bits) {
  const uint32_t sign = uint32_t(bits & 0x8000) << 16, e = (bits >> 10) & 0x1f, m = bits & 0x3ff;
  if (e == 0) {
    const float v = std::ldexp(float(m), -24);
    return sign ? -v : v;
  }
  const uint32_t x = e == 31 ? (sign | 0x7f800000 | (m << 13)) : (sign | ((e + 112) << 23) | (m << 13));
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace voxkit::unity
