// Terrain{i}.dat from a node stream: the gzip style of an existing file (header, level) and
// the job that writes one.
#include "formats/stationeers/base_write.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>

#include "formats/stationeers/stationeers.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree.hpp"

namespace voxkit::stationeers {

size_t gzip_header_length(std::span<const uint8_t> gz) {
  if (gz.size() < 10) throw_data("file ends inside the gzip header", gz.size(), "10 bytes", std::to_string(gz.size()) + " bytes");
  if (gz[0] != 0x1f || gz[1] != 0x8b) throw_data("not a gzip stream", 0, "1f 8b", hex_byte(gz[0]) + " " + hex_byte(gz[1]));
  if (gz[2] != 8) throw_data("gzip compression method is not deflate", 2, "8", std::to_string(gz[2]));
  const uint8_t flags = gz[3];
  if (flags & 0xe0) throw_data("gzip header has reserved flag bits set", 3, "0 in bits 5..7", hex_byte(flags));
  size_t at = 10;
  if (flags & 0x04) {  // FEXTRA: 2-byte length, then that many bytes
    if (gz.size() - at < 2) throw_data("file ends inside the gzip extra field length", gz.size(), "2 bytes", "end of file");
    const size_t len = size_t(gz[at]) | size_t(gz[at + 1]) << 8;
    at += 2;
    if (gz.size() - at < len) {
      throw_data("file ends inside the gzip extra field", gz.size(), std::to_string(len) + " bytes",
                 std::to_string(gz.size() - at) + " bytes");
    }
    at += len;
  }
  for (uint8_t bit : {uint8_t(0x08), uint8_t(0x10)}) {  // FNAME, FCOMMENT: zero-terminated
    if (!(flags & bit)) continue;
    const auto end = std::find(gz.begin() + long(at), gz.end(), uint8_t(0));
    if (end == gz.end()) {
      throw_data(bit == 0x08 ? "file ends inside the gzip file name" : "file ends inside the gzip comment", gz.size(),
                 "a zero byte", "end of file");
    }
    at = size_t(end - gz.begin()) + 1;
  }
  if (flags & 0x02) {  // FHCRC
    if (gz.size() - at < 2) throw_data("file ends inside the gzip header CRC", gz.size(), "2 bytes", "end of file");
    at += 2;
  }
  return at;
}

namespace {

// Raw deflate of `raw` at `level`. With `want`, stops (returning false) at the first output
// byte that differs from it or when the output would be longer.
bool deflate_raw(std::span<const uint8_t> raw, int level, std::vector<uint8_t>* out,
                 std::span<const uint8_t> want = {}, bool compare = false) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw_usage("bad gzip level " + std::to_string(level));
  }
  std::vector<uint8_t> buf(1 << 16);
  size_t produced = 0;
  const uint8_t* in = raw.data();
  size_t left = raw.size();
  bool same = true;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t step = std::min<size_t>(left, size_t(1) << 30);
    zs.next_in = const_cast<Bytef*>(in);
    zs.avail_in = uInt(step);
    zs.next_out = buf.data();
    zs.avail_out = uInt(buf.size());
    rc = deflate(&zs, left == step ? Z_FINISH : Z_NO_FLUSH);
    const size_t used = step - zs.avail_in;
    in += used;
    left -= used;
    const size_t n = buf.size() - zs.avail_out;
    if (rc == Z_STREAM_ERROR) {
      deflateEnd(&zs);
      throw Error(ErrorKind::Io, "zlib could not deflate");
    }
    if (compare) {
      if (produced + n > want.size() || !std::equal(buf.begin(), buf.begin() + long(n), want.begin() + long(produced))) {
        same = false;
        break;
      }
    } else {
      out->insert(out->end(), buf.begin(), buf.begin() + long(n));
    }
    produced += n;
  }
  deflateEnd(&zs);
  return same && (!compare || produced == want.size());
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
}

}  // namespace

