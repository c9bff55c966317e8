// Mesh export: glTF, OBJ, PLY and STL through voxkit's own writers; FBX through an Assimp
// scene in world metres and right-handed space, with what Assimp 5.2 writes fixed afterwards.
#include "formats/mesh/mesh_export.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "formats/mesh/gltf_writer.hpp"
#include "formats/mesh/mesh_export_fixup.hpp"
#include "formats/mesh/mesh_scene.hpp"
#include "formats/mesh/simple_writers.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh_ops.hpp"

namespace voxkit {
namespace {

struct FormatInfo {
  MeshFormat format;
  const char* name;
  bool colors, uv, vertex_normals;
  bool uv1;  // a second UV set (lightmap UVs)
};

constexpr FormatInfo kFormats[] = {
    {MeshFormat::Glb, "glb", true, true, true, true},
    {MeshFormat::Gltf, "gltf", true, true, true, true},
    {MeshFormat::Obj, "obj", true, true, true, false},
    {MeshFormat::Ply, "ply", true, true, true, false},
    {MeshFormat::Stl, "stl", false, false, false, false},
    {MeshFormat::Fbx, "fbx", true, true, true, true},
};

const FormatInfo& info(MeshFormat f) {
  for (const auto& i : kFormats)
    if (i.format == f) return i;
  return kFormats[0];
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string format_list() {
  std::string s;
  for (const auto& i : kFormats) s += std::string(s.empty() ? "" : ", ") + i.name;
  return s;
}

// Copies one mesh into a new aiMesh: world metres, optional mirror, the format's attributes.
aiMesh* make_ai_mesh(const Mesh& m, const std::string& name, const MeshExportOptions& o, bool local) {
  check_mesh(m, name.c_str());
  const FormatInfo& fi = info(o.format);
  auto am = std::make_unique<aiMesh>();
  am->mName = aiString(name);
  am->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  am->mMaterialIndex = 0;
  const unsigned n = unsigned(m.positions.size());
  am->mNumVertices = n;
  const double sx = o.right_handed ? -1.0 : 1.0;
  am->mVertices = new aiVector3D[n];
  for (unsigned v = 0; v < n; ++v) {
    const auto& p = m.positions[v];
    am->mVertices[v] = local ? aiVector3D(float(sx) * p[0], p[1], p[2])
                             : aiVector3D(float(sx * (o.origin[0] + o.voxel_size * double(p[0]))),
                                          float(o.origin[1] + o.voxel_size * double(p[1])),
                                          float(o.origin[2] + o.voxel_size * double(p[2])));
  }
  if (!m.normals.empty()) {
    am->mNormals = new aiVector3D[n];
    for (unsigned v = 0; v < n; ++v) {
      const auto& q = m.normals[v];
      am->mNormals[v] = aiVector3D(float(sx) * q[0], q[1], q[2]);
    }
  }
  if (fi.colors && !m.colors.empty()) {
    am->mColors[0] = new aiColor4D[n];
    for (unsigned v = 0; v < n; ++v) {
      // Slot weights are 0..1; glTF requires colours in that range.
      const auto& c = m.colors[v];
      auto w = [](float x) { return std::clamp(x, 0.0f, 1.0f); };
      am->mColors[0][v] = aiColor4D(w(c[0]), w(c[1]), w(c[2]), w(c[3]));
    }
  }
  if (fi.uv && !m.uv0.empty()) {
    am->mTextureCoords[0] = new aiVector3D[n];
    am->mNumUVComponents[0] = 2;
    for (unsigned v = 0; v < n; ++v) am->mTextureCoords[0][v] = aiVector3D(m.uv0[v][0], m.uv0[v][1], 0);
  }
  if (fi.uv1 && !m.uv1.empty()) {
    // The second set needs a first: give an all-zero one to meshes without uv0.
    if (!am->mTextureCoords[0]) {
      am->mTextureCoords[0] = new aiVector3D[n];
      am->mNumUVComponents[0] = 2;
    }
    am->mTextureCoords[1] = new aiVector3D[n];
    am->mNumUVComponents[1] = 2;
    for (unsigned v = 0; v < n; ++v) am->mTextureCoords[1][v] = aiVector3D(m.uv1[v][0], m.uv1[v][1], 0);
  }
  const unsigned nf = unsigned(m.triangle_count());
  am->mNumFaces = nf;
  am->mFaces = new aiFace[nf];
  for (unsigned f = 0; f < nf; ++f) {
    aiFace& face = am->mFaces[f];
    face.mNumIndices = 3;
    face.mIndices = new unsigned[3];
    const uint32_t* t = &m.indices[size_t(f) * 3];
    // A mirror turns counter-clockwise into clockwise: reverse the winding to undo it.
    face.mIndices[0] = t[0];
    face.mIndices[1] = o.right_handed ? t[2] : t[1];
    face.mIndices[2] = o.right_handed ? t[1] : t[2];
  }
  return am.release();
}

// A plain material: grey, fully rough, two-sided off. glTF requires none, but Assimp's
// exporters need one to reference.
aiMaterial* make_material() {
  auto* mat = new aiMaterial();
  aiString name("voxkit_terrain");
  mat->AddProperty(&name, AI_MATKEY_NAME);
  aiColor4D diffuse(0.8f, 0.8f, 0.8f, 1.0f);
  mat->AddProperty(&diffuse, 1, AI_MATKEY_COLOR_DIFFUSE);
  return mat;
}

void attach_children(aiNode* parent, std::vector<aiNode*>& kids) {
  if (kids.empty()) return;
  parent->mNumChildren = unsigned(kids.size());
  parent->mChildren = new aiNode*[kids.size()];
  for (size_t i = 0; i < kids.size(); ++i) {
    kids[i]->mParent = parent;
    parent->mChildren[i] = kids[i];
  }
  kids.clear();
}

std::unique_ptr<aiScene> build_scene(std::span<const ExportObject> objects,
                                     const MeshExportOptions& o) {
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode("voxkit");
  scene->mNumMaterials = 1;
  scene->mMaterials = new aiMaterial*[1]{make_material()};

  std::vector<aiMesh*> meshes;
  std::vector<aiNode*> top;
  bool local = false;
  auto add_mesh = [&](aiNode* node, const Mesh& m, const std::string& name) {
    node->mNumMeshes = 1;
    node->mMeshes = new unsigned[1]{unsigned(meshes.size())};
    meshes.push_back(make_ai_mesh(m, name, o, local));
  };
  try {
    for (const auto& obj : objects) {
      std::vector<const Mesh*> lods;
      for (const Mesh* m : obj.lods)
        if (m && !m->empty()) lods.push_back(m);
      if (lods.empty()) continue;
      auto* node = new aiNode(obj.name);
      top.push_back(node);
      local = obj.local_origin.has_value();
      if (local) {
        // The node sits at the chunk's origin in world metres (the handedness applied).
        const auto& g = *obj.local_origin;
        const double sx = o.right_handed ? -1.0 : 1.0;
        aiMatrix4x4::Translation(aiVector3D(float(sx * (o.origin[0] + o.voxel_size * g[0])),
                                            float(o.origin[1] + o.voxel_size * g[1]),
                                            float(o.origin[2] + o.voxel_size * g[2])),
                                 node->mTransformation);
      }
      if (obj.lods.size() == 1) {
        add_mesh(node, *lods[0], obj.name);
        continue;
      }
      std::vector<aiNode*> kids;
      for (size_t l = 0; l < obj.lods.size(); ++l) {
        if (!obj.lods[l] || obj.lods[l]->empty()) continue;
        std::string name = obj.name + "_LOD" + std::to_string(l);
        auto* kid = new aiNode(name);
        kids.push_back(kid);
        add_mesh(kid, *obj.lods[l], name);
      }
      attach_children(node, kids);
    }
  } catch (...) {
    for (auto* m : meshes) delete m;
    for (auto* n : top) delete n;
    throw;
  }
  attach_children(scene->mRootNode, top);
  scene->mNumMeshes = unsigned(meshes.size());
  if (!meshes.empty()) {
    scene->mMeshes = new aiMesh*[meshes.size()];
    std::copy(meshes.begin(), meshes.end(), scene->mMeshes);
  }
  return scene;
}

}  // namespace

std::string_view mesh_format_name(MeshFormat f) { return info(f).name; }

MeshFormat parse_mesh_format(std::string_view name) {
  std::string l = lower(name);
  for (const auto& i : kFormats)
    if (l == i.name) return i.format;
  throw_usage("unknown mesh format '" + std::string(name) + "' (expected one of " +
              format_list() + ")");
}

MeshFormat mesh_format_for_path(const std::string& path) {
  auto slash = path.find_last_of('/');
  auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    throw_usage("cannot tell the mesh format of '" + path + "' from its extension (expected " +
                    format_list() + "); use the format option",
                {{"format", "the format option"}});
  return parse_mesh_format(std::string_view(path).substr(dot + 1));
}

bool format_has_colors(MeshFormat f) { return info(f).colors; }
bool format_has_uv(MeshFormat f) { return info(f).uv; }
bool format_has_uv1(MeshFormat f) { return info(f).uv1; }
bool format_has_vertex_normals(MeshFormat f) { return info(f).vertex_normals; }

std::string chunk_node_name(std::array<int32_t, 3> c) {
  return "chunk_" + std::to_string(c[0]) + "_" + std::to_string(c[1]) + "_" + std::to_string(c[2]);
}

uint64_t estimate_export_bytes(std::span<const ExportObject> objects, const MeshExportOptions& o) {
  const FormatInfo& fi = info(o.format);
  uint64_t total = 0;
  for (const auto& obj : objects)
    for (const Mesh* m : obj.lods) {
      if (!m) continue;
      const uint64_t nv = m->vertex_count(), nt = m->triangle_count();
      const bool normals = fi.vertex_normals && !m->normals.empty();
      const bool colors = fi.colors && !m->colors.empty();
      const bool uv = fi.uv && (!m->uv0.empty() || (fi.uv1 && !m->uv1.empty()));
      const bool uv1 = fi.uv1 && !m->uv1.empty();
      // Bytes per vertex and per triangle.
      uint64_t pv = 0, pt = 0;
      switch (o.format) {
        case MeshFormat::Glb:
        case MeshFormat::Gltf:
          pv = 12 + (normals ? 12 : 0) + (colors ? 16 : 0) + (uv ? 8 : 0) + (uv1 ? 8 : 0);
          pt = 12;
          break;
        case MeshFormat::Ply:
          if (o.ply_ascii) {
            // "x y z\n" and "3 a b c\n" at one character a number at least.
            pv = 6 + (normals ? 6 : 0) + (uv ? 4 : 0) + (colors ? 8 : 0);
            pt = 8;
          } else {
            pv = 12 + (normals ? 12 : 0) + (colors ? 4 : 0) + (uv ? 8 : 0);
            pt = 13;
          }
          break;
        case MeshFormat::Stl:
          pt = 50;
          break;
        case MeshFormat::Fbx:
          // Doubles; normals by polygon vertex.
          pv = 24 + (colors ? 32 : 0) + (uv ? 16 : 0) + (uv1 ? 16 : 0);
          pt = 12 + (normals ? 72 : 0);
          break;
        case MeshFormat::Obj: {
          // Text at one character a number: "v x y z\n" (" r g b" with colours), "vt u v\n",
          // "vn x y z\n", and each face "f a/b/c a/b/c a/b/c\n" with a digit more for every
          // index of 10 or more.
          const uint64_t uv0 = fi.uv && !m->uv0.empty() ? 1 : 0;
          const uint64_t fields = 1 + uv0 + (normals ? 1 : 0);
          pv = 8 + (colors ? 6 : 0) + (uv0 ? 7 : 0) + (normals ? 9 : 0);
          pt = 2 + 3 * (1 + fields * (nv >= 10 ? 2 : 1) + (fields - 1));
          break;
        }
      }
      total += nv * pv + nt * pt;
    }
  if (o.format == MeshFormat::Gltf) total = total / 3 * 4;  // base64
  return total;
}

std::vector<uint8_t> export_meshes(std::span<const ExportObject> objects,
                                   const MeshExportOptions& o) {
  if (!(o.voxel_size > 0)) throw_usage("voxel size must be positive");
  const FormatInfo& fi = info(o.format);
  if (const uint64_t est = estimate_export_bytes(objects, o); est > o.max_output_bytes) {
    throw Error(ErrorKind::Data,
                std::string(fi.name) + " export would write about " + std::to_string(est) +
                    " bytes, over the output cap",
                std::nullopt, "at most " + std::to_string(o.max_output_bytes) + " bytes",
                std::to_string(est) + " bytes");
  }
  if (o.format != MeshFormat::Fbx) {
    const bool flat = o.format != MeshFormat::Glb && o.format != MeshFormat::Gltf;
    const mesh_scene::Scene scene = mesh_scene::build(objects, o, flat);
    switch (o.format) {
      case MeshFormat::Glb: return gltf_writer::write(scene, true);
      case MeshFormat::Gltf: return gltf_writer::write(scene, false);
      case MeshFormat::Obj: return simple_writers::write_obj(scene);
      case MeshFormat::Ply: return simple_writers::write_ply(scene, o.ply_ascii);
      default: {
        uint64_t faces = 0;
        for (const auto& m : scene.meshes) faces += m.mesh->triangle_count();
        if (faces > 0xFFFFFFFFu)
          throw Error(ErrorKind::Data, "an STL file holds at most 4294967295 triangles", std::nullopt,
                      "at most 4294967295 triangles", std::to_string(faces) + " triangles");
        return simple_writers::write_stl(scene);
      }
    }
  }
  auto scene = build_scene(objects, o);
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), "fbx", 0u);
  if (!blob)
    throw Error(ErrorKind::Io, std::string("Assimp could not write ") + fi.name + ": " +
                                   exporter.GetErrorString());
  const auto* p = static_cast<const uint8_t*>(blob->data);
  return fixup::fbx(std::vector<uint8_t>(p, p + blob->size));
}

}  // namespace voxkit
