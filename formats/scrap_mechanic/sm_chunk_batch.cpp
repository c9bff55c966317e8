// Batch conversion of chunks on the batch runner of formats/core/batch.hpp.
#include "formats/scrap_mechanic/sm_chunk_batch.hpp"

namespace voxkit::sm {

std::vector<batch::Item> split_batch(std::span<const uint8_t> input, std::optional<Form> from) {
  if (batch::is_container(input)) return batch::read_container(input);
  if (from && *from == Form::Bin) return batch::split_records(input, kVoxels);
  if (from && *from == Form::Lz4) {
    throw_usage("LZ4 blocks do not fit in lines: a batch of them is a binary batch",
                {{"from", ""}});
  }
  return batch::split_lines(input);
}

std::vector<uint8_t> convert_item(const batch::Item& it, std::optional<Form> from, Form to) {
  if (it.bytes.empty()) throw_data(it.line ? "empty line" : "empty item", 0, "a chunk", "nothing");
  const Chunk c = decode_any(it.bytes, from);
  WriteOptions w;
  w.one_line = true;
  w.final_newline = false;
  return encode(c, to, w);
}

BatchResult convert_batch(std::span<const uint8_t> input, const BatchOptions& opts) {
  const auto items = split_batch(input, opts.from);
  batch::Options bo;
  bo.output = batch_output(opts.to);
  bo.keep_going = opts.keep_going;
  bo.source = opts.source;
  const auto from = opts.from;
  const auto to = opts.to;
  auto r = batch::run(items, [&](const batch::Item& it) { return convert_item(it, from, to); }, bo);
  BatchResult out;
  out.output = std::move(r.output);
  out.lines = r.items;
  for (auto& f : r.failures) out.errors.push_back(std::move(f.full));
  return out;
}

}  // namespace voxkit::sm
