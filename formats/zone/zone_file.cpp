// The zone file (.vxz): section table, CRC checks, and the grid and raster sections.
#include "formats/zone/zone_file.hpp"

#include <tbb/parallel_invoke.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <exception>
#include <optional>

#include "formats/zone/zone_foliage.hpp"
#include "formats/zone/zone_hole_cut.hpp"
#include "formats/zone/zone_meta.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid_alloc.hpp"
#include "lib/codec/rle.hpp"
#include "lib/codec/rle_parallel.hpp"
#include "lib/foliage/foliage.hpp"

namespace voxkit {
namespace {

using zone_file::SectionInfo;
using zone_file::kFileHeaderSize;
using zone_file::kSectionHeaderSize;
using Bytes = std::vector<uint8_t>;

constexpr std::array<char, 4> kMeta{'M', 'E', 'T', 'A'};
constexpr std::array<char, 4> kGrid{'G', 'R', 'I', 'D'};
constexpr std::array<char, 4> kBaked{'B', 'A', 'K', 'E'};
constexpr std::array<char, 4> kPaint{'P', 'N', 'T', 'G'};
constexpr std::array<char, 4> kHeight{'H', 'G', 'H', 'T'};
constexpr std::array<char, 4> kSplat{'S', 'P', 'L', 'T'};
constexpr std::array<char, 4> kSpawns{'S', 'P', 'W', 'N'};
constexpr std::array<char, 4> kFoliage{'F', 'O', 'L', 'I'};
constexpr std::array<char, 4> kHoleCut{'H', 'C', 'U', 'T'};
constexpr std::array<char, 4> kFilled{'F', 'I', 'L', 'L'};

const char* section_title(const std::array<char, 4>& t) {
  if (t == kMeta) return "JSON header";
  if (t == kGrid) return "current grid";
  if (t == kBaked) return "baked grid";
  if (t == kPaint) return "paint grid";
  if (t == kHeight) return "height texture";
  if (t == kSplat) return "splat weights";
  if (t == kSpawns) return "spawned foliage";
  if (t == kFoliage) return "foliage anchors";
  if (t == kHoleCut) return "terrain hole cut";
  if (t == kFilled) return "filled columns";
  return nullptr;
}

// "GRID (current grid)", or the tag alone for sections this version does not know.
std::string section_name(const std::array<char, 4>& t) {
  std::string s;
  for (char c : t) s += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (const char* title = section_title(t)) s += std::string(" (") + title + ")";
  return s;
}

uint32_t get32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24; }
uint64_t get64(const uint8_t* p) { return get32(p) | uint64_t(get32(p + 4)) << 32; }
void put32(Bytes& o, uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(uint8_t(v >> (8 * i)));
}

// CRC-32 (zlib) over the 16 header bytes before the CRC field, then the payload.
uint32_t section_crc(const uint8_t* header16, std::span<const uint8_t> payload) {
  uLong c = crc32(0, header16, 16);
  // zlib answers 0 for a null buffer, so an empty payload must not be passed at all.
  if (!payload.empty()) c = crc32_z(c, payload.data(), payload.size());
  return uint32_t(c);
}

// Re-throws an error from a decoder that ran over a section payload: names the section and
// moves the offset from the payload to the file.
[[noreturn]] void rethrow_in(const Error& e, const SectionInfo& s) {
  std::string what = e.what();
  if (e.offset()) {
    std::string prefix = "offset " + std::to_string(*e.offset()) + ": ";
    if (what.compare(0, prefix.size(), prefix) == 0) what.erase(0, prefix.size());
  }
  if (!e.expected().empty() || !e.found().empty()) {
    std::string suffix = " (expected " + (e.expected().empty() ? std::string("?") : e.expected()) +
                         ", found " + (e.found().empty() ? std::string("?") : e.found()) + ")";
    if (what.size() >= suffix.size() &&
        what.compare(what.size() - suffix.size(), suffix.size(), suffix) == 0) {
      what.erase(what.size() - suffix.size());
    }
  }
  const uint64_t base = s.offset + kSectionHeaderSize;
  throw Error(e.kind(), "section " + section_name(s.tag) + ": " + what,
              base + e.offset().value_or(0), e.expected(), e.found());
}

[[noreturn]] void section_error(const SectionInfo& s, const std::string& what, uint64_t offset,
                                std::string expected = {}, std::string found = {}) {
  throw_data("section " + section_name(s.tag) + ": " + what, offset, std::move(expected),
             std::move(found));
}

void check_file_header(std::span<const uint8_t> b, uint32_t* count) {
  if (b.size() < kFileHeaderSize) {
    throw_data("file is shorter than the 16-byte zone file header", b.size(),
               std::to_string(kFileHeaderSize) + " bytes", std::to_string(b.size()) + " bytes");
  }
  if (std::memcmp(b.data(), zone_file::kMagic.data(), 8) != 0) {
    throw_data("not a voxkit zone file (bad magic)", 0, "89 56 58 5a 0d 0a 1a 0a",
               hex_byte(b[0]) + " " + hex_byte(b[1]) + " " + hex_byte(b[2]) + " " + hex_byte(b[3]) + " ...");
  }
  const uint16_t major = uint16_t(b[8] | b[9] << 8);
  if (major != zone_file::kVersionMajor) {
    throw_data("unsupported zone file version", 8, "major version " + std::to_string(zone_file::kVersionMajor),
               std::to_string(major));
  }
  *count = get32(b.data() + 12);
  if (*count > zone_file::kMaxSections) {
    throw_data("too many sections", 12, "at most " + std::to_string(zone_file::kMaxSections),
               std::to_string(*count));
  }
}

// Reads and checks the section at `pos` (index `i` of `count`); advances `pos`.
SectionInfo read_section(std::span<const uint8_t> b, uint64_t& pos, uint32_t i, uint32_t count) {
  SectionInfo s;
  s.offset = pos;
  const uint64_t left = b.size() - pos;
  if (left < kSectionHeaderSize) {
    std::string what = "file ends inside the header of section " + std::to_string(i + 1) + " of " +
                       std::to_string(count);
    if (left >= 4) {
      what += ' ';
      what += section_name({char(b[pos]), char(b[pos + 1]), char(b[pos + 2]), char(b[pos + 3])});
    }
    throw_data(what,
               b.size(), std::to_string(kSectionHeaderSize) + " header bytes",
               std::to_string(left) + " bytes");
  }
  const uint8_t* h = b.data() + pos;
  std::memcpy(s.tag.data(), h, 4);
  s.flags = get32(h + 4);
  s.length = get64(h + 8);
  s.crc = get32(h + 16);
  for (char c : s.tag) {
    if (c < 0x20 || c > 0x7e) section_error(s, "tag is not four printable ASCII characters", pos);
  }
  if (s.flags & ~zone_file::kFlagRequired) {
    section_error(s, "reserved flag bits are set", pos + 4, "flags 0 or 1", hex32(s.flags));
  }
  if (s.length > left - kSectionHeaderSize) {
    section_error(s, "payload runs past the end of the file", pos + 8,
                  std::to_string(s.length) + " bytes",
                  std::to_string(left - kSectionHeaderSize) + " bytes left");
  }
  auto payload = b.subspan(pos + kSectionHeaderSize, s.length);
  const uint32_t crc = section_crc(h, payload);
  if (crc != s.crc) section_error(s, "CRC-32 does not match: the section is damaged", pos + 16, hex32(s.crc), hex32(crc));
  pos += kSectionHeaderSize + s.length;
  return s;
}

std::span<const uint8_t> payload_of(std::span<const uint8_t> b, const SectionInfo& s) {
  return b.subspan(s.offset + kSectionHeaderSize, s.length);
}

ZoneMeta decode_meta(std::span<const uint8_t> b, const SectionInfo& s, uint64_t max_samples) {
  if (s.tag != kMeta) {
    section_error(s, "the first section must be the JSON header", s.offset, "META", s.tag_string());
  }
  if (s.length > zone_file::kMaxMetaBytes) {
    section_error(s, "JSON header is too large", s.offset + 8,
                  "at most " + std::to_string(zone_file::kMaxMetaBytes) + " bytes", std::to_string(s.length));
  }
  try {
    return zone_file::meta_from_json(payload_of(b, s), max_samples);
  } catch (const Error& e) {
    rethrow_in(e, s);
  }
}

// Decodes an RLE grid section; the sample count is checked against the cells first.
ByteGrid decode_grid(std::span<const uint8_t> payload, const SectionInfo& s, const Dims& cells) {
  ByteGrid g;
  try {
    const uint64_t count = rle::read_count(payload);
    if (count != cells.samples()) {
      throw_data("RLE sample count does not match the cells", 0, std::to_string(cells.samples()),
                 std::to_string(count));
    }
    // The tokens first, then the samples; a grid they prove whole is mapped up front.
    const uint64_t proven = rle::proven_count(payload, count);
    g.cells = cells;
    proven == count ? size_grid_for_overwrite(g, cells) : g.data.resize(size_t(proven));
    const size_t used = rle::decode_into(payload, g.data);
    if (used != payload.size()) {
      throw_data("extra bytes after the RLE stream", used, "end of section",
                 std::to_string(payload.size() - used) + " more bytes");
    }
  } catch (const Error& e) {
    rethrow_in(e, s);
  }
  return g;
}

ColumnRaster<float> decode_height(std::span<const uint8_t> p, const SectionInfo& s, const Dims& cells) {
  const uint64_t base = s.offset + kSectionHeaderSize;
  if (p.size() < 8) section_error(s, "payload is shorter than its 8-byte raster header", base, "8 bytes", std::to_string(p.size()));
  ColumnRaster<float> r;
  r.width = get32(p.data());
  r.depth = get32(p.data() + 4);
  if (r.width != cells.sx() || r.depth != cells.sz()) {
    section_error(s, "raster size does not match the zone's columns", base,
                  std::to_string(cells.sx()) + "x" + std::to_string(cells.sz()),
                  std::to_string(r.width) + "x" + std::to_string(r.depth));
  }
  const uint64_t n = uint64_t(r.width) * r.depth;
  if (p.size() != 8 + 4 * n) {
    section_error(s, "payload length does not match the raster size", s.offset + 8,
                  std::to_string(8 + 4 * n) + " bytes", std::to_string(p.size()) + " bytes");
  }
  r.values.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t u = get32(p.data() + 8 + 4 * i);
    float f;
    std::memcpy(&f, &u, 4);
    if (!std::isfinite(f)) {
      section_error(s, "height of column (" + std::to_string(i % r.width) + ", " +
                           std::to_string(i / r.width) + ") is not a finite number",
                    base + 8 + 4 * i);
    }
    r.values[i] = f;
  }
  return r;
}

