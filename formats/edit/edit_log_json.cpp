// JSON edit logs: a bare array of edits, an object of epochs, or an object of network
// records; errors name the byte offset or the element's path (docs/formats/edit-log.md).
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "formats/core/json_numbers.hpp"
#include "formats/edit/edit_log.hpp"
#include "formats/edit/edit_log_internal.hpp"
#include "lib/core/error.hpp"
#include "lib/edit/packed_edit.hpp"

namespace voxkit::edit_log {

using namespace internal;

namespace {

using nlohmann::json;

constexpr const char* kJsonFormat = "voxkit-edit-log";
constexpr int kJsonVersion = 1;

// A JSON value for messages: scalars as written (cut to 40 bytes), containers by kind (a
// deep value is never dumped whole).
std::string describe(const json& v) {
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  std::string t = v.dump(-1, ' ', false, json::error_handler_t::replace);
  return t.size() > 40 ? t.substr(0, 37) + "..." : t;
}

[[noreturn]] void json_error(const std::string& path, const std::string& what, std::string expected,
                             const json& found) {
  throw_data("JSON element " + path + ": " + what, std::nullopt, std::move(expected), describe(found));
}

uint64_t json_edit(const json& v, const std::string& path) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) return uint64_t(v.get<int64_t>());
  if (v.is_string()) {
    if (auto e = parse_edit_token(v.get_ref<const std::string&>())) return *e;
  }
  // Floats include integers past the 64-bit range, which the parser keeps as doubles.
  json_error(path, "not an edit", std::string(kEditExpected) + ", as a string or an integer", v);
}

// An integer in lo..hi (at most 2^32 - 1).
uint32_t json_uint(const json& v, const std::string& path, const char* what, uint64_t lo, uint64_t hi) {
  const bool in_range = v.is_number_unsigned() ? v.get<uint64_t>() >= lo && v.get<uint64_t>() <= hi
                                               : v.is_number_integer() && v.get<int64_t>() >= int64_t(lo) &&
                                                     v.get<int64_t>() <= int64_t(hi);
  if (!in_range) json_error(path, std::string("not ") + what, "an integer in " + str(lo) + ".." + str(hi), v);
  return uint32_t(v.get<uint64_t>());
}

uint32_t json_u31(const json& v, const std::string& path, const char* what) {
  return json_uint(v, path, what, 0, kMaxSeq);
}

const json& json_need(const json& obj, const std::string& key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    throw_data("JSON element " + path + ": the key '" + key + "' is missing", std::nullopt, "'" + key + "'", "nothing");
  }
  return *it;
}

void json_only_keys(const json& obj, std::initializer_list<const char*> keys, const std::string& path) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return it.key() == k; }) == keys.end()) {
      std::string want;
      for (const char* k : keys) want += (want.empty() ? "" : ", ") + std::string(k);
      throw_data("JSON element " + path + ": unknown key", std::nullopt, "only " + want, shown(it.key()));
    }
  }
}

