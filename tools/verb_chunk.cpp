// voxkit chunk convert: Scrap Mechanic chunks between Lua table, JSON, binary, LZ4 and the
// Base64 string, one file or a batch of chunks (--batch, docs/batch.md).
#include <memory>

#include "formats/core/io.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "formats/scrap_mechanic/sm_chunk_batch.hpp"
#include "lib/core/error.hpp"
#include "tools/batch_cli.hpp"
#include "tools/options.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct ChunkOptions {
  std::string input = "-";
  std::string output = "-";
  sm::Form to = sm::Form::Bin, from = sm::Form::Bin;
  CLI::Option* from_opt = nullptr;
  BatchFlags batch;
};

void run_chunk_batch(const Context& ctx, const ChunkOptions& o, sm::Form to,
               std::optional<sm::Form> from) {
  BatchJob job;
  job.input = o.input;
  job.output = o.output;
  job.form = sm::batch_output(to);
  job.verb = std::string("chunk convert to ") + sm::form_name(to);
  job.split = [from](std::span<const uint8_t> in) { return sm::split_batch(in, from); };
  job.fn = [from, to](const batch::Item& it) { return sm::convert_item(it, from, to); };
  run_batch(ctx, o.batch, job);
}

void run_one(const Context& ctx, const ChunkOptions& o, sm::Form to, std::optional<sm::Form> from) {
  io::check_output(o.output, ctx.out(!sm::is_text(to)));
  const auto input = io::read_all(o.input, 1u << 24);
  sm::Form used{};
  const sm::Chunk chunk =
      with_source(io::display_name(o.input), [&] { return sm::decode_any(input, from, &used); });
  const auto bytes = sm::encode(chunk, to);
  io::write_file(o.output, bytes, ctx.out(!sm::is_text(to)));
  ctx.info(std::string("chunk: ") + sm::form_name(used) + (from ? "" : " (detected)") + " -> " +
           sm::form_name(to) + ", " + std::to_string(bytes.size()) + " bytes");
}

}  // namespace

void add_chunk_command(CLI::App& app, Context& ctx) {
  auto* chunk = app.add_subcommand("chunk", "Scrap Mechanic 17x17x17 voxel chunks");
  chunk->require_subcommand(1);
  auto opt = std::make_shared<ChunkOptions>();

  auto* conv = chunk->add_subcommand(
      "convert",
      "Convert a chunk between forms: lua (raw Lua table), json, bin (4913 bytes), lz4 (raw "
      "block), b64 (the serialized string: Base64 of an LZ4 HC block)");
  conv->add_option("input", opt->input, "Chunk, or lines of chunks with --batch ('-' = stdin)")
      ->capture_default_str();
  conv->add_option("-o,--output", opt->output, "Output ('-' = stdout)")->capture_default_str();
  add_enum(conv, "--to", opt->to, kChunkForms, "chunk form", "Output form: lua, json, bin, lz4 or b64")->required();
  opt->from_opt = add_enum(conv, "--from", opt->from, kChunkForms, "chunk form", "Input form (default: detected)");
  add_batch_flags(conv, opt->batch,
                  "Many chunks: one a line (lua, json or b64), a binary batch (VXBATCH, any form), "
                  "or with --from bin 4913-byte records -> one line each (lua, json, b64) or a "
                  "binary batch (bin, lz4) (docs/batch.md)");
  conv->callback([&ctx, opt] {
    const sm::Form to = opt->to;
    std::optional<sm::Form> from;
    if (opt->from_opt->count()) from = opt->from;
    if (opt->batch.batch) {
      run_chunk_batch(ctx, *opt, to, from);
    } else {
      run_one(ctx, *opt, to, from);
    }
  });
}

}  // namespace voxkit::cli
