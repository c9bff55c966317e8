#include "formats/grass/blade_io.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>

namespace voxkit::grass {

BladeFormat blade_format_of(const std::string& path) {
  auto ends = [&](const char* ext) {
    const size_t n = std::strlen(ext);
    if (path.size() < n) return false;
    for (size_t i = 0; i < n; ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - n + i])) != ext[i]) return false;
    return true;
  };
  if (ends(".csv")) return BladeFormat::Csv;
  if (ends(".json")) return BladeFormat::Json;
  if (ends(".glb")) return BladeFormat::Glb;
  return BladeFormat::Raw;
}

namespace {
void put_f32(std::vector<uint8_t>& out, float v) {
  const uint32_t b = std::bit_cast<uint32_t>(v);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(b >> (8 * i)));
}
void put_u32(std::vector<uint8_t>& out, uint32_t b) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(b >> (8 * i)));
}
std::string g9(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}
// JSON numbers that read back to the same float.
double jf(float v) { return std::stod(g9(v)); }
}  // namespace

void append_raw(std::vector<uint8_t>& out, const CellResult& cell) {
  out.reserve(out.size() + cell.blades.size() * sizeof(Blade));
  for (const Blade& b : cell.blades) {
    for (float v : b.position) put_f32(out, v);
    put_f32(out, b.scale);
    for (float v : b.rotation) put_f32(out, v);
    put_f32(out, b.tint);
    put_f32(out, b.wind_phase);
    put_f32(out, b.padding[0]);
    put_f32(out, b.padding[1]);
  }
}

std::string csv_header() { return "cell_x,cell_z,index,x,y,z,scale,qx,qy,qz,qw,tint,wind_phase\n"; }

void append_csv(std::string& out, const CellResult& cell) {
  for (size_t i = 0; i < cell.blades.size(); ++i) {
    const Blade& b = cell.blades[i];
    out += std::to_string(cell.cell.x) + "," + std::to_string(cell.cell.z) + "," + std::to_string(cell.indices[i]);
    for (float v : {b.position[0], b.position[1], b.position[2], b.scale, b.rotation[0], b.rotation[1], b.rotation[2],
                    b.rotation[3], b.tint, b.wind_phase})
      out += "," + g9(v);
    out += "\n";
  }
}

nlohmann::json cell_json(const CellResult& c, bool blades) {
  nlohmann::json j;
  j["x"] = c.cell.x;
  j["z"] = c.cell.z;
  j["candidates"] = c.candidates;
  j["placed"] = c.counts[0];
  j["refused"] = {{"no_surface", c.counts[1]}, {"slope", c.counts[2]}, {"density", c.counts[3]}};
  j["over_capacity"] = c.over_capacity;
  if (blades) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < c.blades.size(); ++i) {
      const Blade& b = c.blades[i];
      list.push_back({{"index", c.indices[i]},
                      {"position", {jf(b.position[0]), jf(b.position[1]), jf(b.position[2])}},
                      {"rotation", {jf(b.rotation[0]), jf(b.rotation[1]), jf(b.rotation[2]), jf(b.rotation[3])}},
                      {"scale", jf(b.scale)},
                      {"tint", jf(b.tint)},
                      {"wind_phase", jf(b.wind_phase)}});
    }
    j["blades"] = std::move(list);
  }
  return j;
}

