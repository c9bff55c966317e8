// The PNG encoder: pixels survive a decode by an independent reader (stb_image) at every
// level, bytes are deterministic, and the synthetic saves' pictures keep their bytes.
#include <catch2/catch.hpp>
#include <stb_image.h>
#include <zlib.h>

#include <memory>
#include <random>

#include "formats/image/png.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;

namespace {

RgbImage random_image(uint32_t w, uint32_t h, uint32_t seed) {
  std::mt19937 rng(seed);
  RgbImage img;
  img.width = w;
  img.height = h;
  img.rgb.resize(size_t(w) * h * 3);
  // Smooth gradients with noise: something deflate has to work on.
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t c = 0; c < 3; ++c)
        img.rgb[(size_t(y) * w + x) * 3 + c] = uint8_t(x * (c + 1) + y * 3 + (rng() % 8));
  return img;
}

// RGB pixels as stb_image decodes them.
std::vector<uint8_t> decode(const std::vector<uint8_t>& png, int& w, int& h) {
  int channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> px(
      stbi_load_from_memory(png.data(), int(png.size()), &w, &h, &channels, 3), stbi_image_free);
  REQUIRE(px);
  CHECK(channels == 3);
  return std::vector<uint8_t>(px.get(), px.get() + size_t(w) * size_t(h) * 3);
}

}  // namespace

TEST_CASE("png encoder keeps every pixel at every level, as an independent decoder reads it", "[png]") {
  for (const auto& [w, h] : {std::pair<uint32_t, uint32_t>{1, 1}, {7, 3}, {64, 36}, {301, 97}}) {
    const RgbImage img = random_image(w, h, w * 131 + h);
    for (int level = 0; level <= 9; ++level) {
      INFO(w << "x" << h << " level " << level);
      const auto png = png::encode(img, level);
      CHECK_NOTHROW(png::check_structure(png));
      int dw = 0, dh = 0;
      const auto px = decode(png, dw, dh);
      CHECK(uint32_t(dw) == w);
      CHECK(uint32_t(dh) == h);
      CHECK(px == img.rgb);
      CHECK(png::encode(img, level) == png);  // deterministic
    }
  }
}

TEST_CASE("png encoder writes IHDR, one IDAT and IEND, and refuses bad pictures and levels", "[png]") {
  const RgbImage img = random_image(5, 4, 1);
  const auto png = png::encode(img);
  CHECK(png == png::encode(img, png::kDefaultLevel));
  // Signature, IHDR of 13 bytes: 5 x 4, 8-bit RGB, no interlace.
  const std::vector<uint8_t> head = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                     0, 0, 0, 5, 0, 0, 0, 4, 8, 2, 0, 0, 0};
  CHECK(std::vector<uint8_t>(png.begin(), png.begin() + ptrdiff_t(head.size())) == head);
  CHECK(std::string(png.begin() + 37, png.begin() + 41) == "IDAT");
  const std::vector<uint8_t> iend = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
  CHECK(std::vector<uint8_t>(png.end() - 12, png.end()) == iend);
  CHECK(png::encode(img, 0).size() > png::encode(img, 9).size());

  RgbImage bad = img;
  bad.rgb.pop_back();
  CHECK_THROWS_AS(png::encode(bad), Error);
  CHECK_THROWS_AS(png::encode(RgbImage{}), Error);
  CHECK_THROWS_AS(png::encode(img, -1), Error);
  CHECK_THROWS_AS(png::encode(img, 10), Error);
}

TEST_CASE("synthetic save pictures keep the bytes they have always had", "[png][save]") {
  // Sizes and CRC-32s of preview.png and screenshot.png in saves made before the encoder
  // was shared.
  const auto preview = save_synth::synth_png(64, 36, 0x304050);
  const auto screenshot = save_synth::synth_png(160, 90, 0x806040);
  CHECK(preview.size() == 335);
  CHECK(crc32(0, preview.data(), uInt(preview.size())) == 0x9da5f0e3u);
  CHECK(screenshot.size() == 894);
  CHECK(crc32(0, screenshot.data(), uInt(screenshot.size())) == 0xac2efb41u);
  int w = 0, h = 0;
  const auto px = decode(preview, w, h);
  REQUIRE((w == 64 && h == 36));
  CHECK(px[0] == 0x30);
  CHECK(px[1] == 0x40);
  CHECK(px[2] == 0x50);
  CHECK(px[(size_t(2) * 64 + 3) * 3 + 2] == (0x50 ^ 5));  // blue XOR (x + y)
}
