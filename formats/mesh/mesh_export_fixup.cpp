// Post-processing of Assimp 5.2's glTF 2.0 and FBX outputs (byte layouts: the glTF 2.0
// specification, section "GLB File Format Specification"; FBX 7.5 binary node records).
#include "formats/mesh/mesh_export_fixup.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "formats/mesh/gltf_writer.hpp"
#include "lib/core/error.hpp"

namespace voxkit::fixup {
namespace {

using json = nlohmann::json;

constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

uint32_t rd32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}
void wr32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

// Every key of every "extensions" object in the document.
void collect_extensions(const json& j, std::set<std::string>& used) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "extensions" && it.value().is_object())
        for (auto e = it.value().begin(); e != it.value().end(); ++e) used.insert(e.key());
      collect_extensions(it.value(), used);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) collect_extensions(v, used);
  }
}

// Declares only the extensions the document uses, and sets voxkit's generator string.
void fix_document(json& doc) {
  std::set<std::string> used;
  collect_extensions(doc, used);
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    if (!doc.contains(list)) continue;
    json kept = json::array();
    for (const auto& e : doc[list])
      if (e.is_string() && used.count(e.get<std::string>())) kept.push_back(e);
    if (kept.empty())
      doc.erase(list);
    else
      doc[list] = kept;
  }
  doc["asset"]["generator"] = gltf_writer::generator();
  // A scene without meshes: its material is unused and top-level arrays must not be empty.
  if (!doc.contains("meshes") || doc["meshes"].empty()) doc.erase("materials");
  for (auto it = doc.begin(); it != doc.end();) {
    if (it.value().is_array() && it.value().empty())
      it = doc.erase(it);
    else
      ++it;
  }
}

json parse_json(const uint8_t* p, size_t n, const char* what) {
  try {
    return json::parse(p, p + n);
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Data, std::string("Assimp wrote an unreadable ") + what + ": " + e.what());
  }
}

// --- FBX 7.5 binary node records: uint64 end offset, uint64 property count, uint64 property
// bytes, uint8 name length, name, properties, children, and a null record closing children.
constexpr size_t kFbxNull = 25;
constexpr int kFbxMaxDepth = 64;

struct FbxNode {
  std::string name;
  uint64_t prop_count = 0;
  std::vector<uint8_t> props;
  std::vector<FbxNode> kids;
  bool had_null = false;
};

uint64_t rd64(const std::vector<uint8_t>& b, size_t at) {
  return uint64_t(rd32(b, at)) | uint64_t(rd32(b, at + 4)) << 32;
}

bool is_null_record(const std::vector<uint8_t>& b, size_t at) {
  for (size_t i = 0; i < kFbxNull; ++i)
    if (b[at + i]) return false;
  return true;
}

FbxNode read_fbx_node(const std::vector<uint8_t>& f, size_t& at, int depth) {
  if (depth > kFbxMaxDepth) throw Error(ErrorKind::Data, "FBX nodes nested too deep", at);
  if (at + kFbxNull > f.size()) throw Error(ErrorKind::Data, "FBX node header truncated", at);
  uint64_t end = rd64(f, at), count = rd64(f, at + 8), bytes = rd64(f, at + 16);
  size_t name_len = f[at + 24];
  size_t body = at + kFbxNull + name_len;
  if (end > f.size() || end < body || bytes > end - body)
    throw Error(ErrorKind::Data, "FBX node with an out-of-range end offset", at);
  FbxNode n;
  n.name.assign(f.begin() + long(at + kFbxNull), f.begin() + long(body));
  n.prop_count = count;
  n.props.assign(f.begin() + long(body), f.begin() + long(body + bytes));
  size_t p = body + bytes;
  while (p < end) {
    if (end - p == kFbxNull && is_null_record(f, p)) {
      n.had_null = true;
      p = end;
      break;
    }
    n.kids.push_back(read_fbx_node(f, p, depth + 1));
  }
  if (p != end) throw Error(ErrorKind::Data, "FBX child runs past its parent", p);
  at = end;
  return n;
}

