// glTF 2.0 writer: the JSON with nlohmann/json, the buffer filled straight from the mesh
// arrays (in parallel, each mesh into its own byte range) into the output.
#include "formats/mesh/gltf_writer.hpp"

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "formats/core/write_behind.hpp"
#include "formats/mesh/json_text.hpp"
#include "lib/core/grid_alloc.hpp"
#include "lib/core/error.hpp"

namespace voxkit::gltf_writer {
namespace {

using json = nlohmann::json;

constexpr uint32_t kGlbMagic = 0x46546C67;   // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr int kFloat = 5126, kUnsignedInt = 5125;
constexpr uint64_t kMaxGlbBytes = 0xFFFFFFFFu;  // the GLB header's length is a uint32
constexpr const char kUriPlaceholder[] = "voxkit-buffer-uri";

enum Attr { kPosition, kNormal, kTexcoord0, kTexcoord1, kColor, kIndices, kAttrCount };
constexpr const char* kAttrName[] = {"POSITION", "NORMAL", "TEXCOORD_0", "TEXCOORD_1", "COLOR_0", nullptr};
constexpr const char* kAttrType[] = {"VEC3", "VEC3", "VEC2", "VEC2", "VEC4", "SCALAR"};
constexpr size_t kAttrComponents[] = {3, 3, 2, 2, 4, 1};

// Where one mesh's attributes go in the buffer, and their bounds.
struct MeshPlan {
  bool has[kAttrCount] = {};
  size_t count[kAttrCount] = {};
  uint64_t offset[kAttrCount] = {};
  std::array<float, 4> min[kAttrCount], max[kAttrCount];
  uint32_t index_min = 0, index_max = 0;
};

// What Assimp's glTF exporter did to every normal, kept so files stay as they were: scaled to
// unit length in float arithmetic (a zero normal is left alone).
std::array<float, 3> unit(std::array<float, 3> n) {
  const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len == 0.0f) return n;
  const float inv = 1.0f / len;
  return {n[0] * inv, n[1] * inv, n[2] * inv};
}

// The values of vertex v's attribute `a` as written (count kAttrComponents[a]).
void attribute(const mesh_scene::SceneMesh& sm, Attr a, size_t v, float* out) {
  const Mesh& m = *sm.mesh;
  switch (a) {
    case kPosition: {
      const auto p = sm.frame.position(m.positions[v]);
      std::memcpy(out, p.data(), 12);
      break;
    }
    case kNormal: {
      const auto n = unit(sm.frame.normal(m.normals[v]));
      std::memcpy(out, n.data(), 12);
      break;
    }
    case kTexcoord0:
      // A second UV set needs a first: an all-zero one for meshes without uv0.
      out[0] = m.uv0.empty() ? 0.0f : m.uv0[v][0];
      out[1] = 1.0f - (m.uv0.empty() ? 0.0f : m.uv0[v][1]);
      break;
    case kTexcoord1:
      out[0] = m.uv1[v][0];
      out[1] = 1.0f - m.uv1[v][1];
      break;
    case kColor:
      for (size_t c = 0; c < 4; ++c) out[c] = mesh_scene::clamp01(m.colors[v][c]);
      break;
    default: break;
  }
}

// Widens p's bounds by vertices [v0, v1).
void add_bounds(const mesh_scene::SceneMesh& sm, MeshPlan& p, size_t v0, size_t v1) {
  float value[4];
  for (int a = 0; a < kIndices; ++a) {
    if (!p.has[a]) continue;
    for (size_t v = v0; v < v1; ++v) {
      attribute(sm, Attr(a), v, value);
      for (size_t c = 0; c < kAttrComponents[a]; ++c) {
        p.min[a][c] = std::min(p.min[a][c], value[c]);
        p.max[a][c] = std::max(p.max[a][c], value[c]);
      }
    }
  }
}

constexpr size_t kBoundBlock = size_t(1) << 16;

MeshPlan plan_mesh(const mesh_scene::SceneMesh& sm) {
  const Mesh& m = *sm.mesh;
  MeshPlan p;
  p.has[kPosition] = true;
  p.has[kNormal] = !m.normals.empty();
  p.has[kTexcoord0] = !m.uv0.empty() || !m.uv1.empty();
  p.has[kTexcoord1] = !m.uv1.empty();
  p.has[kColor] = !m.colors.empty();
  p.has[kIndices] = true;
  const size_t nv = m.vertex_count();
  for (int a = 0; a < kIndices; ++a) {
    if (!p.has[a]) continue;
    p.count[a] = nv;
    p.min[a].fill(std::numeric_limits<float>::infinity());
    p.max[a].fill(-std::numeric_limits<float>::infinity());
  }
  if (nv <= kBoundBlock) {
    add_bounds(sm, p, 0, nv);
  } else {
    // A large (merged) mesh in blocks on every core. Min and max are exact, so the blocks'
    // bounds combine to the same floats in any order.
    std::vector<MeshPlan> part((nv + kBoundBlock - 1) / kBoundBlock, p);
    tbb::parallel_for(size_t(0), part.size(), [&](size_t b) {
      add_bounds(sm, part[b], b * kBoundBlock, std::min(nv, (b + 1) * kBoundBlock));
    });
    for (const MeshPlan& q : part)
      for (int a = 0; a < kIndices; ++a)
        for (size_t c = 0; c < 4; ++c) {
          p.min[a][c] = std::min(p.min[a][c], q.min[a][c]);
          p.max[a][c] = std::max(p.max[a][c], q.max[a][c]);
        }
  }
  p.count[kIndices] = m.indices.size();
  if (!m.indices.empty()) {
    const auto [lo, hi] = std::minmax_element(m.indices.begin(), m.indices.end());
    p.index_min = *lo;
    p.index_max = *hi;
  }
  return p;
}

// The elements of section a of a mesh: vertices, or triangles for the indices.
size_t elements(const MeshPlan& p, Attr a) { return a == kIndices ? p.count[a] / 3 : p.count[a]; }
size_t element_bytes(Attr a) { return a == kIndices ? 12 : 4 * kAttrComponents[a]; }

// Elements [begin, end) of one mesh's section, at `offset` in the bytes being filled.
struct Run {
  uint32_t mesh;
  Attr attr;
  size_t begin, end;
  uint64_t offset;
};
constexpr size_t kRunElements = size_t(1) << 15;

void fill_run(const mesh_scene::SceneMesh& sm, const Run& r, uint8_t* at) {
  const Mesh& m = *sm.mesh;
  if (r.attr == kIndices) {
    for (size_t t = r.begin; t < r.end; ++t, at += 12) {
      const auto tri = sm.frame.triangle(&m.indices[3 * t]);
      std::memcpy(at, tri.data(), 12);
    }
    return;
  }
  float value[4];
  const size_t bytes = element_bytes(r.attr);
  for (size_t v = r.begin; v < r.end; ++v, at += bytes) {
    attribute(sm, r.attr, v, value);
    std::memcpy(at, value, bytes);
  }
}

void put32(uint8_t* at, uint32_t v) {
  for (int i = 0; i < 4; ++i) at[i] = uint8_t(v >> (8 * i));
}

}  // namespace

