// Mesh export: every format loads back through Assimp with the same counts, glTF passes the
// Khronos validator, handedness round trips, unused extensions are gone, bytes are stable.
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

#include <tbb/global_control.h>

#include "formats/mesh/gltf_writer.hpp"
#include "formats/mesh/mesh_export.hpp"
#include "formats/mesh/mesh_scene.hpp"
#include "lib/core/error.hpp"
#include "tests/mesh_fixtures.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;

namespace {

const MeshFormat kAll[] = {MeshFormat::Glb, MeshFormat::Gltf, MeshFormat::Obj,
                           MeshFormat::Ply, MeshFormat::Stl,  MeshFormat::Fbx};

struct Counts {
  size_t vertices = 0, triangles = 0, meshes = 0;
};

std::vector<uint8_t> export_one(const std::vector<ExportObject>& objs, MeshFormat f,
                                std::array<double, 3> origin = {10, -2, 30}, double voxel = 0.5) {
  MeshExportOptions o;
  o.format = f;
  o.origin = origin;
  o.voxel_size = voxel;
  return export_meshes(objs, o);
}

const aiScene* import(Assimp::Importer& imp, const std::vector<uint8_t>& bytes, MeshFormat f,
                      unsigned flags = 0) {
  std::string hint(mesh_format_name(f));
  const aiScene* s = imp.ReadFileFromMemory(bytes.data(), bytes.size(), flags, hint.c_str());
  INFO(imp.GetErrorString());
  REQUIRE(s);
  return s;
}

// OBJ, STL and FBX readers split vertices per face corner: joining identical vertices
// restores the shared ones (Assimp 5.2's join crashes on PLY scenes, which stay indexed).
// STL has face normals, so its vertices are counted by position.
Counts reimport_counts(const std::vector<uint8_t>& bytes, MeshFormat f) {
  Assimp::Importer imp;
  bool split = f == MeshFormat::Obj || f == MeshFormat::Stl || f == MeshFormat::Fbx;
  const aiScene* s = import(imp, bytes, f, split ? unsigned(aiProcess_JoinIdenticalVertices) : 0u);
  Counts c;
  c.meshes = s->mNumMeshes;
  std::set<std::array<float, 3>> positions;
  for (unsigned i = 0; i < s->mNumMeshes; ++i) {
    const aiMesh* m = s->mMeshes[i];
    c.triangles += m->mNumFaces;
    if (f == MeshFormat::Stl) {
      for (unsigned v = 0; v < m->mNumVertices; ++v)
        positions.insert({m->mVertices[v].x, m->mVertices[v].y, m->mVertices[v].z});
    } else {
      c.vertices += m->mNumVertices;
    }
  }
  if (f == MeshFormat::Stl) c.vertices = positions.size();
  return c;
}

nlohmann::json glb_json(const std::vector<uint8_t>& glb) {
  REQUIRE(glb.size() > 20);
  uint32_t len = glb[12] | glb[13] << 8 | glb[14] << 16 | uint32_t(glb[15]) << 24;
  return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + len);
}

// Writes `bytes` to `path` and runs the Khronos validator on it: 0 errors and 0 warnings.
void validate(const std::vector<uint8_t>& bytes, const std::string& path) {
  const std::string script = std::string(VOXKIT_SOURCE_DIR) + "/tests/checks/validate_gltf.js";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
  const std::string cmd = "node '" + script + "' '" + path + "' > '" + path + ".report' 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream rep(path + ".report");
  std::string report((std::istreambuf_iterator<char>(rep)), {});
  INFO(report);
  CHECK(rc == 0);
}

}  // namespace