std::vector<uint8_t> gzip_with_header(std::span<const uint8_t> raw, std::span<const uint8_t> header, int level) {
  std::vector<uint8_t> out(header.begin(), header.end());
  deflate_raw(raw, level, &out);
  uLong crc = crc32(0L, Z_NULL, 0);
  for (size_t at = 0; at < raw.size();) {
    const size_t n = std::min<size_t>(raw.size() - at, size_t(1) << 30);
    crc = crc32(crc, raw.data() + at, uInt(n));
    at += n;
  }
  put_u32(out, uint32_t(crc));
  put_u32(out, uint32_t(raw.size()));
  return out;
}

GzipStyle gzip_style(std::span<const uint8_t> gz, std::span<const uint8_t> raw) {
  GzipStyle s;
  const size_t h = gzip_header_length(gz);
  s.header.assign(gz.begin(), gz.begin() + long(h));
  if (gz.size() - h < 8) return s;
  const auto body = gz.subspan(h, gz.size() - h - 8);
  // XFL (RFC 1952): 2 = slowest, best compression; 4 = fastest.
  std::vector<int> order;
  const uint8_t xfl = gz[8];
  if (xfl == 2) order = {9, 8, 7};
  else if (xfl == 4) order = {1, 0};
  else order = {6, 5, 4, 3, 2, 7, 8};
  for (int l = 0; l <= 9; ++l)
    if (std::find(order.begin(), order.end(), l) == order.end()) order.push_back(l);
  for (int l : order) {
    if (deflate_raw(raw, l, nullptr, body, true)) {
      s.level = l;
      s.matched = true;
      return s;
    }
  }
  return s;
}

