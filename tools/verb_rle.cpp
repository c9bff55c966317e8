// voxkit rle encode|decode: dig-zone RLE streams <-> raw sample bytes.
#include <memory>

#include "formats/core/io.hpp"
#include "formats/zone/zone_input.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"
#include "lib/codec/rle.hpp"
#include "tools/batch_cli.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct RleOptions {
  std::string input = "-";
  std::string output = "-";
  uint64_t max_samples = kMaxGridSamples;
  BatchFlags batch;
};

}  // namespace

void add_rle_command(CLI::App& app, Context& ctx) {
  auto* rle = app.add_subcommand("rle", "Dig-zone RLE streams (encode raw sample bytes, decode)");
  rle->require_subcommand(1);
  auto opt = std::make_shared<RleOptions>();

  auto* enc = rle->add_subcommand("encode", "Encode raw sample bytes as a dig-zone RLE stream");
  enc->add_option("input", opt->input, "Raw sample bytes, or a zone (its grid) ('-' = stdin)")->capture_default_str();
  enc->add_option("-o,--output", opt->output, "RLE stream ('-' = stdout)")->capture_default_str();
  add_batch_flags(enc, opt->batch,
                  "Many items: a binary batch (VXBATCH) of raw sample bytes, or one Base64 item a "
                  "line -> a binary batch of RLE streams (docs/batch.md)");
  enc->callback([&ctx, opt] {
    if (opt->batch.batch) {
      BatchJob job;
      job.input = opt->input;
      job.output = opt->output;
      job.verb = "rle encode";
      job.fn = [](const batch::Item& it) {
        const auto raw = item_bytes_b64(it);
        if (raw.bytes().size() > rle::kMaxCount) throw_data("item too large", std::nullopt,
                                                          "at most " + std::to_string(rle::kMaxCount) + " samples",
                                                          std::to_string(raw.bytes().size()));
        return rle::encode(raw.bytes());
      };
      run_batch(ctx, opt->batch, job);
      return;
    }
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
  add_batch_flags(dec, opt->batch,
                  "Many items: a binary batch (VXBATCH) of RLE streams, or one Base64 stream a line "
                  "-> a binary batch of raw sample bytes (docs/batch.md)");
  dec->callback([&ctx, opt] {
    if (opt->batch.batch) {
      BatchJob job;
      job.input = opt->input;
      job.output = opt->output;
      job.verb = "rle decode";
      const uint64_t max = opt->max_samples;
      job.fn = [max](const batch::Item& it) { return rle::decode(item_bytes_b64(it).bytes(), max); };
      run_batch(ctx, opt->batch, job);
      return;
    }
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