TEST_CASE("mesh export: every format loads back through Assimp with the same counts", "[mesh-export]") {
  // Disjoint, so STL (one triangle soup) has as many distinct positions as vertices.
  Mesh c = test::cube(10), t = test::tetrahedron(), g = test::quad_grid(5, 4, 4);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}, {"chunk_1_0_0", {&t}}, {"chunk_0_0_1", {&g}}};
  for (MeshFormat f : kAll) {
    INFO("format " << mesh_format_name(f));
    auto bytes = export_one(objs, f);
    Counts got = reimport_counts(bytes, f);
    CHECK(got.triangles == c.triangle_count() + t.triangle_count() + g.triangle_count());
    // STL holds one soup: positions shared between objects would merge, these are disjoint.
    CHECK(got.vertices == c.vertex_count() + t.vertex_count() + g.vertex_count());
    // PLY and STL hold one mesh: Assimp writes the objects one after the other.
    CHECK(got.meshes == (f == MeshFormat::Stl || f == MeshFormat::Ply ? 1u : 3u));
  }
}

TEST_CASE("mesh export: nodes are named after their chunks, LODs get the _LODn suffix", "[mesh-export]") {
  Mesh c = test::cube(), t = test::tetrahedron();
  std::vector<ExportObject> objs = {{chunk_node_name({3, 0, 5}), {&c, &t}}, {"chunk_-1_2_0", {&t}}};
  for (MeshFormat f : {MeshFormat::Glb, MeshFormat::Gltf, MeshFormat::Fbx}) {
    Assimp::Importer imp;
    const aiScene* s = import(imp, export_one(objs, f), f);
    std::set<std::string> names;
    std::function<void(const aiNode*)> walk = [&](const aiNode* n) {
      names.insert(n->mName.C_Str());
      for (unsigned i = 0; i < n->mNumChildren; ++i) walk(n->mChildren[i]);
    };
    walk(s->mRootNode);
    INFO("format " << mesh_format_name(f));
    CHECK(names.count("chunk_3_0_5"));
    CHECK(names.count("chunk_3_0_5_LOD0"));
    CHECK(names.count("chunk_3_0_5_LOD1"));
    CHECK(names.count("chunk_-1_2_0"));
  }
}

TEST_CASE("mesh export: glTF round trip through Assimp lands where the zone was", "[mesh-export]") {
  Mesh c = test::cube(1.5f, 3);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}};
  const std::array<double, 3> origin{100, -20, 40};
  const double voxel = 0.25;
  for (MeshFormat f : {MeshFormat::Glb, MeshFormat::Gltf}) {
    Assimp::Importer imp;
    const aiScene* s = import(imp, export_one(objs, f, origin, voxel), f);
    REQUIRE(s->mNumMeshes == 1);
    const aiMesh* m = s->mMeshes[0];
    REQUIRE(m->mNumVertices == c.vertex_count());
    REQUIRE(m->mNumFaces == c.triangle_count());
    for (unsigned v = 0; v < m->mNumVertices; ++v) {
      // Back to Unity space (negate x), then to grid units.
      double gx = (-double(m->mVertices[v].x) - origin[0]) / voxel;
      double gy = (double(m->mVertices[v].y) - origin[1]) / voxel;
      double gz = (double(m->mVertices[v].z) - origin[2]) / voxel;
      CHECK(gx == Approx(c.positions[v][0]).margin(1e-4));
      CHECK(gy == Approx(c.positions[v][1]).margin(1e-4));
      CHECK(gz == Approx(c.positions[v][2]).margin(1e-4));
      CHECK(-m->mNormals[v].x == Approx(c.normals[v][0]));
      CHECK(m->mNormals[v].y == Approx(c.normals[v][1]));
      // glTF's texture origin is top-left: v is stored flipped, the reader flips it back.
      CHECK(m->mTextureCoords[0][v].y == Approx(c.uv0[v][1]));
      CHECK(m->mColors[0][v].r == Approx(c.colors[v][0]));
    }
    for (unsigned i = 0; i < m->mNumFaces; ++i) {
      // The winding was reversed with the mirror: reverse it back.
      const unsigned* ix = m->mFaces[i].mIndices;
      CHECK(ix[0] == c.indices[i * 3]);
      CHECK(ix[2] == c.indices[i * 3 + 1]);
      CHECK(ix[1] == c.indices[i * 3 + 2]);
      // In the file, faces are counter-clockwise around their outward normal (right-handed).
      aiVector3D a = m->mVertices[ix[0]], b = m->mVertices[ix[1]], d = m->mVertices[ix[2]];
      aiVector3D n = (b - a) ^ (d - a);
      aiVector3D centre = (a + b + d) / 3.f;
      aiVector3D mid(-float(origin[0] + voxel * 3), float(origin[1] + voxel * 1.5),
                     float(origin[2] + voxel * 1.5));
      CHECK(n * (centre - mid) > 0);
    }
  }
}

