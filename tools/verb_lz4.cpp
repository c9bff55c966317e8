// voxkit lz4 compress|decompress: raw LZ4 blocks (no frame); decompress needs the exact size.
#include <memory>

#include "formats/core/io.hpp"
#include "lib/core/error.hpp"
#include "lib/codec/lz4_block.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct Lz4Options {
  std::string input = "-";
  std::string output = "-";
  bool hc = false;
  uint64_t size = 0;
  uint64_t max_size = 1u << 30;
};

}  // namespace

void add_lz4_command(CLI::App& app, Context& ctx) {
  auto* lz4c = app.add_subcommand("lz4", "Raw LZ4 blocks (no frame, no size header)");
  lz4c->require_subcommand(1);
  auto opt = std::make_shared<Lz4Options>();

  auto* comp = lz4c->add_subcommand("compress", "Compress bytes into one raw LZ4 block");
  comp->add_option("input", opt->input, "Bytes to compress ('-' = stdin)")->capture_default_str();
  comp->add_option("-o,--output", opt->output, "LZ4 block ('-' = stdout)")->capture_default_str();
  comp->add_flag("--hc", opt->hc, "LZ4 HC at the maximum level (as Scrap Mechanic strings use)");
  comp->callback([&ctx, opt] {
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
  dec->add_option("--size", opt->size, "Exact decompressed size in bytes; any other is an error")
      ->required()
      ->check(CLI::Range(uint64_t(0), uint64_t(lz4::kMaxBlockSize)));
  dec->add_option("--max-size", opt->max_size, "Refuse a --size above this")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t(0), uint64_t(lz4::kMaxBlockSize)));
  dec->callback([&ctx, opt] {
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
