// Batch conversion of Scrap Mechanic chunks: one input per line -> one output per line,
// converted in parallel, written in input order (docs/formats/scrap-mechanic-chunk.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/scrap_mechanic/sm_chunk.hpp"
#include "lib/core/error.hpp"

namespace voxkit::sm {

struct BatchOptions {
  std::optional<Form> from;  // detect each line's form when empty
  Form to = Form::B64;       // text forms give one line each; bin gives 4913-byte records
  bool keep_going = false;   // on a bad line: record the error, write an empty line, go on
  std::string source;        // name used in messages ("in.txt" -> "in.txt: line 3: ...")
};

struct BatchResult {
  std::vector<uint8_t> output;
  uint64_t lines = 0;                // input lines seen
  std::vector<Error> errors;         // one per bad line, in line order
};

// Converts every line of `input` ('\n' or "\r\n" endings; a last line without a newline
// counts). Without keep_going the first bad line throws its error, named "SOURCE: line N".
// Throws a usage error for forms that are not one-line (lz4 in either direction).
BatchResult convert_batch(std::span<const uint8_t> input, const BatchOptions& opts);

}  // namespace voxkit::sm