TEST_CASE("mesh export: glTF files declare no extensions they do not use", "[mesh-export]") {
  Mesh c = test::cube();
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}};
  auto doc = glb_json(export_one(objs, MeshFormat::Glb));
  CHECK_FALSE(doc.contains("extensionsUsed"));
  CHECK_FALSE(doc.contains("extensionsRequired"));
  auto text = export_one(objs, MeshFormat::Gltf);
  auto doc2 = nlohmann::json::parse(text.begin(), text.end());
  CHECK_FALSE(doc2.contains("extensionsUsed"));
  CHECK(doc2["buffers"][0]["uri"].get<std::string>().rfind("data:application/octet-stream;base64,", 0) == 0);
  std::string s(text.begin(), text.end());
  CHECK(s.find("FB_ngon_encoding") == std::string::npos);
  CHECK(s.find("KHR_materials") == std::string::npos);
}

TEST_CASE("mesh export: glb chunks are 4-byte aligned and lengths add up", "[mesh-export]") {
  Mesh g = test::quad_grid(3);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&g}}};
  auto b = export_one(objs, MeshFormat::Glb);
  auto rd = [&](size_t at) { return uint32_t(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | uint32_t(b[at + 3]) << 24); };
  REQUIRE(rd(8) == b.size());
  uint32_t jl = rd(12);
  CHECK(jl % 4 == 0);
  uint32_t bl = rd(20 + jl);
  CHECK(bl % 4 == 0);
  CHECK(rd(24 + jl) == 0x004E4942u);
  CHECK(28 + jl + bl == b.size());
}

TEST_CASE("mesh export: glTF outputs pass the Khronos validator with no errors or warnings", "[mesh-export][validator]") {
  Mesh c = test::cube(), t = test::tetrahedron(), g = test::quad_grid(6, -3, -3);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c, &t}}, {"chunk_1_0_0", {&g}}};
  test::TempDir dir;
  for (MeshFormat f : {MeshFormat::Glb, MeshFormat::Gltf}) {
    auto bytes = export_one(objs, f);
    validate(bytes, dir.file(std::string("out.") + std::string(mesh_format_name(f))));
  }
}

TEST_CASE("mesh export: the same meshes give the same bytes in every format", "[mesh-export]") {
  Mesh c = test::cube(), g = test::quad_grid(4);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}, {"chunk_0_1_0", {&g}}};
  for (MeshFormat f : kAll) {
    INFO("format " << mesh_format_name(f));
    CHECK(export_one(objs, f) == export_one(objs, f));
  }
}

TEST_CASE("mesh export: an empty scene is still a valid file", "[mesh-export]") {
  Mesh empty;
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&empty}}};
  auto b = export_one(objs, MeshFormat::Glb);
  auto doc = glb_json(b);
  CHECK_FALSE(doc.contains("meshes"));
  CHECK_FALSE(doc.contains("buffers"));
  CHECK_FALSE(doc.contains("materials"));
  uint32_t jl = b[12] | b[13] << 8 | b[14] << 16 | uint32_t(b[15]) << 24;
  CHECK(b.size() == 20 + jl);  // no BIN chunk
  for (MeshFormat f : kAll) CHECK_NOTHROW(export_one(objs, f));
}

TEST_CASE("mesh export: formats come from --format names and extensions", "[mesh-export]") {
  CHECK(mesh_format_for_path("a/b/zone.GLB") == MeshFormat::Glb);
  CHECK(mesh_format_for_path("x.gltf") == MeshFormat::Gltf);
  CHECK(mesh_format_for_path("x.fbx") == MeshFormat::Fbx);
  CHECK(parse_mesh_format("Stl") == MeshFormat::Stl);
  CHECK_THROWS_AS(mesh_format_for_path("dir.v2/noext"), Error);
  CHECK_THROWS_WITH(parse_mesh_format("dae"), Catch::Contains("expected one of glb, gltf, obj"));
}

