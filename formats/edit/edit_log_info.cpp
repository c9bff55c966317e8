#include "formats/edit/edit_log_info.hpp"

#include <algorithm>

#include "formats/edit/edit_log.hpp"
#include "lib/core/error.hpp"

namespace voxkit::edit_log {

namespace {

identify::Description describe_log(const Log& log, Format f) {
  uint64_t resets = 0;
  uint32_t epochs = 0;
  for (const Record& r : log.records) {
    resets += r.kind == Record::Kind::Reset;
    epochs = std::max(epochs, r.epoch);
  }
  identify::Description d;
  d.format = "edit-log";
  static const char* kWhat[] = {"int64 list", "text", "JSON", ".vxlog"};
  d.summary = std::string("voxkit edit log (") + kWhat[int(f)] + "), " + (log.network ? "network order" : "ordered");
  d.fields = {{"records", std::to_string(log.records.size())},
              {"edits", std::to_string(log.edit_count())},
              {"resets", std::to_string(resets)},
              {"last epoch", std::to_string(epochs)}};
  if (log.cells)
    d.fields.emplace_back("grid", std::to_string(log.cells->nx) + " x " + std::to_string(log.cells->ny) + " x " +
                                      std::to_string(log.cells->nz) + " cells");
  d.details = {{"network", log.network}, {"records", log.records.size()}, {"edits", log.edit_count()},
               {"resets", resets},       {"last_epoch", epochs},          {"encoding", format_name(f)}};
  if (log.cells) d.details["cells"] = {log.cells->nx, log.cells->ny, log.cells->nz};
  return d;
}

}  // namespace

std::optional<identify::Description> describe_vxlog(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.size() < 8 || !std::equal(kVxlogMagic, kVxlogMagic + 8, bytes.begin())) return std::nullopt;
  ReadOptions opts;
  opts.name = name;
  return describe_log(read_vxlog(bytes, opts), Format::Vxlog);
}

std::optional<identify::Description> describe_edit_list(std::span<const uint8_t> bytes, const std::string& name) {
  ReadOptions opts;
  opts.name = name;
  if (identify::has_extension(name, ".int64")) return describe_log(read_int64(bytes, opts), Format::Int64);
  if (bytes.empty()) return std::nullopt;
  const Format f = detect(bytes);
  if (f != Format::Text && f != Format::Json) return std::nullopt;
  Log log;
  try {
    log = read(bytes, f, opts);
  } catch (const Error&) {
    return std::nullopt;  // a loose format: only a file that reads whole is claimed
  }
  if (log.records.empty() && !log.cells) return std::nullopt;
  return describe_log(log, f);
}

}  // namespace voxkit::edit_log
