// A 5 x 7 bitmap font and the map margin of preview pictures.
#include "lib/bake/preview_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>

namespace voxkit {
namespace {

struct Glyph {
  char c;
  uint8_t rows[7];  // bit 4 is the leftmost pixel
};

// clang-format off
constexpr Glyph kGlyphs[] = {
  {'A', {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}}, {'B', {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}},
  {'C', {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}}, {'D', {0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e}},
  {'E', {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}}, {'F', {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}},
  {'G', {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}}, {'H', {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}},
  {'I', {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}}, {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}},
  {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}}, {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}},
  {'M', {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}}, {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
  {'O', {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}}, {'P', {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}},
  {'Q', {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}}, {'R', {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}},
  {'S', {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}}, {'T', {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
  {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}}, {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}},
  {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}}, {'X', {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}},
  {'Y', {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04}}, {'Z', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}},
  {'0', {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}}, {'1', {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}},
  {'2', {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}}, {'3', {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}},
  {'4', {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}}, {'5', {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}},
  {'6', {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}}, {'7', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
  {'8', {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}}, {'9', {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}},
  {' ', {0, 0, 0, 0, 0, 0, 0}},                      {'.', {0, 0, 0, 0, 0, 0x0c, 0x0c}},
  {',', {0, 0, 0, 0, 0x0c, 0x04, 0x08}},             {':', {0, 0x0c, 0x0c, 0, 0x0c, 0x0c, 0}},
  {'-', {0, 0, 0, 0x1f, 0, 0, 0}},                   {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
  {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}}, {'/', {0x01, 0x02, 0x02, 0x04, 0x08, 0x08, 0x10}},
  {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}}, {'+', {0, 0x04, 0x04, 0x1f, 0x04, 0x04, 0}},
  {'=', {0, 0, 0x1f, 0, 0x1f, 0, 0}},                {'_', {0, 0, 0, 0, 0, 0, 0x1f}},
  {'#', {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a}}, {'?', {0x0e, 0x11, 0x01, 0x02, 0x04, 0, 0x04}},
};
// clang-format on
constexpr uint8_t kBox[7] = {0x1f, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1f};

const uint8_t* glyph(char c) {
  const char u = char(std::toupper(static_cast<unsigned char>(c)));
  for (const Glyph& g : kGlyphs)
    if (g.c == u) return g.rows;
  return kBox;
}

void fill(RgbImage& img, int64_t x0, int64_t y0, int64_t w, int64_t h, Colour c) {
  for (int64_t y = std::max<int64_t>(0, y0); y < std::min<int64_t>(img.height, y0 + h); ++y)
    for (int64_t x = std::max<int64_t>(0, x0); x < std::min<int64_t>(img.width, x0 + w); ++x) {
      uint8_t* p = &img.rgb[(size_t(y) * img.width + size_t(x)) * 3];
      p[0] = c[0], p[1] = c[1], p[2] = c[2];
    }
}

}  // namespace

uint32_t text_width(std::string_view text, uint32_t scale) {
  return text.empty() ? 0 : uint32_t(text.size() * 6 - 1) * scale;
}

uint32_t draw_text(RgbImage& img, int64_t x, int64_t y, std::string_view text, Colour colour, uint32_t scale) {
  int64_t cx = x;
  for (char c : text) {
    const uint8_t* rows = glyph(c);
    for (int r = 0; r < 7; ++r)
      for (int b = 0; b < 5; ++b)
        if (rows[r] & (0x10 >> b)) fill(img, cx + b * int64_t(scale), y + r * int64_t(scale), scale, scale, colour);
    cx += 6 * int64_t(scale);
  }
  return text_width(text, scale);
}


uint32_t frame_scale(uint32_t width) { return width >= 600 ? 2 : 1; }

double round_length(double limit) {
  double p = std::pow(10.0, std::floor(std::log10(limit)));
  for (double m : {5.0, 2.0, 1.0})
    if (m * p <= limit) return m * p;
  return p / 2;  // limit just under a power of ten after rounding
}

namespace {

// The smallest number of the 1-2-5 series at least `v`.
double round_up(double v) {
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}

// A coordinate as text with as many decimals as the step needs; "-0" reads "0".
std::string coordinate(double v, double step) {
  const int decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find_first_not_of("-0.") == std::string::npos) s = decimals ? "0." + std::string(size_t(decimals), '0') : "0";
  return s;
}

std::string length_text(double metres) {
  if (metres >= 1000 && std::fmod(metres, 1000) == 0) return coordinate(metres / 1000, 1) + " KM";
  return coordinate(metres, metres) + " M";
}

