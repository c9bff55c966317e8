// Text and map furniture on preview pictures: a 5 x 7 pixel font (capitals, digits and a
// little punctuation; lower case is drawn as capitals) and the margin every preview gets: a
// title, coordinate ticks, a scale bar, a north mark, a colour bar and a legend.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace voxkit {

struct RgbImage {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel, row 0 at the top
};

using Colour = std::array<uint8_t, 3>;

// Draws `text` with its top-left corner at (x, y), each font pixel `scale` x `scale`;
// characters without a glyph are drawn as a box. Pixels outside the picture are skipped.
// Returns the width drawn.
uint32_t draw_text(RgbImage& img, int64_t x, int64_t y, std::string_view text, Colour colour, uint32_t scale = 1);
uint32_t text_width(std::string_view text, uint32_t scale = 1);
inline constexpr uint32_t kTextHeight = 7;

struct LegendEntry {
  Colour colour;
  std::string label;
  bool hatched = false;  // the swatch drawn with the hatch of `hatch_colour` over it
};

// A continuous colour scale: `ramp` from the low end to the high end, the labels of both
// ends and a caption naming the quantity and its unit.
struct ColourBar {
  std::vector<Colour> ramp;
  std::string low, high, caption;
};

// One axis of the picture in world metres: the coordinate at the picture's first edge (left
// or top) and metres per pixel (negative when the coordinate falls along the axis).
struct MapAxis {
  char name = 'x';
  double start = 0, per_pixel = 1;
};

// Which way north is drawn: up the picture (plan views), to the right (a slice along z), or
// not at all (a slice along x, which runs east-west; the mark then names east instead).
enum class Compass { NorthUp, NorthRight, EastRight };

struct MapFrame {
  std::string title;
  MapAxis across{'x', 0, 1}, down{'z', 0, -1};
  Compass compass = Compass::NorthUp;
  std::vector<ColourBar> bars;
  std::vector<LegendEntry> legend;
};

// The picture inside its margin: `x`, `y` is where its pixel (0, 0) landed.
struct Framed {
  RgbImage img;
  uint32_t x = 0, y = 0;
};

// The text scale of a frame around a picture `width` pixels wide: 2 from 600 pixels, else 1.
uint32_t frame_scale(uint32_t width);

// Puts the picture, pixels unchanged, at (58 s, 30 s) (s = frame_scale) inside a dark margin
// with: the title (top left) and the compass mark (top right); tick marks and labels in world
// metres every round step along the left and bottom edges; under the picture a scale bar
// (a round length in metres), the colour bars and the legend swatches, wrapped to the width.
Framed frame_picture(const RgbImage& img, const MapFrame& f);

// Round number of the 1-2-5 series at most `limit` (limit > 0).
double round_length(double limit);

// The hatch drawn over filled NoData samples: pixel (x, y) is a hatch pixel when this is true.
inline bool hatch_at(uint32_t x, uint32_t y) { return (x + y) % 4 == 0; }
inline constexpr Colour kHatchColour{255, 40, 220};

}  // namespace voxkit