TEST_CASE("mesh export: a mesh with a bad index is a usage error, not a crash", "[mesh-export]") {
  Mesh c = test::cube();
  c.indices.back() = 99;
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}};
  CHECK_THROWS_WITH(export_one(objs, MeshFormat::Obj), Catch::Contains("index 99 out of range"));
}

TEST_CASE("mesh export: many chunks with LODs and an empty object make one valid glTF with each node as its object alone", "[mesh-export][validator]") {
  // More objects than one batch, with LODs, an empty object and meshes of different sizes.
  std::vector<Mesh> meshes;
  meshes.reserve(200);
  for (int i = 0; i < 150; ++i) {
    meshes.push_back(i % 3 == 0 ? test::cube() : i % 3 == 1 ? test::tetrahedron()
                                                           : test::quad_grid(2 + i % 5, -i, 2 * i));
  }
  Mesh empty;
  std::vector<ExportObject> objs;
  for (int i = 0; i < 150; ++i) {
    ExportObject o{"chunk_" + std::to_string(i) + "_0_0", {&meshes[size_t(i)]}};
    if (i % 17 == 0) o.lods.push_back(&meshes[size_t((i + 1) % 150)]);
    objs.push_back(o);
  }
  objs.push_back({"chunk_empty", {&empty}});
  size_t want_tris = 0, want_meshes = 0;
  for (const auto& o : objs)
    for (const Mesh* m : o.lods)
      if (!m->empty()) want_tris += m->indices.size() / 3, ++want_meshes;

  test::TempDir dir;
  for (MeshFormat f : {MeshFormat::Glb, MeshFormat::Gltf}) {
    INFO("format " << mesh_format_name(f));
    const auto bytes = export_one(objs, f);
    CHECK(bytes == export_one(objs, f));
    const Counts c = reimport_counts(bytes, f);
    CHECK(c.meshes == want_meshes);
    CHECK(c.triangles == want_tris);
    // Each chunk node holds what that object alone exports to.
    const nlohmann::json doc = f == MeshFormat::Glb ? glb_json(bytes) : nlohmann::json::parse(bytes);
    const auto& nodes = doc["nodes"];
    const size_t root = doc["scenes"][0]["nodes"][0];
    REQUIRE(nodes[root]["children"].size() == 150);
    for (size_t i = 0; i < 150; i += 7) {
      const auto& n = nodes[nodes[root]["children"][i].get<size_t>()];
      CHECK(n["name"] == objs[i].name);
      const auto alone = glb_json(export_one({objs[i]}, MeshFormat::Glb));
      const auto& an = alone["nodes"][alone["scenes"][0]["nodes"][0].get<size_t>()];
      const auto& a_node = alone["nodes"][an["children"][0].get<size_t>()];
      auto position = [](const nlohmann::json& d, const nlohmann::json& node) {
        const size_t m = node.contains("mesh") ? node["mesh"].get<size_t>()
                                               : d["nodes"][node["children"][0].get<size_t>()]["mesh"].get<size_t>();
        return d["accessors"][d["meshes"][m]["primitives"][0]["attributes"]["POSITION"].get<size_t>()];
      };
      const auto pa = position(doc, n), pb = position(alone, a_node);
      CHECK(pa["count"] == pb["count"]);
      CHECK(pa["min"] == pb["min"]);
      CHECK(pa["max"] == pb["max"]);
    }
    validate(bytes, dir.file(std::string("many.") + std::string(mesh_format_name(f))));
  }
}