void write_fbx_node(std::vector<uint8_t>& out, const FbxNode& n) {
  size_t start = out.size();
  out.insert(out.end(), 24, 0);
  out.push_back(uint8_t(n.name.size()));
  out.insert(out.end(), n.name.begin(), n.name.end());
  out.insert(out.end(), n.props.begin(), n.props.end());
  for (const auto& k : n.kids) write_fbx_node(out, k);
  if (!n.kids.empty() || n.had_null) out.insert(out.end(), kFbxNull, 0);
  uint64_t fields[3] = {out.size(), n.prop_count, n.props.size()};
  for (int i = 0; i < 3; ++i)
    for (int b = 0; b < 8; ++b) out[start + size_t(i) * 8 + size_t(b)] = uint8_t(fields[i] >> (8 * b));
}

void fix_time_stamp(FbxNode& stamp) {
  struct Field {
    const char* name;
    int32_t value;
  };
  const Field fields[] = {{"Year", 1970}, {"Month", 1},  {"Day", 1},        {"Hour", 10},
                          {"Minute", 0},  {"Second", 0}, {"Millisecond", 0}};
  for (auto& k : stamp.kids)
    for (const auto& fl : fields)
      if (k.name == fl.name && k.prop_count == 1 && k.props.size() == 5 && k.props[0] == 'I')
        for (int i = 0; i < 4; ++i) k.props[1 + size_t(i)] = uint8_t(uint32_t(fl.value) >> (8 * i));
}

// A Properties70 record `P`: name, type, label, flags, then values. Sets the double value of
// the records named UnitScaleFactor and OriginalUnitScaleFactor (centimetres per file unit:
// Assimp 5.2 always writes 1, centimetres) to `cm`.
void set_unit_scale(FbxNode& p, double cm) {
  size_t at = 0;
  bool named = false;
  for (uint64_t i = 0; i < p.prop_count && at < p.props.size(); ++i) {
    const char type = char(p.props[at++]);
    if (type == 'S' || type == 'R') {
      if (at + 4 > p.props.size()) return;
      const size_t n = rd32(p.props, at);
      if (at + 4 + n > p.props.size()) return;
      const std::string v(p.props.begin() + long(at + 4), p.props.begin() + long(at + 4 + n));
      if (i == 0) named = v == "UnitScaleFactor" || v == "OriginalUnitScaleFactor";
      at += 4 + n;
    } else if (type == 'D' || type == 'L') {
      if (at + 8 > p.props.size()) return;
      if (type == 'D' && named) {
        uint64_t bits;
        std::memcpy(&bits, &cm, 8);
        for (int b = 0; b < 8; ++b) p.props[at + size_t(b)] = uint8_t(bits >> (8 * b));
        return;
      }
      at += 8;
    } else if (type == 'I' || type == 'F') {
      at += 4;
    } else if (type == 'Y') {
      at += 2;
    } else if (type == 'C') {
      at += 1;
    } else {
      return;
    }
    if (!named) return;
  }
}

}  // namespace

GltfParts split_glb(const std::vector<uint8_t>& f) {
  if (f.size() < 20 || rd32(f, 0) != kGlbMagic || rd32(f, 4) != 2 || rd32(f, 8) != f.size())
    throw Error(ErrorKind::Data, "Assimp wrote a malformed GLB header");
  const uint32_t json_len = rd32(f, 12);
  if (rd32(f, 16) != kChunkJson || json_len > f.size() - 20)
    throw Error(ErrorKind::Data, "Assimp wrote a GLB without a JSON chunk", 12);
  GltfParts p;
  p.json.assign(f.begin() + 20, f.begin() + 20 + long(json_len));
  const size_t at = 20 + size_t(json_len);
  if (at + 8 <= f.size()) {
    const uint32_t bin_len = rd32(f, at);
    if (rd32(f, at + 4) != kChunkBin || bin_len > f.size() - at - 8)
      throw Error(ErrorKind::Data, "Assimp wrote a malformed GLB BIN chunk", at);
    p.bin.assign(f.begin() + long(at + 8), f.begin() + long(at + 8 + bin_len));
  }
  return p;
}

