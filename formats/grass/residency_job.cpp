// voxkit grass residency: a camera path through the engine's residency ring.
#include "formats/grass/residency_job.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "lib/core/error.hpp"

namespace voxkit::grass_residency {
namespace {

using grass::CellSlot;

// A float32 as the JSON number with the same shortest text ("0.1", not 0.10000000149).
double json_float(float v) {
  const std::string s = grass::float_text(v);
  double d = 0;
  std::from_chars(s.data(), s.data() + s.size(), d);
  return d;
}

nlohmann::json cells_json(const std::vector<CellSlot>& cells) {
  nlohmann::json a = nlohmann::json::array();
  for (const CellSlot& c : cells) a.push_back({c.cell.x, c.cell.z, c.slot});
  return a;
}

// "(X,Z)->slot" for up to `limit` cells, then "... N more".
std::string cells_text(const std::vector<CellSlot>& cells, size_t limit = 8) {
  std::string s;
  for (size_t i = 0; i < cells.size() && i < limit; ++i)
    s += (i ? " " : "") + std::string("(") + std::to_string(cells[i].cell.x) + "," + std::to_string(cells[i].cell.z) +
         ")->" + std::to_string(cells[i].slot);
  if (cells.size() > limit) s += " ... " + std::to_string(cells.size() - limit) + " more";
  return s;
}

std::string mib(uint64_t bytes) {
  char b[48];
  std::snprintf(b, sizeof b, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
  return b;
}

}  // namespace

Report run(const Job& job) {
  Report rep;
  rep.path = io::display_name(job.path);
  rep.capacity = job.capacity;
  rep.cell_size = job.cell_size;
  rep.hysteresis = job.hysteresis;
  rep.blades_per_cell = job.blades_per_cell;
  rep.range = job.range;
  rep.resident_lists = job.resident_lists;

  // The parameters first, before the path is read.
  grass::Residency ring(job.cell_size, job.capacity);
  ring.set_hysteresis(job.hysteresis);
  if (job.blades_per_cell < 1) {
    Error e(ErrorKind::Usage, "a cell that holds no blades produces no grass: the blades per cell must be >= 1",
            std::nullopt, ">= 1", "0");
    e.set_hint("blades-per-cell", "the blades per cell");
    throw e;
  }
  if (job.range) grass::ring_memory_bytes(*job.range, job.cell_size, job.blades_per_cell);

  const std::string text = io::read_text(job.path, job.max_input);
  const grass::CameraPath path = with_source(rep.path, [&] { return grass::read_camera_path(text, job.max_steps); });

  std::optional<float> largest;
  for (const grass::CameraStep& s : path.steps) {
    if (s.clear) continue;
    if (!s.range && !job.range) {
      Error e(ErrorKind::Usage, "line " + std::to_string(s.line) + ": the row has no range and the default range is not given");
      e.set_source(rep.path);
      e.set_hint("range", "the default range");
      throw e;
    }
    if (s.range) largest = std::max(largest.value_or(0.0f), *s.range);
  }
  rep.memory_range = job.range ? job.range : largest;
  if (rep.memory_range)
    rep.memory_bytes = with_source(rep.path, [&] {
      return grass::ring_memory_bytes(*rep.memory_range, job.cell_size, job.blades_per_cell);
    });

  rep.steps.reserve(path.steps.size());
  uint64_t listed = 0;
  for (const grass::CameraStep& s : path.steps) {
    Step st;
    st.index = rep.steps.size();
    st.line = s.line;
    st.clear = s.clear;
    if (s.clear) {
      st.cleared = ring.resident();
      ring.clear();
      rep.total_cleared += st.cleared.size();
    } else {
      st.x = s.x;
      st.y = s.y;
      st.z = s.z;
      st.range = s.range ? *s.range : *job.range;
      grass::ResidencyChange ch;
      const std::string at = "line " + std::to_string(s.line) + ": ";
      try {
        ch = ring.update(st.x, st.z, st.range);
      } catch (Error& e) {
        if (e.kind() != ErrorKind::Data) {
          e.add_context(at);
          e.set_source(rep.path);
          throw;
        }
        Error d(ErrorKind::Data, at + e.reason(), s.offset, e.expected(), e.found());
        d.set_source(rep.path);
        throw d;
      }
      st.created = std::move(ch.created);
      st.evicted = std::move(ch.evicted);
      st.refused = ring.refused();
      rep.total_created += st.created.size();
      rep.total_evicted += st.evicted.size();
      rep.max_refused = std::max(rep.max_refused, st.refused);
    }
    st.resident_count = ring.count();
    rep.max_resident = std::max(rep.max_resident, st.resident_count);
    if (job.resident_lists) {
      listed += ring.count();
      if (listed > kMaxListedResident) {
        Error e(ErrorKind::Usage,
                "the report would list more than " + std::to_string(kMaxListedResident) +
                    " resident cells over its steps: the resident lists can be left out",
                std::nullopt);
        e.set_hint("resident-lists", "the resident lists can be left out");
        throw e;
      }
      st.resident = ring.resident();
    }
    if (st.changed()) ++rep.changed_steps;
    rep.steps.push_back(std::move(st));
  }
  return rep;
}

nlohmann::json Report::to_json() const {
  using json = nlohmann::json;
  json steps_json = json::array();
  for (const Step& s : steps) {
    json j = {{"step", s.index}, {"line", s.line}, {"clear", s.clear}};
    if (s.clear) {
      j["camera"] = nullptr;
      j["range"] = nullptr;
    } else {
      j["camera"] = {json_float(s.x), json_float(s.y), json_float(s.z)};
      j["range"] = json_float(s.range);
    }
    j["created"] = cells_json(s.created);
    j["evicted"] = cells_json(s.evicted);
    j["cleared"] = cells_json(s.cleared);
    j["refused"] = s.refused;
    j["resident_count"] = s.resident_count;
    j["resident"] = resident_lists ? cells_json(s.resident) : json(nullptr);
    steps_json.push_back(std::move(j));
  }
  auto opt_float = [](const std::optional<float>& v) { return v ? json(json_float(*v)) : json(nullptr); };
  return {{"path", path},
          {"capacity", capacity},
          {"cell_size", json_float(cell_size)},
          {"hysteresis", json_float(hysteresis)},
          {"range", opt_float(range)},
          {"blades_per_cell", blades_per_cell},
          {"steps", std::move(steps_json)},
          {"summary",
           {{"steps", steps.size()},
            {"changed_steps", changed_steps},
            {"created", total_created},
            {"evicted", total_evicted},
            {"cleared", total_cleared},
            {"max_refused", max_refused},
            {"max_resident", max_resident},
            {"memory_range", opt_float(memory_range)},
            {"memory_bytes", memory_bytes ? json(*memory_bytes) : json(nullptr)}}}};
}

std::string Report::summary_text() const {
  std::string s = "summary: " + std::to_string(steps.size()) + " steps (" + std::to_string(changed_steps) +
                  " changed the ring), " + std::to_string(total_created) + " created, " + std::to_string(total_evicted) +
                  " evicted, " + std::to_string(total_cleared) + " cleared, max refused " + std::to_string(max_refused) +
                  ", max resident " + std::to_string(max_resident) + " of " + std::to_string(capacity) + "\n";
  if (memory_bytes) {
    const float cells = std::ceil(*memory_range / std::max(cell_size, 1.0f));
    const uint64_t side = 2 * uint64_t(cells) + 1;
    s += "memory: (2*" + std::to_string(uint64_t(cells)) + "+1)^2 = " + std::to_string(side * side) + " cells x " +
         std::to_string(blades_per_cell) + " blades x 48 bytes = " + std::to_string(*memory_bytes) + " bytes (" +
         mib(*memory_bytes) + ") at range " + grass::float_text(*memory_range) + " m\n";
  } else {
    s += "memory: no range\n";
  }
  return s;
}

std::string Report::to_text() const {
  std::string s = "grass residency: " + path + ", capacity " + std::to_string(capacity) + " cells of " +
                  grass::float_text(cell_size) + " m, hysteresis " + grass::float_text(hysteresis) + "\n";
  for (const Step& st : steps) {
    if (!st.changed()) continue;
    s += "step " + std::to_string(st.index) + " (line " + std::to_string(st.line) + "): ";
    if (st.clear) {
      s += "clear, " + std::to_string(st.cleared.size()) + " cells dropped\n";
      continue;
    }
    s += "at " + grass::float_text(st.x) + "," + grass::float_text(st.y) + "," + grass::float_text(st.z) + " range " +
         grass::float_text(st.range) + ": +" + std::to_string(st.created.size());
    if (!st.created.empty()) s += " [" + cells_text(st.created) + "]";
    s += " -" + std::to_string(st.evicted.size());
    if (!st.evicted.empty()) s += " [" + cells_text(st.evicted) + "]";
    if (st.refused) s += ", refused " + std::to_string(st.refused);
    s += ", resident " + std::to_string(st.resident_count) + "\n";
  }
  return s + summary_text();
}

}  // namespace voxkit::grass_residency
