// `voxkit info` for dig-zone RLE streams and raw sample grids.
#include "formats/zone/rle_stream.hpp"

#include <string>

#include "lib/core/error.hpp"
#include "lib/codec/rle.hpp"

namespace voxkit::rle_stream {
namespace {

std::string dims_text(Dims c) {
  return std::to_string(c.nx) + " x " + std::to_string(c.ny) + " x " + std::to_string(c.nz);
}

void add_stats(identify::Description& d, std::span<const uint8_t> grid, Dims cells) {
  const SampleStats s = sdf_stats(grid);
  const uint64_t n = grid.size();
  d.fields.push_back({"cells", dims_text(cells)});
  d.fields.push_back({"solid", std::to_string(s.solid) + " samples (" + identify::percent(s.solid, n) + ")"});
  d.fields.push_back({"air", std::to_string(s.air) + " samples (" + identify::percent(s.air, n) + ")"});
  d.fields.push_back({"surface band", std::to_string(s.band) + " samples (" + identify::percent(s.band, n) +
                                          "; neither 0 nor 255)"});
  d.details["cells"] = {cells.nx, cells.ny, cells.nz};
  d.details["solid"] = s.solid;
  d.details["air"] = s.air;
  d.details["surface"] = s.band;
}

}  // namespace

std::optional<identify::Description> describe(std::span<const uint8_t> bytes, const std::string& name) {
  rle::Stats st;
  try {
    st = rle::scan(bytes);
  } catch (const Error&) {
    return std::nullopt;
  }
  identify::Description d;
  d.format = "rle";
  d.summary = "dig-zone RLE stream";
  d.fields.push_back({"samples", std::to_string(st.samples)});
  d.fields.push_back({"tokens", std::to_string(st.tokens()) + " (" + std::to_string(st.runs) +
                                    " runs of " + std::to_string(st.run_samples) + " samples, " +
                                    std::to_string(st.literals) + " literals of " +
                                    std::to_string(st.literal_samples) + " samples)"});
  d.fields.push_back({"stored", std::to_string(bytes.size()) + " bytes, " +
                                    identify::percent(bytes.size(), st.samples) + " of the raw samples"});
  d.details = {
      {"samples", st.samples},
      {"tokens", st.tokens()},
      {"runs", st.runs},
      {"literals", st.literals},
      {"run_samples", st.run_samples},
      {"literal_samples", st.literal_samples},
      {"stored_bytes", bytes.size()},
      {"ratio", st.samples ? double(bytes.size()) / double(st.samples) : 0.0},
  };
  return d;
}

void add_grid_stats(identify::Description& d, std::span<const uint8_t> stream, Dims cells) {
  const uint64_t count = rle::read_count(stream);
  if (count != cells.samples()) {
    throw Error(ErrorKind::Data, "stream's sample count does not match the cells " + dims_text(cells), 0,
                std::to_string(cells.samples()), std::to_string(count))
        .set_hint("cells", "the cells");
  }
  add_stats(d, rle::decode(stream, cells.samples()), cells);
}

std::optional<identify::Description> describe_raw_grid(std::span<const uint8_t> bytes, Dims cells) {
  if (bytes.size() != cells.samples()) return std::nullopt;
  identify::Description d;
  d.format = "raw-grid";
  d.summary = "raw SDF sample grid (one byte per sample, dig-zone layout)";
  d.fields.push_back({"samples", std::to_string(bytes.size())});
  d.details["samples"] = bytes.size();
  add_stats(d, bytes, cells);
  return d;
}

}  // namespace voxkit::rle_stream
