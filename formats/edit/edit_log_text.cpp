// Text edit logs: one edit a line (or EDIT SEQ EPOCH), resets, cells, comments; errors by
// line and column (docs/formats/edit-log.md).
#include <array>
#include <string>

#include "formats/edit/edit_log.hpp"
#include "formats/edit/edit_log_internal.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

namespace voxkit::edit_log {

using namespace internal;

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

struct Token {
  std::string_view text;
  size_t column = 0;  // 1-based, in bytes
};

// One line's fields (before any '#'): at most 5 are kept, `count` says how many there were.
struct Fields {
  std::array<Token, 5> t;
  size_t count = 0;
  size_t line = 0;
};

[[noreturn]] void text_error(size_t line, size_t column, const std::string& what, std::string expected,
                             std::string found) {
  throw_data("line " + str(line) + ", column " + str(column) + ": " + what, std::nullopt, std::move(expected),
             std::move(found));
}

// Calls f(fields) for each line of `text`; f returns false to stop. Refuses control bytes
// anywhere and bytes outside printable ASCII in fields. A UTF-8 byte order mark is skipped.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  size_t pos = text.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
  for (size_t line = 1; pos <= text.size(); ++line) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(pos, end - pos);
    Fields fs;
    fs.line = line;
    bool comment = false;
    for (size_t i = 0; i < l.size();) {
      const auto c = uint8_t(l[i]);
      if ((c < 0x20 && !blank(char(c))) || c == 0x7f) {
        text_error(line, i + 1, "a control byte in a text edit log", "text", std::string(1, char(c)));
      }
      if (comment || blank(char(c))) {
        if (c >= 0x80) {
          const size_t n = utf8_length(l, i);
          if (n == 0) {
            text_error(line, i + 1, "a byte that is not UTF-8 in a comment", "UTF-8 text", std::string(1, char(c)));
          }
          i += n;
        } else {
          ++i;
        }
        continue;
      }
      if (c == '#') {
        comment = true;
        ++i;
        continue;
      }
      size_t j = i;
      while (j < l.size() && !blank(l[j]) && l[j] != '#' && uint8_t(l[j]) >= 0x20 && uint8_t(l[j]) != 0x7f) ++j;
      if (fs.count < fs.t.size()) fs.t[fs.count] = {l.substr(i, j - i), i + 1};
      ++fs.count;
      i = j;
    }
    if (!f(fs)) return;
    pos = end + 1;
  }
}

bool is_keyword(std::string_view t) { return t == "reset" || t == "cells" || t == "network"; }

// A decimal in 0..hi, digits only.
std::optional<uint64_t> parse_decimal(std::string_view t, uint64_t hi) {
  if (t.empty() || t.size() > 12) return std::nullopt;
  uint64_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + uint64_t(c - '0');
  }
  if (v > hi) return std::nullopt;
  return v;
}

}  // namespace

std::optional<bool> internal::text_starts_like_a_log(std::string_view t) {
  std::optional<bool> text;
  for_each_line(t, [&](const Fields& f) {
    if (f.count == 0) return true;
    text = is_keyword(f.t[0].text) || parse_edit_token(f.t[0].text).has_value();
    return false;
  });
  return text;
}