TEST_CASE("mesh export: the size estimate is near the binary files and below the text ones", "[mesh-export][limits]") {
  Mesh g = test::quad_grid(40, 40, 4);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&g}}};
  for (MeshFormat f : kAll) {
    INFO("format " << mesh_format_name(f));
    MeshExportOptions o;
    o.format = f;
    const uint64_t est = estimate_export_bytes(objs, o);
    const uint64_t real = export_meshes(objs, o).size();
    // Never over the file, so a cap never refuses what would fit; binary formats within 2x,
    // the others within 4x.
    CHECK(est <= real);
    const bool binary = f == MeshFormat::Glb || f == MeshFormat::Ply || f == MeshFormat::Stl;
    CHECK((binary ? 2 : 4) * est >= real);
    CHECK(est > 0);
  }
}

TEST_CASE("mesh export: an estimate over max_output_bytes is refused before exporting", "[mesh-export][limits]") {
  Mesh c = test::cube(10);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}};
  for (MeshFormat f : kAll) {
    INFO("format " << mesh_format_name(f));
    MeshExportOptions o;
    o.format = f;
    const uint64_t est = estimate_export_bytes(objs, o);
    o.max_output_bytes = est;
    CHECK_NOTHROW(export_meshes(objs, o));
    o.max_output_bytes = est - 1;
    try {
      export_meshes(objs, o);
      FAIL("no refusal");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Data);
      CHECK(e.expected() == "at most " + std::to_string(est - 1) + " bytes");
      CHECK(e.found() == std::to_string(est) + " bytes");
    }
  }
}

TEST_CASE("mesh export: glTF JSON is nlohmann's own dump of the document", "[mesh-export]") {
  // The per-mesh arrays are serialised apart and spliced in: the text must be what one dump
  // of the parsed document gives (compact in .glb; tab-indented with a final newline in .gltf).
  Mesh c = test::cube(), t = test::tetrahedron(), g = test::quad_grid(3, -2, 5);
  // Values whose shortest digits need an exponent, and a second UV set.
  Mesh odd = test::tetrahedron();
  odd.positions[1] = {1e-7f, -0.0001f, 123456792.0f};
  odd.positions[2] = {-3e20f, 0.1f, 1e-30f};
  odd.uv1 = {{0.0f, 1.0f}, {0.25f, 1e-6f}, {0.5f, 0.5f}, {1.0f, 0.0f}};
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c, &t}},
                                    {"chunk_1_0_0", {&g}},
                                    {"chunk_2_0_0", {&t}},
                                    {"a \"quoted\" name\\ with\ttab and \xc3\xa9", {&odd}}};
  objs[2].local_origin = std::array<double, 3>{16, 0, 16};
  const auto glb = export_one(objs, MeshFormat::Glb);
  const uint32_t len = glb[12] | glb[13] << 8 | glb[14] << 16 | uint32_t(glb[15]) << 24;
  std::string text(glb.begin() + 20, glb.begin() + 20 + len);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  CHECK(nlohmann::json::parse(text).dump() == text);
  const auto gltf = export_one(objs, MeshFormat::Gltf);
  const std::string g_text(gltf.begin(), gltf.end());
  CHECK(nlohmann::json::parse(g_text).dump(1, '\t') + "\n" == g_text);
}

TEST_CASE("mesh export: the same bytes for one and two threads in every format", "[mesh-export]") {
  std::vector<Mesh> meshes;
  for (int i = 0; i < 40; ++i) meshes.push_back(i % 2 ? test::cube(float(i)) : test::quad_grid(3 + i % 4, float(i), 0));
  std::vector<ExportObject> objs;
  for (int i = 0; i < 40; ++i) objs.push_back({"chunk_" + std::to_string(i) + "_0_0", {&meshes[size_t(i)]}, std::nullopt});
  for (MeshFormat f : kAll) {
    INFO("format " << mesh_format_name(f));
    std::vector<uint8_t> one, two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one = export_one(objs, f);
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      two = export_one(objs, f);
    }
    CHECK(one == two);
  }
}

