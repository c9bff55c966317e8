// Fuzz target: melt hits files (CSV, JSON) and hardness lists. The first byte picks the
// reader: hits (format detected) or hardness samples. Hits that read are checked by write ->
// read round trips in both forms, and melted into a small module.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "formats/ice/melt_hits.hpp"
#include "lib/caves/melt.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    if (data[0] & 1) {
      auto samples = voxkit::ice::parse_hardness(text);
      for (double s : samples)
        if (!(s > 0)) std::abort();
      return 0;
    }
    auto hits = voxkit::ice::read_hits(text);
    if (voxkit::ice::read_hits(voxkit::ice::write_hits_csv(hits)) != hits) std::abort();
    if (voxkit::ice::read_hits(voxkit::ice::write_hits_json(hits)) != hits) std::abort();
    if (hits.size() > 64) hits.resize(64);
    voxkit::ByteGrid g({6, 5, 7}, 255);
    voxkit::RegionGrid rg{g.cells, std::vector<uint16_t>(g.data.size(), 0)};
    for (size_t i = 0; i < rg.ids.size(); i += 5) rg.ids[i] = uint16_t(1 + i % 7);
    voxkit::MeltOptions opts;
    opts.hardness = {1, 2, 4};
    opts.chunk_cells = 4;
    const auto r = voxkit::melt(g, hits, opts, voxkit::MeltRegions{&rg, {1, 2, 3, 4, 5, 6, 7}});
    if (r.solid_after != voxkit::count_solid(g.data) || r.solid_after > r.solid_before) std::abort();
  } catch (const voxkit::Error&) {
  }
  return 0;
}