std::vector<uint8_t> blades_glb(const std::vector<CellResult>& cells, float blade_height) {
  using nlohmann::json;
  std::vector<uint8_t> bin;
  json views = json::array(), accessors = json::array();
  auto align4 = [&] {
    while (bin.size() % 4) bin.push_back(0);
  };
  auto add_view = [&](size_t offset, size_t length, int target) {
    json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}};
    if (target) v["target"] = target;
    views.push_back(v);
    return views.size() - 1;
  };
  auto add_floats = [&](const std::vector<float>& v, const char* type, int comps, int target, bool minmax) {
    align4();
    const size_t off = bin.size();
    for (float f : v) put_f32(bin, f);
    json a = {{"bufferView", add_view(off, v.size() * 4, target)}, {"componentType", 5126},
              {"count", v.size() / comps}, {"type", type}};
    if (minmax) {
      std::vector<float> lo(comps, std::numeric_limits<float>::max()), hi(comps, -std::numeric_limits<float>::max());
      for (size_t i = 0; i < v.size(); ++i) {
        lo[i % comps] = std::min(lo[i % comps], v[i]);
        hi[i % comps] = std::max(hi[i % comps], v[i]);
      }
      a["min"] = lo;
      a["max"] = hi;
    }
    accessors.push_back(a);
    return accessors.size() - 1;
  };
  // The blade: a strip tapering to a tip, in its own frame (y up), facing +z.
  const float h = blade_height > 0 ? blade_height : 0.6f, w = 0.04f;
  const std::vector<float> pos{-w, 0, 0, w, 0, 0, -w * 0.6f, h * 0.5f, 0, w * 0.6f, h * 0.5f, 0, 0, h, 0};
  const std::vector<float> nrm{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  const size_t pa = add_floats(pos, "VEC3", 3, 34962, true);
  const size_t na = add_floats(nrm, "VEC3", 3, 34962, false);
  align4();
  const size_t ioff = bin.size();
  for (uint16_t i : {0, 1, 3, 0, 3, 2, 2, 3, 4}) bin.push_back(static_cast<uint8_t>(i)), bin.push_back(static_cast<uint8_t>(i >> 8));
  accessors.push_back({{"bufferView", add_view(ioff, 18, 34963)}, {"componentType", 5123}, {"count", 9}, {"type", "SCALAR"}});
  const size_t ia = accessors.size() - 1;

  json nodes = json::array(), children = json::array();
  for (const CellResult& c : cells) {
    if (c.blades.empty()) continue;
    std::vector<float> t, r, s;
    for (const Blade& b : c.blades) {
      // Unity's left-handed space to glTF's right-handed one: x negated, rotation mirrored.
      t.insert(t.end(), {-b.position[0], b.position[1], b.position[2]});
      r.insert(r.end(), {b.rotation[0], -b.rotation[1], -b.rotation[2], b.rotation[3]});
      s.insert(s.end(), {b.scale, b.scale, b.scale});
    }
    const size_t ta = add_floats(t, "VEC3", 3, 0, false), ra = add_floats(r, "VEC4", 4, 0, false),
                 sa = add_floats(s, "VEC3", 3, 0, false);
    nodes.push_back({{"name", "cell " + std::to_string(c.cell.x) + "," + std::to_string(c.cell.z)},
                     {"mesh", 0},
                     {"extensions",
                      {{"EXT_mesh_gpu_instancing",
                        {{"attributes", {{"TRANSLATION", ta}, {"ROTATION", ra}, {"SCALE", sa}}}}}}}});
    children.push_back(nodes.size() - 1);
  }
  align4();
  json doc = {{"asset", {{"version", "2.0"}, {"generator", "voxkit grass scatter"}}},
              {"scene", 0},
              {"buffers", json::array({{{"byteLength", bin.size()}}})},
              {"bufferViews", views},
              {"accessors", accessors},
              {"materials", json::array({{{"name", "grass"},
                                          {"doubleSided", true},
                                          {"pbrMetallicRoughness",
                                           {{"baseColorFactor", {0.25, 0.55, 0.18, 1.0}},
                                            {"metallicFactor", 0.0},
                                            {"roughnessFactor", 0.9}}}}})},
              {"meshes", json::array({{{"name", "blade"},
                                       {"primitives", json::array({{{"attributes", {{"POSITION", pa}, {"NORMAL", na}}},
                                                                    {"indices", ia},
                                                                    {"material", 0}}})}}})}};
  if (nodes.empty()) {
    // Nothing grew: the blade alone, so the file is still a valid scene.
    nodes.push_back({{"name", "blade"}, {"mesh", 0}});
    children.push_back(0);
  } else {
    doc["extensionsUsed"] = {"EXT_mesh_gpu_instancing"};
  }
  nodes.push_back({{"name", "grass"}, {"children", children}});
  doc["nodes"] = nodes;
  doc["scenes"] = json::array({{{"nodes", {nodes.size() - 1}}}});
  std::string text = doc.dump();
  while (text.size() % 4) text += ' ';
  std::vector<uint8_t> out;
  put_u32(out, 0x46546C67u);  // "glTF"
  put_u32(out, 2);
  put_u32(out, static_cast<uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
  put_u32(out, static_cast<uint32_t>(text.size()));
  put_u32(out, 0x4E4F534Au);  // "JSON"
  out.insert(out.end(), text.begin(), text.end());
  put_u32(out, static_cast<uint32_t>(bin.size()));
  put_u32(out, 0x004E4942u);  // "BIN"
  out.insert(out.end(), bin.begin(), bin.end());
  return out;
}

}  // namespace voxkit::grass
