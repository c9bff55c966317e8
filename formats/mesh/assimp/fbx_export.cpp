// FBX through Assimp: the scene (a node per object, LOD children, world metres, the
// handedness applied) and Assimp's exporter. The Assimp plug-in's half of
// formats/mesh/mesh_export.hpp; voxkit repairs the bytes after (fixup::fbx).
#include <assimp/Exporter.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <algorithm>
#include <memory>

#include "formats/mesh/assimp_plugin.hpp"
#include "formats/mesh/mesh_export.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh_ops.hpp"

namespace voxkit {
namespace {

// Copies one mesh into a new aiMesh: world metres, optional mirror, the format's attributes.
aiMesh* make_ai_mesh(const Mesh& m, const std::string& name, const MeshExportOptions& o, bool local) {
  check_mesh(m, name.c_str());
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
  if (format_has_colors(o.format) && !m.colors.empty()) {
    am->mColors[0] = new aiColor4D[n];
    for (unsigned v = 0; v < n; ++v) {
      // Slot weights are 0..1; glTF requires colours in that range.
      const auto& c = m.colors[v];
      auto w = [](float x) { return std::clamp(x, 0.0f, 1.0f); };
      am->mColors[0][v] = aiColor4D(w(c[0]), w(c[1]), w(c[2]), w(c[3]));
    }
  }
  if (format_has_uv(o.format) && !m.uv0.empty()) {
    am->mTextureCoords[0] = new aiVector3D[n];
    am->mNumUVComponents[0] = 2;
    for (unsigned v = 0; v < n; ++v) am->mTextureCoords[0][v] = aiVector3D(m.uv0[v][0], m.uv0[v][1], 0);
  }
  if (format_has_uv1(o.format) && !m.uv1.empty()) {
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

std::vector<uint8_t> export_fbx(std::span<const ExportObject> objects, const MeshExportOptions& o) {
  auto scene = build_scene(objects, o);
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), "fbx", 0u);
  if (!blob) throw Error(ErrorKind::Io, std::string("Assimp could not write fbx: ") + exporter.GetErrorString());
  const auto* p = static_cast<const uint8_t*>(blob->data);
  return std::vector<uint8_t>(p, p + blob->size);
}

std::string version() {
  return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
         std::to_string(aiGetVersionPatch());
}

const assimp::Api kApi{assimp::kPluginAbi, export_fbx, version};

}  // namespace
}  // namespace voxkit

extern "C" __attribute__((visibility("default"))) const voxkit::assimp::Api* voxkit_assimp_plugin_api() {
  return &voxkit::kApi;
}
