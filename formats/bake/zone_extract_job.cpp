#include "formats/bake/zone_extract_job.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "formats/bake/hole_mask_job.hpp"
#include "formats/image/png.hpp"
#include "formats/zone/chunk_blob.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "formats/zone/zone_input.hpp"
#include "lib/codec/chunk_pack.hpp"
#include "lib/codec/rle.hpp"
#include "lib/core/error.hpp"

namespace voxkit::zone_extract {

const char* part_name(Part p) {
  switch (p) {
    case Part::Grid: return "grid";
    case Part::Baked: return "baked";
    case Part::Paint: return "paint";
    case Part::Height: return "height";
    case Part::Splat: return "splat";
    case Part::Blob: return "blob";
    case Part::Hole: return "hole";
  }
  return "?";
}

namespace {

const char* encoding_name(Encoding e) { return e == Encoding::Raw ? "raw" : e == Encoding::Rle ? "rle" : "png"; }

bool ends_with(const std::string& s, const char* ext) {
  const size_t n = std::char_traits<char>::length(ext);
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - n + i])) != ext[i]) return false;
  return true;
}

std::string dims_text(const Dims& c) {
  return std::to_string(c.sx()) + " x " + std::to_string(c.sy()) + " x " + std::to_string(c.sz()) +
         " samples, x fastest, then y (up), then z";
}

// A column raster as an image: row 0 is the far (max z) edge, as bake reads control maps.
template <class T>
std::vector<T> north_up(const std::vector<T>& v, uint32_t w, uint32_t d) {
  std::vector<T> out(v.size());
  for (uint32_t z = 0; z < d; ++z) std::copy_n(v.begin() + size_t(z) * w, w, out.begin() + size_t(d - 1 - z) * w);
  return out;
}

}  // namespace