std::vector<ColumnRaster<uint8_t>> decode_splat(std::span<const uint8_t> p, const SectionInfo& s,
                                                const ZoneMeta& m) {
  const uint64_t base = s.offset + kSectionHeaderSize;
  if (p.size() < 12) section_error(s, "payload is shorter than its 12-byte header", base, "12 bytes", std::to_string(p.size()));
  const uint32_t layers = get32(p.data()), w = get32(p.data() + 4), d = get32(p.data() + 8);
  if (layers < 1 || layers > zone_file::kMaxLayers) {
    section_error(s, "bad layer count", base, "1.." + std::to_string(zone_file::kMaxLayers), std::to_string(layers));
  }
  if (!m.layer_names.empty() && layers != m.layer_names.size()) {
    section_error(s, "layer count does not match the JSON header's layers", base,
                  std::to_string(m.layer_names.size()), std::to_string(layers));
  }
  if (w != m.cells.sx() || d != m.cells.sz()) {
    section_error(s, "raster size does not match the zone's columns", base + 4,
                  std::to_string(m.cells.sx()) + "x" + std::to_string(m.cells.sz()),
                  std::to_string(w) + "x" + std::to_string(d));
  }
  const uint64_t n = uint64_t(w) * d;
  if (p.size() != 12 + layers * n) {
    section_error(s, "payload length does not match the rasters", s.offset + 8,
                  std::to_string(12 + layers * n) + " bytes", std::to_string(p.size()) + " bytes");
  }
  std::vector<ColumnRaster<uint8_t>> out(layers);
  for (uint32_t l = 0; l < layers; ++l) {
    out[l].width = w;
    out[l].depth = d;
    const uint8_t* src = p.data() + 12 + l * n;
    out[l].values.assign(src, src + n);
  }
  return out;
}

