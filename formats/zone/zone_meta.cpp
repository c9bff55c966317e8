// The zone file's JSON header: canonical encoding and a strict, typed decoder.
#include "formats/zone/zone_meta.hpp"

#include "formats/core/json_numbers.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <nlohmann/json.hpp>

#include "lib/core/error.hpp"

namespace voxkit::zone_file {
namespace {

using nlohmann::json;

inline constexpr uint32_t kMaxChunkCells = 1024;
inline constexpr uint32_t kMaxBorderVoxels = 65536;
inline constexpr size_t kMaxTextBytes = 65536;  // source description, each layer name

[[noreturn]] void bad_key(const std::string& key, const std::string& expected,
                          const json& found) {
  std::string f = found.dump(-1, ' ', false, json::error_handler_t::replace);
  if (f.size() > 40) f = f.substr(0, 37) + "...";
  throw_data("JSON header key '" + key + "' has a bad value", 0, expected, f);
}

const json& need(const json& obj, const std::string& key) {
  auto it = obj.find(key);
  if (it == obj.end()) throw_data("JSON header lacks the key '" + key + "'", 0, key, "nothing");
  return *it;
}

double get_double(const json& obj, const std::string& key, const std::string& path) {
  const json& v = need(obj, key);
  if (!v.is_number()) bad_key(path, "a number", v);
  double d = v.get<double>();
  if (!std::isfinite(d)) bad_key(path, "a finite number", v);
  return d;
}

int64_t get_int(const json& v, const std::string& path, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) bad_key(path, "an integer", v);
  int64_t i;
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > uint64_t(hi)) bad_key(path, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi), v);
    i = int64_t(u);
  } else {
    i = v.get<int64_t>();
  }
  if (i < lo || i > hi) {
    bad_key(path, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi), v);
  }
  return i;
}

template <size_t N>
std::array<int64_t, N> get_int_array(const json& obj, const std::string& key, int64_t lo,
                                     int64_t hi) {
  const json& v = need(obj, key);
  if (!v.is_array() || v.size() != N) bad_key(key, "an array of " + std::to_string(N) + " integers", v);
  std::array<int64_t, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = get_int(v[i], key + "[" + std::to_string(i) + "]", lo, hi);
  return out;
}

template <size_t N>
std::array<double, N> get_double_array(const json& obj, const std::string& key) {
  const json& v = need(obj, key);
  if (!v.is_array() || v.size() != N) bad_key(key, "an array of " + std::to_string(N) + " numbers", v);
  std::array<double, N> out{};
  for (size_t i = 0; i < N; ++i) {
    if (!v[i].is_number() || !std::isfinite(v[i].get<double>())) {
      bad_key(key + "[" + std::to_string(i) + "]", "a finite number", v[i]);
    }
    out[i] = v[i].get<double>();
  }
  return out;
}

std::string get_text(const json& v, const std::string& path) {
  if (!v.is_string()) bad_key(path, "a string", v);
  const auto& s = v.get_ref<const std::string&>();
  if (s.size() > kMaxTextBytes) bad_key(path, "at most " + std::to_string(kMaxTextBytes) + " bytes", v);
  return s;
}

}  // namespace

std::string meta_problem(const ZoneMeta& m, uint64_t max_samples) {
  const auto& c = m.cells;
  if (c.nx < 1 || c.ny < 1 || c.nz < 1) return "cells must be at least 1 on every axis";
  if (c.samples() > max_samples) {
    return "cells " + std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" +
           std::to_string(c.nz) + " give " + std::to_string(c.samples()) +
           " samples, over the limit of " + std::to_string(max_samples);
  }
  if (!std::isfinite(m.voxel_size) || m.voxel_size <= 0) return "voxel size must be a positive number";
  for (double o : m.origin)
    if (!std::isfinite(o)) return "origin must be finite";
  if (m.chunk_cells < 1 || m.chunk_cells > kMaxChunkCells) {
    return "chunk cells must be in 1.." + std::to_string(kMaxChunkCells);
  }
  if (m.border_voxels > kMaxBorderVoxels) return "border voxels must be at most " + std::to_string(kMaxBorderVoxels);
  const uint32_t n[3] = {c.nx, c.ny, c.nz};
  for (int i = 0; i < 3; ++i) {
    if (m.edit_box.min[i] < 0 || m.edit_box.min[i] > m.edit_box.max[i] ||
        int64_t(m.edit_box.max[i]) > int64_t(n[i])) {
      return "edit box must satisfy 0 <= min <= max <= cells on every axis";
    }
  }
  const auto& h = m.hole;
  if (!std::isfinite(h.min_x) || !std::isfinite(h.min_z) || !std::isfinite(h.max_x) ||
      !std::isfinite(h.max_z) || h.min_x > h.max_x || h.min_z > h.max_z) {
    return "terrain hole rect must be finite with min <= max";
  }
  if (!std::isfinite(m.height_min) || !std::isfinite(m.height_max) || m.height_min > m.height_max) {
    return "height range must be finite with min <= max";
  }
  if (m.layer_names.size() > 16) return "at most 16 terrain layers";
  for (auto& s : m.layer_names)
    if (s.size() > kMaxTextBytes) return "a layer name is longer than " + std::to_string(kMaxTextBytes) + " bytes";
  if (m.source.size() > kMaxTextBytes) return "source is longer than " + std::to_string(kMaxTextBytes) + " bytes";
  return {};
}