Log read_text(std::string_view text, const ReadOptions& opts) {
  return with_source(opts.name, [&] {
    // The form comes from the first edit line (1 field: ordered, 3: network) or a `network` line.
    std::optional<bool> network;
    size_t decided_at = 0;
    for_each_line(text, [&](const Fields& f) {
      if (f.count == 0 || (f.t[0].text != "network" && is_keyword(f.t[0].text))) return true;
      if (f.t[0].text == "network") network = true;
      else if (f.count == 1 || f.count == 3) network = f.count == 3;
      else return true;  // the second pass says what is wrong with it
      decided_at = f.line;
      return false;
    });
    Log log;
    log.network = network.value_or(false);
    Ordered ord(log);
    const uint64_t cap = record_cap(opts);
    bool any_record = false;
    for_each_line(text, [&](const Fields& f) {
      if (f.count == 0) return true;
      const Token& t0 = f.t[0];
      const size_t line = f.line;
      auto wrong_fields = [&](const char* want) {
        text_error(line, t0.column, "wrong number of fields", want, str(f.count) + " fields");
      };
      auto epoch_of = [&](const Token& t, const std::string& expected) {
        auto v = parse_decimal(t.text, kMaxSeq);
        if (!v) text_error(line, t.column, "not an epoch", expected, shown(t.text));
        return uint32_t(*v);
      };
      if (t0.text == "cells" || t0.text == "network") {
        if (any_record) {
          text_error(line, t0.column, "'" + std::string(t0.text) + "' after the first record", "it before every record",
                     shown(t0.text));
        }
        if (t0.text == "network") {
          if (f.count != 1) wrong_fields("network alone");
          return true;
        }
        if (f.count != 4) wrong_fields("cells NX NY NZ");
        if (log.cells) text_error(line, t0.column, "a second 'cells' line", "one", "two");
        uint32_t n[3];
        for (size_t i = 0; i < 3; ++i) {
          const Token& t = f.t[1 + i];
          auto v = parse_decimal(t.text, kMaxCells);
          if (!v || *v < 1) {
            text_error(line, t.column, "not a cell count", "an integer in 1.." + str(kMaxCells), shown(t.text));
          }
          n[i] = uint32_t(*v);
        }
        log.cells = Dims{n[0], n[1], n[2]};
        return true;
      }
      any_record = true;
      if (t0.text == "reset") {
        if (f.count > 2) wrong_fields("reset or reset EPOCH");
        if (log.network) {
          if (f.count == 1) {
            text_error(line, t0.column, "a reset in a network log must name its epoch", "reset EPOCH",
                       "reset (the log is a network log from line " + str(decided_at) + ")");
          }
          room_for(log, cap, "line " + str(line));
          log.records.push_back({Kind::Reset, 0, 0, epoch_of(f.t[1], epoch_range())});
          return true;
        }
        uint32_t epoch;
        if (f.count == 1) {
          auto next = ord.next();
          if (!next) text_error(line, t0.column, "no epoch after the last one", ord.expected(), "reset");
          epoch = *next;
        } else {
          epoch = epoch_of(f.t[1], ord.expected());
          if (!ord.can_reset(epoch)) {
            text_error(line, f.t[1].column, "a reset must start a newer epoch", ord.expected(), str(epoch));
          }
        }
        room_for(log, cap, "line " + str(line));
        ord.reset(epoch);
        return true;
      }
      if (f.count != 1 && f.count != 3) wrong_fields("EDIT (an ordered log) or EDIT SEQ EPOCH (a network log)");
      if (log.network && f.count == 1) {
        text_error(line, t0.column, "a single edit in a network log", "EDIT SEQ EPOCH",
                   "EDIT (the log is a network log from line " + str(decided_at) + ")");
      }
      if (!log.network && f.count == 3) {
        text_error(line, t0.column, "a network record in an ordered log", "EDIT",
                   "EDIT SEQ EPOCH (line " + str(decided_at) + " holds a single edit)");
      }
      auto e = parse_edit_token(t0.text);
      if (!e) text_error(line, t0.column, "not an edit", kEditExpected, shown(t0.text));
      room_for(log, cap, "line " + str(line));
      if (!log.network) {
        ord.edit(*e);
        return true;
      }
      auto seq = parse_decimal(f.t[1].text, kMaxSeq);
      if (!seq) {
        text_error(line, f.t[1].column, "not a sequence number", "an integer in 0.." + str(kMaxSeq),
                   shown(f.t[1].text));
      }
      log.records.push_back({Kind::Edit, *e, uint32_t(*seq), epoch_of(f.t[2], epoch_range())});
      return true;
    });
    return log;
  });
}

std::string write_text(const Log& log) {
  check_log(log);
  std::string s;
  if (log.cells) s += "cells " + str(log.cells->nx) + " " + str(log.cells->ny) + " " + str(log.cells->nz) + "\n";
  if (log.network) {
    s += "network\n";
    for (const Record& r : log.records) {
      if (r.kind == Kind::Reset) s += "reset " + str(r.epoch) + "\n";
      else s += edit::to_hex(r.edit) + " " + str(r.seq) + " " + str(r.epoch) + "\n";
    }
    return s;
  }
  const auto blocks = blocks_of(log);
  for (size_t k = 0; k < blocks.size(); ++k) {
    // The first epoch is 0 unless a reset before the first edit names it.
    if (k || blocks[k].epoch != 0) s += "reset " + str(blocks[k].epoch) + "\n";
    for (uint64_t e : blocks[k].edits) s += edit::to_hex(e) + "\n";
  }
  return s;
}

}  // namespace voxkit::edit_log
