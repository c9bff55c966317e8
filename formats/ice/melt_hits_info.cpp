#include "formats/ice/melt_hits_info.hpp"

#include <algorithm>
#include <charconv>

#include "formats/ice/melt_hits.hpp"
#include "lib/core/error.hpp"

namespace voxkit::ice {

namespace {
std::string num(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}
}  // namespace

std::optional<identify::Description> describe_hits(std::span<const uint8_t> bytes, const std::string& name) {
  (void)name;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  const HitsFormat f = detect_hits_format(text);
  std::vector<MeltHit> hits;
  try {
    hits = f == HitsFormat::Json ? read_hits_json(text) : read_hits_csv(text);
  } catch (const Error&) {
    return std::nullopt;  // a loose format: only a file that reads whole is claimed
  }
  if (hits.empty()) return std::nullopt;
  uint64_t amount = 0, formula = 0;
  std::array<double, 3> lo = hits[0].centre, hi = hits[0].centre;
  double rmin = hits[0].radius, rmax = hits[0].radius;
  for (const MeltHit& h : hits) {
    (h.amount ? amount : formula) += 1;
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], h.centre[k]), hi[k] = std::max(hi[k], h.centre[k]);
    rmin = std::min(rmin, h.radius), rmax = std::max(rmax, h.radius);
  }
  identify::Description d;
  d.format = "melt-hits";
  d.summary = std::string("melt hits (") + (f == HitsFormat::Json ? "JSON" : "CSV") + ")";
  d.fields = {{"hits", std::to_string(hits.size())},
              {"by amount", std::to_string(amount)},
              {"by formula", std::to_string(formula) + " (power, temperature, dt)"},
              {"centres", "(" + num(lo[0]) + ", " + num(lo[1]) + ", " + num(lo[2]) + ") .. (" + num(hi[0]) + ", " +
                              num(hi[1]) + ", " + num(hi[2]) + ")"},
              {"radius", num(rmin) + " .. " + num(rmax)}};
  d.details = {{"encoding", f == HitsFormat::Json ? "json" : "csv"},
               {"hits", hits.size()},
               {"by_amount", amount},
               {"by_formula", formula},
               {"centres", {{"min", lo}, {"max", hi}}},
               {"radius", {{"min", rmin}, {"max", rmax}}}};
  return d;
}

}  // namespace voxkit::ice
