// Option values of the mesh and caves verbs: comma-separated numbers and cell counts.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/grid.hpp"

namespace voxkit::cli {

inline double parse_number(const std::string& s, const char* what) {
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno != 0 || v != v)
    throw_usage(std::string(what) + ": '" + s + "' is not a number");
  return v;
}

// `count` comma-separated numbers.
template <class T>
std::vector<T> parse_numbers(const std::string& s, size_t count, const char* what) {
  std::vector<T> out;
  size_t at = 0;
  while (true) {
    size_t comma = s.find(',', at);
    out.push_back(T(parse_number(s.substr(at, comma == std::string::npos ? std::string::npos : comma - at), what)));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (out.size() != count)
    throw_usage(std::string(what) + ": expected " + std::to_string(count) + " comma-separated values, found " +
                std::to_string(out.size()));
  return out;
}

// "NX,NY,NZ": whole numbers of cells, each at least 1.
inline Dims parse_cells(const std::string& s) {
  auto v = parse_numbers<double>(s, 3, "--cells");
  for (double x : v)
    if (!(x >= 1 && x <= 1e9 && x == double(uint64_t(x))))
      throw_usage("--cells: '" + s + "' needs three whole numbers >= 1");
  Dims d{uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2])};
  check_dims(d);
  return d;
}

}  // namespace voxkit::cli
