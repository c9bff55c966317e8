// voxkit rle encode|decode: dig-zone RLE streams <-> raw sample bytes.
#include <memory>

#include "formats/core/io.hpp"
#include "formats/zone/zone_input.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"
#include "lib/codec/rle.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct RleOptions {
  std::string input = "-";
  std::string output = "-";
  uint64_t max_samples = kMaxGridSamples;
};

}  // namespace

void add_rle_command(CLI::App& app, Context& ctx) {
  auto* rle = app.add_subcommand("rle", "Dig-zone RLE streams (encode raw sample bytes, decode)");
  rle->require_subcommand(1);
  auto opt = std::make_shared<RleOptions>();

  auto* enc = rle->add_subcommand("encode", "Encode raw sample bytes as a dig-zone RLE stream");
  enc->add_option("input", opt->input, "Raw sample bytes, or a zone (its grid) ('-' = stdin)")->capture_default_str();
  enc->add_option("-o,--output", opt->output, "RLE stream ('-' = stdout)")->capture_default_str();
  enc->callback([&ctx, opt] {
    io::check_output(opt->output, ctx.out());
    auto raw = io::read_all(opt->input, rle::kMaxCount);
    // A zone (file or dig-zone asset) is encoded as its current grid.
    if (auto z = read_zone_if_any(raw, io::display_name(opt->input))) raw = std::move(z->grid.data);
    auto encoded = rle::encode(raw);
    io::write_file(opt->output, encoded, ctx.out());
    ctx.info("rle: " + std::to_string(raw.size()) + " samples -> " +
             std::to_string(encoded.size()) + " bytes");
  });

  auto* dec = rle->add_subcommand("decode", "Decode a dig-zone RLE stream to raw sample bytes");
  dec->add_option("input", opt->input, "RLE stream, or a zone (its grid) ('-' = stdin)")->capture_default_str();
  dec->add_option("-o,--output", opt->output, "Raw sample bytes ('-' = stdout)")
      ->capture_default_str();
  dec->add_option("--max-samples", opt->max_samples, "Refuse streams with more samples")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t(0), rle::kMaxCount));
  dec->callback([&ctx, opt] {
    io::check_output(opt->output, ctx.out());
    auto stream = io::read_all(opt->input);
    // A zone decodes to its current grid's samples.
    std::vector<uint8_t> raw;
    if (auto z = read_zone_if_any(stream, io::display_name(opt->input)))
      raw = std::move(z->grid.data);
    else
      raw = with_source(io::display_name(opt->input), [&] { return rle::decode(stream, opt->max_samples); });
    io::write_file(opt->output, raw, ctx.out());
    ctx.info("rle: " + std::to_string(stream.size()) + " bytes -> " +
             std::to_string(raw.size()) + " samples");
  });
}

}  // namespace voxkit::cli
