// Mesh export: glTF, OBJ, PLY and STL through voxkit's own writers; FBX through an Assimp
// scene in world metres and right-handed space, with what Assimp 5.2 writes fixed afterwards.
#include "formats/mesh/mesh_export.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

#include "formats/mesh/assimp_plugin.hpp"
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

namespace {

void check_export(std::span<const ExportObject> objects, const MeshExportOptions& o) {
  if (!(o.voxel_size > 0)) throw_usage("voxel size must be positive");
  const FormatInfo& fi = info(o.format);
  if (const uint64_t est = estimate_export_bytes(objects, o); est > o.max_output_bytes) {
    throw Error(ErrorKind::Data,
                std::string(fi.name) + " export would write about " + std::to_string(est) +
                    " bytes, over the output cap",
                std::nullopt, "at most " + std::to_string(o.max_output_bytes) + " bytes",
                std::to_string(est) + " bytes");
  }
}

void check_stl_faces(const mesh_scene::Scene& scene) {
  uint64_t faces = 0;
  for (const auto& m : scene.meshes) faces += m.mesh->triangle_count();
  if (faces > 0xFFFFFFFFu)
    throw Error(ErrorKind::Data, "an STL file holds at most 4294967295 triangles", std::nullopt,
                "at most 4294967295 triangles", std::to_string(faces) + " triangles");
}

}  // namespace

uint64_t export_meshes_to(std::span<const ExportObject> objects, const MeshExportOptions& o, const MeshSink& sink) {
  if (o.format == MeshFormat::Gltf || o.format == MeshFormat::Fbx) {
    const std::vector<uint8_t> bytes = export_meshes(objects, o);
    sink(bytes.data(), bytes.size());
    return bytes.size();
  }
  check_export(objects, o);
  const bool flat = o.format != MeshFormat::Glb;
  const mesh_scene::Scene scene = mesh_scene::build(objects, o, flat);
  switch (o.format) {
    case MeshFormat::Glb: return gltf_writer::write_glb_stream(scene, sink);
    case MeshFormat::Obj: return simple_writers::write_obj(scene, sink);
    case MeshFormat::Ply: return simple_writers::write_ply(scene, o.ply_ascii, sink);
    default:
      check_stl_faces(scene);
      return simple_writers::write_stl(scene, sink);
  }
}

uint64_t export_gltf_separate(std::span<const ExportObject> objects, const MeshExportOptions& o,
                              const std::string& bin_uri, const MeshSink& gltf_sink, const MeshSink& bin_sink) {
  MeshExportOptions g = o;
  g.format = MeshFormat::Glb;  // the size check counts the buffer's bytes, not base64
  check_export(objects, g);
  const mesh_scene::Scene scene = mesh_scene::build(objects, o, false);
  return gltf_writer::write_gltf_separate(scene, bin_uri, gltf_sink, bin_sink);
}

std::vector<uint8_t> export_meshes(std::span<const ExportObject> objects,
                                   const MeshExportOptions& o) {
  check_export(objects, o);
  if (o.format != MeshFormat::Fbx) {
    const bool flat = o.format != MeshFormat::Glb && o.format != MeshFormat::Gltf;
    const mesh_scene::Scene scene = mesh_scene::build(objects, o, flat);
    switch (o.format) {
      case MeshFormat::Glb: return gltf_writer::write(scene, true);
      case MeshFormat::Gltf: return gltf_writer::write(scene, false);
      case MeshFormat::Obj: return simple_writers::write_obj(scene);
      case MeshFormat::Ply: return simple_writers::write_ply(scene, o.ply_ascii);
      default:
        check_stl_faces(scene);
        return simple_writers::write_stl(scene);
    }
  }
  return fixup::fbx(assimp::api().export_fbx(objects, o));
}

}  // namespace voxkit