BaseWriteReport run_base_write(const BaseWriteJob& j) {
  if (j.from == NodeSource::Nodes && (j.depth < 1 || j.depth > octree::kMaxAnyDepth)) {
    throw_usage("a raw node stream needs its tree depth, 1..24", {{"base-depth", "its tree depth"}});
  }
  if (j.level < -1 || j.level > 9) throw_usage("gzip level must be 0..9", {{"gzip-level", "gzip level"}});
  io::check_output(j.output, j.out);
  BaseWriteReport rep;
  rep.input = io::display_name(j.input);
  rep.output = j.output == "-" ? std::string("<stdout>") : j.output;
  const auto bytes = io::read_all(j.input, kMaxTerrainBytes);
  NodeSource from = j.from;
  if (from == NodeSource::Auto) from = terrain_base::looks_gzip(bytes) ? NodeSource::Base : NodeSource::TerrainDat;

  std::span<const uint8_t> nodes;
  terrain_base::BaseFile base;
  if (from == NodeSource::Base) {
    rep.from = "base";
    base = with_source(rep.input, [&] { return terrain_base::decode(bytes, false); });
    rep.depth = base.depth;
    rep.input_checksum = base.stored_checksum;
    nodes = base.nodes();
  } else if (from == NodeSource::TerrainDat) {
    rep.from = "terrain.dat";
    const auto v = with_source(rep.input, [&] { return octree::parse(bytes, {j.any_depth}); });
    rep.depth = v.max_depth;
    rep.veins_dropped = v.vein_count;
    nodes = v.nodes;
    if (v.vein_count > 0) {
      rep.warnings.push_back(rep.input + ": " + std::to_string(v.vein_count) +
                             " vein(s) left out (base files hold none)");
    }
    if (rep.depth < 1) {
      Error e(ErrorKind::Usage, "a base file's tree has depth 1..24; this terrain.dat has maxDepth 0");
      e.set_source(rep.input);
      throw e;
    }
  } else {
    rep.from = "nodes";
    rep.depth = j.depth;
    const size_t len = with_source(rep.input, [&] { return octree::parse_nodes(bytes, j.depth); });
    if (len != bytes.size()) {
      Error e(ErrorKind::Data, "extra bytes after the node stream", len, "end of file",
              std::to_string(bytes.size() - len) + " more bytes");
      e.set_source(rep.input);
      throw e;
    }
    nodes = bytes;
  }
  if (rep.depth != octree::kBlockDepth) {
    rep.warnings.push_back(rep.input + ": depth " + std::to_string(rep.depth) +
                           "; the game's base files each hold one 1024^3 block (depth 10)");
  }
  rep.node_bytes = nodes.size();
  rep.checksum = int32_t(octree::checksum(nodes));

  std::vector<uint8_t> raw;
  raw.reserve(nodes.size() + 8);
  octree::put_i32(raw, rep.depth);
  octree::append(raw, nodes);
  octree::put_i32(raw, rep.checksum);

  // The style to follow: --like's file, else a base input itself.
  std::optional<GzipStyle> style;
  if (!j.like.empty()) {
    const auto like = io::read_all(j.like, terrain_base::kMaxInflated);
    const std::string name = io::display_name(j.like);
    style = with_source(name, [&] {
      const auto payload = terrain_base::gunzip(like);
      return gzip_style(like, payload);
    });
    rep.style_of = name;
  } else if (from == NodeSource::Base) {
    style = with_source(rep.input, [&] { return gzip_style(bytes, base.payload); });
    rep.style_of = rep.input;
  }
  std::vector<uint8_t> out;
  if (style) {
    rep.level = j.level >= 0 ? j.level : style->level;
    rep.style_matched = style->matched && j.level < 0;
    // A base input rewritten as it was: the match already proved that its bytes are the
    // output, so they are not compressed a second time.
    const bool same_input = from == NodeSource::Base && j.like.empty() && rep.style_matched &&
                            std::ranges::equal(raw, base.payload);
    out = same_input ? bytes : gzip_with_header(raw, style->header, rep.level);
    if (!style->matched && j.level < 0) {
      rep.warnings.push_back(*rep.style_of + ": no zlib level reproduces its deflate data; level 6 used with its header");
    }
  } else {
    rep.level = j.level >= 0 ? j.level : 6;
    out = terrain_base::gzip(raw, rep.level);
  }
  if (from == NodeSource::Base) rep.identical = std::ranges::equal(out, bytes);
  rep.bytes = out.size();
  io::write_file(j.output, out, j.out);
  return rep;
}

nlohmann::json BaseWriteReport::to_json() const {
  nlohmann::json j{{"input", input},
                   {"output", output},
                   {"from", from},
                   {"depth", depth},
                   {"node_bytes", node_bytes},
                   {"bytes", bytes},
                   {"checksum", checksum},
                   {"level", level},
                   {"style_of", style_of ? nlohmann::json(*style_of) : nlohmann::json()},
                   {"style_matched", style_matched},
                   {"veins_dropped", veins_dropped}};
  j["input_checksum"] = input_checksum ? nlohmann::json(*input_checksum) : nlohmann::json();
  j["identical"] = identical ? nlohmann::json(*identical) : nlohmann::json();
  return j;
}

std::string BaseWriteReport::to_text() const {
  std::string t = output + ": base file of depth " + std::to_string(depth) + " from " + input + " (" + from + "), " +
                  std::to_string(node_bytes) + " node bytes, checksum " + std::to_string(checksum) + "\n";
  if (input_checksum) {
    t += "  input's stored checksum " + std::to_string(*input_checksum) +
         (*input_checksum == checksum ? " (agrees)" : " (did not match its nodes; corrected)") + "\n";
  }
  t += "  gzip: level " + std::to_string(level);
  if (style_of) t += std::string(", header of ") + *style_of + (style_matched ? ", its level" : "");
  t += ", " + std::to_string(bytes) + " bytes";
  if (identical) t += *identical ? ", the same bytes as the input" : ", bytes differ from the input";
  return t + "\n";
}

}  // namespace voxkit::stationeers