TEST_CASE("mesh export: FBX files say metres (UnitScaleFactor 100)", "[mesh-export]") {
  Mesh c = test::cube();
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}, std::nullopt}};
  const auto bytes = export_one(objs, MeshFormat::Fbx);
  // The Properties70 record: S "UnitScaleFactor", S "double", S "Number", S "", D value.
  auto value_of = [&](const std::string& name) -> double {
    std::string key = "S";
    const uint32_t n = uint32_t(name.size());
    for (int i = 0; i < 4; ++i) key.push_back(char(n >> (8 * i)));
    key += name;
    const std::string file(bytes.begin(), bytes.end());
    size_t at = file.find(key);
    REQUIRE(at != std::string::npos);
    at += key.size();
    for (int k = 0; k < 3; ++k) {  // the three type and label strings
      REQUIRE(file[at] == 'S');
      const uint32_t len = uint8_t(file[at + 1]) | uint8_t(file[at + 2]) << 8 | uint8_t(file[at + 3]) << 16 |
                           uint32_t(uint8_t(file[at + 4])) << 24;
      at += 5 + len;
    }
    REQUIRE(file[at] == 'D');
    double v;
    std::memcpy(&v, file.data() + at + 1, 8);
    return v;
  };
  CHECK(value_of("UnitScaleFactor") == 100.0);
  CHECK(value_of("OriginalUnitScaleFactor") == 100.0);
  // Assimp reads the scale back as the scene's metadata.
  Assimp::Importer imp;
  const aiScene* s = import(imp, bytes, MeshFormat::Fbx);
  float scale = 0;
  REQUIRE(s->mMetaData);
  CHECK(s->mMetaData->Get("UnitScaleFactor", scale));
  CHECK(scale == 100.0f);
}

TEST_CASE("mesh export: PLY colours are the uchar bytes the header declares", "[mesh-export]") {
  Mesh c = test::cube();
  c.colors[0] = {2.0f, -1.0f, 0.5f, 1.0f};  // out of range: clamped
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}, std::nullopt}};
  const auto bytes = export_one(objs, MeshFormat::Ply);
  const std::string file(bytes.begin(), bytes.end());
  const size_t body = file.find("end_header\n") + 11;
  REQUIRE(body > 11);
  CHECK(file.find("property uchar red") < body);
  // x y z nx ny nz s t as floats, then four bytes; faces: a count byte and three int32.
  CHECK(bytes.size() == body + c.vertex_count() * (8 * 4 + 4) + c.triangle_count() * 13);
  CHECK(bytes[body + 32] == 255);
  CHECK(bytes[body + 33] == 0);
  CHECK(bytes[body + 34] == 128);
  CHECK(bytes[body + 35] == 255);
  // ASCII: the same counts through Assimp.
  MeshExportOptions o;
  o.format = MeshFormat::Ply;
  o.ply_ascii = true;
  const auto text = export_meshes(objs, o);
  CHECK(std::string(text.begin(), text.begin() + 21) == "ply\nformat ascii 1.0\n");
  const Counts got = reimport_counts(text, MeshFormat::Ply);
  CHECK(got.vertices == c.vertex_count());
  CHECK(got.triangles == c.triangle_count());
  CHECK(estimate_export_bytes(objs, o) <= text.size());
}

TEST_CASE("mesh export: OBJ, PLY and STL move local meshes by their node's translation", "[mesh-export]") {
  Mesh t = test::tetrahedron();
  ExportObject obj{"chunk_1_0_0", {&t}, std::array<double, 3>{16, 0, 16}};
  std::vector<ExportObject> objs = {obj};
  const std::array<double, 3> origin{10, -2, 30};
  const double voxel = 0.5;
  for (MeshFormat f : {MeshFormat::Obj, MeshFormat::Ply, MeshFormat::Stl}) {
    INFO("format " << mesh_format_name(f));
    Assimp::Importer imp;
    const aiScene* s = import(imp, export_one(objs, f, origin, voxel), f);
    float min_x = 1e30f, max_y = -1e30f, min_z = 1e30f;
    for (unsigned i = 0; i < s->mNumMeshes; ++i)
      for (unsigned v = 0; v < s->mMeshes[i]->mNumVertices; ++v) {
        const aiVector3D p = s->mMeshes[i]->mVertices[v];
        min_x = std::min(min_x, p.x);
        max_y = std::max(max_y, p.y);
        min_z = std::min(min_z, p.z);
      }
    // The node sits at (-(10 + 8), -2, 30 + 8); the tetrahedron spans 0..3 metres from it,
    // x mirrored.
    CHECK(min_x == -18.0f - 3.0f);
    CHECK(max_y == -2.0f + 3.0f);
    CHECK(min_z == 38.0f);
  }
}