// u32 width = nx+1, u32 depth = nz+1, then one bit per column (x + width * z), bit k at
// byte k / 8, bit k % 8 (least significant first); the bits past the last column are 0.
// A section without any set bit reads as no mask (writers do not write one).
ColumnRaster<uint8_t> decode_filled(std::span<const uint8_t> p, const SectionInfo& s, const Dims& cells) {
  const uint64_t base = s.offset + kSectionHeaderSize;
  if (p.size() < 8) section_error(s, "payload is shorter than its 8-byte raster header", base, "8 bytes", std::to_string(p.size()));
  const uint32_t w = get32(p.data()), d = get32(p.data() + 4);
  if (w != cells.sx() || d != cells.sz()) {
    section_error(s, "raster size does not match the zone's columns", base,
                  std::to_string(cells.sx()) + "x" + std::to_string(cells.sz()),
                  std::to_string(w) + "x" + std::to_string(d));
  }
  const uint64_t n = uint64_t(w) * d, bytes = (n + 7) / 8;
  if (p.size() != 8 + bytes) {
    section_error(s, "payload length does not match the raster size", s.offset + 8,
                  std::to_string(8 + bytes) + " bytes", std::to_string(p.size()) + " bytes");
  }
  const uint8_t* bits = p.data() + 8;
  if (n % 8 != 0) {
    const uint8_t pad = uint8_t(0xff << (n % 8));
    if (bits[bytes - 1] & pad) {
      section_error(s, "bits past the last column are set", base + 8 + bytes - 1,
                    "0 in the bits above bit " + std::to_string(n % 8 - 1), hex_byte(bits[bytes - 1]));
    }
  }
  ColumnRaster<uint8_t> r;
  bool any = false;
  for (uint64_t k = 0; k < bytes && !any; ++k) any = bits[k] != 0;
  if (!any) return r;
  r.width = w;
  r.depth = d;
  r.values.resize(n);
  for (uint64_t k = 0; k < n; ++k) r.values[k] = (bits[k / 8] >> (k % 8)) & 1;
  return r;
}

