// Batches: the VXBATCH container, text lines, and the parallel run over items in windows whose
// records are joined in item order.
#include "formats/core/batch.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

namespace voxkit::batch {
namespace {

uint64_t get_u64(std::span<const uint8_t> in, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v |= uint64_t(in[at + i]) << (8 * i);
  return v;
}

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

bool is_container(std::span<const uint8_t> in) {
  return in.size() >= kMagicSize && std::memcmp(in.data(), kMagic, kMagicSize) == 0;
}

std::vector<Item> read_container(std::span<const uint8_t> in) {
  if (!is_container(in)) throw_data("not a batch", 0, "\"VXBATCH\"", "other bytes");
  if (in.size() > kMagicSize && in[kMagicSize] != kVersion) {
    throw_data("unknown batch version", kMagicSize, std::to_string(kVersion),
               std::to_string(in[kMagicSize]));
  }
  if (in.size() < kHeaderSize) {
    throw_data("batch header cut short", in.size(), std::to_string(kHeaderSize) + " bytes",
               std::to_string(in.size()));
  }
  const uint64_t count = get_u64(in, kMagicSize + 1);
  // Every record takes at least its 9-byte header: no more is reserved than the bytes can
  // hold, whatever the count says; a count the bytes do not back fails at its first missing
  // record.
  const uint64_t room = (in.size() - kHeaderSize) / kRecordHeaderSize;
  std::vector<Item> items;
  items.reserve(size_t(std::min(count, room)));
  size_t at = kHeaderSize;
  for (uint64_t n = 0; n < count; ++n) {
    const auto rec = [&] { return "record " + std::to_string(n + 1) + " of " + std::to_string(count); };
    if (in.size() - at < kRecordHeaderSize) {
      throw_data(rec() + ": record header cut short", at, std::to_string(kRecordHeaderSize) + " bytes",
                 std::to_string(in.size() - at));
    }
    const uint8_t status = in[at];
    if (status != kStatusOk && status != kStatusFailed) {
      throw_data(rec() + ": bad record status", at, "0 (ok) or 1 (failed)", std::to_string(status));
    }
    const uint64_t len = get_u64(in, at + 1);
    if (status == kStatusFailed && len != 0) {
      throw_data(rec() + ": a failed record holds bytes", at + 1, "length 0", std::to_string(len));
    }
    const size_t data = at + kRecordHeaderSize;
    if (len > in.size() - data) {
      throw_data(rec() + ": record runs past the end of the input", at + 1,
                 "at most " + std::to_string(in.size() - data) + " bytes", std::to_string(len));
    }
    Item it;
    it.bytes = in.subspan(data, size_t(len));
    it.offset = data;
    it.failed_before = status == kStatusFailed;
    items.push_back(it);
    at = data + size_t(len);
  }
  if (at != in.size()) {
    throw_data("bytes after the last batch record", at, "the end of the input",
               std::to_string(in.size() - at) + " more bytes");
  }
  return items;
}

std::vector<Item> split_lines(std::span<const uint8_t> in) {
  std::vector<Item> items;
  size_t start = 0;
  uint64_t line = 0;
  auto add = [&](size_t end) {
    if (end > start && in[end - 1] == '\r') --end;
    Item it;
    it.bytes = in.subspan(start, end - start);
    it.offset = start;
    it.line = ++line;
    items.push_back(it);
  };
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\n') continue;
    add(i);
    start = i + 1;
  }
  if (start < in.size()) add(in.size());
  return items;
}

std::vector<Item> split_records(std::span<const uint8_t> in, size_t size) {
  if (size == 0) throw_usage("fixed records of 0 bytes");
  if (in.size() % size != 0) {
    const size_t last = in.size() - in.size() % size;
    throw_data("last record cut short", last, std::to_string(size) + " bytes",
               std::to_string(in.size() - last));
  }
  std::vector<Item> items;
  items.reserve(in.size() / size);
  for (size_t at = 0; at < in.size(); at += size) {
    Item it;
    it.bytes = in.subspan(at, size);
    it.offset = at;
    items.push_back(it);
  }
  return items;
}

std::vector<Item> split_items(std::span<const uint8_t> in) {
  return is_container(in) ? read_container(in) : split_lines(in);
}

void append_header(std::vector<uint8_t>& out, uint64_t count) {
  out.insert(out.end(), kMagic, kMagic + kMagicSize);
  out.push_back(kVersion);
  put_u64(out, count);
}

void append_record(std::vector<uint8_t>& out, bool ok, std::span<const uint8_t> bytes) {
  out.push_back(ok ? kStatusOk : kStatusFailed);
  put_u64(out, ok ? bytes.size() : 0);
  if (ok) out.insert(out.end(), bytes.begin(), bytes.end());
}

std::string item_label(uint64_t item, const Item& it) {
  return "item " + std::to_string(item) + " (" +
         (it.line ? "line " + std::to_string(*it.line) : "offset " + std::to_string(it.offset)) + ")";
}

Result run(std::span<const Item> items, const ItemFn& fn, const Options& opts) {
  Result result;
  result.items = items.size();
  const std::string source = opts.source.empty() ? std::string("<input>") : opts.source;
  const bool lines = opts.output == Output::Lines;
  if (!lines) append_header(result.output, items.size());

  // Records and errors of one window: windows bound the memory held at once.
  constexpr size_t kWindow = 4096;
  std::vector<std::vector<uint8_t>> outs;
  std::vector<std::optional<Error>> errs;
  for (size_t w0 = 0; w0 < items.size(); w0 += kWindow) {
    const size_t w1 = std::min(items.size(), w0 + kWindow);
    outs.assign(w1 - w0, {});
    errs.assign(w1 - w0, std::nullopt);
    tbb::parallel_for(tbb::blocked_range<size_t>(w0, w1, 8), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) {
        try {
          if (items[i].failed_before) throw_data("failed in the batch it was read from");
          auto rec = fn(items[i]);
          if (lines && std::find(rec.begin(), rec.end(), uint8_t('\n')) != rec.end()) {
            throw_data("the result holds a newline and does not fit in a line");
          }
          outs[i - w0] = std::move(rec);
        } catch (Error& e) {
          errs[i - w0] = std::move(e);
        } catch (const std::bad_alloc&) {
          errs[i - w0] = Error(ErrorKind::Data, "out of memory for this item");
        }
      }
    });
    for (size_t i = w0; i < w1; ++i) {
      auto& err = errs[i - w0];
      if (err) {
        Failure f;
        f.item = i + 1;
        f.line = items[i].line;
        f.offset = items[i].offset;
        f.error = err->what();
        err->set_source(source + ": " + item_label(i + 1, items[i]));
        if (!opts.keep_going) throw *err;
        f.full = *err;
        result.failures.push_back(std::move(f));
        if (lines) {
          result.output.push_back('\n');
        } else {
          append_record(result.output, false, {});
        }
        continue;
      }
      if (lines) {
        result.output.insert(result.output.end(), outs[i - w0].begin(), outs[i - w0].end());
        result.output.push_back('\n');
      } else {
        append_record(result.output, true, outs[i - w0]);
      }
      std::vector<uint8_t>().swap(outs[i - w0]);
    }
  }
  return result;
}

}  // namespace voxkit::batch
