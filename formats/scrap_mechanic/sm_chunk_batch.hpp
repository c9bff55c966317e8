// Batch conversion of Scrap Mechanic chunks (docs/batch.md, docs/formats/scrap-mechanic-chunk.md):
// items are the lines of a text input (lua, json or b64 one a line), the records of a binary
// batch (VXBATCH, any form), or consecutive 4913-byte records (--from bin without a batch
// header); the output is one line per item for the text forms, a binary batch for bin and lz4.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/core/batch.hpp"
#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/core/error.hpp"

namespace voxkit::sm {

struct BatchOptions {
  std::optional<Form> from;  // detect each item's form when empty
  Form to = Form::B64;       // text forms give one line each; bin and lz4 a binary batch
  bool keep_going = false;   // a bad item: recorded, a marked empty record in its place
  std::string source;        // name used in messages ("in.txt: item 3 (line 3): ...")
};

// The items of `input`. Throws a usage error for lz4 lines (blocks come in a binary batch) and
// a data error for a damaged binary batch or a cut-short last 4913-byte record.
std::vector<batch::Item> split_batch(std::span<const uint8_t> input, std::optional<Form> from);
// The output form of a batch converting to `to`.
constexpr batch::Output batch_output(Form to) {
  return is_text(to) ? batch::Output::Lines : batch::Output::Container;
}
// One item converted (a text form without its newline).
std::vector<uint8_t> convert_item(const batch::Item& it, std::optional<Form> from, Form to);

struct BatchResult {
  std::vector<uint8_t> output;
  uint64_t lines = 0;         // items seen (lines of a text input)
  std::vector<Error> errors;  // one per bad item, in item order
};

// Converts every item of `input` in parallel, written in item order. Without keep_going the
// first bad item throws its error, named "SOURCE: item N (line L)".
BatchResult convert_batch(std::span<const uint8_t> input, const BatchOptions& opts);

}  // namespace voxkit::sm