bool any_filled(const ColumnRaster<uint8_t>& r) {
  for (uint8_t v : r.values)
    if (v) return true;
  return false;
}

Bytes encode_filled(const ColumnRaster<uint8_t>& r) {
  Bytes b;
  const uint64_t n = r.values.size();
  b.reserve(8 + (n + 7) / 8);
  put32(b, r.width);
  put32(b, r.depth);
  b.resize(8 + (n + 7) / 8, 0);
  for (uint64_t k = 0; k < n; ++k)
    if (r.values[k]) b[8 + k / 8] |= uint8_t(1u << (k % 8));
  return b;
}

// u32 spawns, u32 erases, then the spawn edits and the erase edits, u64 each.
void decode_spawns(std::span<const uint8_t> p, const SectionInfo& s, Zone& z) {
  const uint64_t base = s.offset + kSectionHeaderSize;
  if (p.size() < 8) section_error(s, "payload is shorter than its 8-byte header", base, "8 bytes", std::to_string(p.size()));
  const uint64_t spawns = get32(p.data()), erases = get32(p.data() + 4);
  if (p.size() != 8 + 8 * (spawns + erases)) {
    section_error(s, "payload length does not match its counts", base,
                  std::to_string(8 + 8 * (spawns + erases)) + " bytes", std::to_string(p.size()) + " bytes");
  }
  for (uint64_t i = 0; i < spawns + erases; ++i) {
    const uint64_t e = uint64_t(get32(p.data() + 8 + 8 * i)) | uint64_t(get32(p.data() + 12 + 8 * i)) << 32;
    const uint32_t op = uint32_t(e >> 56) & 7, layer = uint32_t(e >> 59);
    const bool spawn = i < spawns;
    if ((op != 4 && op != 5) || (spawn ? layer == 0 : layer != 0)) {
      section_error(s, std::string(spawn ? "spawn" : "erase") + " entry is not a tree or detail " +
                           (spawn ? "spawn" : "erase") + " edit",
                    base + 8 + 8 * i, spawn ? "op 4 or 5 with a layer above 0" : "op 4 or 5 with layer 0",
                    "op " + std::to_string(op) + " layer " + std::to_string(layer));
    }
    (spawn ? z.spawns : z.erases).push_back(e);
  }
}

