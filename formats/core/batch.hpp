// Batches: many items read from one input, each turned into one output record, all written
// as one output in item order (docs/batch.md). Two forms:
//   - text: one item a line ('\n' or "\r\n"; a last line without a newline counts). A failed
//     item leaves an empty line.
//   - binary, the VXBATCH container: a 16-byte header ("VXBATCH", version byte 1, u64 LE
//     record count) and per record a status byte (0 ok, 1 failed), a u64 LE length and that
//     many bytes. A failed record has length 0.
// Items are processed in parallel (TBB) in windows; the output does not depend on the thread
// count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/core/error.hpp"

namespace voxkit::batch {

inline constexpr char kMagic[] = "VXBATCH";  // 7 bytes, then the version byte
inline constexpr size_t kMagicSize = 7;
inline constexpr uint8_t kVersion = 1;
inline constexpr size_t kHeaderSize = 16;       // magic, version, u64 count
inline constexpr size_t kRecordHeaderSize = 9;  // status, u64 length
inline constexpr uint8_t kStatusOk = 0;
inline constexpr uint8_t kStatusFailed = 1;

// True when `in` starts with the container's magic (whatever follows it): such an input is
// read as a container, and refused when it is not a valid one.
bool is_container(std::span<const uint8_t> in);

// One item of an input batch: a view into the input.
struct Item {
  std::span<const uint8_t> bytes;
  uint64_t offset = 0;                 // of the item's bytes in the input
  std::optional<uint64_t> line;        // 1-based, for text input
  bool failed_before = false;          // a failed record of a container read back
};

// The records of a container. Throws a data error (offset, expected, found) for a bad
// magic or version, a bad status byte, a failed record with bytes, a length that runs past
// the end, fewer or more records than the header says. Nothing is allocated for a count or
// a length before the bytes are there.
std::vector<Item> read_container(std::span<const uint8_t> in);
// The lines of a text input.
std::vector<Item> split_lines(std::span<const uint8_t> in);
// Consecutive records of `size` bytes (a file of fixed records); a last partial record is a
// data error.
std::vector<Item> split_records(std::span<const uint8_t> in, size_t size);
// A container when `in` is one, else its lines.
std::vector<Item> split_items(std::span<const uint8_t> in);

// Writing a container.
void append_header(std::vector<uint8_t>& out, uint64_t count);
void append_record(std::vector<uint8_t>& out, bool ok, std::span<const uint8_t> bytes);

enum class Output {
  Lines,      // each record's bytes and '\n' (a record must not hold a newline)
  Container,  // VXBATCH
};

struct Options {
  Output output = Output::Container;
  bool keep_going = false;  // a failed item: noted, a marked empty record in its place
  std::string source;       // the input's name in messages ("<input>" when empty)
};

struct Failure {
  uint64_t item = 0;             // 1-based
  std::optional<uint64_t> line;  // for text input
  uint64_t offset = 0;           // of the item in the input
  std::string error;             // what went wrong in the item (offsets are the item's)
  Error full{ErrorKind::Data, ""};  // the same, its source "SOURCE: item N (line L)"
};

struct Result {
  std::vector<uint8_t> output;
  uint64_t items = 0;
  std::vector<Failure> failures;  // in item order
};

// Turns one item into its output record; throws voxkit::Error for a bad item.
using ItemFn = std::function<std::vector<uint8_t>(const Item&)>;

// "item N (line L)" or "item N (offset O)".
std::string item_label(uint64_t item, const Item& it);

// Runs `fn` over `items` in parallel. Without keep_going the first failed item (in item order)
// is thrown, its source "SOURCE: item N (line L)". An item that failed in an earlier batch (a
// failed record read back) fails again, so it keeps its place. A text record that holds a
// newline is a failure of its item.
Result run(std::span<const Item> items, const ItemFn& fn, const Options& opts);

}  // namespace voxkit::batch
