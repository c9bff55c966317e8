// Post-processing of Assimp 5.2's glTF 2.0 and FBX outputs (byte layouts: the glTF 2.0
// specification, section "GLB File Format Specification"; FBX 7.5 binary node records).
#include "formats/mesh_export_fixup.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <set>
#include <string>

#include "lib/error.hpp"

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

// Declares only the extensions the document uses (Assimp 5.2 declares FB_ngon_encoding and
// material extensions on every file), and replaces the generator string with one that does
// not depend on how Assimp was packaged.
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
  doc["asset"]["generator"] = "voxkit " VOXKIT_VERSION " (Open Asset Import Library)";
}

json parse_json(const uint8_t* p, size_t n, const char* what) {
  try {
    return json::parse(p, p + n);
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Data, std::string("Assimp wrote an unreadable ") + what + ": " + e.what());
  }
}

const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(const std::vector<uint8_t>& in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = uint32_t(in[i]) << 16 | uint32_t(in[i + 1]) << 8 | in[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kB64[(v >> s) & 63]);
  }
  if (size_t rest = in.size() - i) {
    uint32_t v = uint32_t(in[i]) << 16 | (rest == 2 ? uint32_t(in[i + 1]) << 8 : 0);
    out.push_back(kB64[(v >> 18) & 63]);
    out.push_back(kB64[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kB64[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace

std::vector<uint8_t> glb(const std::vector<uint8_t>& f) {
  // Header: magic, version 2, total length; then chunks: length, type, data (4-byte aligned).
  if (f.size() < 20 || rd32(f, 0) != kGlbMagic || rd32(f, 4) != 2 || rd32(f, 8) != f.size())
    throw Error(ErrorKind::Data, "Assimp wrote a malformed GLB header");
  uint32_t json_len = rd32(f, 12);
  if (rd32(f, 16) != kChunkJson || json_len > f.size() - 20)
    throw Error(ErrorKind::Data, "Assimp wrote a GLB without a JSON chunk", 12);
  json doc = parse_json(f.data() + 20, json_len, "GLB JSON chunk");
  size_t at = 20 + size_t(json_len);
  std::vector<uint8_t> bin;
  bool has_bin = false;
  if (at + 8 <= f.size()) {
    uint32_t bin_len = rd32(f, at);
    if (rd32(f, at + 4) != kChunkBin || bin_len > f.size() - at - 8)
      throw Error(ErrorKind::Data, "Assimp wrote a malformed GLB BIN chunk", at);
    bin.assign(f.begin() + long(at + 8), f.begin() + long(at + 8 + bin_len));
    has_bin = true;
  }
  fix_document(doc);
  std::string text = doc.dump();
  while (text.size() % 4) text.push_back(' ');  // JSON chunk padding is spaces
  while (bin.size() % 4) bin.push_back(0);      // BIN chunk padding is zeros

  std::vector<uint8_t> out;
  size_t total = 12 + 8 + text.size() + (has_bin ? 8 + bin.size() : 0);
  out.reserve(total);
  wr32(out, kGlbMagic);
  wr32(out, 2);
  wr32(out, uint32_t(total));
  wr32(out, uint32_t(text.size()));
  wr32(out, kChunkJson);
  out.insert(out.end(), text.begin(), text.end());
  if (has_bin) {
    wr32(out, uint32_t(bin.size()));
    wr32(out, kChunkBin);
    out.insert(out.end(), bin.begin(), bin.end());
  }
  return out;
}

std::vector<uint8_t> gltf(const std::vector<uint8_t>& text, const std::vector<uint8_t>& bin) {
  json doc = parse_json(text.data(), text.size(), ".gltf JSON");
  fix_document(doc);
  if (doc.contains("buffers") && doc["buffers"].is_array() && !doc["buffers"].empty()) {
    if (doc["buffers"].size() != 1)
      throw Error(ErrorKind::Data, "Assimp wrote a .gltf with more than one buffer");
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(bin);
    doc["buffers"][0]["byteLength"] = bin.size();
  }
  std::string s = doc.dump(1, '\t');
  s.push_back('\n');
  return {s.begin(), s.end()};
}

std::vector<uint8_t> fbx(std::vector<uint8_t> f) {
  // A 7.5 node record: uint64 end offset, uint64 property count, uint64 property bytes,
  // uint8 name length, name, properties, children. CreationTimeStamp's children each hold one
  // int32 property ('I'); they get the date of the fixed CreationTime string
  // ("1970-01-01 10:00:00:000") that Assimp already writes.
  static const char kName[] = "CreationTimeStamp";
  const size_t name_len = sizeof(kName) - 1;
  auto it = std::search(f.begin(), f.end(), kName, kName + name_len);
  size_t at = size_t(it - f.begin());
  if (it == f.end() || at < 25 || f[at - 1] != name_len)
    throw Error(ErrorKind::Data, "Assimp wrote an FBX file without a CreationTimeStamp node");
  uint64_t end = 0;
  for (int i = 0; i < 8; ++i) end |= uint64_t(f[at - 25 + i]) << (8 * i);
  if (end > f.size() || end <= at)
    throw Error(ErrorKind::Data, "Assimp wrote a malformed FBX CreationTimeStamp node", at - 25);
  struct Field {
    const char* name;
    int32_t value;
  };
  const Field fields[] = {{"Year", 1970}, {"Month", 1},  {"Day", 1},        {"Hour", 10},
                          {"Minute", 0},  {"Second", 0}, {"Millisecond", 0}};
  for (const auto& fl : fields) {
    std::string pat(1, char(std::strlen(fl.name)));
    pat += fl.name;
    pat += 'I';
    auto p = std::search(f.begin() + long(at), f.begin() + long(end), pat.begin(), pat.end());
    if (p == f.begin() + long(end) || size_t(p - f.begin()) + pat.size() + 4 > end)
      throw Error(ErrorKind::Data, std::string("Assimp wrote an FBX time stamp without ") + fl.name);
    size_t v = size_t(p - f.begin()) + pat.size();
    for (int i = 0; i < 4; ++i) f[v + i] = uint8_t(uint32_t(fl.value) >> (8 * i));
  }
  return f;
}

}  // namespace voxkit::fixup
