// The shared option parsers of tools/options.hpp.
#include "tools/options.hpp"

#include <cmath>

namespace voxkit::cli {

CLI::Option* add_cells(CLI::App* cmd, const std::string& name, std::vector<uint32_t>& value, const std::string& help) {
  return cmd->add_option(name, value, help)
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(uint32_t(1), uint32_t(1) << 30));
}

Dims cells_of(const std::vector<uint32_t>& v) {
  Dims d{v.at(0), v.at(1), v.at(2)};
  check_dims(d);
  return d;
}

CLI::Option* add_numbers(CLI::App* cmd, const std::string& name, std::vector<double>& value, int count,
                         const std::string& help) {
  return cmd->add_option(name, value, help)
      ->delimiter(',')
      ->expected(count)
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) return "'" + s + "' is not a finite number";
            return {};
          },
          "NUMBER"));
}

CLI::Option* add_lod_list(CLI::App* cmd, const std::string& name, std::vector<double>& value, const std::string& help) {
  return cmd->add_option(name, value, help)->delimiter(',')->check(
      CLI::Validator(
          [](std::string& s) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || end != s.c_str() + s.size() || !(v > 0 && v < 1)) return "'" + s + "' is not a ratio in (0, 1)";
            return {};
          },
          "RATIO"));
}

void check_lod_order(const std::vector<double>& lods) {
  for (size_t i = 1; i < lods.size(); ++i) {
    if (!(lods[i] < lods[i - 1])) {
      throw CLI::ValidationError("--lod", "ratios must decrease (" + std::to_string(lods[i]) + " after " +
                                              std::to_string(lods[i - 1]) + ")");
    }
  }
}

CLI::Option* add_nodata_fill(CLI::App* cmd, const std::string& name, NodataFill& value, const std::string& help) {
  return cmd->add_option_function<std::string>(
      name,
      [&value, name](const std::string& text) {
        NodataFill f;
        if (text == "min") {
          f.kind = NodataFill::Kind::Min;
        } else if (text == "nearest") {
          f.kind = NodataFill::Kind::Nearest;
        } else if (text.rfind("value:", 0) == 0) {
          const std::string num = text.substr(6);
          char* end = nullptr;
          f.kind = NodataFill::Kind::Value;
          f.value = std::strtod(num.c_str(), &end);
          if (num.empty() || end != num.c_str() + num.size() || !std::isfinite(f.value)) {
            throw CLI::ValidationError(name, "value:N needs a number, got '" + num + "'");
          }
        } else {
          throw CLI::ValidationError(name, "must be min, value:N or nearest, got '" + text + "'");
        }
        value = f;
      },
      help);
}

}  // namespace voxkit::cli