const char* generator() { return "voxkit " VOXKIT_VERSION; }

void append_base64(std::vector<uint8_t>& out, const uint8_t* in, size_t n) {
  static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const size_t start = out.size();
  out.resize(start + (n + 2) / 3 * 4);
  uint8_t* o = out.data() + start;
  size_t i = 0;
  for (; i + 2 < n; i += 3) {
    const uint32_t v = uint32_t(in[i]) << 16 | uint32_t(in[i + 1]) << 8 | in[i + 2];
    *o++ = uint8_t(kB64[v >> 18]);
    *o++ = uint8_t(kB64[(v >> 12) & 63]);
    *o++ = uint8_t(kB64[(v >> 6) & 63]);
    *o++ = uint8_t(kB64[v & 63]);
  }
  if (const size_t rest = n - i) {
    const uint32_t v = uint32_t(in[i]) << 16 | (rest == 2 ? uint32_t(in[i + 1]) << 8 : 0);
    *o++ = uint8_t(kB64[v >> 18]);
    *o++ = uint8_t(kB64[(v >> 12) & 63]);
    *o++ = uint8_t(rest == 2 ? kB64[(v >> 6) & 63] : '=');
    *o++ = '=';
  }
}

std::vector<uint8_t> glb_container(const std::string& text, const uint8_t* bin, size_t bin_size) {
  const size_t json_len = (text.size() + 3) / 4 * 4, bin_len = (bin_size + 3) / 4 * 4;
  const uint64_t total = 12 + 8 + json_len + (bin_size ? 8 + bin_len : 0);
  if (total > kMaxGlbBytes)
    throw Error(ErrorKind::Data, "a .glb file holds at most 4 GiB", std::nullopt,
                "at most " + std::to_string(kMaxGlbBytes) + " bytes", std::to_string(total) + " bytes");
  std::vector<uint8_t> out = mesh_scene::output_buffer(total);
  out.resize(total);
  put32(&out[0], kGlbMagic);
  put32(&out[4], 2);
  put32(&out[8], uint32_t(total));
  put32(&out[12], uint32_t(json_len));
  put32(&out[16], kChunkJson);
  std::memcpy(&out[20], text.data(), text.size());
  std::memset(&out[20 + text.size()], ' ', json_len - text.size());
  if (bin_size) {
    put32(&out[20 + json_len], uint32_t(bin_len));
    put32(&out[24 + json_len], kChunkBin);
    if (bin) std::memcpy(&out[28 + json_len], bin, bin_size);
  }
  return out;
}

