// Mesh describers for `voxkit info`: glTF (the GLB container and the JSON document, after the
// glTF 2.0 specification). PLY, STL and OBJ are in mesh_info_text.cpp.
#include "formats/mesh/mesh_info.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

#include "formats/mesh/mesh_info_detail.hpp"
#include "lib/core/error.hpp"

namespace voxkit::mesh_info {

using namespace detail;

// The facts every mesh description holds, then the format's own.
identify::Description detail::mesh_description(const std::string& format, const std::string& summary, uint64_t vertices,
                                        uint64_t triangles, const Bounds& b, const std::vector<std::string>& attrs) {
  identify::Description d;
  d.format = format;
  d.summary = summary;
  d.fields = {{"vertices", std::to_string(vertices)},
              {"triangles", std::to_string(triangles)},
              {"bounds", b.text()},
              {"attributes", join(attrs)}};
  d.details = {{"vertices", vertices}, {"triangles", triangles}, {"bounds", b.to_json()}, {"attributes", attrs}};
  return d;
}

namespace {

// --- glTF ----------------------------------------------------------------------------------

[[noreturn]] void gltf_error(const std::string& what) { throw_data("glTF document: " + what); }

// doc[key] as an array (empty when absent); a data error when it is something else.
const json& array_of(const json& doc, const char* key) {
  static const json empty = json::array();
  const auto it = doc.find(key);
  if (it == doc.end()) return empty;
  if (!it->is_array()) gltf_error(std::string("\"") + key + "\" is not an array");
  return *it;
}

// An index into an array of `n`, or a count: a non-negative integer (below n when n is given).
uint64_t index_of(const json& v, const std::string& where, std::optional<size_t> n = std::nullopt) {
  if (!v.is_number_unsigned()) gltf_error(where + " is not a non-negative integer");
  const uint64_t i = v.get<uint64_t>();
  if (n && i >= *n) gltf_error(where + " is " + std::to_string(i) + ", past the " + std::to_string(*n) + " there are");
  return i;
}

identify::Description describe_gltf_doc(const json& doc, const std::string& format, const std::string& summary,
                                        std::optional<uint64_t> bin_bytes) {
  const json& asset = doc["asset"];
  const json& accessors = array_of(doc, "accessors");
  const json& meshes = array_of(doc, "meshes");
  std::vector<uint64_t> counts(accessors.size());
  for (size_t i = 0; i < accessors.size(); ++i) {
    const std::string where = "accessor " + std::to_string(i);
    if (!accessors[i].is_object()) gltf_error(where + " is not an object");
    const auto c = accessors[i].find("count");
    if (c == accessors[i].end()) gltf_error(where + " has no count");
    counts[i] = index_of(*c, where + " count");
  }
  uint64_t vertices = 0, triangles = 0, primitives = 0, other_modes = 0;
  Bounds b;
  std::set<std::string> attrs;
  for (size_t m = 0; m < meshes.size(); ++m) {
    const std::string mesh = "mesh " + std::to_string(m);
    if (!meshes[m].is_object()) gltf_error(mesh + " is not an object");
    const json& prims = array_of(meshes[m], "primitives");
    for (size_t p = 0; p < prims.size(); ++p) {
      const std::string where = mesh + " primitive " + std::to_string(p);
      const json& prim = prims[p];
      if (!prim.is_object()) gltf_error(where + " is not an object");
      ++primitives;
      const auto at = prim.find("attributes");
      if (at == prim.end() || !at->is_object()) gltf_error(where + " has no attributes object");
      std::optional<uint64_t> pos;
      for (auto a = at->begin(); a != at->end(); ++a) {
        const uint64_t i = index_of(a.value(), where + " attribute " + a.key(), accessors.size());
        attrs.insert(a.key());
        if (a.key() != "POSITION") continue;
        pos = counts[i];
        const json& acc = accessors[i];
        const auto lo = acc.find("min"), hi = acc.find("max");
        if (lo != acc.end() && hi != acc.end() && lo->is_array() && hi->is_array() && lo->size() == 3 &&
            hi->size() == 3) {
          bool numbers = true;
          for (int k = 0; k < 3; ++k) numbers = numbers && (*lo)[k].is_number() && (*hi)[k].is_number();
          if (numbers) {
            b.add((*lo)[0].get<double>(), (*lo)[1].get<double>(), (*lo)[2].get<double>());
            b.add((*hi)[0].get<double>(), (*hi)[1].get<double>(), (*hi)[2].get<double>());
          }
        }
      }
      vertices += pos.value_or(0);
      uint64_t n = pos.value_or(0);
      if (const auto ix = prim.find("indices"); ix != prim.end())
        n = counts[index_of(*ix, where + " indices", accessors.size())];
      uint64_t mode = 4;
      if (const auto md = prim.find("mode"); md != prim.end()) mode = index_of(*md, where + " mode");
      if (mode == 4)
        triangles += n / 3;
      else if (mode == 5 || mode == 6)
        triangles += n >= 3 ? n - 2 : 0;
      else if (mode <= 3)
        ++other_modes;
      else
        gltf_error(where + " mode is " + std::to_string(mode) + ", not 0..6");
    }
  }
  std::vector<std::string> used, required;
  for (const auto& e : array_of(doc, "extensionsUsed"))
    if (e.is_string()) used.push_back(e.get<std::string>());
  for (const auto& e : array_of(doc, "extensionsRequired"))
    if (e.is_string()) required.push_back(e.get<std::string>());
  uint64_t buffer_bytes = 0, embedded = 0, external = 0;
  const json& buffers = array_of(doc, "buffers");
  for (size_t i = 0; i < buffers.size(); ++i) {
    const std::string where = "buffer " + std::to_string(i);
    if (!buffers[i].is_object()) gltf_error(where + " is not an object");
    const auto len = buffers[i].find("byteLength");
    if (len == buffers[i].end()) gltf_error(where + " has no byteLength");
    const uint64_t n = index_of(*len, where + " byteLength");
    buffer_bytes += n;
    const auto uri = buffers[i].find("uri");
    if (uri == buffers[i].end()) {
      if (!bin_bytes || i != 0) gltf_error(where + " has no uri (only a GLB's first buffer may lie in its BIN chunk)");
      if (n > *bin_bytes)
        throw_data("GLB buffer 0 is longer than the BIN chunk", std::nullopt, "at most " + std::to_string(*bin_bytes),
                   std::to_string(n));
    } else if (uri->is_string() && uri->get<std::string>().rfind("data:", 0) == 0) {
      ++embedded;
    } else {
      ++external;
    }
  }
  const std::vector<std::string> attr_list(attrs.begin(), attrs.end());
  identify::Description d = mesh_description(format, summary, vertices, triangles, b, attr_list);
  const auto gen = asset.find("generator");
  const std::string generator = gen != asset.end() && gen->is_string() ? gen->get<std::string>() : "";
  const auto count = [&](const char* key) { return uint64_t(array_of(doc, key).size()); };
  d.fields.insert(d.fields.begin(),
                  {{"version", asset["version"].get<std::string>()},
                   {"generator", generator.empty() ? "(none)" : generator},
                   {"scene graph", std::to_string(count("scenes")) + " scenes, " + std::to_string(count("nodes")) +
                                       " nodes, " + std::to_string(meshes.size()) + " meshes (" +
                                       std::to_string(primitives) + " primitives)"}});
  d.fields.emplace_back("materials", std::to_string(count("materials")) + " (" + std::to_string(count("textures")) +
                                         " textures, " + std::to_string(count("images")) + " images)");
  d.fields.emplace_back("extensions", join(used));
  if (!required.empty()) d.fields.emplace_back("required", join(required));
  d.fields.emplace_back("buffers", std::to_string(buffers.size()) + " (" + std::to_string(buffer_bytes) + " bytes)");
  d.details["version"] = asset["version"];
  d.details["generator"] = generator.empty() ? json(nullptr) : json(generator);
  for (const char* k : {"scenes", "nodes", "materials", "textures", "images", "accessors"}) d.details[k] = count(k);
  d.details["meshes"] = meshes.size();
  d.details["primitives"] = primitives;
  d.details["non_triangle_primitives"] = other_modes;
  d.details["extensions_used"] = used;
  d.details["extensions_required"] = required;
  d.details["buffers"] = buffers.size();
  d.details["buffer_bytes"] = buffer_bytes;
  d.details["embedded_buffers"] = embedded;
  d.details["external_buffers"] = external;
  return d;
}

// "syntax error while parsing ..." out of nlohmann's message.
std::string json_reason(const json::exception& e) {
  std::string s = e.what();
  if (const auto p = s.find("] "); p != std::string::npos) s = s.substr(p + 2);
  return s;
}

bool is_gltf_doc(const json& doc) {
  if (!doc.is_object()) return false;
  const auto a = doc.find("asset");
  if (a == doc.end() || !a->is_object()) return false;
  const auto v = a->find("version");
  return v != a->end() && v->is_string();
}

}  // namespace

std::optional<identify::Description> describe_glb(std::span<const uint8_t> bytes, const std::string& name) {
  (void)name;
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "glTF", 4) != 0) return std::nullopt;
  const uint64_t size = bytes.size();
  if (size < 20)
    throw_data("GLB is truncated: no room for its header and JSON chunk header", size, "at least 20 bytes",
               std::to_string(size));
  if (rd32(bytes, 4) != 2) throw_data("unsupported GLB version", 4, "2", std::to_string(rd32(bytes, 4)));
  if (rd32(bytes, 8) != size)
    throw_data("GLB length does not match the file's size", 8, std::to_string(size), std::to_string(rd32(bytes, 8)));
  const uint64_t json_len = rd32(bytes, 12);
  if (rd32(bytes, 16) != 0x4E4F534A) throw_data("GLB's first chunk is not JSON", 16, "JSON", hex32(rd32(bytes, 16)));
  if (json_len > size - 20)
    throw_data("GLB JSON chunk runs past the end of the file", 12, "at most " + std::to_string(size - 20),
               std::to_string(json_len));
  std::optional<uint64_t> bin;
  uint64_t other_chunks = 0;
  for (uint64_t at = 20 + json_len; at < size;) {
    if (size - at < 8) throw_data("GLB chunk header is truncated", at, "8 bytes", std::to_string(size - at));
    const uint64_t len = rd32(bytes, size_t(at));
    if (len > size - at - 8)
      throw_data("GLB chunk runs past the end of the file", at, "at most " + std::to_string(size - at - 8),
                 std::to_string(len));
    if (rd32(bytes, size_t(at + 4)) == 0x004E4942 && !bin)
      bin = len;
    else
      ++other_chunks;
    at += 8 + len;
  }
  json doc;
  try {
    doc = json::parse(bytes.begin() + 20, bytes.begin() + 20 + long(json_len));
  } catch (const json::parse_error& e) {
    throw_data("GLB JSON chunk is not JSON: " + json_reason(e), 20 + (e.byte ? e.byte - 1 : 0));
  } catch (const json::exception& e) {
    throw_data("GLB JSON chunk is not JSON: " + json_reason(e), 20);
  }
  if (!is_gltf_doc(doc))
    throw_data("GLB JSON chunk is not a glTF document", 20, "an object with asset.version", "none");
  auto d = describe_gltf_doc(doc, "glb", "glTF binary (.glb)", bin.value_or(0));
  d.fields.emplace_back("chunks", "JSON " + std::to_string(json_len) + " bytes, BIN " +
                                      (bin ? std::to_string(*bin) + " bytes" : std::string("none")) +
                                      (other_chunks ? ", " + std::to_string(other_chunks) + " other" : ""));
  d.details["json_bytes"] = json_len;
  d.details["bin_bytes"] = bin ? json(*bin) : json(nullptr);
  d.details["other_chunks"] = other_chunks;
  return d;
}

std::optional<identify::Description> describe_gltf(std::span<const uint8_t> bytes, const std::string& name) {
  const bool named = identify::has_extension(name, ".gltf");
  size_t i = 0;
  if (bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) i = 3;
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n')) ++i;
  if (i >= bytes.size() || bytes[i] != '{') {
    if (named) throw_data("a .gltf file is a JSON object", i, "{", i < bytes.size() ? hex_byte(bytes[i]) : "end of file");
    return std::nullopt;
  }
  json doc;
  try {
    doc = json::parse(bytes.begin() + long(i), bytes.end());
  } catch (const json::parse_error& e) {
    if (named) throw_data("not JSON: " + json_reason(e), i + (e.byte ? e.byte - 1 : 0));
    return std::nullopt;
  } catch (const json::exception& e) {  // a number out of range
    if (named) throw_data("not JSON: " + json_reason(e), i);
    return std::nullopt;
  }
  if (!is_gltf_doc(doc)) {
    if (named) throw_data("not a glTF document", std::nullopt, "an object with asset.version", "none");
    return std::nullopt;
  }
  return describe_gltf_doc(doc, "gltf", "glTF (.gltf)", std::nullopt);
}

}  // namespace voxkit::mesh_info