// A tick: its pixel along the axis and its world coordinate as text.
struct Tick {
  int64_t at;
  std::string label;
};
// Ticks along an axis `pixels` long at every multiple of the smallest 1-2-5 step that
// leaves room between neighbouring labels: side by side (`across`) the widest label and
// three characters; stacked, 14 s when that gives at most three ticks (a short axis), else 40 s.
std::vector<Tick> ticks(const MapAxis& a, uint32_t pixels, bool across, uint32_t s) {
  std::vector<Tick> out;
  const double mpp = std::abs(a.per_pixel);
  const double end = a.start + a.per_pixel * pixels;
  const double lo = std::min(a.start, end), hi = std::max(a.start, end);
  // No ticks where the numbers make no sense (a damaged zone's origin or voxel size).
  if (!(mpp > 0) || pixels == 0 || !std::isfinite(lo) || !std::isfinite(hi) || std::max(-lo, hi) > 1e12) return out;
  for (double step = round_up(8.0 * s * mpp);; step = round_up(step * 1.5)) {
    out.clear();
    if (std::max(-lo, hi) / step > 1e12) {  // ticks a step apart would not be exact
      if (step > 2 * (hi - lo)) return out;
      continue;
    }
    uint32_t widest = 0;
    for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; ++k) {
      const double p = (k * step - a.start) / a.per_pixel;
      const int64_t px = std::clamp<int64_t>(int64_t(std::floor(p + 1e-9)), 0, int64_t(pixels) - 1);
      out.push_back({px, coordinate(k * step, step)});
      widest = std::max(widest, text_width(out.back().label, s));
    }
    const double need = across ? widest + 18.0 * s : (out.size() > 3 ? 40.0 * s : 14.0 * s);
    if (step / mpp >= need || step > 2 * (hi - lo)) return out;
  }
}

void arrow_up(RgbImage& img, int64_t cx, int64_t top, uint32_t len, uint32_t s, Colour c) {
  for (int64_t r = 0; r < 4 * int64_t(s); ++r) fill(img, cx - r, top + r, 2 * r + 1, 1, c);
  fill(img, cx - int64_t(s) / 2, top + 4 * s, s, int64_t(len) - 4 * s, c);
}

void arrow_right(RgbImage& img, int64_t left, int64_t cy, uint32_t len, uint32_t s, Colour c) {
  fill(img, left, cy - int64_t(s) / 2, int64_t(len) - 4 * s, s, c);
  for (int64_t r = 0; r < 4 * int64_t(s); ++r) fill(img, left + int64_t(len) - 1 - r, cy - r, 1, 2 * r + 1, c);
}

}  // namespace