namespace {

// The document of a scene: its JSON text (with the buffer's uri as a placeholder in a .gltf),
// where each mesh's attributes go in the buffer, and the buffer's size.
struct Document {
  std::string text;
  std::vector<MeshPlan> plans;
  uint64_t buffer_size = 0;
};

Document document(const mesh_scene::Scene& scene, bool binary) {
  const size_t nm = scene.meshes.size();
  std::vector<MeshPlan> plans(nm);
  tbb::parallel_for(size_t(0), nm, [&](size_t i) { plans[i] = plan_mesh(scene.meshes[i]); });

  // The buffer: every attribute of every mesh in turn (all 4-byte multiples); accessors and
  // buffer views one per attribute, numbered in the same order.
  uint64_t buffer_size = 0;
  std::vector<size_t> first_accessor(nm);
  size_t accessor_count = 0;
  for (size_t i = 0; i < nm; ++i) {
    first_accessor[i] = accessor_count;
    for (int a = 0; a < kAttrCount; ++a)
      if (plans[i].has[a]) {
        plans[i].offset[a] = buffer_size;
        buffer_size += uint64_t(plans[i].count[a]) * 4 * kAttrComponents[a];
        ++accessor_count;
      }
  }

  json doc;
  doc["asset"] = {{"generator", generator()}, {"version", "2.0"}};
  doc["scene"] = 0;
  doc["scenes"] = json::array({json{{"nodes", json::array({0})}}});
  json nodes = json::array();
  for (const auto& n : scene.nodes) {
    json node = {{"name", n.name}};
    if (!n.children.empty()) node["children"] = n.children;
    if (n.mesh) node["mesh"] = *n.mesh;
    if (n.translation && (*n.translation != std::array<float, 3>{0, 0, 0})) {
      const auto& t = *n.translation;
      node["matrix"] = {1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
                        double(t[0]), double(t[1]), double(t[2]), 1.0};
    }
    nodes.push_back(std::move(node));
  }
  doc["nodes"] = std::move(nodes);

  // The per-mesh arrays (accessors, bufferViews, meshes) are made and serialised per mesh in
  // parallel, by nlohmann/json as the rest, and put in place of their placeholders: the same
  // text one dump of the whole document gives.
  enum { kAccessors, kViews, kMeshes, kLists };
  static const char* const kListKey[] = {"accessors", "bufferViews", "meshes"};
  std::vector<std::array<std::string, kLists>> parts(nm);
  // Written straight as text (json_text: the bytes nlohmann's dump gives, keys in its sorted
  // order); in a .gltf the elements sit two tabs deep.
  const std::string sep = binary ? "," : ",\n";
  tbb::parallel_for(size_t(0), nm, [&](size_t i) {
    const MeshPlan& p = plans[i];
    auto& out = parts[i];
    out[kAccessors].reserve(binary ? 900 : 1500);
    out[kViews].reserve(binary ? 450 : 700);
    size_t index = first_accessor[i], attribute_index[kAttrCount] = {};
    for (int a = 0; a < kAttrCount; ++a) {
      if (!p.has[a]) continue;
      attribute_index[a] = index;
      const uint64_t bytes = uint64_t(p.count[a]) * 4 * kAttrComponents[a];
      if (!out[kAccessors].empty()) out[kAccessors] += sep;
      json_text::Writer acc(out[kAccessors], !binary, 2);
      acc.begin_object();
      acc.key("bufferView");
      acc.value(uint64_t(index));
      acc.key("byteOffset");
      acc.value(uint64_t(0));
      acc.key("componentType");
      acc.value(uint64_t(a == kIndices ? kUnsignedInt : kFloat));
      acc.key("count");
      acc.value(uint64_t(p.count[a]));
      for (const bool is_max : {true, false}) {
        acc.key(is_max ? "max" : "min");
        acc.begin_array();
        if (a == kIndices) {
          acc.value(uint64_t(is_max ? p.index_max : p.index_min));
        } else {
          for (size_t c = 0; c < kAttrComponents[a]; ++c) acc.value(double(is_max ? p.max[a][c] : p.min[a][c]));
        }
        acc.end_array();
      }
      acc.key("type");
      acc.value(std::string_view(kAttrType[a]));
      acc.end_object();

      if (!out[kViews].empty()) out[kViews] += sep;
      json_text::Writer view(out[kViews], !binary, 2);
      view.begin_object();
      view.key("buffer");
      view.value(uint64_t(0));
      view.key("byteLength");
      view.value(bytes);
      view.key("byteOffset");
      view.value(uint64_t(p.offset[a]));
      view.key("target");
      view.value(uint64_t(a == kIndices ? kElementArrayBuffer : kArrayBuffer));
      view.end_object();
      ++index;
    }
    json_text::Writer mesh(out[kMeshes], !binary, 2);
    mesh.begin_object();
    mesh.key("name");
    mesh.value(std::string_view(scene.meshes[i].name));
    mesh.key("primitives");
    mesh.begin_array();
    mesh.begin_object();
    mesh.key("attributes");
    mesh.begin_object();
    // The attribute names in sorted order, as a json object keeps them.
    for (const int a : {kColor, kNormal, kPosition, kTexcoord0, kTexcoord1})
      if (p.has[a]) {
        mesh.key(kAttrName[a]);
        mesh.value(uint64_t(attribute_index[a]));
      }
    mesh.end_object();
    mesh.key("indices");
    mesh.value(uint64_t(attribute_index[kIndices]));
    mesh.key("material");
    mesh.value(uint64_t(0));
    mesh.key("mode");
    mesh.value(uint64_t(4));
    mesh.end_object();
    mesh.end_array();
    mesh.end_object();
  });
  if (nm) {
    for (int l = 0; l < kLists; ++l) doc[kListKey[l]] = std::string("voxkit-") + kListKey[l];
    const double grey = double(0.8f);
    doc["materials"] = json::array({json{
        {"name", "voxkit_terrain"},
        {"pbrMetallicRoughness", {{"baseColorFactor", {grey, grey, grey, 1.0}}, {"metallicFactor", 0.0}}}}});
    doc["buffers"] = json::array({json{{"byteLength", buffer_size}}});
    if (!binary) doc["buffers"][0]["uri"] = kUriPlaceholder;
  }
  std::string text = binary ? doc.dump() : doc.dump(1, '\t') + "\n";
  if (nm) {
    // Each placeholder string, quotes included, becomes its array.
    std::string joined;
    size_t from = 0;
    for (int l = 0; l < kLists; ++l) {
      const std::string token = std::string("\"voxkit-") + kListKey[l] + "\"";
      const size_t at = text.find(token, from);
      joined.append(text, from, at - from);
      joined += binary ? "[" : "[\n";
      for (size_t i = 0; i < nm; ++i) {
        if (i) joined += sep;
        joined += parts[i][size_t(l)];
        parts[i][size_t(l)] = std::string();
      }
      joined += binary ? "]" : "\n\t]";
      from = at + token.size();
    }
    joined.append(text, from, std::string::npos);
    text.swap(joined);
  }
  return {std::move(text), std::move(plans), buffer_size};
}

}  // namespace

