// The FOLI section codec: fixed-size little-endian records after a 112-byte header.
#include "formats/zone/zone_foliage.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "lib/core/error.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit::zone_file {
namespace {

struct Writer {
  std::vector<uint8_t>& o;
  void u8(uint8_t v) { o.push_back(v); }
  void u16(uint16_t v) { u8(uint8_t(v)), u8(uint8_t(v >> 8)); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) o.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) o.push_back(uint8_t(v >> (8 * i)));
  }
  void f32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u32(u);
  }
  void f64(double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    u64(u);
  }
  void vec(const std::array<float, 3>& v) {
    for (float f : v) f32(f);
  }
};

struct Reader {
  std::span<const uint8_t> b;
  uint64_t pos = 0;
  uint32_t u32() {
    const uint8_t* p = b.data() + pos;
    pos += 4;
    return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24;
  }
  uint64_t u64() {
    const uint64_t lo = u32();
    return lo | uint64_t(u32()) << 32;
  }
  uint8_t u8() { return b[pos++]; }
  float f32(const char* what) {
    const uint64_t at = pos;
    const uint32_t u = u32();
    float f;
    std::memcpy(&f, &u, 4);
    if (!std::isfinite(f)) throw_data(std::string(what) + " is not a finite number", at, "a finite float32", hex32(u));
    return f;
  }
  double f64(const char* what) {
    const uint64_t at = pos;
    const uint64_t u = u64();
    double d;
    std::memcpy(&d, &u, 8);
    if (!std::isfinite(d)) throw_data(std::string(what) + " is not a finite number", at, "a finite float64", "not finite");
    return d;
  }
  std::array<float, 3> vec(const char* what) { return {f32(what), f32(what), f32(what)}; }
};

TreeState state_of(uint8_t v, uint64_t at) {
  if (v > 2) throw_data("tree state is not 0 (fallen), 1 (standing) or 2 (erased)", at, "0, 1 or 2", std::to_string(v));
  return TreeState(v);
}

}  // namespace

std::vector<uint8_t> encode_foliage(const ZoneFoliage& f, const ZoneMeta& m) {
  std::vector<uint8_t> o;
  o.reserve(kFoliageHeaderSize + f.trees.size() * kTreeRecordSize + f.surface.size() * kSurfaceRecordSize +
            f.details.size() * kDetailRecordSize + 2 * f.mask.size() + 8 * f.chunk_hash.size() +
            4 * (f.tree_buckets.size() + f.surface_buckets.size() + f.detail_buckets.size()));
  Writer w{o};
  w.u32(kFoliageVersion);
  w.u32(m.cells.nx);
  w.u32(m.cells.ny);
  w.u32(m.cells.nz);
  w.u32(m.chunk_cells);
  w.u32(uint32_t(f.trees.size()));
  w.u32(uint32_t(f.surface.size()));
  w.u32(uint32_t(f.details.size()));
  w.u32(f.mask_width);
  w.u32(f.mask_height);
  w.u32(f.grid_version);
  w.u32(f.erases_seen);
  w.u64(f.erases_hash);
  w.u32(f.has_terrain ? 1 : 0);
  w.u32(0);
  for (double d : f.terrain_position) w.f64(d);
  for (double d : f.terrain_size) w.f64(d);
  for (const auto& t : f.trees) {
    w.u32(t.id);
    w.u32(t.prototype);
    w.vec(t.position);
    w.vec(t.anchor);
    w.f32(t.rotation);
    w.f32(t.width);
    w.f32(t.height);
    w.vec(t.up);
    for (uint8_t c : t.color) w.u8(c);
    for (uint8_t c : t.lightmap_color) w.u8(c);
    w.u8(uint8_t(t.state));
    w.u8(uint8_t(t.baked_state));
    w.u8(t.normalized ? 1 : 0);
    w.u8(0);
  }
  for (uint32_t b : f.tree_buckets) w.u32(b);
  for (const auto& s : f.surface) {
    w.u32(s.id);
    w.u32(s.prototype);
    w.vec(s.position);
    w.u32(s.terrain_relative ? 1 : 0);
    w.vec(s.root);
    w.vec(s.normal);
    w.vec(s.anchor);
    w.f32(s.rotation);
    w.f32(s.width);
    w.f32(s.height);
    w.u32(s.column);
  }
  for (uint32_t b : f.surface_buckets) w.u32(b);
  for (const auto& d : f.details) {
    w.u32(d.id);
    w.u32(d.prototype);
    w.vec(d.root);
    w.f32(d.rotation);
    w.f32(d.width);
    w.f32(d.height);
    w.u32(d.column);
  }
  for (uint32_t b : f.detail_buckets) w.u32(b);
  o.insert(o.end(), f.mask.begin(), f.mask.end());
  o.insert(o.end(), f.baked_mask.begin(), f.baked_mask.end());
  for (uint64_t h : f.chunk_hash) w.u64(h);
  return o;
}

