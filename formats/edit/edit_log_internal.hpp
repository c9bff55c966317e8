// Internals of the edit-log readers and writers (formats/edit/edit_log*.cpp): the rules an
// ordered log keeps while it is read, its epoch blocks, and the edit token every text form reads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/edit/edit_log.hpp"

namespace voxkit::edit_log::internal {

using Kind = Record::Kind;

inline constexpr uint32_t kMaxCells = 0x7ffffffe;  // as the zone file's header allows

inline std::string str(uint64_t v) { return std::to_string(v); }
inline std::string dims_text(uint64_t x, uint64_t y, uint64_t z) { return str(x) + "x" + str(y) + "x" + str(z); }

// A token of the input for a message, cut to 40 bytes (escaped when the message is composed).
inline std::string shown(std::string_view t) {
  if (t.size() > 40) return "'" + std::string(t.substr(0, 37)) + "...'";
  return "'" + std::string(t) + "'";
}

// "an epoch in 0..2147483647", or above `after` when there is one.
inline std::string epoch_range(bool has_after = false, uint32_t after = 0) {
  return "an epoch in " + str(has_after ? uint64_t(after) + 1 : 0) + ".." + str(kMaxSeq);
}

// Records a reader may return, whatever the options say: seq numbers must fit.
inline uint64_t record_cap(const ReadOptions& o) { return std::min<uint64_t>(o.max_records, kMaxSeq); }

// Throws a data error when `log` already holds `cap` records (`where` names the place).
void room_for(const Log& log, uint64_t cap, const std::string& where);

// An ordered log as a reader meets it. Resets before the first edit only name the first
// edit's epoch (replay starts from the baked grid anyway); each later reset is kept.
class Ordered {
 public:
  explicit Ordered(Log& log) : log_(log) {}
  bool can_reset(uint64_t epoch) const { return epoch <= kMaxSeq && (!has_cur_ || epoch > cur_); }
  // What can_reset wants, for messages.
  std::string expected() const { return epoch_range(has_cur_, cur_); }
  // The epoch a reset without a number starts (nothing when the current one is the last).
  std::optional<uint32_t> next() const {
    if (!has_cur_) return 1;
    if (cur_ == kMaxSeq) return std::nullopt;
    return cur_ + 1;
  }
  void reset(uint32_t epoch) {
    if (any_edit_) log_.records.push_back({Kind::Reset, 0, 0, epoch});
    has_cur_ = true;
    cur_ = epoch;
    seq_ = 0;
  }
  void edit(uint64_t e) {
    has_cur_ = true;
    log_.records.push_back({Kind::Edit, e, seq_++, cur_});
    any_edit_ = true;
  }

 private:
  Log& log_;
  bool has_cur_ = false;  // the first epoch is 0 unless a reset before the first edit names it
  uint32_t cur_ = 0;
  uint32_t seq_ = 0;
  bool any_edit_ = false;
};

// An ordered log as epoch blocks: the first block's edits, then one block per reset. Resets
// before the first edit are folded into the first block's epoch.
struct Block {
  uint32_t epoch = 0;
  std::vector<uint64_t> edits;
};
std::vector<Block> blocks_of(const Log& log);

// An edit as a text or JSON string: "0x" and 1-16 hex digits, or a signed or unsigned decimal
// (bare hex, which edit::parse_edit also reads, is refused: in a log it is more often garbage).
std::optional<uint64_t> parse_edit_token(std::string_view t);
inline constexpr const char* kEditExpected = "an edit: 0x and 1-16 hex digits, or a decimal int64 or uint64";

// The length of a valid UTF-8 sequence of 2..4 bytes at t[i], or 0.
size_t utf8_length(std::string_view t, size_t i);

// Whether the first line of `text` with a field starts with an edit or a keyword; nothing
// when no line has a field. For detect(); `text` holds no control byte but tab, CR and LF.
std::optional<bool> text_starts_like_a_log(std::string_view text);

}  // namespace voxkit::edit_log::internal