bool is_known(const std::array<char, 4>& t) { return section_title(t) != nullptr; }

}  // namespace

bool is_zone_file(std::span<const uint8_t> b) {
  return b.size() >= zone_file::kMagic.size() && std::equal(zone_file::kMagic.begin(), zone_file::kMagic.end(), b.begin());
}

std::vector<zone_file::SectionInfo> list_zone_sections(std::span<const uint8_t> bytes) {
  uint32_t count = 0;
  check_file_header(bytes, &count);
  std::vector<SectionInfo> out;
  uint64_t pos = kFileHeaderSize;
  for (uint32_t i = 0; i < count; ++i) out.push_back(read_section(bytes, pos, i, count));
  if (pos != bytes.size()) {
    throw_data("extra bytes after the last section", pos, "end of file",
               std::to_string(bytes.size() - pos) + " more bytes");
  }
  return out;
}

ZoneMeta read_zone_meta(std::span<const uint8_t> bytes) {
  uint32_t count = 0;
  check_file_header(bytes, &count);
  if (count == 0) throw_data("zone file has no sections", 12, "at least META and GRID", "0");
  uint64_t pos = kFileHeaderSize;
  SectionInfo s = read_section(bytes, pos, 0, count);
  return decode_meta(bytes, s, kMaxGridSamples);
}

Zone read_zone(std::span<const uint8_t> bytes, const zone_file::ReadOptions& opts) {
  auto sections = list_zone_sections(bytes);
  if (sections.empty()) throw_data("zone file has no sections", 12, "at least META and GRID", "0");
  Zone z;
  z.meta = decode_meta(bytes, sections[0], opts.max_samples);
  const SectionInfo *grid = nullptr, *baked = nullptr, *paint = nullptr;
  bool seen_filled = false, seen_height = false, seen_splat = false;
  for (size_t i = 1; i < sections.size(); ++i) {
    const SectionInfo& s = sections[i];
    const SectionInfo** slot = s.tag == kGrid ? &grid : s.tag == kBaked ? &baked : s.tag == kPaint ? &paint : nullptr;
    if (slot) {
      if (*slot) section_error(s, "appears twice", s.offset, "one", "a second at this offset");
      *slot = &s;
    } else if (s.tag == kMeta) {
      section_error(s, "appears twice", s.offset, "one", "a second at this offset");
    } else if (s.tag == kHeight) {
      if (seen_height) section_error(s, "appears twice", s.offset);
      seen_height = true;
      if (opts.textures) z.height = decode_height(payload_of(bytes, s), s, z.meta.cells);
    } else if (s.tag == kSplat) {
      if (seen_splat) section_error(s, "appears twice", s.offset);
      seen_splat = true;
      if (opts.textures) z.splat = decode_splat(payload_of(bytes, s), s, z.meta);
    } else if (s.tag == kSpawns) {
      if (!z.spawns.empty() || !z.erases.empty()) section_error(s, "appears twice", s.offset);
      decode_spawns(payload_of(bytes, s), s, z);
    } else if (s.tag == kFoliage) {
      if (!z.foliage.empty()) section_error(s, "appears twice", s.offset);
      try {
        z.foliage = zone_file::decode_foliage(payload_of(bytes, s), z.meta);
      } catch (const Error& e) {
        rethrow_in(e, s);
      }
    } else if (s.tag == kFilled) {
      if (seen_filled) section_error(s, "appears twice", s.offset);
      seen_filled = true;
      z.filled = decode_filled(payload_of(bytes, s), s, z.meta.cells);
    } else if (s.tag == kHoleCut) {
      if (!z.hole_cut.empty()) section_error(s, "appears twice", s.offset);
      try {
        z.hole_cut = zone_file::decode_hole_cut(payload_of(bytes, s));
      } catch (const Error& e) {
        rethrow_in(e, s);
      }
    } else if (s.flags & zone_file::kFlagRequired) {
      section_error(s, "is an unknown section marked required: a newer voxkit wrote this file",
                    s.offset + 4);
    } else {
      Bytes raw(payload_of(bytes, s).begin(), payload_of(bytes, s).end());
      z.unknown_sections.push_back({s.tag, std::move(raw)});
    }
  }
  if (!grid) throw_data("zone file has no current grid (section GRID)", bytes.size(), "a GRID section", "none");

  // The grids decode in parallel; errors are re-thrown in a fixed order so the message does
  // not depend on scheduling.
  std::exception_ptr err[3];
  ByteGrid* out[3] = {&z.grid, &z.baked, &z.paint};
  const SectionInfo* in[3] = {opts.current_grid ? grid : nullptr, opts.baked_grid ? baked : nullptr,
                              opts.current_grid ? paint : nullptr};
  auto task = [&](int k) {
    return [&, k] {
      if (!in[k]) return;
      try {
        *out[k] = decode_grid(payload_of(bytes, *in[k]), *in[k], z.meta.cells);
      } catch (...) {
        err[k] = std::current_exception();
      }
    };
  };
  tbb::parallel_invoke(task(0), task(1), task(2));
  for (auto& e : err)
    if (e) std::rethrow_exception(e);
  return z;
}