ZoneFoliage decode_foliage(std::span<const uint8_t> p, const ZoneMeta& m) {
  if (p.size() < kFoliageHeaderSize)
    throw_data("payload is shorter than its " + std::to_string(kFoliageHeaderSize) + "-byte header", p.size(),
               std::to_string(kFoliageHeaderSize) + " bytes", std::to_string(p.size()) + " bytes");
  Reader r{p};
  const uint32_t version = r.u32();
  if (version != kFoliageVersion) throw_data("unsupported foliage section version", 0, "1", std::to_string(version));
  const uint32_t nx = r.u32(), ny = r.u32(), nz = r.u32(), cc = r.u32();
  if (nx != m.cells.nx || ny != m.cells.ny || nz != m.cells.nz || cc != m.chunk_cells) {
    throw_data("foliage was baked for another grid (bake it again)", 4,
               std::to_string(m.cells.nx) + "x" + std::to_string(m.cells.ny) + "x" + std::to_string(m.cells.nz) +
                   " cells, chunks of " + std::to_string(m.chunk_cells),
               std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz) + " cells, chunks of " +
                   std::to_string(cc));
  }
  ZoneFoliage f;
  const uint64_t trees = r.u32(), surface = r.u32(), details = r.u32();
  f.mask_width = r.u32();
  f.mask_height = r.u32();
  const foliage::Chunks ch = foliage::chunks_of(m.cells, m.chunk_cells);
  if (f.mask_width != m.cells.sx())
    throw_data("mask width is not nx + 1", 32, std::to_string(m.cells.sx()), std::to_string(f.mask_width));
  const uint32_t rows = foliage::mask_height(m.cells, surface);
  if (f.mask_height != rows)
    throw_data("mask height does not fit the columns and surface details", 36, std::to_string(rows),
               std::to_string(f.mask_height));
  f.grid_version = r.u32();
  f.erases_seen = r.u32();
  f.erases_hash = r.u64();
  const uint32_t flags = r.u32();
  if (flags > 1) throw_data("reserved flag bits are set", 56, "0 or 1", hex32(flags));
  f.has_terrain = flags & 1;
  if (const uint32_t zero = r.u32(); zero != 0) throw_data("reserved field is not 0", 60, "0", std::to_string(zero));
  for (double& d : f.terrain_position) d = r.f64("terrain position");
  for (double& d : f.terrain_size) d = r.f64("terrain size");

  const uint64_t texels = uint64_t(f.mask_width) * f.mask_height;
  const uint64_t expect = kFoliageHeaderSize + trees * kTreeRecordSize + surface * kSurfaceRecordSize +
                          details * kDetailRecordSize + 4 * (2 * (ch.count() + 1) + ch.columns() + 1) + 8 * texels +
                          8 * ch.count();
  if (p.size() != expect)
    throw_data("payload length does not match its counts", p.size() < expect ? p.size() : expect,
               std::to_string(expect) + " bytes", std::to_string(p.size()) + " bytes");

  f.trees.resize(trees);
  for (auto& t : f.trees) {
    t.id = r.u32();
    t.prototype = r.u32();
    t.position = r.vec("tree position");
    t.anchor = r.vec("tree anchor");
    t.rotation = r.f32("tree rotation");
    t.width = r.f32("tree width");
    t.height = r.f32("tree height");
    t.up = r.vec("tree up vector");
    for (uint8_t& c : t.color) c = r.u8();
    for (uint8_t& c : t.lightmap_color) c = r.u8();
    t.state = state_of(r.u8(), r.pos - 1);
    t.baked_state = state_of(r.u8(), r.pos - 1);
    if (t.baked_state == TreeState::Erased) throw_data("a tree is erased in the baked state", r.pos - 1, "0 or 1", "2");
    const uint8_t flags = r.u8();
    if (flags > 1) throw_data("tree position flag is not 0 (world) or 1 (terrain-normalised)", r.pos - 1, "0 or 1", std::to_string(flags));
    t.normalized = flags == 1;
    if (const uint8_t zero = r.u8(); zero != 0) throw_data("tree record padding is not 0", r.pos - 1, "0", std::to_string(zero));
  }
  f.tree_buckets.resize(ch.count() + 1);
  for (auto& b : f.tree_buckets) b = r.u32();
  f.surface.resize(surface);
  for (auto& s : f.surface) {
    s.id = r.u32();
    s.prototype = r.u32();
    s.position = r.vec("surface detail position");
    const uint64_t flag_at = r.pos;
    const uint32_t flags = r.u32();
    if (flags > 1)
      throw_data("surface detail position flag is not 0 (world) or 1 (terrain-relative)", flag_at, "0 or 1", std::to_string(flags));
    s.terrain_relative = flags == 1;
    s.root = r.vec("surface detail root");
    s.normal = r.vec("surface detail normal");
    s.anchor = r.vec("surface detail anchor");
    s.rotation = r.f32("surface detail rotation");
    s.width = r.f32("surface detail width");
    s.height = r.f32("surface detail height");
    s.column = r.u32();
  }
  f.surface_buckets.resize(ch.count() + 1);
  for (auto& b : f.surface_buckets) b = r.u32();
  f.details.resize(details);
  for (auto& d : f.details) {
    d.id = r.u32();
    d.prototype = r.u32();
    d.root = r.vec("detail root");
    d.rotation = r.f32("detail rotation");
    d.width = r.f32("detail width");
    d.height = r.f32("detail height");
    d.column = r.u32();
  }
  f.detail_buckets.resize(ch.columns() + 1);
  for (auto& b : f.detail_buckets) b = r.u32();
  f.mask.assign(p.begin() + r.pos, p.begin() + r.pos + 4 * texels);
  r.pos += 4 * texels;
  f.baked_mask.assign(p.begin() + r.pos, p.begin() + r.pos + 4 * texels);
  r.pos += 4 * texels;
  f.chunk_hash.resize(ch.count());
  for (auto& h : f.chunk_hash) h = r.u64();
  if (const std::string why = foliage::problem(f, m.cells, m.chunk_cells); !why.empty())
    throw_data("foliage does not hold together: " + why, kFoliageHeaderSize);
  return f;
}

}  // namespace voxkit::zone_file
