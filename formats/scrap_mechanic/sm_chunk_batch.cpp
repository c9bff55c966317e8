// Batch conversion of chunk lines: windows of lines converted with TBB, outputs joined in
// line order so the bytes do not depend on the thread count.
#include "formats/scrap_mechanic/sm_chunk_batch.hpp"

#include <tbb/parallel_for.h>

#include <optional>
#include <string_view>

#include "lib/core/error.hpp"

namespace voxkit::sm {
namespace {

struct Line {
  size_t begin, end;
};

std::vector<Line> split_lines(std::span<const uint8_t> in) {
  std::vector<Line> lines;
  size_t start = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\n') continue;
    size_t end = i;
    if (end > start && in[end - 1] == '\r') --end;
    lines.push_back({start, end});
    start = i + 1;
  }
  if (start < in.size()) lines.push_back({start, in.size()});
  return lines;
}

}  // namespace

BatchResult convert_batch(std::span<const uint8_t> input, const BatchOptions& opts) {
  if (opts.to == Form::Lz4 || (opts.from && *opts.from == Form::Lz4) ||
      (opts.from && *opts.from == Form::Bin)) {
    throw_usage("batch mode reads one text chunk per line (lua, json or b64) and writes "
                "lua, json, b64 or bin; lz4 blocks and binary input do not fit in lines");
  }
  const std::vector<Line> lines = split_lines(input);
  BatchResult result;
  result.lines = lines.size();
  WriteOptions wopts;
  wopts.one_line = true;
  wopts.final_newline = true;

  // Per-line outputs and errors of one window; windows bound the memory held at once.
  constexpr size_t kWindow = 4096;
  std::vector<std::vector<uint8_t>> outs;
  std::vector<std::optional<Error>> errs;
  for (size_t w0 = 0; w0 < lines.size(); w0 += kWindow) {
    const size_t w1 = std::min(lines.size(), w0 + kWindow);
    outs.assign(w1 - w0, {});
    errs.assign(w1 - w0, {});
    tbb::parallel_for(tbb::blocked_range<size_t>(w0, w1, 16), [&](const auto& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) {
        const auto bytes = input.subspan(lines[i].begin, lines[i].end - lines[i].begin);
        try {
          if (bytes.empty()) throw_data("empty line", 0, "a chunk", "nothing");
          const Chunk c = decode_any(bytes, opts.from);
          outs[i - w0] = encode(c, opts.to, wopts);
        } catch (Error& e) {
          e.set_source((opts.source.empty() ? std::string("<input>") : opts.source) +
                       ": line " + std::to_string(i + 1));
          errs[i - w0] = e;
        }
      }
    });
    for (size_t i = w0; i < w1; ++i) {
      const auto& err = errs[i - w0];
      if (err) {
        if (!opts.keep_going) throw *err;
        result.errors.push_back(*err);
        if (is_text(opts.to)) result.output.push_back('\n');  // keeps lines aligned
        continue;
      }
      result.output.insert(result.output.end(), outs[i - w0].begin(), outs[i - w0].end());
    }
  }
  return result;
}

}  // namespace voxkit::sm
