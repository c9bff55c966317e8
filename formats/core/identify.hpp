// Identifying a file by its bytes: an ordered list of describers, one per format, each
// recognising its format and describing the file as text lines and a JSON object
// (the shape is documented in docs/info-json.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace voxkit::identify {

struct Description {
  std::string format;   // stable id: "chunk-blob", "rle", ...
  std::string summary;  // one line: what the file is
  std::vector<std::pair<std::string, std::string>> fields;  // text lines: label, value
  nlohmann::json details = nlohmann::json::object();         // format-specific, documented
};

// Returns nothing when `bytes` are not its format; throws a data error when they are, but
// the file is damaged (so `info` reports the damage rather than "unknown format").
using Describer = std::optional<Description> (*)(std::span<const uint8_t> bytes,
                                                  const std::string& name);

struct Entry {
  const char* format;  // the id its descriptions carry
  Describer describe;
};

// Every describer, most specific first (formats with a magic before loose ones).
const std::vector<Entry>& describers();

// The first description any describer gives, or nothing.
std::optional<Description> identify(std::span<const uint8_t> bytes, const std::string& name);

// The ids of every format identify() knows, in order (for messages).
std::string known_formats();

// Whether a file's name ends with `ext` (lower case, with its dot), in any letter case: the
// describers that claim a file by its name use it.
bool has_extension(const std::string& name, std::string_view ext);

// {"file", "size", "format", "summary", "details"}: the stable JSON shape of `info --json`.
nlohmann::json to_json(const Description& d, const std::string& name, uint64_t size);
// "NAME: SUMMARY" then one indented "label  value" line per field.
std::string to_text(const Description& d, const std::string& name);

// "12.3%" of part in whole (or "-" when whole is 0), for ratios in descriptions.
std::string percent(uint64_t part, uint64_t whole);

}  // namespace voxkit::identify