std::string meta_to_json(const ZoneMeta& m) {
  json j;  // std::map underneath: keys come out sorted
  j["cells"] = {m.cells.nx, m.cells.ny, m.cells.nz};
  j["voxel_size"] = m.voxel_size;
  j["origin"] = {m.origin[0], m.origin[1], m.origin[2]};
  j["chunk_cells"] = m.chunk_cells;
  j["border_voxels"] = m.border_voxels;
  j["edit_box"] = {{"min", {m.edit_box.min[0], m.edit_box.min[1], m.edit_box.min[2]}},
                   {"max", {m.edit_box.max[0], m.edit_box.max[1], m.edit_box.max[2]}}};
  j["hole_rect"] = {{"min_x", m.hole.min_x}, {"min_z", m.hole.min_z},
                    {"max_x", m.hole.max_x}, {"max_z", m.hole.max_z}};
  j["height_range"] = {m.height_min, m.height_max};
  j["layers"] = m.layer_names;
  j["source"] = m.source;
  j["grid_version"] = m.grid_version;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

ZoneMeta meta_from_json(std::span<const uint8_t> payload, uint64_t max_samples) {
  json j;
  try {
    j = json::parse(payload.begin(), payload.end());
  } catch (const json::parse_error& e) {
    throw_data("JSON header does not parse: " + std::string(e.what()),
               e.byte > 0 ? e.byte - 1 : 0);
  } catch (const json::exception&) {
    // The parser's other refusal: a number too large for a double (1e400).
    const std::string_view text(reinterpret_cast<const char*>(payload.data()), payload.size());
    const size_t at = json_numbers::overflowing_number(text).value_or(0);
    throw_data("JSON header holds a number out of range", at, "a finite number",
               json_numbers::number_token(text, at).substr(0, 40));
  }
  if (!j.is_object()) throw_data("JSON header is not an object", 0, "an object", j.type_name());

  ZoneMeta m;
  auto cells = get_int_array<3>(j, "cells", 1, 0x7ffffffe);
  m.cells = {uint32_t(cells[0]), uint32_t(cells[1]), uint32_t(cells[2])};
  m.voxel_size = get_double(j, "voxel_size", "voxel_size");
  m.origin = get_double_array<3>(j, "origin");
  m.chunk_cells = uint32_t(get_int(need(j, "chunk_cells"), "chunk_cells", 1, kMaxChunkCells));
  m.border_voxels = uint32_t(get_int(need(j, "border_voxels"), "border_voxels", 0, kMaxBorderVoxels));
  const json& box = need(j, "edit_box");
  if (!box.is_object()) bad_key("edit_box", "an object with min and max", box);
  auto bmin = get_int_array<3>(box, "min", INT32_MIN, INT32_MAX);
  auto bmax = get_int_array<3>(box, "max", INT32_MIN, INT32_MAX);
  for (int i = 0; i < 3; ++i) {
    m.edit_box.min[i] = int32_t(bmin[i]);
    m.edit_box.max[i] = int32_t(bmax[i]);
  }
  const json& hole = need(j, "hole_rect");
  if (!hole.is_object()) bad_key("hole_rect", "an object", hole);
  m.hole.min_x = get_double(hole, "min_x", "hole_rect.min_x");
  m.hole.min_z = get_double(hole, "min_z", "hole_rect.min_z");
  m.hole.max_x = get_double(hole, "max_x", "hole_rect.max_x");
  m.hole.max_z = get_double(hole, "max_z", "hole_rect.max_z");
  auto hr = get_double_array<2>(j, "height_range");
  m.height_min = hr[0];
  m.height_max = hr[1];
  const json& layers = need(j, "layers");
  if (!layers.is_array() || layers.size() > 16) bad_key("layers", "an array of at most 16 names", layers);
  for (size_t i = 0; i < layers.size(); ++i) {
    m.layer_names.push_back(get_text(layers[i], "layers[" + std::to_string(i) + "]"));
  }
  m.source = get_text(need(j, "source"), "source");
  m.grid_version = uint32_t(get_int(need(j, "grid_version"), "grid_version", 0, UINT32_MAX));
  // Keys this version does not know are ignored (a later minor version may add some).

  std::string problem = meta_problem(m, max_samples);
  if (!problem.empty()) throw_data("JSON header: " + problem);
  return m;
}

}  // namespace voxkit::zone_file