Zone read_zone_file(const std::string& path, const zone_file::ReadOptions& opts) {
  auto bytes = io::read_all(path);
  return with_source(io::display_name(path), [&] { return read_zone(bytes, opts); });
}

void check_zone(const Zone& z) {
  std::string problem = zone_file::meta_problem(z.meta, kMaxGridSamples);
  if (!problem.empty()) throw_usage("zone metadata: " + problem);
  const Dims& c = z.meta.cells;
  auto check_grid = [&](const ByteGrid& g, const char* what, bool optional) {
    if (optional && g.data.empty()) return;
    if (g.cells != c || g.data.size() != c.samples()) {
      throw_usage(std::string(what) + " does not match the zone's cells (" + std::to_string(c.samples()) +
                  " samples expected, " + std::to_string(g.data.size()) + " held)");
    }
  };
  check_grid(z.grid, "current grid", false);
  check_grid(z.baked, "baked grid", true);
  check_grid(z.paint, "paint grid", true);
  const uint64_t columns = c.sx() * c.sz();
  if (!z.height.values.empty() &&
      (z.height.width != c.sx() || z.height.depth != c.sz() || z.height.values.size() != columns)) {
    throw_usage("height texture does not match the zone's columns");
  }
  for (float h : z.height.values)
    if (!std::isfinite(h)) throw_usage("height texture holds a value that is not finite");
  if (z.splat.size() > zone_file::kMaxLayers) throw_usage("more than 16 splat layers");
  if (!z.splat.empty() && !z.meta.layer_names.empty() && z.splat.size() != z.meta.layer_names.size()) {
    throw_usage("splat layer count does not match the layer names");
  }
  for (auto& r : z.splat) {
    if (r.width != c.sx() || r.depth != c.sz() || r.values.size() != columns) {
      throw_usage("a splat raster does not match the zone's columns");
    }
  }
  if (const std::string why = foliage::problem(z.foliage, c, z.meta.chunk_cells); !why.empty())
    throw_usage("foliage: " + why);
  if (!z.filled.values.empty()) {
    if (z.filled.width != c.sx() || z.filled.depth != c.sz() || z.filled.values.size() != columns)
      throw_usage("filled-column mask does not match the zone's columns");
    for (uint8_t v : z.filled.values)
      if (v > 1) throw_usage("filled-column mask holds a value that is neither 0 nor 1");
  }
  if (!z.hole_cut.empty() || !z.hole_cut.previous.empty())
    if (const std::string why = zone_file::hole_cut_problem(z.hole_cut); !why.empty()) throw_usage("hole cut: " + why);
  for (auto& u : z.unknown_sections) {
    for (char ch : u.tag)
      if (ch < 0x20 || ch > 0x7e) throw_usage("an extra section's tag is not printable ASCII");
    if (is_known(u.tag)) throw_usage("an extra section uses the known tag " + std::string(u.tag.data(), 4));
  }
}