namespace {

// Where the buffer's next byte comes from: element `element` of mesh `mesh`'s section `attr`.
struct Cursor {
  size_t mesh = 0, element = 0;
  int attr = 0;
};

// The next slab of about `slab_size` bytes (at least one element), cut at element boundaries
// into runs of at most kRunElements, offsets from the slab's start; its size, 0 at the end.
uint64_t next_slab(const Document& d, Cursor& c, uint64_t slab_size, std::vector<Run>& runs) {
  runs.clear();
  uint64_t size = 0;
  while (c.mesh < d.plans.size() && size < slab_size) {
    const MeshPlan& p = d.plans[c.mesh];
    const size_t count = c.attr < kAttrCount && p.has[c.attr] ? elements(p, Attr(c.attr)) : 0;
    if (c.element == count) {
      c.element = 0;
      if (++c.attr == kAttrCount) c.attr = 0, ++c.mesh;
      continue;
    }
    const size_t es = element_bytes(Attr(c.attr));
    const size_t take = std::min({count - c.element, size_t((slab_size - size + es - 1) / es), kRunElements});
    runs.push_back({uint32_t(c.mesh), Attr(c.attr), c.element, c.element + take, size});
    size += uint64_t(take) * es;
    c.element += take;
  }
  return size;
}

// The runs' bytes into `slab`, in parallel.
void fill_runs(const mesh_scene::Scene& scene, const std::vector<Run>& runs, uint8_t* slab) {
  tbb::parallel_for(size_t(0), runs.size(), [&](size_t k) {
    const Run& r = runs[k];
    fill_run(scene.meshes[r.mesh], r, slab + r.offset);
  });
}

}  // namespace

