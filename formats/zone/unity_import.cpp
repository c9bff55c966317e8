// Dig-zone Unity assets: reading a zone from the DigZoneData document (its grids, numbers and
// terrain cut) and from the textures it names (heights and splat weights on its columns).
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "formats/zone/unity_mesh.hpp"
#include "formats/zone/unity_yaml.hpp"
#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_meta.hpp"
#include "lib/codec/rle.hpp"
#include "lib/core/error.hpp"

namespace voxkit::unity {
namespace {

// Decodes one RLE grid field; an empty field gives an empty grid.
ByteGrid rle_grid(std::string_view t, const Field& f, const Dims& cells) {
  auto bytes = hex_field(t, f);
  ByteGrid g;
  if (bytes.empty()) return g;
  try {
    const uint64_t count = rle::read_count(bytes);
    if (count != cells.samples()) {
      throw_data("RLE sample count does not match nx, ny, nz", 0, std::to_string(cells.samples()), std::to_string(count));
    }
    g.cells = cells;
    g.data = rle::decode(bytes, count);
  } catch (const Error& e) {
    std::string inner = e.what();
    if (inner.compare(0, 7, "offset ") == 0) inner = "stream byte " + inner.substr(7);
    throw_data(where(f) + " holds a bad RLE stream: " + inner, f.value_begin);
  }
  return g;
}

ByteGrid raw_grid(std::string_view t, const Field& f, const Dims& cells) {
  auto bytes = hex_field(t, f);
  ByteGrid g;
  if (bytes.empty()) return g;
  if (bytes.size() != cells.samples()) {
    bad_field(f, "raw grid size does not match nx, ny, nz", std::to_string(cells.samples()) + " bytes",
              std::to_string(bytes.size()) + " bytes");
  }
  g.cells = cells;
  g.data = std::move(bytes);
  return g;
}

// "{x: 1, y: 2}" -> {"x": "1", "y": "2"}.
std::map<std::string, std::string> flow_items(const std::string& s) {
  std::map<std::string, std::string> out;
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') return out;
  const std::string body = s.substr(1, s.size() - 2);
  for (size_t pos = 0; pos <= body.size();) {
    size_t comma = body.find(',', pos);
    if (comma == std::string::npos) comma = body.size();
    const std::string item = body.substr(pos, comma - pos);
    const size_t colon = item.find(':');
    if (colon != std::string::npos) out[trimmed(item.substr(0, colon))] = trimmed(item.substr(colon + 1));
    pos = comma + 1;
  }
  return out;
}

// cutRect (a RectInt: a block mapping as Unity writes it, or a flow mapping) and cutPrevious
// (a bool per cell, x fastest). An empty cutPrevious leaves the cut unknown.
void read_cut(std::string_view t, const ZoneDocument& d, Zone& z) {
  const Field* r = d.find("cutRect");
  if (!r) return;
  const std::string flow = trimmed_value(t, *r);
  const std::map<std::string, std::string> m = flow.empty() ? block_mapping(t, d, *r) : flow_items(flow);
  int64_t v[4];
  const char* keys[4] = {"x", "y", "width", "height"};
  for (int i = 0; i < 4; ++i) {
    const auto it = m.find(keys[i]);
    if (it == m.end()) bad_field(*r, std::string("lacks the component '") + keys[i] + "'", keys[i], flow);
    char* end = nullptr;
    errno = 0;
    v[i] = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end || errno || v[i] < (i < 2 ? INT32_MIN : 0) || v[i] > INT32_MAX)
      bad_field(*r, std::string("has a component '") + keys[i] + "' that is not an integer in range",
                i < 2 ? "an int32" : "0 or more", it->second);
  }
  const Field* p = d.find("cutPrevious");
  std::vector<uint8_t> previous = p ? hex_field(t, *p) : std::vector<uint8_t>{};
  if (v[2] == 0 || v[3] == 0 || previous.empty()) return;
  if (uint64_t(previous.size()) != uint64_t(v[2]) * uint64_t(v[3])) {
    bad_field(*p, "does not hold one value per cell of cutRect",
              std::to_string(v[2]) + " x " + std::to_string(v[3]) + " values", std::to_string(previous.size()) + " values");
  }
  for (uint8_t& b : previous) b = b != 0;  // a bool: anything but 0 is true
  z.hole_cut.resolution = 0;
  z.hole_cut.x = int32_t(v[0]);
  z.hole_cut.z = int32_t(v[1]);
  z.hole_cut.width = int32_t(v[2]);
  z.hole_cut.depth = int32_t(v[3]);
  z.hole_cut.previous = std::move(previous);
}

// The texture a field's reference names in this asset, when it is one of the zone's columns.
bool column_texture(std::string_view t, const std::vector<Document>& docs, std::string_view ref, int format,
                    const Dims& c, Texture& tex) {
  const auto id = local_id(ref);
  const Document* doc = id && *id != 0 ? find_document(docs, *id) : nullptr;
  if (!doc || doc->class_id != kClassTexture2D || !read_texture(t, doc->begin, doc->end, tex)) return false;
  return tex.format == format && tex.width == c.nx + 1 && tex.height == c.nz + 1;
}

// heightTex: (height - min) / range as halves, range = max(0.001, max - min) (BakeHeight).
// Each texel becomes a height that encodes to the same half again: the range's ends where
// they encode to it, else the nearest float to min + value * range that does.
void read_heights(std::string_view t, const ZoneDocument& d, const std::vector<Document>& docs, Zone& z) {
  const Field* f = d.find("heightTex");
  Texture tex;
  if (!f || !d.find("heightRange") || !column_texture(t, docs, value_of(t, *f), kRHalf, z.meta.cells, tex)) return;
  const float lo = float(z.meta.height_min), hi = float(z.meta.height_max);
  const float range = std::max(0.001f, float(double(hi) - double(lo)));
  auto encode = [&](float h) { return float_to_half(float((double(h) - double(lo)) / double(range))); };
  const uint16_t lo_bits = encode(lo), hi_bits = encode(hi);
  ColumnRaster<float> r;
  r.width = tex.width;
  r.depth = tex.height;
  r.values.resize(size_t(tex.width) * tex.height);
  for (size_t i = 0; i < r.values.size(); ++i) {
    const uint16_t bits = uint16_t(tex.data[2 * i] | tex.data[2 * i + 1] << 8);
    const float value = half_to_float(bits);
    if (!std::isfinite(value)) bad_field(*f, "names a height texture with a texel that is not finite");
    float h = float(double(lo) + double(value) * double(range));
    if (bits == lo_bits) h = lo;
    else if (bits == hi_bits) h = hi;
    else
      for (int step = 0; step < 64; ++step) {
        const uint16_t got = encode(h);
        if (got == bits) break;
        h = std::nextafter(h, half_to_float(got) < value ? HUGE_VALF : -HUGE_VALF);
      }
    r.values[i] = h;
  }
  z.height = std::move(r);
}

// The control textures: layerCount layers, four to an RGBA32 texture, read when they lie on
// the zone's columns (controlST equal to heightST, as export writes them; the editor's follow
// the terrain's alphamap).
void read_splat(std::string_view t, const ZoneDocument& d, const std::vector<Document>& docs, Zone& z) {
  const Field *count = d.find("layerCount"), *ctl = d.find("controlTex"), *cst = d.find("controlST"),
              *hst = d.find("heightST");
  if (!count || !ctl || !cst || !hst || trimmed_value(t, *cst) != trimmed_value(t, *hst)) return;
  const int64_t layers = parse_int(t, *count, 0, INT32_MAX);
  if (layers < 1 || layers > 16) return;
  std::vector<std::string> refs = {trimmed_value(t, *ctl)};
  if (const Field* extra = d.find("extraControlTex")) {
    const auto items = sequence_items(t, d, *extra);
    refs.insert(refs.end(), items.begin(), items.end());
  }
  const size_t textures = size_t(layers + 3) / 4;
  if (refs.size() < textures) return;
  std::vector<ColumnRaster<uint8_t>> splat(static_cast<size_t>(layers));
  for (size_t k = 0; k < textures; ++k) {
    Texture tex;
    if (!column_texture(t, docs, refs[k], kRGBA32, z.meta.cells, tex)) return;
    for (size_t ch = 0; ch < 4 && 4 * k + ch < splat.size(); ++ch) {
      ColumnRaster<uint8_t>& r = splat[4 * k + ch];
      r.width = tex.width;
      r.depth = tex.height;
      r.values.resize(size_t(tex.width) * tex.height);
      for (size_t i = 0; i < r.values.size(); ++i) r.values[i] = tex.data[4 * i + ch];
    }
  }
  z.splat = std::move(splat);
}

}  // namespace

