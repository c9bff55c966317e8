// voxkit lz4 compress|decompress: raw LZ4 blocks (no frame); decompress needs the exact size.
#include <memory>

#include "formats/core/io.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/lz4_block.hpp"
#include "tools/batch_cli.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct Lz4Options {
  std::string input = "-";
  std::string output = "-";
  bool hc = false;
  uint64_t size = 0;
  uint64_t max_size = 1u << 30;
  CLI::Option* size_opt = nullptr;
  BatchFlags batch;
};

// A decompress item: "SIZE BASE64" or "BASE64" on a text line (the size from --size), or a
// block in a binary batch (the size from --size). Offsets in errors are the line's.
std::vector<uint8_t> decompress_item(const batch::Item& it, std::optional<uint64_t> size,
                                     uint64_t max_size) {
  std::span<const uint8_t> text = it.bytes;
  std::optional<uint64_t> own;
  size_t skip = 0;
  if (it.line) {
    size_t sp = 0;
    while (sp < text.size() && text[sp] != ' ') ++sp;
    if (sp < text.size()) {
      if (sp == 0 || sp > 10) throw_data("bad size before the block", 0, "a decimal size and one space", "other text");
      uint64_t v = 0;
      for (size_t i = 0; i < sp; ++i) {
        if (text[i] < '0' || text[i] > '9') {
          throw_data("bad size before the block", i, "a digit",
                     "'" + escape_text(std::string(1, char(text[i]))) + "'");
        }
        v = v * 10 + uint64_t(text[i] - '0');
      }
      own = v;
      skip = sp + 1;
      text = text.subspan(skip);
    }
  }
  if (!own) own = size;
  if (!own) {
    throw_data("no decompressed size for this block (give --size, or write the line as \"SIZE BASE64\")");
  }
  batch::Item body = it;
  body.bytes = text;
  ItemBytes block;
  try {
    block = item_bytes_b64(body);
  } catch (Error& e) {
    e.shift_offset(skip);
    throw;
  }
  if (*own > lz4::kMaxBlockSize) {
    throw_data("decompressed size too large", std::nullopt, "at most " + std::to_string(lz4::kMaxBlockSize),
               std::to_string(*own));
  }
  return lz4::decompress(block.bytes(), size_t(*own), size_t(max_size));
}

}  // namespace

void add_lz4_command(CLI::App& app, Context& ctx) {
  auto* lz4c = app.add_subcommand("lz4", "Raw LZ4 blocks (no frame, no size header)");
  lz4c->require_subcommand(1);
  auto opt = std::make_shared<Lz4Options>();

  auto* comp = lz4c->add_subcommand("compress", "Compress bytes into one raw LZ4 block");
  comp->add_option("input", opt->input, "Bytes to compress ('-' = stdin)")->capture_default_str();
  comp->add_option("-o,--output", opt->output, "LZ4 block ('-' = stdout)")->capture_default_str();
  comp->add_flag("--hc", opt->hc, "LZ4 HC at the maximum level (as Scrap Mechanic strings use)");
  add_batch_flags(comp, opt->batch,
                   "Many items: a binary batch (VXBATCH) of bytes, or one Base64 item a line -> a "
                   "binary batch of blocks (docs/batch.md)");
  comp->callback([&ctx, opt] {
    if (opt->batch.batch) {
      BatchJob job;
      job.input = opt->input;
      job.output = opt->output;
      job.verb = "lz4 compress";
      const auto level = opt->hc ? lz4::Level::HcMax : lz4::Level::Fast;
      job.fn = [level](const batch::Item& it) { return lz4::compress(item_bytes_b64(it).bytes(), level); };
      run_batch(ctx, opt->batch, job);
      return;
    }
    io::check_output(opt->output, ctx.out());
    const auto raw = io::read_all(opt->input, lz4::kMaxBlockSize);
    const auto block = lz4::compress(raw, opt->hc ? lz4::Level::HcMax : lz4::Level::Fast);
    io::write_file(opt->output, block, ctx.out());
    ctx.info("lz4: " + std::to_string(raw.size()) + " bytes -> " + std::to_string(block.size()) +
             " bytes (decompress with --size " + std::to_string(raw.size()) + ")");
  });

  auto* dec = lz4c->add_subcommand("decompress", "Decompress one raw LZ4 block of known size");
  dec->add_option("input", opt->input, "LZ4 block ('-' = stdin)")->capture_default_str();
  dec->add_option("-o,--output", opt->output, "Decompressed bytes ('-' = stdout)")
      ->capture_default_str();
  opt->size_opt = dec->add_option("--size", opt->size,
                                  "Exact decompressed size in bytes; any other is an error (with "
                                  "--batch: of every item whose line gives no size)")
      ->check(CLI::Range(uint64_t(0), uint64_t(lz4::kMaxBlockSize)));
  dec->add_option("--max-size", opt->max_size, "Refuse a --size above this")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t(0), uint64_t(lz4::kMaxBlockSize)));
  add_batch_flags(dec, opt->batch,
                  "Many items: a binary batch (VXBATCH) of blocks, or a line per block, \"BASE64\" "
                  "or \"SIZE BASE64\" -> a binary batch of bytes (docs/batch.md)");
  dec->callback([&ctx, opt] {
    std::optional<uint64_t> size;
    if (opt->size_opt->count()) size = opt->size;
    if (opt->batch.batch) {
      BatchJob job;
      job.input = opt->input;
      job.output = opt->output;
      job.verb = "lz4 decompress";
      const uint64_t max = opt->max_size;
      job.fn = [size, max](const batch::Item& it) { return decompress_item(it, size, max); };
      run_batch(ctx, opt->batch, job);
      return;
    }
    if (!size) throw CLI::RequiredError("--size");
    io::check_output(opt->output, ctx.out());
    const auto block = io::read_all(opt->input, lz4::kMaxBlockSize);
    const auto raw = with_source(io::display_name(opt->input), [&] {
      return lz4::decompress(block, size_t(opt->size), size_t(opt->max_size));
    });
    io::write_file(opt->output, raw, ctx.out());
    ctx.info("lz4: " + std::to_string(block.size()) + " bytes -> " + std::to_string(raw.size()) +
             " bytes");
  });
}

}  // namespace voxkit::cli