Log json_object(const json& j, const ReadOptions& opts) {
  const json& format = json_need(j, "format", "(top)");
  if (!format.is_string() || format.get_ref<const std::string&>() != kJsonFormat) {
    json_error("format", "not a voxkit edit log", std::string("\"") + kJsonFormat + "\"", format);
  }
  const json& version = json_need(j, "version", "(top)");
  if (!version.is_number_integer() || version.get<int64_t>() != kJsonVersion) {
    throw_data("unsupported edit log version", std::nullopt, "version " + str(kJsonVersion), describe(version));
  }
  Log log;
  if (auto it = j.find("cells"); it != j.end()) {
    if (!it->is_array() || it->size() != 3) json_error("cells", "not a grid size", "an array of 3 integers", *it);
    Dims d;
    uint32_t* axes[3] = {&d.nx, &d.ny, &d.nz};
    for (size_t i = 0; i < 3; ++i) {
      *axes[i] = json_uint((*it)[i], "cells[" + str(i) + "]", "a cell count", 1, kMaxCells);
    }
    log.cells = d;
  }
  const bool has_epochs = j.contains("epochs"), has_records = j.contains("records");
  if (has_epochs == has_records) {
    throw_data(std::string("a JSON edit log holds ") +
                   (has_epochs ? "both 'epochs' and 'records'" : "neither 'epochs' nor 'records'"),
               std::nullopt, "'epochs' (an ordered log) or 'records' (a network log)",
               has_epochs ? "both" : "neither");
  }
  const uint64_t cap = record_cap(opts);
  if (has_epochs) {
    const json& epochs = j.at("epochs");
    if (!epochs.is_array()) json_error("epochs", "not a list of epochs", "an array", epochs);
    Ordered ord(log);
    for (size_t k = 0; k < epochs.size(); ++k) {
      const std::string path = "epochs[" + str(k) + "]";
      const json& b = epochs[k];
      if (!b.is_object()) json_error(path, "not an epoch", "an object with 'epoch' and 'edits'", b);
      json_only_keys(b, {"epoch", "edits"}, path);
      const json& e = json_need(b, "epoch", path);
      const bool number = e.is_number_integer() && (e.is_number_unsigned() || e.get<int64_t>() >= 0);
      if (!number || !ord.can_reset(e.get<uint64_t>())) {
        json_error(path + ".epoch", k ? "epochs must increase" : "not an epoch", ord.expected(), e);
      }
      room_for(log, cap, "JSON element " + path);
      ord.reset(uint32_t(e.get<uint64_t>()));
      const json& edits = json_need(b, "edits", path);
      if (!edits.is_array()) json_error(path + ".edits", "not a list of edits", "an array", edits);
      for (size_t i = 0; i < edits.size(); ++i) {
        const std::string at = path + ".edits[" + str(i) + "]";
        room_for(log, cap, "JSON element " + at);
        ord.edit(json_edit(edits[i], at));
      }
    }
    return log;
  }
  log.network = true;
  const json& records = j.at("records");
  if (!records.is_array()) json_error("records", "not a list of records", "an array", records);
  for (size_t i = 0; i < records.size(); ++i) {
    const std::string path = "records[" + str(i) + "]";
    const json& r = records[i];
    if (!r.is_object()) json_error(path, "not a record", "an object with 'edit', 'seq' and 'epoch', or 'reset'", r);
    room_for(log, cap, "JSON element " + path);
    if (r.contains("reset")) {
      json_only_keys(r, {"reset"}, path);
      log.records.push_back({Kind::Reset, 0, 0, json_u31(r.at("reset"), path + ".reset", "an epoch")});
      continue;
    }
    json_only_keys(r, {"edit", "seq", "epoch"}, path);
    const uint64_t e = json_edit(json_need(r, "edit", path), path + ".edit");
    const uint32_t seq = json_u31(json_need(r, "seq", path), path + ".seq", "a sequence number");
    const uint32_t epoch = json_u31(json_need(r, "epoch", path), path + ".epoch", "an epoch");
    log.records.push_back({Kind::Edit, e, seq, epoch});
  }
  return log;
}

}  // namespace

Log read_json(std::string_view text, const ReadOptions& opts) {
  return with_source(opts.name, [&] {
    json j;
    try {
      j = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
      std::string why = e.what();
      // "[json.exception.parse_error.101] parse error at ...": the reason without the tag.
      if (const size_t at = why.find("] "); why.compare(0, 1, "[") == 0 && at != std::string::npos) {
        why.erase(0, at + 2);
      }
      throw_data("not valid JSON: " + why, e.byte > 0 ? e.byte - 1 : 0);
    } catch (const json::exception&) {
      // The parser's other refusal: a number too large for a double (1e400).
      json_numbers::throw_out_of_range(text);
    }
    if (j.is_object()) return json_object(j, opts);
    if (!j.is_array()) {
      throw_data("a JSON edit log is an array of edits or an object", 0, "an array or an object", describe(j));
    }
    // A bare array: an ordered log of one epoch.
    const uint64_t cap = record_cap(opts);
    if (j.size() > cap) {
      throw_data("JSON array: more edits than the reader's limit", std::nullopt, "at most " + str(cap), str(j.size()));
    }
    std::vector<uint64_t> edits(j.size());
    for (size_t i = 0; i < j.size(); ++i) edits[i] = json_edit(j[i], "[" + str(i) + "]");
    return Log::of_edits(edits);
  });
}

std::string write_json(const Log& log) {
  check_log(log);
  json j = json::object();
  j["format"] = kJsonFormat;
  j["version"] = kJsonVersion;
  if (log.cells) j["cells"] = json::array({log.cells->nx, log.cells->ny, log.cells->nz});
  if (log.network) {
    json records = json::array();
    for (const Record& r : log.records) {
      if (r.kind == Kind::Reset) records.push_back(json::object({{"reset", r.epoch}}));
      else records.push_back(json::object({{"edit", edit::to_hex(r.edit)}, {"seq", r.seq}, {"epoch", r.epoch}}));
    }
    j["records"] = std::move(records);
  } else {
    json epochs = json::array();
    for (const Block& b : blocks_of(log)) {
      json edits = json::array();
      for (uint64_t e : b.edits) edits.push_back(edit::to_hex(e));
      epochs.push_back(json::object({{"epoch", b.epoch}, {"edits", std::move(edits)}}));
    }
    j["epochs"] = std::move(epochs);
  }
  return j.dump(2) + "\n";
}

}  // namespace voxkit::edit_log