TEST_CASE("mesh export: a streamed glb is the same bytes in any slab size", "[mesh-export]") {
  Mesh c = test::cube(), t = test::tetrahedron(), g = test::quad_grid(6, -3, -3), h = test::quad_grid(9);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c, &t}}, {"chunk_1_0_0", {&g}}, {"chunk_2_0_0", {&h}}};
  MeshExportOptions o;
  o.format = MeshFormat::Glb;
  o.origin = {10, -2, 30};
  o.voxel_size = 0.5;
  const std::vector<uint8_t> whole = export_meshes(objs, o);
  // Through export_meshes_to (4 MiB slabs: one), and in slabs cut at element boundaries, down
  // to the smallest (64 bytes), where every mesh spans several.
  std::vector<uint8_t> streamed;
  std::vector<size_t> pieces;
  const auto sink = [&](const uint8_t* p, size_t n) {
    streamed.insert(streamed.end(), p, p + n);
    pieces.push_back(n);
  };
  CHECK(export_meshes_to(objs, o, sink) == whole.size());
  CHECK(streamed == whole);
  const mesh_scene::Scene scene = mesh_scene::build(objs, o, false);
  for (uint64_t slab : {uint64_t(1), uint64_t(64), uint64_t(700), uint64_t(5000)}) {
    streamed.clear();
    pieces.clear();
    CHECK(gltf_writer::write_glb_stream(scene, sink, slab) == whole.size());
    CHECK(streamed == whole);
    // The header, then slabs of at most the size plus one element (16 bytes at most).
    REQUIRE(pieces.size() >= 2);
    for (size_t k = 1; k < pieces.size(); ++k) CHECK(pieces[k] <= std::max<uint64_t>(slab, 64) + 15);
    if (slab <= 64) CHECK(pieces.size() > 2 * scene.meshes.size());
  }
  // An empty scene: a glb without a BIN chunk.
  std::vector<ExportObject> none;
  streamed.clear();
  CHECK(export_meshes_to(none, o, sink) == export_meshes(none, o).size());
  CHECK(streamed == export_meshes(none, o));
}

TEST_CASE("mesh export: a .gltf with its buffer beside it holds the glb's JSON and BIN", "[mesh-export]") {
  Mesh c = test::cube(), g = test::quad_grid(4);
  std::vector<ExportObject> objs = {{"chunk_0_0_0", {&c}}, {"chunk_0_1_0", {&g}}};
  const std::vector<uint8_t> glb = export_one(objs, MeshFormat::Glb);
  const auto s = gltf_writer::separate_buffer(glb, "my mesh.bin");
  nlohmann::json j = nlohmann::json::parse(s.gltf);
  CHECK(j["buffers"][0]["uri"] == "my%20mesh.bin");
  const nlohmann::json g0 = glb_json(glb);
  CHECK(s.bin_size == g0["buffers"][0]["byteLength"].get<size_t>());
  j["buffers"][0].erase("uri");
  CHECK(j == g0);
  const uint32_t jl = glb[12] | glb[13] << 8 | glb[14] << 16 | uint32_t(glb[15]) << 24;
  CHECK(s.bin_offset == 28 + jl);
  // Not a glb: refused with the offset.
  std::vector<uint8_t> bad = glb;
  bad[0] = 'x';
  CHECK_THROWS_WITH(gltf_writer::separate_buffer(bad, "a.bin"), Catch::Contains("not a glb container"));
  bad = glb;
  bad[12] = 0xff;
  bad[13] = 0xff;
  bad[14] = 0xff;
  CHECK_THROWS_WITH(gltf_writer::separate_buffer(bad, "a.bin"), Catch::Contains("offset 12"));
}