Zone import_asset(std::string_view t, const std::string& name, uint64_t max_samples) {
  ZoneDocument d = find_zone_document(t);
  Zone z;
  ZoneMeta& m = z.meta;
  const int64_t kMaxCells = 1 << 20;
  m.cells.nx = uint32_t(parse_int(t, need(d, "nx"), 1, kMaxCells));
  m.cells.ny = uint32_t(parse_int(t, need(d, "ny"), 1, kMaxCells));
  m.cells.nz = uint32_t(parse_int(t, need(d, "nz"), 1, kMaxCells));
  if (m.cells.samples() > max_samples) {
    throw_data("nx, ny, nz give more samples than the limit", need(d, "nx").value_begin,
               "at most " + std::to_string(max_samples), std::to_string(m.cells.samples()));
  }
  const Field& vs = need(d, "voxelSize");
  m.voxel_size = parse_number(trimmed(value_of(t, vs)), vs);
  if (const Field* f = d.find("chunkCells")) m.chunk_cells = uint32_t(parse_int(t, *f, 1, 1024));
  if (const Field* f = d.find("origin")) {
    auto o = parse_flow(t, *f, {"x", "y", "z"});
    m.origin = {o["x"], o["y"], o["z"]};
  }
  if (const Field* f = d.find("editBox")) {
    auto b = hex_field(t, *f);
    if (!b.empty()) {
      if (b.size() != 24) bad_field(*f, "is not six int32 values", "24 bytes", std::to_string(b.size()) + " bytes");
      for (int i = 0; i < 6; ++i) {
        int32_t v = int32_t(uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 | uint32_t(b[4 * i + 2]) << 16 |
                            uint32_t(b[4 * i + 3]) << 24);
        (i < 3 ? m.edit_box.min[i] : m.edit_box.max[i - 3]) = v;
      }
    }
  }
  if (const Field* f = d.find("holeRect")) {
    auto h = parse_flow(t, *f, {"x", "y", "z", "w"});
    m.hole = {h["x"], h["y"], h["z"], h["w"]};
  }
  if (const Field* f = d.find("heightRange")) {
    auto h = parse_flow(t, *f, {"x", "y"});
    m.height_min = h["x"];
    m.height_max = h["y"];
  }
  if (const Field* f = find_any(d, {"_gridVersion", "gridVersion"})) {
    m.grid_version = uint32_t(std::max<int64_t>(0, parse_int(t, *f, INT32_MIN, INT32_MAX)));
  }
  std::string object_name;
  if (const Field* f = d.find("m_Name")) object_name = trimmed(value_of(t, *f));
  m.source = "Unity asset " + name + (object_name.empty() ? "" : " (" + object_name + ")");
  std::string problem = zone_file::meta_problem(m, max_samples);
  if (!problem.empty()) throw_data("the DigZoneData fields do not describe a valid zone: " + problem, d.begin);

  if (const Field* f = d.find("gridRle")) z.grid = rle_grid(t, *f, m.cells);
  if (const Field* f = d.find("baseGridRle")) z.baked = rle_grid(t, *f, m.cells);
  if (const Field* f = d.find("paintRle")) z.paint = rle_grid(t, *f, m.cells);
  // Assets saved by 0.3 and earlier keep raw grids (renamed legacy* since 0.4); the
  // package reads those in preference when they are not empty.
  const LegacyFields legacy = legacy_fields(d);
  if (legacy.grid && !hex_field(t, *legacy.grid).empty()) {
    z.grid = raw_grid(t, *legacy.grid, m.cells);
    z.paint = legacy.paint ? raw_grid(t, *legacy.paint, m.cells) : ByteGrid{};
    z.baked = legacy.base ? raw_grid(t, *legacy.base, m.cells) : ByteGrid{};
  }
  if (z.grid.data.empty()) {
    const Field* f = d.find("gridRle");
    throw_data("the DigZoneData asset holds no grid: the zone was never baked",
               f ? f->value_begin : d.begin, "a grid", "an empty gridRle");
  }
  read_cut(t, d, z);
  const std::vector<Document> docs = list_documents(t);
  read_heights(t, d, docs, z);
  read_splat(t, d, docs, z);
  return z;
}


}  // namespace voxkit::unity
