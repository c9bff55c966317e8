// Hits files of `voxkit melt` (docs/melt.md, "The hits file"): CSV with a header line, or a
// JSON array of objects, with the columns x, y, z, radius, amount, power, temperature, dt,
// brake; and hardness sample lists.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/caves/melt.hpp"

namespace voxkit::ice {

enum class HitsFormat { Csv, Json };

// Refused past this many hits, while reading (the CLI's cap).
inline constexpr uint64_t kMaxHits = uint64_t(1) << 24;

// JSON when the first character that is not blank is '[', else CSV.
HitsFormat detect_hits_format(std::string_view text);

// Each reader checks every value as it reads it: x, y, z finite; radius finite and > 0; an
// amount (finite, >= 0), or power, temperature and dt (each finite, >= 0) with an optional
// brake (finite, > 0), never both. Data errors give the byte offset of the value, the line
// (CSV) or the hit number (JSON), the column, what was expected and what was found. Hits are
// stored one by one as they are read, and refused past `max_hits`.
std::vector<MeltHit> read_hits(std::string_view text, uint64_t max_hits = kMaxHits);
std::vector<MeltHit> read_hits_csv(std::string_view text, uint64_t max_hits = kMaxHits);
std::vector<MeltHit> read_hits_json(std::string_view text, uint64_t max_hits = kMaxHits);

// Writers (all nine columns; an absent value is an empty cell or a missing key), numbers in
// their shortest form that reads back to the same double.
std::string write_hits_csv(const std::vector<MeltHit>& hits);
std::string write_hits_json(const std::vector<MeltHit>& hits);

// A hardness sample list: finite numbers > 0 separated by commas, blanks or newlines; '#'
// starts a comment to the end of the line. Data errors give the byte offset and the line.
// At most `max_samples` samples.
std::vector<double> parse_hardness(std::string_view text, uint64_t max_samples = uint64_t(1) << 20);

}  // namespace voxkit::ice