std::vector<uint8_t> write(const mesh_scene::Scene& scene, bool binary) {
  const size_t nm = scene.meshes.size();
  Document d = document(scene, binary);
  const std::string& text = d.text;
  const uint64_t buffer_size = d.buffer_size;
  // The whole buffer as one slab.
  auto fill = [&](uint8_t* buffer) {
    Cursor c;
    std::vector<Run> runs;
    next_slab(d, c, buffer_size, runs);
    fill_runs(scene, runs, buffer);
  };

  if (binary) {
    std::vector<uint8_t> out = glb_container(text, nullptr, buffer_size);
    if (buffer_size) fill(out.data() + 28 + (text.size() + 3) / 4 * 4);
    return out;
  }
  if (!nm) return {text.begin(), text.end()};
  const size_t at = text.find(kUriPlaceholder);
  std::vector<uint8_t> bin(buffer_size);
  fill(bin.data());
  static const std::string kPrefix = "data:application/octet-stream;base64,";
  std::vector<uint8_t> out = mesh_scene::output_buffer(text.size() + kPrefix.size() + (buffer_size + 2) / 3 * 4);
  out.insert(out.end(), text.begin(), text.begin() + long(at));
  out.insert(out.end(), kPrefix.begin(), kPrefix.end());
  append_base64(out, bin.data(), bin.size());
  bin = {};
  out.insert(out.end(), text.begin() + long(at + sizeof(kUriPlaceholder) - 1), text.end());
  return out;
}

namespace {
void stream_buffer(const mesh_scene::Scene& scene, const Document& d, const Sink& sink, uint64_t slab_bytes);
std::string uri_encode(const std::string& s);
}  // namespace

uint64_t write_glb_stream(const mesh_scene::Scene& scene, const Sink& sink, uint64_t slab_bytes) {
  const Document d = document(scene, true);
  const std::vector<uint8_t> head = glb_container(d.text, nullptr, 0);
  const uint64_t bin_len = (d.buffer_size + 3) / 4 * 4;
  const uint64_t total = head.size() + (d.buffer_size ? 8 + bin_len : 0);
  if (total > kMaxGlbBytes)
    throw Error(ErrorKind::Data, "a .glb file holds at most 4 GiB", std::nullopt,
                "at most " + std::to_string(kMaxGlbBytes) + " bytes", std::to_string(total) + " bytes");
  std::vector<uint8_t> first(head.begin(), head.end());
  put32(&first[8], uint32_t(total));
  if (d.buffer_size) {
    first.resize(first.size() + 8);
    put32(&first[head.size()], uint32_t(bin_len));
    put32(&first[head.size() + 4], kChunkBin);
  }
  sink(first.data(), first.size());
  stream_buffer(scene, d, sink, slab_bytes);
  if (bin_len > d.buffer_size) {
    const uint8_t zeros[4] = {0, 0, 0, 0};
    sink(zeros, size_t(bin_len - d.buffer_size));
  }
  return total;
}

