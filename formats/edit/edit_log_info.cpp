#include "formats/edit/edit_log_info.hpp"

#include <algorithm>

#include "formats/edit/edit_log.hpp"

namespace voxkit::edit_log {

std::optional<identify::Description> describe_vxlog(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.size() < 8 || !std::equal(kVxlogMagic, kVxlogMagic + 8, bytes.begin())) return std::nullopt;
  const Log log = read_vxlog(bytes);
  uint64_t resets = 0;
  uint32_t epochs = 0;
  for (const Record& r : log.records) {
    resets += r.kind == Record::Kind::Reset;
    epochs = std::max(epochs, r.epoch);
  }
  identify::Description d;
  d.format = "edit-log";
  d.summary = std::string("voxkit edit log (.vxlog), ") + (log.network ? "network order" : "ordered");
  d.fields = {{"records", std::to_string(log.records.size())},
              {"edits", std::to_string(log.edit_count())},
              {"resets", std::to_string(resets)},
              {"last epoch", std::to_string(epochs)}};
  if (log.cells)
    d.fields.emplace_back("grid", std::to_string(log.cells->nx) + " x " + std::to_string(log.cells->ny) + " x " +
                                      std::to_string(log.cells->nz) + " cells");
  d.details = {{"network", log.network},   {"records", log.records.size()}, {"edits", log.edit_count()},
               {"resets", resets},         {"last_epoch", epochs}};
  if (log.cells) d.details["cells"] = {log.cells->nx, log.cells->ny, log.cells->nz};
  (void)name;
  return d;
}

}  // namespace voxkit::edit_log
