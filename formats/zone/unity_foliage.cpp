// The foliage fields of the dig-zone package's DigZoneData asset: the kept terrain trees, the
// surface details, the foliage mask texture, and the signatures (docs/formats/unity-asset.md).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "formats/zone/unity_asset.hpp"
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

// Where the block sequence under field `f` ends: the line of the next field, or the document's end.
size_t sequence_end(const ZoneDocument& d, const Field& f) {
  for (size_t i = 0; i + 1 < d.fields.size(); ++i)
    if (&d.fields[i] == &f) return d.fields[i + 1].key_at - 2;
  return d.end;
}

// Replaces everything after "key:" up to the next field with `items` (each a list of lines,
// the first after "- "), or " []" when there are none.
TextEdit sequence_edit(const ZoneDocument& d, const Field& f, const std::vector<std::vector<std::string>>& items,
                       const std::string& eol) {
  TextEdit e;
  e.begin = f.key_at + f.key.size() + 1;
  e.end = sequence_end(d, f);
  e.key = f.key;
  if (items.empty()) {
    e.value = " []" + eol;
    return e;
  }
  e.value = eol;
  for (const auto& lines : items)
    for (size_t i = 0; i < lines.size(); ++i) e.value += (i == 0 ? "  - " : "    ") + lines[i] + eol;
  return e;
}

// The document of local file id `id` ("--- !u!CLASS &ID"): its byte range, or nothing.
std::optional<std::pair<size_t, size_t>> document_of(std::string_view t, const std::string& id) {
  size_t pos = 0;
  while (pos < t.size()) {
    const size_t nl = t.find('\n', pos);
    const size_t end = nl == std::string_view::npos ? t.size() : nl;
    std::string_view line = t.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.rfind("--- !u!", 0) == 0) {
      const size_t amp = line.find(" &");
      if (amp != std::string_view::npos && line.substr(amp + 2) == id) {
        size_t next = end + 1;
        while (next < t.size() && t.compare(next, 4, "--- ") != 0) {
          const size_t n2 = t.find('\n', next);
          next = n2 == std::string_view::npos ? t.size() : n2 + 1;
        }
        return std::pair{pos, std::min(next, t.size())};
      }
    }
    pos = end + 1;
  }
  return std::nullopt;
}

std::string trimmed_value(std::string_view t, const Field& f) {
  std::string v(t.substr(f.value_begin, f.value_end - f.value_begin));
  while (!v.empty() && (v.back() == ' ' || v.back() == '\r')) v.pop_back();
  return v;
}

// The Texture2D document of the mask (RGBA32, linear, point, clamp, readable, no mipmaps):
// Unity's YAML form with the fields the package's own example zone assets carry (Unity
// 2022.3), its raw data in texel order (row 0 at the bottom, as Unity stores it).
std::string texture_document(const std::string& id, const std::string& name, const ZoneFoliage& f, const std::string& eol) {
  const uint64_t bytes = f.mask.size();
  std::string s = "--- !u!28 &" + id + eol + "Texture2D:" + eol;
  auto kv = [&](const std::string& line) { s += line + eol; };
  kv("  m_ObjectHideFlags: 0");
  kv("  m_CorrespondingSourceObject: {fileID: 0}");
  kv("  m_PrefabInstance: {fileID: 0}");
  kv("  m_PrefabAsset: {fileID: 0}");
  kv("  m_Name: " + name);
  kv("  m_ImageContentsHash:");
  kv("    serializedVersion: 2");
  kv("    Hash: 00000000000000000000000000000000");
  kv("  m_ForcedFallbackFormat: 4");
  kv("  m_DownscaleFallback: 0");
  kv("  m_IsAlphaChannelOptional: 0");
  kv("  serializedVersion: 2");
  kv("  m_Width: " + std::to_string(f.mask_width));
  kv("  m_Height: " + std::to_string(f.mask_height));
  kv("  m_CompleteImageSize: " + std::to_string(bytes));
  kv("  m_MipsStripped: 0");
  kv("  m_TextureFormat: 4");
  kv("  m_MipCount: 1");
  kv("  m_IsReadable: 1");
  kv("  m_IsPreProcessed: 0");
  kv("  m_IgnoreMipmapLimit: 0");
  kv("  m_MipmapLimitGroupName: ");
  kv("  m_StreamingMipmaps: 0");
  kv("  m_StreamingMipmapsPriority: 0");
  kv("  m_VTOnly: 0");
  kv("  m_AlphaIsTransparency: 0");
  kv("  m_ImageCount: 1");
  kv("  m_TextureDimension: 2");
  kv("  m_TextureSettings:");
  kv("    serializedVersion: 2");
  kv("    m_FilterMode: 0");
  kv("    m_Aniso: 1");
  kv("    m_MipBias: 0");
  kv("    m_WrapU: 1");
  kv("    m_WrapV: 1");
  kv("    m_WrapW: 1");
  kv("  m_LightmapFormat: 0");
  kv("  m_ColorSpace: 0");
  kv("  m_PlatformBlob: ");
  kv("  image data: " + std::to_string(bytes));
  kv("  _typelessdata: " + to_hex(f.mask));
  kv("  m_StreamData:");
  kv("    serializedVersion: 2");
  kv("    offset: 0");
  kv("    size: 0");
  kv("    path: ");
  return s;
}

}  // namespace

void foliage_edits(std::string_view t, const ZoneDocument& d, const Zone& z, std::vector<TextEdit>& edits,
                   std::string& appended, ExportReport* report) {
  const ZoneFoliage& f = z.foliage;
  if (f.grid_version != z.meta.grid_version)
    throw_usage("the zone's foliage was checked against grid version " + std::to_string(f.grid_version) +
                ", the grid is at " + std::to_string(z.meta.grid_version) + ": check the foliage again first");
  const std::string eol = t.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  auto warn = [&](const std::string& w) {
    if (report) report->warnings.push_back(w);
  };
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
    std::string id;
    if (v.rfind("{fileID: ", 0) == 0 && v.find("guid") == std::string::npos) id = v.substr(9, v.find('}') - 9);
    std::string name = "DigZone_FoliageMask";
    if (const Field* n = d.find("m_Name")) name = trimmed_value(t, *n) + "_FoliageMask";
    std::optional<std::pair<size_t, size_t>> doc;
    if (!id.empty() && id != "0") doc = document_of(t, id);
    if (doc && t.substr(doc->first, 10) == "--- !u!28 ") {
      edits.push_back({doc->first, doc->second, texture_document(id, name, f, eol), "foliageMask"});
    } else {
      if (!id.empty() && id != "0") warn("foliageMask named file id " + id + ", which is not a texture of this asset: a new one was added");
      uint64_t fresh = 2800100;
      while (t.find("&" + std::to_string(fresh)) != std::string_view::npos) ++fresh;
      id = std::to_string(fresh);
      std::string value = "{fileID: " + id + "}";
      if (!mask->space_after_colon) value.insert(value.begin(), ' ');
      edits.push_back({mask->value_begin, mask->value_end, value, "foliageMask"});
      if (!t.empty() && t.back() != '\n') appended += eol;
      appended += texture_document(id, name, f, eol);
    }
  } else {
    warn("the asset has no foliageMask field (DigHoleIt before 0.5): the foliage was not written");
  }
}

}  // namespace voxkit::unity