Framed frame_picture(const RgbImage& img, const MapFrame& f) {
  const uint32_t s = frame_scale(img.width);
  const uint32_t pad = 4 * s, line = (kTextHeight + 4) * s, tick = 4 * s;
  const uint32_t left = 58 * s, top = 30 * s, right = 28 * s;
  const Colour ink{235, 235, 235}, dim{150, 150, 150}, back{32, 32, 32};

  // The compass block (top right) and the axis note under the title.
  const uint32_t compass_w = f.compass == Compass::NorthUp ? 9 * s : text_width("N", s) + 3 * s + 16 * s;
  auto axis_word = [](const MapAxis& a, bool across) {
    std::string w(1, char(std::toupper(static_cast<unsigned char>(a.name))));
    if (across) return w + (a.per_pixel > 0 ? " RIGHT" : " LEFT");
    return w + (a.per_pixel < 0 ? " UP" : " DOWN");
  };
  const std::string axes = axis_word(f.across, true) + ", " + axis_word(f.down, false) + ", WORLD METRES";

  // Width: the picture and its margins, or more when the text needs it.
  uint32_t width = left + img.width + right;
  width = std::max(width, 2 * pad + std::max(text_width(f.title, s), text_width(axes, s)) + compass_w + 2 * pad);
  for (const ColourBar& b : f.bars) {
    width = std::max(width, 2 * pad + text_width(b.caption, s));
    width = std::max(width, 2 * pad + text_width(b.low, s) + text_width(b.high, s) + 8 * s + 64 * s);
  }

  // The scale bar: a round length of at most a third of the picture.
  const double mpp = std::abs(f.across.per_pixel);
  double bar_m = 0;
  uint32_t bar_px = 0;
  if (mpp > 0 && std::isfinite(mpp) && img.width > 0) {
    bar_m = round_length(mpp * img.width / 3);
    bar_px = uint32_t(std::lround(bar_m / mpp));
  }

  // Lay out the rows under the picture.
  const uint32_t below = top + img.height + tick + 2 * s + kTextHeight * s + 2 * pad;
  uint32_t y = below;
  const uint32_t scale_y = y;
  if (bar_px) y += line + pad;
  std::vector<uint32_t> bar_y;
  for (size_t i = 0; i < f.bars.size(); ++i) bar_y.push_back(y), y += 2 * line + pad;
  const uint32_t swatch = kTextHeight * s;
  std::vector<std::pair<uint32_t, uint32_t>> at;  // (x, y) of each legend entry
  uint32_t x = pad;
  for (const auto& e : f.legend) {
    const uint32_t w = swatch + 3 * s + text_width(e.label, s) + 3 * pad;
    if (x > pad && x + w > width) x = pad, y += line;
    at.push_back({x, y});
    x += w;
  }
  if (!f.legend.empty()) y += line;
  const uint32_t height = y + pad;

  Framed out;
  out.x = left;
  out.y = top;
  out.img.width = width;
  out.img.height = height;
  out.img.rgb.assign(size_t(width) * height * 3, 0);
  RgbImage& o = out.img;
  fill(o, 0, 0, width, height, back);
  for (uint32_t r = 0; r < img.height; ++r)
    std::copy_n(img.rgb.begin() + ptrdiff_t(size_t(r) * img.width * 3), size_t(img.width) * 3,
                o.rgb.begin() + ptrdiff_t((size_t(top + r) * width + left) * 3));
  // A thin border just outside the picture.
  fill(o, left - 1, top - 1, img.width + 2, 1, dim);
  fill(o, left - 1, top + img.height, img.width + 2, 1, dim);
  fill(o, left - 1, top - 1, 1, img.height + 2, dim);
  fill(o, left + img.width, top - 1, 1, img.height + 2, dim);

  draw_text(o, pad, pad, f.title, ink, s);
  draw_text(o, pad, pad + line, axes, dim, s);

  // Compass.
  const int64_t cx = int64_t(width - pad - compass_w);
  if (f.compass == Compass::NorthUp) {
    const int64_t mid = cx + 4 * s;
    draw_text(o, mid - 2 * s, pad, "N", ink, s);
    arrow_up(o, mid, pad + (kTextHeight + 2) * s, 11 * s, s, ink);
  } else {
    const char* letter = f.compass == Compass::NorthRight ? "N" : "E";
    const int64_t ty = pad + line;
    draw_text(o, cx, ty, letter, ink, s);
    arrow_right(o, cx + text_width("N", s) + 3 * s, ty + 3 * s, 16 * s, s, ink);
  }

  // Ticks and coordinates: along the bottom edge (across) and the left edge (down).
  const int64_t bottom = int64_t(top + img.height) + 1;
  for (const Tick& t : ticks(f.across, img.width, true, s)) {
    const int64_t tx = int64_t(left) + t.at;
    fill(o, tx, bottom, 1 * s, tick, ink);
    const int64_t w = text_width(t.label, s);
    const int64_t lx = std::clamp<int64_t>(tx - w / 2, 0, int64_t(width) - w);
    draw_text(o, lx, bottom + tick + 2 * s, t.label, ink, s);
  }
  for (const Tick& t : ticks(f.down, img.height, false, s)) {
    const int64_t ty = int64_t(top) + t.at;
    fill(o, int64_t(left) - 1 - tick, ty, tick, 1 * s, ink);
    const int64_t w = text_width(t.label, s);
    draw_text(o, int64_t(left) - 1 - tick - 2 * s - w, std::max<int64_t>(0, ty - 3 * s), t.label, ink, s);
  }

  // Scale bar: four segments, black and white, outlined.
  if (bar_px) {
    const int64_t bx = pad, by = scale_y + s;
    fill(o, bx - 1, by - 1, bar_px + 2, 5 * s + 2, ink);
    for (uint32_t k = 0; k < 4; ++k) {
      const int64_t a = bx + int64_t(bar_px) * k / 4, b = bx + int64_t(bar_px) * (k + 1) / 4;
      fill(o, a, by, b - a, 5 * s, k % 2 ? Colour{245, 245, 245} : Colour{10, 10, 10});
    }
    draw_text(o, bx + bar_px + 4 * s, scale_y, length_text(bar_m), ink, s);
  }

  // Colour bars: the caption, then low label, the ramp, high label.
  for (size_t i = 0; i < f.bars.size(); ++i) {
    const ColourBar& b = f.bars[i];
    const int64_t by = bar_y[i];
    draw_text(o, pad, by, b.caption, ink, s);
    const int64_t ry = by + line;
    const uint32_t lw = text_width(b.low, s), hw = text_width(b.high, s);
    const int64_t rx = pad + lw + 4 * s;
    const int64_t rl = std::min<int64_t>(200 * s, int64_t(width) - 2 * pad - lw - hw - 8 * s);
    draw_text(o, pad, ry, b.low, ink, s);
    if (!b.ramp.empty() && rl > 0) {
      fill(o, rx - 1, ry - 1, rl + 2, swatch + 2, Colour{200, 200, 200});
      for (int64_t k = 0; k < rl; ++k) {
        const size_t c = size_t(k * int64_t(b.ramp.size()) / rl);
        fill(o, rx + k, ry, 1, swatch, b.ramp[c]);
      }
    }
    draw_text(o, rx + std::max<int64_t>(rl, 0) + 4 * s, ry, b.high, ink, s);
  }

  // Legend swatches.
  for (size_t i = 0; i < f.legend.size(); ++i) {
    const LegendEntry& e = f.legend[i];
    const int64_t ex = at[i].first, ey = at[i].second;
    fill(o, ex, ey, swatch, swatch, {200, 200, 200});
    fill(o, ex + 1, ey + 1, swatch - 2, swatch - 2, e.colour);
    if (e.hatched)
      for (uint32_t v = 1; v + 1 < swatch; ++v)
        for (uint32_t u = 1; u + 1 < swatch; ++u)
          if (hatch_at(u, v)) fill(o, ex + u, ey + v, 1, 1, kHatchColour);
    draw_text(o, ex + swatch + 3 * s, ey, e.label, ink, s);
  }
  return out;
}

}  // namespace voxkit
