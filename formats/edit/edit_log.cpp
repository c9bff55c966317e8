// Edit logs: the records' rules, detection, the int64 list, and the dispatch to the text,
// JSON and .vxlog forms (docs/formats/edit-log.md).
#include "formats/edit/edit_log.hpp"

#include <algorithm>
#include <cstring>

#include "formats/edit/edit_log_internal.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

namespace voxkit::edit_log {
namespace internal {

void room_for(const Log& log, uint64_t cap, const std::string& where) {
  if (log.records.size() >= cap) {
    throw_data(where + ": more records than the reader's limit", std::nullopt, "at most " + str(cap), "more");
  }
}

std::vector<Block> blocks_of(const Log& log) {
  std::vector<Block> out;
  bool leading = true;
  for (const Record& r : log.records) {
    if (r.kind == Kind::Reset) {
      if (!leading) out.push_back({r.epoch, {}});
    } else {
      if (leading) out.push_back({r.epoch, {}});
      leading = false;
      out.back().edits.push_back(r.edit);
    }
  }
  return out;
}

std::optional<uint64_t> parse_edit_token(std::string_view t) {
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  if (!hex) {
    const size_t first = !t.empty() && t[0] == '-' ? 1 : 0;
    if (first == t.size()) return std::nullopt;
    for (size_t i = first; i < t.size(); ++i)
      if (t[i] < '0' || t[i] > '9') return std::nullopt;
  }
  return edit::parse_edit(std::string(t));
}

size_t utf8_length(std::string_view t, size_t i) {
  const auto c = uint8_t(t[i]);
  const size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > t.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((uint8_t(t[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

}  // namespace internal

using namespace internal;

namespace {

void check_cells(const Dims& c) {
  for (uint32_t n : {c.nx, c.ny, c.nz}) {
    if (n < 1 || n > kMaxCells) {
      throw_usage("edit log cells must be 1.." + str(kMaxCells) + " on every axis, not " + dims_text(c.nx, c.ny, c.nz));
    }
  }
}

using Bytes = std::vector<uint8_t>;

uint64_t get64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

void put64(Bytes& o, uint64_t v) {
  for (int i = 0; i < 8; ++i) o.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

// --- Log -------------------------------------------------------------------------------

Log Log::of_edits(std::span<const uint64_t> edits) {
  Log log;
  log.records.reserve(edits.size());
  for (size_t i = 0; i < edits.size(); ++i) log.records.push_back({Kind::Edit, edits[i], uint32_t(i), 0});
  return log;
}

std::vector<uint64_t> Log::edits() const {
  std::vector<uint64_t> out;
  out.reserve(edit_count());
  for (const Record& r : records)
    if (r.kind == Kind::Edit) out.push_back(r.edit);
  return out;
}

std::vector<uint64_t> Log::last_epoch_edits() const {
  auto last = std::find_if(records.rbegin(), records.rend(), [](const Record& r) { return r.kind == Kind::Reset; });
  std::vector<uint64_t> out;
  for (auto it = last.base(); it != records.end(); ++it) out.push_back(it->edit);
  return out;
}

size_t Log::edit_count() const {
  return size_t(std::count_if(records.begin(), records.end(), [](const Record& r) { return r.kind == Kind::Edit; }));
}

void Log::renumber() {
  if (network) return;
  std::optional<uint32_t> cur;
  uint32_t seq = 0;
  for (Record& r : records) {
    if (r.kind == Kind::Reset) {
      cur = r.epoch;
      seq = 0;
    } else {
      if (!cur) cur = r.epoch;
      r.epoch = *cur;
      r.seq = seq++;
    }
  }
}

void check_log(const Log& log) {
  if (log.cells) check_cells(*log.cells);
  auto bad = [](size_t i, const std::string& what) { throw_usage("edit log record " + str(i) + ": " + what); };
  std::optional<uint32_t> cur;
  uint32_t seq = 0;
  for (size_t i = 0; i < log.records.size(); ++i) {
    const Record& r = log.records[i];
    if (r.epoch > kMaxSeq) bad(i, "epoch " + str(r.epoch) + " is past " + str(kMaxSeq));
    if (r.seq > kMaxSeq) bad(i, "sequence number " + str(r.seq) + " is past " + str(kMaxSeq));
    if (r.kind == Kind::Reset) {
      if (r.edit || r.seq) bad(i, "a reset holds no edit and no sequence number");
      if (log.network) continue;
      if (cur && r.epoch <= *cur) {
        bad(i, "a reset must start a newer epoch than " + str(*cur) + ", not " + str(r.epoch));
      }
      cur = r.epoch;
      seq = 0;
    } else if (r.kind == Kind::Edit) {
      if (log.network) continue;
      if (!cur) cur = r.epoch;
      if (r.epoch != *cur || r.seq != seq) {
        bad(i, "an ordered log's edit has epoch " + str(r.epoch) + " and seq " + str(r.seq) +
                   " where its place gives " + str(*cur) + " and " + str(seq) + " (Log::renumber sets them)");
      }
      ++seq;
    } else {
      bad(i, "unknown record kind " + str(uint8_t(r.kind)));
    }
  }
}

// --- detection, dispatch, the int64 list ---------------------------------------------------

Format detect(std::span<const uint8_t> bytes) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), kVxlogMagic, 4) == 0) return Format::Vxlog;
  const std::string_view t(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (t.empty()) return Format::Int64;
  for (size_t i = 0; i < t.size();) {
    const auto c = uint8_t(t[i]);
    if (c >= 0x80) {
      const size_t n = utf8_length(t, i);
      if (n == 0) return Format::Int64;
      i += n;
    } else if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
      return Format::Int64;
    } else {
      ++i;
    }
  }
  const size_t first = t.find_first_not_of(" \t\r\n", t.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0);
  if (first != std::string_view::npos && (t[first] == '[' || t[first] == '{')) return Format::Json;
  // Text when the first line with a field starts with an edit or a keyword, or when no line
  // has one (comments only).
  return text_starts_like_a_log(t).value_or(true) ? Format::Text : Format::Int64;
}

Log read(std::span<const uint8_t> bytes, Format format, const ReadOptions& opts) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  switch (format) {
    case Format::Int64: return read_int64(bytes, opts);
    case Format::Text: return read_text(text, opts);
    case Format::Json: return read_json(text, opts);
    case Format::Vxlog: return read_vxlog(bytes, opts);
  }
  throw_usage("unknown edit log format");
}

std::vector<uint8_t> write(const Log& log, Format format) {
  switch (format) {
    case Format::Int64: return write_int64(log);
    case Format::Vxlog: return write_vxlog(log);
    case Format::Text: {
      const std::string s = write_text(log);
      return {s.begin(), s.end()};
    }
    case Format::Json: {
      const std::string s = write_json(log);
      return {s.begin(), s.end()};
    }
  }
  throw_usage("unknown edit log format");
}

Log read_int64(std::span<const uint8_t> bytes, const ReadOptions& opts) {
  return with_source(opts.name, [&] {
    const size_t n = bytes.size(), whole = n - n % 8;
    if (n % 8) {
      throw_data("the int64 edit list's length, " + str(n) + " bytes, is not a multiple of 8", whole,
                 "a multiple of 8 bytes", str(n % 8) + " bytes after the last whole edit");
    }
    const uint64_t cap = record_cap(opts);
    if (n / 8 > cap) throw_data("more edits than the reader's limit", 0, "at most " + str(cap), str(n / 8) + " edits");
    std::vector<uint64_t> edits(n / 8);
    for (size_t i = 0; i < edits.size(); ++i) edits[i] = get64(bytes.data() + 8 * i);
    return Log::of_edits(edits);
  });
}

std::vector<uint8_t> write_int64(const Log& log) {
  check_log(log);
  if (log.network) throw_usage("the int64 edit list cannot hold a network log's sequence numbers and epochs");
  if (log.edit_count() != log.records.size()) {
    throw_usage("the int64 edit list cannot hold resets: write the edits after the last reset instead");
  }
  Bytes o;
  o.reserve(8 * log.records.size());
  for (const Record& r : log.records) put64(o, r.edit);
  return o;
}

const char* format_name(Format f) {
  switch (f) {
    case Format::Int64: return "int64";
    case Format::Text: return "text";
    case Format::Json: return "json";
    case Format::Vxlog: return "vxlog";
  }
  return "?";
}

std::optional<Format> format_from_name(std::string_view name) {
  for (Format f : {Format::Int64, Format::Text, Format::Json, Format::Vxlog})
    if (name == format_name(f)) return f;
  return std::nullopt;
}

}  // namespace voxkit::edit_log