std::vector<uint8_t> write_zone(const Zone& z) {
  check_zone(z);
  struct Part {
    std::array<char, 4> tag;
    Bytes owned;
    std::span<const uint8_t> payload;
  };
  std::vector<Part> parts;
  std::string meta = zone_file::meta_to_json(z.meta);
  parts.push_back({kMeta, Bytes(meta.begin(), meta.end()), {}});

  // Grids encode with the parallel encoder (the canonical bytes, over slices on all cores).
  // A baked grid equal to the current one, as after every bake, reuses its stream.
  Bytes enc[3];
  if (!z.grid.data.empty()) enc[0] = rle::encode_parallel(z.grid.data);
  if (!z.baked.data.empty())
    enc[1] = equal_parallel(z.baked.data, z.grid.data) ? enc[0] : rle::encode_parallel(z.baked.data);
  if (!z.paint.data.empty()) enc[2] = rle::encode_parallel(z.paint.data);
  parts.push_back({kGrid, std::move(enc[0]), {}});
  if (!z.baked.data.empty()) parts.push_back({kBaked, std::move(enc[1]), {}});
  if (!z.paint.data.empty()) parts.push_back({kPaint, std::move(enc[2]), {}});

  if (!z.height.values.empty()) {
    Bytes h;
    h.reserve(8 + 4 * z.height.values.size());
    put32(h, z.height.width);
    put32(h, z.height.depth);
    for (float f : z.height.values) {
      uint32_t u;
      std::memcpy(&u, &f, 4);
      put32(h, u);
    }
    parts.push_back({kHeight, std::move(h), {}});
  }
  if (!z.splat.empty()) {
    Bytes s;
    put32(s, uint32_t(z.splat.size()));
    put32(s, z.splat[0].width);
    put32(s, z.splat[0].depth);
    for (auto& r : z.splat) s.insert(s.end(), r.values.begin(), r.values.end());
    parts.push_back({kSplat, std::move(s), {}});
  }
  // Only a mask with a filled column is stored: a zone over data only has no FILL section.
  const bool has_filled = any_filled(z.filled);
  if (has_filled) parts.push_back({kFilled, encode_filled(z.filled), {}});
  if (!z.spawns.empty() || !z.erases.empty()) {
    Bytes b;
    put32(b, uint32_t(z.spawns.size()));
    put32(b, uint32_t(z.erases.size()));
    for (const auto* list : {&z.spawns, &z.erases})
      for (uint64_t e : *list) {
        put32(b, uint32_t(e));
        put32(b, uint32_t(e >> 32));
      }
    parts.push_back({kSpawns, std::move(b), {}});
  }
  if (!z.foliage.empty()) parts.push_back({kFoliage, zone_file::encode_foliage(z.foliage, z.meta), {}});
  if (!z.hole_cut.empty()) parts.push_back({kHoleCut, zone_file::encode_hole_cut(z.hole_cut), {}});
  for (auto& p : parts) p.payload = p.owned;
  for (auto& u : z.unknown_sections) parts.push_back({u.tag, {}, u.bytes});

  uint64_t total = kFileHeaderSize;
  for (auto& p : parts) total += kSectionHeaderSize + p.payload.size();
  // Written into a buffer sized once: the grids can be hundreds of megabytes.
  Bytes out(total);
  uint8_t* w = out.data();
  auto le = [&w](uint64_t v, int n) {
    for (int i = 0; i < n; ++i) *w++ = uint8_t(v >> (8 * i));
  };
  std::memcpy(w, zone_file::kMagic.data(), 8);
  w += 8;
  le(zone_file::kVersionMajor, 2);
  le(has_filled ? zone_file::kVersionMinor : zone_file::kVersionMinorBase, 2);
  le(parts.size(), 4);
  for (auto& p : parts) {
    uint8_t* header = w;
    std::memcpy(w, p.tag.data(), 4);
    w += 4;
    le(0, 4);  // flags: nothing this version writes needs the required bit
    le(p.payload.size(), 8);
    le(section_crc(header, p.payload), 4);
    if (!p.payload.empty()) std::memcpy(w, p.payload.data(), p.payload.size());
    w += p.payload.size();
  }
  return out;
}

std::string write_zone_file(const std::string& path, const Zone& zone, io::OutputOptions opts) {
  io::check_output(path, opts);
  auto bytes = write_zone(zone);
  return io::write_file(path, bytes, opts);
}

}  // namespace voxkit
