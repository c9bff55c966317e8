// voxkit b64 encode|decode: standard padded Base64 with the strict decoder of lib/codec/base64.hpp.
#include <memory>
#include <string_view>

#include "formats/core/io.hpp"
#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"
#include "tools/batch_cli.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct B64Options {
  std::string input = "-";
  std::string output = "-";
  bool no_newline = false;
  BatchFlags batch;
};

}  // namespace

void add_b64_command(CLI::App& app, Context& ctx) {
  auto* b64 = app.add_subcommand("b64", "Base64, standard alphabet, padded, strict decoding");
  b64->require_subcommand(1);
  auto opt = std::make_shared<B64Options>();

  auto* enc = b64->add_subcommand("encode", "Encode bytes as one line of Base64");
  enc->add_option("input", opt->input, "Bytes to encode ('-' = stdin)")->capture_default_str();
  enc->add_option("-o,--output", opt->output, "Base64 text ('-' = stdout)")->capture_default_str();
  enc->add_flag("--no-newline", opt->no_newline, "Do not end the text with a newline");
  add_batch_flags(enc, opt->batch,
                  "Many items: a binary batch (VXBATCH) of bytes, or lines (each line's bytes are "
                  "an item) -> one Base64 line per item (docs/batch.md)");
  enc->callback([&ctx, opt] {
    if (opt->batch.batch) {
      if (opt->no_newline) throw_usage("--no-newline (-n) does not apply to --batch: every item is a line");
      BatchJob job;
      job.input = opt->input;
      job.output = opt->output;
      job.form = batch::Output::Lines;
      job.verb = "b64 encode";
      job.fn = [](const batch::Item& it) {
        const std::string text = base64::encode(it.bytes);
        return std::vector<uint8_t>(text.begin(), text.end());
      };
      run_batch(ctx, opt->batch, job);
      return;
    }
    io::check_output(opt->output, ctx.out(false));
    const auto raw = io::read_all(opt->input);
    std::string text = base64::encode(raw);
    if (!opt->no_newline) text += '\n';
    io::AtomicOutput out(opt->output, ctx.out(false));
    out.write(text);
    out.commit();
    ctx.info("b64: " + std::to_string(raw.size()) + " bytes -> " +
             std::to_string(base64::encoded_size(raw.size())) + " characters");
  });

  auto* dec = b64->add_subcommand(
      "decode", "Decode Base64 text (one final newline is allowed; nothing else but the alphabet)");
  dec->add_option("input", opt->input, "Base64 text ('-' = stdin)")->capture_default_str();
  dec->add_option("-o,--output", opt->output, "Decoded bytes ('-' = stdout)")->capture_default_str();
  add_batch_flags(dec, opt->batch,
                  "Many items: one Base64 text a line, or a binary batch (VXBATCH) of texts -> a "
                  "binary batch of bytes (docs/batch.md)");
  dec->callback([&ctx, opt] {
    if (opt->batch.batch) {
      BatchJob job;
      job.input = opt->input;
      job.output = opt->output;
      job.verb = "b64 decode";
      job.fn = [](const batch::Item& it) { return base64::decode(it.bytes); };
      run_batch(ctx, opt->batch, job);
      return;
    }
    io::check_output(opt->output, ctx.out());
    const auto bytes = io::read_all(opt->input);
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    // A file that ends with a newline (as `b64 encode` writes) is fine; any other
    // whitespace is an error.
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    const auto raw = with_source(io::display_name(opt->input), [&] { return base64::decode(text); });
    io::write_file(opt->output, raw, ctx.out());
    ctx.info("b64: " + std::to_string(text.size()) + " characters -> " +
             std::to_string(raw.size()) + " bytes");
  });
}

}  // namespace voxkit::cli