Report run(const Job& job) {
  Report rep;
  rep.zone = io::display_name(job.zone);
  rep.part = part_name(job.part);
  Encoding enc = job.encoding ? *job.encoding
                 : ends_with(job.output, ".rle") ? Encoding::Rle
                 : ends_with(job.output, ".png") ? Encoding::Png
                                                 : Encoding::Raw;
  const bool grid_part = job.part == Part::Grid || job.part == Part::Baked || job.part == Part::Paint;
  if (enc == Encoding::Rle && !grid_part)
    throw_usage(std::string("the ") + rep.part + " part is not a grid: it has no RLE form (raw or png)", {{"format", "raw or png"}});
  if (enc == Encoding::Png && (grid_part || job.part == Part::Blob))
    throw_usage(std::string("the ") + rep.part + " part is not a picture: write it raw" +
                    (job.part == Part::Blob ? "" : " or as an RLE stream"),
                {{"format", "raw or rle"}});
  rep.encoding = encoding_name(enc);

  if (job.part == Part::Hole) {
    // The recorded terrain hole cut, as `zone hole-mask` writes it from the zone's record.
    hole_mask::Job h;
    h.zone = job.zone;
    h.mask_out = job.output;
    h.out = job.out;
    h.max_input = job.max_input;
    if (enc == Encoding::Png && !ends_with(job.output, ".png"))
      throw_usage("a PNG hole mask is written to a name ending in .png", {{"output", "a .png name"}});
    const hole_mask::Report hr = hole_mask::run(h);
    rep.output = hr.mask_output;
    rep.values = uint64_t(hr.cut.resolution) * hr.cut.resolution;
    rep.shape = std::to_string(hr.cut.resolution) + " x " + std::to_string(hr.cut.resolution) +
                " hole cells of the terrain" + (enc == Encoding::Png ? ", row 0 the far z edge" : ", x fastest, z = 0 first");
    rep.note = "255 = terrain surface, 0 = hole, after the zone's cut";
    rep.bytes = enc == Encoding::Png ? 0 : rep.values;
    return rep;
  }

  io::check_output(job.output, job.out);
  std::vector<uint8_t> bytes = io::read_all(job.zone, job.max_input);
  std::optional<Zone> read = read_zone_if_any(bytes, rep.zone);
  bytes = {};
  if (!read) {
    Error e(ErrorKind::Data, "not a zone file or a dig-zone asset", 0);
    e.set_source(rep.zone);
    throw e;
  }
  Zone z = std::move(*read);

  const Dims& c = z.grid.cells;
  const uint32_t w = uint32_t(c.sx()), d = uint32_t(c.sz());
  std::vector<uint8_t> out;
  switch (job.part) {
    case Part::Grid:
    case Part::Baked:
    case Part::Paint: {
      const ByteGrid& g = job.part == Part::Grid ? z.grid : job.part == Part::Baked ? z.baked : z.paint;
      if (g.data.empty())
        throw_data(job.part == Part::Paint ? "the zone was never painted: it has no paint grid"
                                           : "the zone has no baked grid",
                   0);
      out = enc == Encoding::Rle ? rle::encode(g.data) : g.data;
      rep.values = g.data.size();
      rep.shape = dims_text(g.cells);
      rep.note = job.part == Part::Paint ? "paint codes: 0 auto, 1-4 layers 0-3, 5 dug soil, 6-17 layers 4-15"
                                         : "SDF bytes: 128 and above is air";
      break;
    }
    case Part::Blob: {
      const auto layout = chunk_pack::make_layout(c, z.meta.chunk_cells);
      out = chunk_blob::write(layout, chunk_pack::pack(layout, z.grid.data));
      rep.values = z.grid.data.size();
      rep.shape = dims_text(c) + ", chunks of " + std::to_string(z.meta.chunk_cells) + " cells";
      rep.note = "the runtime chunk blob of the current grid (docs/formats/chunk-blob.md)";
      break;
    }
    case Part::Height: {
      if (z.height.values.empty()) throw_data("the zone has no height raster", 0);
      const auto& v = z.height.values;
      rep.values = v.size();
      if (enc == Encoding::Png) {
        // 16-bit grey over the zone's height range (0 = height_min, 65535 = height_max).
        const double lo = z.meta.height_min, hi = z.meta.height_max, span = hi > lo ? hi - lo : 1.0;
        std::vector<uint16_t> q(v.size());
        for (size_t i = 0; i < v.size(); ++i)
          q[i] = uint16_t(std::clamp(std::lround((double(v[i]) - lo) / span * 65535.0), 0L, 65535L));
        out = png::encode_gray16(z.height.width, z.height.depth, north_up(q, z.height.width, z.height.depth));
        rep.shape = std::to_string(z.height.width) + " x " + std::to_string(z.height.depth) +
                    " columns, row 0 the far z edge";
        rep.note = "16-bit grey: 0 = " + std::to_string(lo) + " m, 65535 = " + std::to_string(hi) + " m";
      } else {
        out.resize(v.size() * 4);
        for (size_t i = 0; i < v.size(); ++i) {
          const uint32_t b = std::bit_cast<uint32_t>(v[i]);
          for (int k = 0; k < 4; ++k) out[4 * i + k] = uint8_t(b >> (8 * k));
        }
        rep.shape = std::to_string(z.height.width) + " x " + std::to_string(z.height.depth) +
                    " columns, x fastest, z = 0 first";
        rep.note = "float32 little-endian: terrain height in world metres";
      }
      break;
    }
    case Part::Splat: {
      if (z.splat.empty()) throw_data("the zone has no splat layers", 0);
      const uint32_t layers = uint32_t(z.splat.size());
      if (enc == Encoding::Png) {
        if (job.group * 4 >= layers)
          throw_usage("the zone has " + std::to_string(layers) + " splat layers: group " + std::to_string(job.group) +
                      " is past them");
        std::vector<uint8_t> rgba(size_t(w) * d * 4, 0);
        for (uint32_t k = 0; k < 4 && job.group * 4 + k < layers; ++k) {
          const auto img = north_up(z.splat[job.group * 4 + k].values, w, d);
          for (size_t i = 0; i < img.size(); ++i) rgba[4 * i + k] = img[i];
        }
        out = png::encode_rgba(w, d, rgba);
        rep.values = uint64_t(w) * d;
        rep.shape = std::to_string(w) + " x " + std::to_string(d) + " columns, row 0 the far z edge";
        rep.note = "a control map (_Control): layers " + std::to_string(job.group * 4) + "-" +
                   std::to_string(std::min(layers, job.group * 4 + 4) - 1) + " in R, G, B, A";
      } else {
        for (const auto& r : z.splat) out.insert(out.end(), r.values.begin(), r.values.end());
        rep.values = out.size();
        rep.shape = std::to_string(layers) + " layers of " + std::to_string(w) + " x " + std::to_string(d) +
                    " columns, layer by layer, x fastest, z = 0 first";
        rep.note = "weights 0-255";
      }
      std::string names;
      for (const auto& n : z.meta.layer_names) names += (names.empty() ? "" : ", ") + n;
      rep.note += " (layers: " + names + ")";
      break;
    }
    case Part::Hole: break;
  }
  rep.bytes = out.size();
  rep.output = io::output_name(job.output);
  io::write_file(job.output, out, job.out);
  return rep;
}

nlohmann::json Report::to_json() const {
  return {{"zone", zone}, {"part", part}, {"encoding", encoding}, {"output", output}, {"values", values},
          {"bytes", bytes}, {"shape", shape}, {"note", note}};
}

std::string Report::to_text() const {
  return "zone extract: " + zone + " " + part + " -> " + output + " (" + encoding + ", " + std::to_string(bytes) +
         " bytes): " + shape + "; " + note + "\n";
}

}  // namespace voxkit::zone_extract