std::vector<uint8_t> glb(const GltfParts& parts) {
  json doc = parse_json(parts.json.data(), parts.json.size(), "GLB JSON chunk");
  fix_document(doc);
  const std::string text = doc.dump();
  if (!doc.contains("buffers")) return gltf_writer::glb_container(text, nullptr, 0);
  return gltf_writer::glb_container(text, parts.bin.data(), parts.bin.size());
}

std::vector<uint8_t> gltf(const std::vector<uint8_t>& text, const std::vector<uint8_t>& bin) {
  json doc = parse_json(text.data(), text.size(), ".gltf JSON");
  fix_document(doc);
  if (doc.contains("buffers") && doc["buffers"].is_array() && !doc["buffers"].empty()) {
    if (doc["buffers"].size() != 1)
      throw Error(ErrorKind::Data, "Assimp wrote a .gltf with more than one buffer");
    std::vector<uint8_t> uri;
    gltf_writer::append_base64(uri, bin.data(), bin.size());
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + std::string(uri.begin(), uri.end());
    doc["buffers"][0]["byteLength"] = bin.size();
  }
  std::string s = doc.dump(1, '\t');
  s.push_back('\n');
  return {s.begin(), s.end()};
}

std::vector<uint8_t> fbx(std::vector<uint8_t> f) {
  // Assimp 5.2 writes FBX 7.5 binary whose nodes with children lack the 25-byte null record
  // that closes a nested list, so FBX readers (Assimp's own included) reject the file. The
  // node tree is read and written again with the records; CreationTimeStamp's fields get the
  // date of the fixed CreationTime string ("1970-01-01 10:00:00:000") Assimp already writes,
  // and the unit scale says metres (Assimp 5.2 writes centimetres whatever the scene says).
  static const char kMagic[] = "Kaydara FBX Binary  ";
  if (f.size() < 27 || std::memcmp(f.data(), kMagic, 20) != 0)
    throw Error(ErrorKind::Data, "Assimp wrote an FBX file without the binary header");
  uint32_t version = rd32(f, 23);
  if (version < 7500) throw Error(ErrorKind::Data, "Assimp wrote FBX " + std::to_string(version) + ", expected 7500+");
  size_t at = 27;
  std::vector<FbxNode> top;
  while (true) {
    if (at + kFbxNull > f.size()) throw Error(ErrorKind::Data, "FBX node list not terminated", at);
    if (is_null_record(f, at)) break;
    top.push_back(read_fbx_node(f, at, 0));
  }
  size_t tail = at + kFbxNull;
  if (f.size() - tail < 32) throw Error(ErrorKind::Data, "FBX footer truncated", tail);
  for (auto& n : top) {
    if (n.name == "FBXHeaderExtension")
      for (auto& k : n.kids)
        if (k.name == "CreationTimeStamp") fix_time_stamp(k);
    // The file is in metres: 100 centimetres per unit.
    if (n.name == "GlobalSettings")
      for (auto& k : n.kids)
        if (k.name == "Properties70")
          for (auto& prop : k.kids)
            if (prop.name == "P") set_unit_scale(prop, 100.0);
  }

  std::vector<uint8_t> out(f.begin(), f.begin() + 27);
  for (const auto& n : top) write_fbx_node(out, n);
  out.insert(out.end(), kFbxNull, 0);
  // Footer: Assimp's footer id, 4 zero bytes, padding to 16, version, 120 zeros, magic.
  out.insert(out.end(), f.begin() + long(tail), f.begin() + long(tail) + 16);
  out.insert(out.end(), 4, 0);
  size_t pad = ((out.size() + 15) & ~size_t(15)) - out.size();
  out.insert(out.end(), pad == 0 ? 16 : pad, 0);
  wr32(out, version);
  out.insert(out.end(), 120, 0);
  out.insert(out.end(), f.end() - 16, f.end());
  return out;
}

}  // namespace voxkit::fixup
