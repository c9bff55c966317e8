// The foliage fields of the dig-zone package's DigZoneData asset: the kept terrain trees, the
// surface details, the foliage mask texture, and the signatures (docs/formats/unity-asset.md).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "formats/zone/unity_mesh.hpp"
#include "formats/zone/unity_yaml.hpp"
#include "lib/core/error.hpp"

namespace voxkit::unity {
namespace {

std::string f3(const std::array<float, 3>& v) {
  return "{x: " + format_float(v[0]) + ", y: " + format_float(v[1]) + ", z: " + format_float(v[2]) + "}";
}

std::string rgba(const std::array<uint8_t, 4>& c) {
  return "{r: " + std::to_string(c[0]) + ", g: " + std::to_string(c[1]) + ", b: " + std::to_string(c[2]) +
         ", a: " + std::to_string(c[3]) + "}";
}

// The mask texture: RGBA32, linear, point filtered, clamped, readable, no mipmaps (the
// runtimes read its pixels), in texel order (row 0 at the bottom, as Unity stores it).
Texture mask_texture(const std::string& name, const ZoneFoliage& f) {
  Texture t;
  t.name = name;
  t.width = f.mask_width;
  t.height = f.mask_height;
  t.format = kRGBA32;
  t.filter = 0;
  t.data = f.mask;
  return t;
}

}  // namespace

void foliage_edits(ExportState& s) {
  const std::string_view t = s.text;
  const ZoneDocument& d = s.doc;
  const Zone& z = s.zone;
  const std::string& eol = s.eol;
  std::vector<TextEdit>& edits = s.edits;
  const ZoneFoliage& f = z.foliage;
  if (f.grid_version != z.meta.grid_version)
    throw_usage("the zone's foliage was checked against grid version " + std::to_string(f.grid_version) +
                ", the grid is at " + std::to_string(z.meta.grid_version) + ": check the foliage again first");
  auto warn = [&](const std::string& w) { s.warn(w); };
  const std::array<double, 3> tp = f.terrain_position, size = f.terrain_size;

  if (const Field* trees = d.find("terrainTrees")) {
    std::vector<const FoliageTree*> order;
    for (const auto& tr : f.trees) order.push_back(&tr);
    std::stable_sort(order.begin(), order.end(), [](const FoliageTree* a, const FoliageTree* b) { return a->id < b->id; });
    std::vector<std::vector<std::string>> items;
    bool ok = true;
    for (const FoliageTree* tr : order) {
      std::array<float, 3> p = tr->position;
      if (!tr->normalized) {
        if (!f.has_terrain) {
          ok = false;
          break;
        }
        for (int a = 0; a < 3; ++a) p[size_t(a)] = float((double(p[size_t(a)]) - tp[size_t(a)]) / size[size_t(a)]);
      }
      items.push_back({"position: " + f3(p), "widthScale: " + format_float(tr->width),
                       "heightScale: " + format_float(tr->height), "rotation: " + format_float(tr->rotation),
                       "color: " + rgba(tr->color), "lightmapColor: " + rgba(tr->lightmap_color),
                       "prototypeIndex: " + std::to_string(tr->prototype), "up: " + f3(tr->up)});
    }
    if (ok) edits.push_back(sequence_edit(d, *trees, items, eol));
    else warn("terrainTrees kept as they were: the zone's trees have world positions and the terrain's placement is not known");
  }
  if (const Field* surf = d.find("surfaceDetails")) {
    std::vector<const FoliageSurfaceDetail*> order;
    for (const auto& s : f.surface) order.push_back(&s);
    std::stable_sort(order.begin(), order.end(),
                     [](const FoliageSurfaceDetail* a, const FoliageSurfaceDetail* b) { return a->id < b->id; });
    std::vector<std::vector<std::string>> items;
    for (const FoliageSurfaceDetail* s : order) {
      std::array<float, 3> p = s->position;
      if (!s->terrain_relative)
        for (int a = 0; a < 3; ++a) p[size_t(a)] = float(double(p[size_t(a)]) - tp[size_t(a)]);
      items.push_back({"position: " + f3(p), "normal: " + f3(s->normal), "rotation: " + format_float(s->rotation),
                       "width: " + format_float(s->width), "height: " + format_float(s->height),
                       "prototypeIndex: " + std::to_string(s->prototype)});
    }
    edits.push_back(sequence_edit(d, *surf, items, eol));
  }
  auto set0 = [&](const char* key) {
    if (const Field* fl = d.find(key)) {
      std::string v = "0";
      if (!fl->space_after_colon) v.insert(v.begin(), ' ');
      edits.push_back({fl->value_begin, fl->value_end, v, fl->key});
    }
  };
  set0("foliageSignature");
  set0("foliageDetailSignature");
  set0("foliageCount");

  if (const Field* mask = d.find("foliageMask")) {
    // Its own Texture2D sub-asset, replaced in place when it has one, else a new one.
    const std::string v = trimmed_value(t, *mask);
    std::string name = (s.name.empty() ? std::string("DigZone") : s.name) + "_FoliageMask";
    if (s.name.empty())
      if (const Field* n = d.find("m_Name")) name = trimmed_value(t, *n) + "_FoliageMask";
    const auto id = local_id(v);
    const Document* doc = id && *id != 0 ? find_document(s.docs, *id) : nullptr;
    if (doc && doc->class_id == kClassTexture2D) {
      s.replace_document(*doc, texture_document(doc->id, mask_texture(name, f), eol), "foliageMask");
      if (s.report) ++s.report->textures;
    } else {
      if (id && *id != 0) warn("foliageMask named file id " + std::to_string(*id) + ", which is not a texture of this asset: a new one was added");
      const int64_t fresh = s.ids.claim(2800100, 1);
      edits.push_back(value_edit(*mask, file_ref(fresh)));
      s.added[fresh] = texture_document(fresh, mask_texture(name, f), eol);
      if (s.report) ++s.report->textures;
    }
  } else {
    warn("the asset has no foliageMask field (DigHoleIt before 0.5): the foliage was not written");
  }
}

}  // namespace voxkit::unity
