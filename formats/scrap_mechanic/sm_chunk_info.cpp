// `voxkit info` for Scrap Mechanic chunks in any form: materials, densities, solid voxels,
// and the sizes of the compressed forms.
#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>

#include "formats/scrap_mechanic/sm_chunk_info.hpp"

#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"

namespace voxkit::sm {
namespace {

const char* form_title(sm::Form f) {
  switch (f) {
    case sm::Form::Lua: return "raw Lua table";
    case sm::Form::Json: return "JSON array";
    case sm::Form::Bin: return "binary, 4913 bytes";
    case sm::Form::Lz4: return "raw LZ4 block";
    case sm::Form::B64: return "serialized string (Base64 of an LZ4 block)";
  }
  return "?";
}

}  // namespace

// Claims only input that decodes as a chunk: an LZ4 block, Base64 text or 4913 bytes are
// too loose a signal to call a file that does not decode a damaged chunk.
std::optional<identify::Description> describe_sm_chunk(std::span<const uint8_t> bytes,
                                                       const std::string& /*name*/) {
  using identify::percent;
  sm::Form form{};
  sm::Chunk c;
  try {
    c = sm::decode_any(bytes, std::nullopt, &form);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (form == sm::Form::Bin) {
    for (uint8_t v : c)
      if ((v >> 6) == 3) return std::nullopt;
  }
  std::array<uint64_t, 4> materials{};
  std::array<uint64_t, 64> hist{};
  for (uint8_t v : c) {
    ++materials[v >> 6];
    ++hist[v & 63];
  }
  uint64_t solid = 0, sum = 0;
  int lo = 63, hi = 0;
  for (int d = 0; d < 64; ++d) {
    if (!hist[d]) continue;
    solid += d > 31 ? hist[d] : 0;
    sum += uint64_t(d) * hist[d];
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  const uint64_t partial = sm::kVoxels - hist[0] - hist[63];
  const auto block = sm::encode_lz4(c);
  const size_t b64 = base64::encoded_size(block.size());

  char mean[32];
  std::snprintf(mean, sizeof mean, "%.2f", double(sum) / double(sm::kVoxels));

  identify::Description d;
  d.format = "sm-chunk";
  d.summary = std::string("Scrap Mechanic voxel chunk (17x17x17), ") + form_title(form);
  d.fields = {
      {"form", sm::form_name(form)},
      {"materials", "0: " + std::to_string(materials[0]) + ", 1: " + std::to_string(materials[1]) +
                        ", 2: " + std::to_string(materials[2]) + ", 3 (reads as 0): " +
                        std::to_string(materials[3])},
      {"density", "0: " + std::to_string(hist[0]) + ", 1..62: " + std::to_string(partial) +
                      ", 63: " + std::to_string(hist[63]) + "; range " + std::to_string(lo) +
                      ".." + std::to_string(hi) + ", mean " + mean},
      {"solid voxels", std::to_string(solid) + " (density above 31, " +
                           percent(solid, sm::kVoxels) + ")"},
      {"LZ4 HC block", std::to_string(block.size()) + " bytes (" +
                           percent(block.size(), sm::kVoxels) + " of 4913)"},
      {"serialized string", std::to_string(b64) + " characters"},
  };
  d.details = {
      {"form", sm::form_name(form)},
      {"voxels", sm::kVoxels},
      {"materials", materials},
      {"density_histogram", hist},
      {"density_min", lo},
      {"density_max", hi},
      {"solid_voxels", solid},
      {"lz4_hc_bytes", block.size()},
      {"base64_chars", b64},
  };
  return d;
}

}  // namespace voxkit::sm