uint64_t write_gltf_separate(const mesh_scene::Scene& scene, const std::string& bin_uri, const Sink& gltf_sink,
                             const Sink& bin_sink, uint64_t slab_bytes) {
  Document d = document(scene, false);
  const size_t at = d.text.find(kUriPlaceholder);
  if (at != std::string::npos) d.text.replace(at, sizeof(kUriPlaceholder) - 1, uri_encode(bin_uri));
  gltf_sink(reinterpret_cast<const uint8_t*>(d.text.data()), d.text.size());
  stream_buffer(scene, d, bin_sink, slab_bytes);
  return d.text.size() + d.buffer_size;
}

namespace {

// The buffer in slabs of about `slab_bytes`, cut at element boundaries (a merged mesh spans
// many slabs), each filled in parallel in runs of at most kRunElements elements and handed on
// while the next is filled; exactly d.buffer_size bytes.
void stream_buffer(const mesh_scene::Scene& scene, const Document& d, const Sink& sink, uint64_t slab_bytes) {
  const uint64_t slab_size = std::max<uint64_t>(slab_bytes, 64);
  io::WriteBehind behind(sink);
  std::vector<uint8_t> slab;
  std::vector<Run> runs;
  Cursor c;
  while (const uint64_t size = next_slab(d, c, slab_size, runs)) {
    if (slab.capacity() < size) reserve_populated(slab, size_t(size));
    slab.resize(size_t(size));
    fill_runs(scene, runs, slab.data());
    slab = behind.write(std::move(slab));
  }
  behind.finish();
}

}  // namespace

namespace {

uint32_t get32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// RFC 3986: everything but the unreserved characters percent-encoded (a file name with spaces
// or '#' still names the file).
std::string uri_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += char(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace

SeparateBuffer separate_buffer(const std::vector<uint8_t>& glb, const std::string& bin_uri) {
  auto bad = [](uint64_t at, const std::string& expected, const std::string& found) {
    return Error(ErrorKind::Data, "not a glb container", at, expected, found);
  };
  if (glb.size() < 20 || get32(glb.data()) != kGlbMagic) throw bad(0, "the glTF magic", std::to_string(glb.size()) + " bytes");
  const uint64_t json_len = get32(&glb[12]);
  if (get32(&glb[16]) != kChunkJson || 20 + json_len > glb.size())
    throw bad(12, "a JSON chunk inside the file", "length " + std::to_string(json_len));
  SeparateBuffer s;
  const uint64_t bin_at = 20 + json_len;
  if (bin_at + 8 <= glb.size()) {
    const uint64_t bin_len = get32(&glb[bin_at]);
    if (get32(&glb[bin_at + 4]) != kChunkBin || bin_at + 8 + bin_len > glb.size())
      throw bad(bin_at, "a BIN chunk inside the file", "length " + std::to_string(bin_len));
    s.bin_offset = size_t(bin_at + 8);
    s.bin_size = size_t(bin_len);
  }
  json doc = json::parse(glb.begin() + 20, glb.begin() + long(bin_at), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw bad(20, "JSON", "text that does not parse");
  if (s.bin_size) {
    if (!doc.contains("buffers") || !doc["buffers"].is_array() || doc["buffers"].empty())
      throw bad(20, "a buffer for the BIN chunk", "none");
    // The BIN chunk is the buffer's length padded to 4: the file holds the buffer exactly.
    const uint64_t length = doc["buffers"][0].value("byteLength", uint64_t(0));
    if (length > s.bin_size) throw bad(bin_at, "a BIN chunk of " + std::to_string(length) + " bytes", std::to_string(s.bin_size));
    s.bin_size = size_t(length);
    doc["buffers"][0]["uri"] = uri_encode(bin_uri);
  }
  s.gltf = doc.dump(1, '\t') + "\n";
  return s;
}

}  // namespace voxkit::gltf_writer
