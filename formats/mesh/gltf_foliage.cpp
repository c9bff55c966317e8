// Trees as glTF instances: a mesh per prototype (a marker cone or a given GLB's first mesh),
// and per prototype one EXT_mesh_gpu_instancing node, or one node per tree.
#include "formats/mesh/gltf_foliage.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "formats/mesh/mesh_export_fixup.hpp"
#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"

namespace voxkit {
namespace {

using json = nlohmann::json;

constexpr int kFloat = 5126, kUShort = 5123, kUInt = 5125;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr const char* kDataUri = "data:application/octet-stream;base64,";

struct Doc {
  json j;
  std::vector<uint8_t> bin;

  json& list(const char* key) {
    if (!j.contains(key)) j[key] = json::array();
    return j[key];
  }
  // Appends bytes as a new buffer view (4-byte aligned); returns its index.
  size_t view(const void* data, size_t n, int target = 0, size_t stride = 0) {
    while (bin.size() % 4) bin.push_back(0);
    const size_t at = bin.size();
    bin.insert(bin.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + n);
    json v = {{"buffer", 0}, {"byteOffset", at}, {"byteLength", n}};
    if (target) v["target"] = target;
    if (stride) v["byteStride"] = stride;
    list("bufferViews").push_back(v);
    return list("bufferViews").size() - 1;
  }
  size_t accessor(json a) {
    list("accessors").push_back(std::move(a));
    return list("accessors").size() - 1;
  }
  size_t floats(const std::vector<float>& v, const char* type, int comps, bool minmax, int target = 0) {
    const size_t bv = view(v.data(), v.size() * 4, target);
    json a = {{"bufferView", bv}, {"componentType", kFloat}, {"count", v.size() / size_t(comps)}, {"type", type}};
    if (minmax) {
      json lo = json::array(), hi = json::array();
      for (int c = 0; c < comps; ++c) {
        float l = INFINITY, h = -INFINITY;
        for (size_t i = size_t(c); i < v.size(); i += size_t(comps)) l = std::min(l, v[i]), h = std::max(h, v[i]);
        lo.push_back(l), hi.push_back(h);
      }
      a["min"] = lo, a["max"] = hi;
    }
    return accessor(a);
  }
};

Doc read_doc(const std::vector<uint8_t>& file, MeshFormat fmt) {
  Doc d;
  if (fmt == MeshFormat::Glb) {
    fixup::GltfParts p = fixup::split_glb(file);
    d.j = json::parse(p.json.begin(), p.json.end());
    d.bin = std::move(p.bin);
  } else {
    d.j = json::parse(file.begin(), file.end());
    if (d.j.contains("buffers") && !d.j["buffers"].empty()) {
      const std::string uri = d.j["buffers"][0].value("uri", "");
      if (uri.rfind(kDataUri, 0) != 0) throw Error(ErrorKind::Data, "the .gltf buffer is not an embedded data URI");
      d.bin = base64::decode(std::string_view(uri).substr(std::strlen(kDataUri)));
    }
  }
  return d;
}

std::array<double, 4> mul(const std::array<double, 4>& a, const std::array<double, 4>& b) {  // (x, y, z, w)
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

// Unity's FromToRotation(up, dir) * Euler(0, yaw, 0), as (x, y, z, w) in Unity's space.
std::array<double, 4> tree_rotation(const FoliageTree& t) {
  const double half = double(t.rotation) / 2;  // radians
  const std::array<double, 4> yaw{0, std::sin(half), 0, std::cos(half)};
  double ux = t.up[0], uy = t.up[1], uz = t.up[2];
  const double len = std::sqrt(ux * ux + uy * uy + uz * uz);
  if (len * len <= 1e-6) return yaw;
  ux /= len, uy /= len, uz /= len;
  std::array<double, 4> tilt;
  if (uy < -1 + 1e-9) {
    tilt = {1, 0, 0, 0};  // upside down: half a turn about x
  } else {
    // from (0,1,0) to u: axis (0,1,0) x u = (uz, 0, -ux), w = 1 + uy, then normalised.
    tilt = {uz, 0, -ux, 1 + uy};
    const double n = std::sqrt(tilt[0] * tilt[0] + tilt[2] * tilt[2] + tilt[3] * tilt[3]);
    for (double& c : tilt) c /= n;
  }
  return mul(tilt, yaw);
}

// A marker: a cone 4 m tall over a 1 m radius, flat-shaded.
size_t marker_mesh(Doc& d, uint32_t prototype) {
  std::vector<float> pos, nrm;
  const int sides = 8;
  const double pi = 3.14159265358979323846, h = 4.0, r = 1.0;
  auto vtx = [&](double x, double y, double z, const std::array<double, 3>& n) {
    pos.insert(pos.end(), {float(x), float(y), float(z)});
    nrm.insert(nrm.end(), {float(n[0]), float(n[1]), float(n[2])});
  };
  for (int i = 0; i < sides; ++i) {
    const double a0 = 2 * pi * i / sides, a1 = 2 * pi * (i + 1) / sides, am = (a0 + a1) / 2;
    // Side, counter-clockwise seen from outside; its normal leans out by the cone's slope.
    const double l = std::sqrt(r * r + h * h);
    const std::array<double, 3> n{std::cos(am) * h / l, r / l, std::sin(am) * h / l};
    vtx(r * std::cos(a0), 0, r * std::sin(a0), n);
    vtx(0, h, 0, n);
    vtx(r * std::cos(a1), 0, r * std::sin(a1), n);
    // Base.
    vtx(0, 0, 0, {0, -1, 0});
    vtx(r * std::cos(a0), 0, r * std::sin(a0), {0, -1, 0});
    vtx(r * std::cos(a1), 0, r * std::sin(a1), {0, -1, 0});
  }
  std::vector<uint16_t> idx(pos.size() / 3);
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = uint16_t(i);
  const size_t p = d.floats(pos, "VEC3", 3, true, kArrayBuffer), n = d.floats(nrm, "VEC3", 3, false, kArrayBuffer);
  const size_t iv = d.view(idx.data(), idx.size() * 2, kElementArrayBuffer);
  const size_t ia = d.accessor({{"bufferView", iv}, {"componentType", kUShort}, {"count", idx.size()}, {"type", "SCALAR"}});
  // A hue per prototype, from the golden angle.
  const double hue = std::fmod(double(prototype) * 0.381966, 1.0) * 6;
  const double f = hue - std::floor(hue);
  const double rgb[6][3] = {{1, f, 0}, {1 - f, 1, 0}, {0, 1, f}, {0, 1 - f, 1}, {f, 0, 1}, {1, 0, 1 - f}};
  const auto& c = rgb[int(hue) % 6];
  d.list("materials").push_back({{"name", "tree_marker_" + std::to_string(prototype)},
                                 {"pbrMetallicRoughness",
                                  {{"baseColorFactor", {0.15 + 0.6 * c[0], 0.15 + 0.6 * c[1], 0.15 + 0.6 * c[2], 1.0}},
                                   {"metallicFactor", 0.0},
                                   {"roughnessFactor", 0.9}}}});
  const size_t mat = d.list("materials").size() - 1;
  d.list("meshes").push_back({{"name", "tree_" + std::to_string(prototype)},
                              {"primitives", {{{"attributes", {{"POSITION", p}, {"NORMAL", n}}}, {"indices", ia}, {"material", mat}}}}});
  return d.list("meshes").size() - 1;
}

// The first mesh of a GLB, copied in: its accessors (their buffer views' bytes), and its
// materials' factors.
size_t imported_mesh_of(Doc& d, const std::vector<uint8_t>& glb, uint32_t prototype);

size_t imported_mesh(Doc& d, const std::vector<uint8_t>& glb, uint32_t prototype) {
  try {
    return imported_mesh_of(d, glb, prototype);
  } catch (const json::exception& e) {
    throw_data(std::string("the tree mesh's glTF is not as expected: ") + e.what());
  }
}

size_t imported_mesh_of(Doc& d, const std::vector<uint8_t>& glb, uint32_t prototype) {
  fixup::GltfParts parts;
  json src;
  try {
    parts = fixup::split_glb(glb);
    src = json::parse(parts.json.begin(), parts.json.end());
  } catch (const json::exception& e) {
    throw_data(std::string("the tree mesh is not a GLB with valid JSON: ") + e.what());
  } catch (const Error&) {
    throw_data("the tree mesh is not a GLB file", 0, "a .glb", "something else");
  }
  if (!src.is_object() || !src.contains("meshes") || !src.at("meshes").is_array() || src.at("meshes").empty())
    throw_data("the tree mesh GLB holds no mesh", 0, "a mesh", "none");
  const json& mesh = src.at("meshes").at(0);
  std::map<size_t, size_t> acc_map, mat_map;
  auto copy_accessor = [&](size_t a) -> size_t {
    if (auto it = acc_map.find(a); it != acc_map.end()) return it->second;
    if (!src.contains("accessors") || a >= src.at("accessors").size()) throw_data("the tree mesh names a missing accessor");
    json acc = src.at("accessors").at(a);
    if (!acc.is_object()) throw_data("the tree mesh has an accessor that is not an object");
    if (acc.contains("sparse")) throw_data("the tree mesh uses sparse accessors, which are not carried over");
    if (!acc.contains("bufferView")) throw_data("the tree mesh has an accessor without a buffer view");
    // What the accessor reads must lie inside its buffer view.
    static const std::map<int, size_t> kComponent{{5120, 1}, {5121, 1}, {5122, 2}, {5123, 2}, {5125, 4}, {5126, 4}};
    static const std::map<std::string, size_t> kType{{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
                                                     {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    const auto comp = kComponent.find(acc.at("componentType").get<int>());
    const auto type = kType.find(acc.at("type").get<std::string>());
    if (comp == kComponent.end() || type == kType.end()) throw_data("the tree mesh has an accessor of an unknown type");
    const size_t count = acc.at("count").get<size_t>(), element = comp->second * type->second;
    const size_t bv = acc.at("bufferView").get<size_t>();
    if (!src.contains("bufferViews") || bv >= src.at("bufferViews").size())
      throw_data("the tree mesh names a missing buffer view");
    const json& v = src.at("bufferViews").at(bv);
    const size_t off = v.value("byteOffset", size_t(0)), len = v.at("byteLength").get<size_t>();
    if (v.value("buffer", 0) != 0 || len > parts.bin.size() || off > parts.bin.size() - len)
      throw_data("the tree mesh's buffer view runs past its buffer");
    const size_t stride = v.value("byteStride", size_t(0)), step = stride ? stride : element;
    const size_t start = acc.value("byteOffset", size_t(0));
    if (count == 0 || count > len || start > len || element > len - start || (count - 1) > (len - start - element) / step)
      throw_data("the tree mesh has an accessor that reads past its buffer view");
    acc["bufferView"] = d.view(parts.bin.data() + off, len, v.value("target", 0), stride);
    acc_map[a] = d.accessor(acc);
    return acc_map[a];
  };
  json out = {{"name", "tree_" + std::to_string(prototype)}, {"primitives", json::array()}};
  if (!mesh.is_object() || !mesh.contains("primitives") || !mesh.at("primitives").is_array())
    throw_data("the tree mesh's first mesh has no primitives");
  for (const json& p : mesh.at("primitives")) {
    if (!p.is_object() || !p.contains("attributes") || !p.at("attributes").is_object())
      throw_data("the tree mesh has a primitive without attributes");
    json q = p;
    if (q.contains("targets")) throw_data("the tree mesh has morph targets, which are not carried over");
    for (auto& [name, index] : q["attributes"].items()) index = copy_accessor(index.get<size_t>());
    if (q.contains("indices")) q["indices"] = copy_accessor(q["indices"].get<size_t>());
    if (q.contains("material")) {
      const size_t m = q["material"].get<size_t>();
      if (!mat_map.count(m)) {
        json mat = src.contains("materials") && src.at("materials").is_array() && m < src.at("materials").size()
                       ? src.at("materials").at(m)
                       : json::object();
        if (!mat.is_object()) mat = json::object();
        // Factors only: textures, their images and extensions stay behind.
        json kept = {{"name", mat.value("name", "tree_" + std::to_string(prototype))}};
        if (mat.contains("pbrMetallicRoughness") && mat.at("pbrMetallicRoughness").is_object()) {
          json pbr = json::object();
          const json& src_pbr = mat.at("pbrMetallicRoughness");
          for (const char* k : {"baseColorFactor", "metallicFactor", "roughnessFactor"})
            if (src_pbr.contains(k)) pbr[k] = src_pbr.at(k);
          kept["pbrMetallicRoughness"] = pbr;
        }
        for (const char* k : {"alphaMode", "alphaCutoff", "doubleSided", "emissiveFactor"})
          if (mat.contains(k)) kept[k] = mat[k];
        d.list("materials").push_back(kept);
        mat_map[m] = d.list("materials").size() - 1;
      }
      q["material"] = mat_map[m];
    }
    out["primitives"].push_back(q);
  }
  d.list("meshes").push_back(out);
  return d.list("meshes").size() - 1;
}

}  // namespace

std::vector<uint8_t> add_foliage(const std::vector<uint8_t>& file, MeshFormat fmt, const ZoneFoliage& f,
                                 const FoliageGltfOptions& o, FoliageGltfReport* report) {
  if (fmt != MeshFormat::Glb && fmt != MeshFormat::Gltf)
    throw_usage("trees can be added to glTF outputs (.glb, .gltf) only", {{"format", "glTF outputs"}});
  Doc d = read_doc(file, fmt);
  // Standing trees by prototype, in their stored (bucket) order.
  std::map<uint32_t, std::vector<const FoliageTree*>> by_proto;
  for (const auto& t : f.trees)
    if (t.state == TreeState::Standing) by_proto[t.prototype].push_back(&t);
  FoliageGltfReport rep;
  json parent = {{"name", "foliage"}, {"children", json::array()}};
  std::vector<json> new_nodes;
  const double sx = o.right_handed ? -1 : 1;
  for (const auto& [proto, trees] : by_proto) {
    size_t mesh;
    if (auto it = o.tree_mesh.find(proto); it != o.tree_mesh.end()) mesh = imported_mesh(d, it->second, proto);
    else if (!o.any_tree_mesh.empty()) mesh = imported_mesh(d, o.any_tree_mesh, proto);
    else mesh = marker_mesh(d, proto);
    ++rep.prototypes;
    std::vector<float> tr, ro, sc;
    for (const FoliageTree* t : trees) {
      std::array<double, 3> p;
      for (int a = 0; a < 3; ++a) p[size_t(a)] = o.origin[size_t(a)] + double(t->anchor[size_t(a)]) * o.voxel_size;
      auto q = tree_rotation(*t);
      if (o.right_handed) q = {q[0], -q[1], -q[2], q[3]};  // mirrored in x
      tr.insert(tr.end(), {float(sx * p[0]), float(p[1]), float(p[2])});
      ro.insert(ro.end(), {float(q[0]), float(q[1]), float(q[2]), float(q[3])});
      sc.insert(sc.end(), {t->width, t->height, t->width});
      ++rep.trees;
      if (!o.instancing)
        new_nodes.push_back({{"name", "tree_" + std::to_string(t->id)},
                             {"mesh", mesh},
                             {"translation", {tr[tr.size() - 3], tr[tr.size() - 2], tr[tr.size() - 1]}},
                             {"rotation", {ro[ro.size() - 4], ro[ro.size() - 3], ro[ro.size() - 2], ro[ro.size() - 1]}},
                             {"scale", {sc[sc.size() - 3], sc[sc.size() - 2], sc[sc.size() - 1]}}});
    }
    if (o.instancing) {
      const size_t a_t = d.floats(tr, "VEC3", 3, false), a_r = d.floats(ro, "VEC4", 4, false), a_s = d.floats(sc, "VEC3", 3, false);
      new_nodes.push_back({{"name", "trees_" + std::to_string(proto)},
                           {"mesh", mesh},
                           {"extensions",
                            {{"EXT_mesh_gpu_instancing",
                              {{"attributes", {{"TRANSLATION", a_t}, {"ROTATION", a_r}, {"SCALE", a_s}}}}}}}});
    }
  }
  if (report) *report = rep;
  if (new_nodes.empty()) return file;
  json& nodes = d.list("nodes");
  const size_t first = nodes.size() + 1;
  for (size_t i = 0; i < new_nodes.size(); ++i) parent["children"].push_back(first + i);
  nodes.push_back(parent);
  for (auto& n : new_nodes) nodes.push_back(std::move(n));
  if (!d.j.contains("scenes") || d.j["scenes"].empty()) d.j["scenes"] = json::array({json{{"nodes", json::array()}}});
  const size_t scene = d.j.value("scene", size_t(0));
  d.j["scenes"][scene]["nodes"].push_back(first - 1);
  if (o.instancing) {
    json& used = d.list("extensionsUsed");
    if (std::find(used.begin(), used.end(), "EXT_mesh_gpu_instancing") == used.end()) used.push_back("EXT_mesh_gpu_instancing");
  }
  while (d.bin.size() % 4) d.bin.push_back(0);
  d.j["buffers"] = json::array({json{{"byteLength", d.bin.size()}}});
  const std::string text = d.j.dump();
  if (fmt == MeshFormat::Glb) return fixup::glb(fixup::GltfParts{{text.begin(), text.end()}, d.bin});
  return fixup::gltf({text.begin(), text.end()}, d.bin);
}

}  // namespace voxkit
