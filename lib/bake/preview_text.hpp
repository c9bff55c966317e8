// Text and legends on preview pictures: a 5 x 7 pixel font (capitals, digits and a little
// punctuation; lower case is drawn as capitals) and a legend strip of colour swatches.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/bake/preview.hpp"

namespace voxkit {

// Draws `text` with its top-left corner at (x, y), each font pixel `scale` x `scale`;
// characters without a glyph are drawn as a box. Pixels outside the picture are skipped.
// Returns the width drawn.
uint32_t draw_text(RgbImage& img, int64_t x, int64_t y, std::string_view text, std::array<uint8_t, 3> colour,
                   uint32_t scale = 1);
uint32_t text_width(std::string_view text, uint32_t scale = 1);
inline constexpr uint32_t kTextHeight = 7;

struct LegendEntry {
  std::array<uint8_t, 3> colour;
  std::string label;
};

// The picture with a legend strip added below it: a swatch and a label per entry, wrapped
// onto as many rows as the width needs, and an optional title line.
RgbImage with_legend(const RgbImage& img, const std::vector<LegendEntry>& entries, const std::string& title = {});

}  // namespace voxkit
