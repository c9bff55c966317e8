// What follows from the zone in a DigZoneData asset, as the package's baker makes it: the
// chunk meshes (the package's mesher, cut to the terrain hole, lightmap UVs) and the shader
// textures (control splat weights, terrain heights) with the values that describe them.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "formats/zone/unity_mesh.hpp"
#include "formats/zone/unity_yaml.hpp"
#include "lib/core/error.hpp"
#include "lib/mesh/mesh.hpp"
#include "lib/mesh/package_zone.hpp"

namespace voxkit::unity {
namespace {

// Object ids (docs/formats/unity-asset.md): a chunk mesh's id spells its chunk,
// 43 cz(4 digits) cy(4) cx(4); textures take the classic 28xxxxx ids.
constexpr int64_t kMeshIdBase = 43000000000000;
constexpr int64_t kMeshIdStep = 10000000000000;  // when an id is taken by another object
constexpr int64_t kControlId = 2800000;          // + 2 t for control texture t
constexpr int64_t kHeightId = 2800010;
constexpr int64_t kTextureIdStep = 1000;

int64_t mesh_id(const std::array<uint32_t, 3>& c) {
  return kMeshIdBase + int64_t(c[2]) * 100000000 + int64_t(c[1]) * 10000 + int64_t(c[0]);
}

bool int_value(std::string_view text, const Field* f, int64_t& v) {
  if (!f) return false;
  const std::string s = trimmed_value(text, *f);
  char* end = nullptr;
  errno = 0;
  v = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && !*end && !errno;
}

// The local document of class `cls` a reference names, or null.
const Document* local_object(const ExportState& s, std::string_view ref, int cls) {
  const auto id = local_id(ref);
  if (!id || *id == 0) return nullptr;
  const Document* d = find_document(s.docs, *id);
  return d && d->class_id == cls ? d : nullptr;
}

// The chunk coordinates of the entries of the asset's old chunkMeshes list, from its old
// nx, ny, nz and chunkCells; false when those do not describe a grid.
bool old_chunk_counts(const ExportState& s, std::array<uint32_t, 3>& counts) {
  int64_t v[4];
  const char* keys[4] = {"nx", "ny", "nz", "chunkCells"};
  for (int i = 0; i < 4; ++i)
    if (!int_value(s.text, s.doc.find(keys[i]), v[i]) || v[i] < 1 || v[i] > (1 << 20)) return false;
  for (int a = 0; a < 3; ++a) counts[size_t(a)] = uint32_t((v[a] + v[3] - 1) / v[3]);
  return true;
}

void set_field(ExportState& s, const char* key, std::string value) {
  if (const Field* f = s.doc.find(key)) s.edits.push_back(value_edit(*f, std::move(value)));
}

std::string vec2(double x, double y) { return "{x: " + format_float(x) + ", y: " + format_float(y) + "}"; }
std::string vec4(double x, double y, double z, double w) {
  return "{x: " + format_float(x) + ", y: " + format_float(y) + ", z: " + format_float(z) + ", w: " + format_float(w) + "}";
}

// Writes `tex` under the id the reference `ref` names when that is a texture of the asset,
// else under a new id; returns the id.
int64_t put_texture(ExportState& s, std::string_view ref, int64_t preferred, const Texture& tex) {
  if (const Document* d = local_object(s, ref, kClassTexture2D)) {
    s.replace_document(*d, texture_document(d->id, tex, s.eol), "object " + std::to_string(d->id));
    if (s.report) ++s.report->textures;
    return d->id;
  }
  const int64_t id = s.ids.claim(preferred, kTextureIdStep);
  s.added[id] = texture_document(id, tex, s.eol);
  if (s.report) ++s.report->textures;
  return id;
}

void control_textures(ExportState& s, const std::string& st) {
  const Zone& z = s.zone;
  const Field* ctl = s.doc.find("controlTex");
  if (!ctl) return;
  const Field* extra = s.doc.find("extraControlTex");
  size_t used = std::min<size_t>(z.splat.size(), 16);
  if (!extra && used > 4) {
    s.warn("the asset has no extraControlTex field (a package version before 16 layers): only layers 0-3 were written");
    used = 4;
  }
  const size_t count = std::max<size_t>(1, (used + 3) / 4);
  const uint32_t w = z.meta.cells.nx + 1, h = z.meta.cells.nz + 1;
  const std::vector<std::string> old_extra = extra ? sequence_items(s.text, s.doc, *extra) : std::vector<std::string>{};
  std::vector<std::vector<std::string>> extra_items;
  for (size_t t = 0; t < count; ++t) {
    Texture tex;
    tex.name = s.name + "_Control" + (t ? std::to_string(t) : "");
    tex.width = w;
    tex.height = h;
    tex.data.assign(size_t(w) * h * 4, 0);
    for (size_t i = 0; i < size_t(w) * h; ++i) {
      for (size_t ch = 0; ch < 4; ++ch) {
        const size_t layer = 4 * t + ch;
        if (layer < used) tex.data[4 * i + ch] = z.splat[layer].values[i];
      }
      // No layers: layer 0 everywhere (Color.red), as the baker does for a terrain without any.
      if (used == 0) tex.data[4 * i] = tex.data[4 * i + 3] = 255;
    }
    if (t == 0) {
      s.edits.push_back(value_edit(*ctl, file_ref(put_texture(s, value_of(s.text, *ctl), kControlId, tex))));
    } else {
      const std::string old = t - 1 < old_extra.size() ? old_extra[t - 1] : std::string();
      extra_items.push_back({file_ref(put_texture(s, old, kControlId + 2 * int64_t(t), tex))});
    }
  }
  for (size_t i = count - 1; i < old_extra.size(); ++i) {
    if (const Document* d = local_object(s, old_extra[i], kClassTexture2D)) {
      s.replace_document(*d, "", "object " + std::to_string(d->id));
      if (s.report) ++s.report->textures_removed;
    }
  }
  if (extra) s.edits.push_back(sequence_edit(s.doc, *extra, extra_items, s.eol));
  set_field(s, "layerCount", std::to_string(used));
  set_field(s, "controlST", st);
}

void height_texture(ExportState& s, const std::string& st) {
  const Zone& z = s.zone;
  const Field* ht = s.doc.find("heightTex");
  if (z.height.values.empty()) {
    if (!s.fresh) return;
    s.warn("the zone has no height raster: the asset has no height texture (heightTex is empty)");
    set_field(s, "heightRange", vec2(z.meta.height_min, z.meta.height_max));
    set_field(s, "heightST", st);
    return;
  }
  // BakeHeight: the range over the columns, each column (height - min) / range as a half.
  float lo = z.height.values[0], hi = lo;
  for (float v : z.height.values) {
    if (!std::isfinite(v)) throw_usage("the zone's height raster holds a value that is not finite");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const float range = std::max(0.001f, float(double(hi) - double(lo)));
  Texture tex;
  tex.name = s.name + "_Height";
  tex.width = z.height.width;
  tex.height = z.height.depth;
  tex.format = kRHalf;
  tex.data.resize(z.height.values.size() * 2);
  for (size_t i = 0; i < z.height.values.size(); ++i) {
    const uint16_t b = float_to_half(float((double(z.height.values[i]) - double(lo)) / double(range)));
    tex.data[2 * i] = uint8_t(b);
    tex.data[2 * i + 1] = uint8_t(b >> 8);
  }
  if (ht) s.edits.push_back(value_edit(*ht, file_ref(put_texture(s, value_of(s.text, *ht), kHeightId, tex))));
  set_field(s, "heightRange", vec2(lo, hi));
  set_field(s, "heightST", st);
}

}  // namespace

void mesh_edits(ExportState& s) {
  const Zone& z = s.zone;
  const Field* list = s.doc.find("chunkMeshes");
  if (!list) {
    s.warn("the asset has no chunkMeshes field: no chunk meshes were written");
    return;
  }
  package::ZoneMeshOptions mo;
  mo.chunk.chunk_cells = z.meta.chunk_cells;
  mo.chunk.voxel_size = float(z.meta.voxel_size);
  mo.chunk.paint = z.paint.data.empty() ? nullptr : &z.paint;
  mo.chunk.mode = package::FloatMode::Editor;
  mo.origin = {float(z.meta.origin[0]), float(z.meta.origin[1]), float(z.meta.origin[2])};
  const HoleRect& h = z.meta.hole;
  const std::array<float, 4> hole{float(h.min_x), float(h.min_z), float(h.max_x), float(h.max_z)};
  if (hole[2] > hole[0] && hole[3] > hole[1]) mo.hole = hole;  // ClipToHole's test of holeRect
  mo.hole_margin = std::max(0.f, s.opts.hole_margin);
  if (s.opts.lightmap_size) {
    lightmap::Options lo;
    lo.size = s.opts.lightmap_size;
    mo.lightmap = lo;
  }
  const std::vector<package::ZoneChunkMesh> chunks = package::build_zone(z.grid, mo);

  // The meshes the list names keep their ids (scene objects point at them), by chunk.
  std::map<std::array<uint32_t, 3>, int64_t> reuse;
  std::set<int64_t> named;
  std::array<uint32_t, 3> counts{};
  if (!s.fresh) {
    const bool coords = old_chunk_counts(s, counts);
    const std::vector<std::string> items = sequence_items(s.text, s.doc, *list);
    for (size_t k = 0; k < items.size(); ++k) {
      const Document* d = local_object(s, items[k], kClassMesh);
      if (!d || !named.insert(d->id).second) continue;
      if (coords && k < uint64_t(counts[0]) * counts[1] * counts[2]) {
        const std::array<uint32_t, 3> c{uint32_t(k % counts[0]), uint32_t(k / counts[0] % counts[1]),
                                        uint32_t(k / (uint64_t(counts[0]) * counts[1]))};
        reuse.emplace(c, d->id);
      }
    }
  }
  std::vector<std::vector<std::string>> items;
  items.reserve(chunks.size());
  std::set<int64_t> kept;
  for (const auto& c : chunks) {
    if (c.mesh.empty()) {
      items.push_back({file_ref(0)});
      continue;
    }
    const std::string name = s.name + "_Chunk_" + std::to_string(c.chunk[0]) + "_" + std::to_string(c.chunk[1]) + "_" +
                             std::to_string(c.chunk[2]);
    const auto it = reuse.find(c.chunk);
    if (it != reuse.end()) {
      kept.insert(it->second);
      s.replace_document(*find_document(s.docs, it->second), mesh_document(it->second, name, c.mesh, s.eol),
                         "object " + std::to_string(it->second));
      items.push_back({file_ref(it->second)});
    } else {
      const int64_t id = s.ids.claim(mesh_id(c.chunk), kMeshIdStep);
      s.added[id] = mesh_document(id, name, c.mesh, s.eol);
      items.push_back({file_ref(id)});
    }
    if (s.report) {
      ++s.report->meshes;
      s.report->vertices += c.mesh.positions.size();
      s.report->triangles += c.mesh.indices.size() / 3;
    }
  }
  for (int64_t id : named) {
    if (kept.count(id)) continue;
    s.replace_document(*find_document(s.docs, id), "", "object " + std::to_string(id));
    if (s.report) ++s.report->meshes_removed;
  }
  s.edits.push_back(sequence_edit(s.doc, *list, items, s.eol));
}

void texture_edits(ExportState& s) {
  const Zone& z = s.zone;
  const double v = float(z.meta.voxel_size);
  const double ox = float(z.meta.origin[0]), oz = float(z.meta.origin[2]);
  const double w = double(z.meta.cells.nx) + 1, h = double(z.meta.cells.nz) + 1;
  // BakeHeight's heightST: world x, z -> the texel centres of the zone's columns. The control
  // textures are written on the same columns, so controlST is the same.
  const std::string st = vec4(1.0 / (v * w), 1.0 / (v * h), (-ox / v + 0.5) / w, (-oz / v + 0.5) / h);
  if (s.fresh || !z.splat.empty()) control_textures(s, st);
  height_texture(s, st);
}

}  // namespace voxkit::unity
