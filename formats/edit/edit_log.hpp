// Edit logs: lists of the dig-zone package's packed edits (docs/formats/edit-log.md) in four
// encodings: the package's plain little-endian int64 list, text (one edit a line), JSON, and
// voxkit's own .vxlog (magic, version, the grid the log is for, epochs, counts, entries).
//
// A log is a sequence of records in file order. An ordered log holds edits and resets (epoch
// boundaries: replay starts again from the baked grid); a network log holds (edit, sequence,
// epoch) records in the order a client received them, with duplicates, gaps and epochs as
// they arrived (lib/edit/replay.hpp reproduces what the client ends with). In an ordered log,
// resets before the first edit only name that edit's epoch: readers and writers fold them in.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/grid.hpp"

namespace voxkit::edit_log {

enum class Format { Int64, Text, Json, Vxlog };

// Sequence numbers and epochs are the runtime's non-negative C# ints: 0..kMaxSeq.
inline constexpr uint32_t kMaxSeq = 0x7fffffff;

struct Record {
  enum class Kind : uint8_t { Edit, Reset };
  Kind kind = Kind::Edit;
  uint64_t edit = 0;   // the packed edit (Kind::Edit; 0 for a reset)
  uint32_t seq = 0;    // network logs: the sequence number within its epoch (0 for a reset)
  uint32_t epoch = 0;  // the epoch the record belongs to (a reset: the epoch it starts)
  bool operator==(const Record&) const = default;
};

struct Log {
  bool network = false;          // records carry their own seq and epoch, in arrival order
  std::optional<Dims> cells;     // the grid the log was made for, when the file says
  std::vector<Record> records;

  // An ordered log of `edits` (one epoch, seq = index).
  static Log of_edits(std::span<const uint64_t> edits);
  // The edits only, in file order (resets dropped): what the int64 form stores.
  std::vector<uint64_t> edits() const;
  // The edits after the last reset: what a replay from the baked grid ends with.
  std::vector<uint64_t> last_epoch_edits() const;
  size_t edit_count() const;
  // Ordered logs: sets each edit's epoch (that of the reset before it, or of the first
  // record) and seq (its index within the epoch). Network logs are left as they are.
  void renumber();
  bool operator==(const Log&) const = default;
};

// Throws a usage error naming the first record that breaks the rules of
// docs/formats/edit-log.md: seq and epoch within 0..kMaxSeq; a reset holds no edit or seq;
// in an ordered log each edit's epoch and seq follow from its place (renumber() sets them)
// and each reset starts a newer epoch; cells, when given, 1..2^31-2 on every axis. Every
// writer calls it; every reader returns logs that pass it.
void check_log(const Log& log);

struct ReadOptions {
  std::string name = "<log>";       // for messages
  uint64_t max_records = 1u << 26;  // refused past this, before anything is allocated
};

// Guesses the encoding from the first bytes: the .vxlog magic, a JSON '[' or '{' after
// blanks, text when every byte is printable ASCII or blank and a line parses as an edit, and
// otherwise the int64 list (whose length must then be a multiple of 8). Precisely (the doc's
// "Detection"): the magic's first four bytes; JSON and text also allow UTF-8 but no control
// byte besides tab, CR and LF; a text whose lines are all blank or comments is text too.
Format detect(std::span<const uint8_t> bytes);

// Each reader throws a data error with the file name, the byte offset (text: line and
// column), what was expected and what was found. Nothing is allocated past what the bytes
// can hold.
Log read(std::span<const uint8_t> bytes, Format format, const ReadOptions& opts = {});
Log read_int64(std::span<const uint8_t> bytes, const ReadOptions& opts = {});
Log read_text(std::string_view text, const ReadOptions& opts = {});
Log read_json(std::string_view text, const ReadOptions& opts = {});
Log read_vxlog(std::span<const uint8_t> bytes, const ReadOptions& opts = {});

// Writers. The int64 form cannot hold resets or network fields: it throws a usage error for
// a log that has them (write last_epoch_edits() instead). Deterministic bytes.
std::vector<uint8_t> write(const Log& log, Format format);
std::vector<uint8_t> write_int64(const Log& log);
std::string write_text(const Log& log);
std::string write_json(const Log& log);
std::vector<uint8_t> write_vxlog(const Log& log);

const char* format_name(Format f);  // "int64", "text", "json", "vxlog"
std::optional<Format> format_from_name(std::string_view name);  // the inverse; nothing if unknown

// The .vxlog file (docs/formats/edit-log.md): "\x89VXL\r\n\x1a\n", like the zone file's magic.
inline constexpr uint8_t kVxlogMagic[8] = {0x89, 'V', 'X', 'L', '\r', '\n', 0x1a, '\n'};
inline constexpr uint16_t kVxlogMajor = 1;  // a reader refuses other majors
inline constexpr uint16_t kVxlogMinor = 0;  // a reader accepts any minor of its major
inline constexpr size_t kVxlogHeaderSize = 48;

}  // namespace voxkit::edit_log
