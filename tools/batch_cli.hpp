// What the verbs' --batch shares (docs/batch.md): the flags, reading the input as items,
// writing the records, the failure list on stderr and the --json report.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "formats/core/batch.hpp"
#include "tools/context.hpp"

namespace voxkit::cli {

struct BatchFlags {
  bool batch = false;
  bool keep_going = false;
  bool json = false;
};

// Adds --batch (its help: `what`), and --keep-going and --json, which need --batch.
void add_batch_flags(CLI::App* cmd, BatchFlags& flags, const std::string& what);

// The bytes of one item: a text line holds them as Base64 (the text form of bytes), a
// container record holds them as they are.
struct ItemBytes {
  std::vector<uint8_t> owned;
  std::span<const uint8_t> view;
  bool decoded = false;
  std::span<const uint8_t> bytes() const {
    return decoded ? std::span<const uint8_t>(owned) : view;
  }
};
ItemBytes item_bytes_b64(const batch::Item& it);

struct BatchJob {
  std::string input = "-", output = "-";
  batch::Output form = batch::Output::Container;
  // Splits the input into items; default: batch::split_items (a container or lines).
  std::function<std::vector<batch::Item>(std::span<const uint8_t>)> split;
  batch::ItemFn fn;
  std::string verb;  // "rle encode": in the summary line
};

// Runs a batch: refuses an existing output before the work, reads the input, runs the items
// (in parallel), writes the output (none when a failure stops the run), lists every failed
// item on stderr ("voxkit: IN: item N (line L): why", even with -q), prints the summary
// (--json: the report) and throws a data error when any item failed.
void run_batch(const Context& ctx, const BatchFlags& flags, const BatchJob& job);

}  // namespace voxkit::cli
