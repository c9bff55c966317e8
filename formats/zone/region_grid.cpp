// Cave-region grids and closed-region lists: bytes <-> RegionGrid, text <-> ids.
#include "formats/zone/region_grid.hpp"

#include <algorithm>
#include <string>

#include "lib/core/error.hpp"

namespace voxkit {

RegionGrid decode_region_grid(std::span<const uint8_t> bytes, const Dims& cells) {
  check_dims(cells);
  uint64_t want = cells.samples() * 2;
  if (bytes.size() != want)
    // Offset: where the bytes end early, or where the extra bytes start.
    throw_data("region grid size does not match the cells", std::min<uint64_t>(bytes.size(), want),
               std::to_string(want) + " bytes (2 per sample)", std::to_string(bytes.size()) + " bytes");
  RegionGrid g;
  g.cells = cells;
  g.ids.resize(cells.samples());
  for (size_t i = 0; i < g.ids.size(); ++i)
    g.ids[i] = uint16_t(bytes[2 * i] | bytes[2 * i + 1] << 8);
  return g;
}

std::vector<uint8_t> encode_region_grid(const RegionGrid& g) {
  std::vector<uint8_t> out(g.ids.size() * 2);
  for (size_t i = 0; i < g.ids.size(); ++i) {
    out[2 * i] = uint8_t(g.ids[i]);
    out[2 * i + 1] = uint8_t(g.ids[i] >> 8);
  }
  return out;
}

std::vector<uint16_t> parse_region_list(std::string_view text) {
  std::vector<uint16_t> ids;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    size_t start = i;
    uint64_t v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && v <= 65535)
      v = v * 10 + uint64_t(text[i++] - '0');
    bool ends = i == text.size() || std::string_view(", \t\n\r#").find(text[i]) != std::string_view::npos;
    if (i == start || !ends || v == 0 || v > 65535) {
      size_t stop = start;
      while (stop < text.size() && std::string_view(", \t\n\r#").find(text[stop]) == std::string_view::npos) ++stop;
      throw_data("bad region id", start, "an integer 1..65535",
                 "'" + std::string(text.substr(start, std::min<size_t>(stop - start, 20))) + "'");
    }
    ids.push_back(uint16_t(v));
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::string format_region_list(std::span<const uint16_t> ids) {
  std::string s;
  for (uint16_t id : ids) s += std::to_string(id) + "\n";
  return s;
}

}  // namespace voxkit
