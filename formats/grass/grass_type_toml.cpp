// A grass type as TOML (toml++): the engine's PascalCase member names, GrassType.Of's
// defaults for what is missing, unknown keys refused (docs/formats/grass-type.md).
#include <cmath>
#include <string>
#include <toml++/toml.h>

#include "formats/grass/grass_type_internal.hpp"
#include "lib/core/error.hpp"

namespace voxkit::grass::internal {

namespace {

const char* type_name(const toml::node& v) {
  switch (v.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "nothing";
  }
}

// The value for a message: a scalar as written (cut), a container by kind.
std::string describe(const toml::node& v) {
  if (auto s = v.as_string()) return "the string " + shown(s->get());
  if (auto i = v.as_integer()) return std::to_string(i->get());
  if (auto b = v.as_boolean()) return b->get() ? "true" : "false";
  if (auto f = v.as_floating_point()) {
    const double d = f->get();
    return std::isnan(d) ? "nan" : std::isinf(d) ? (d < 0 ? "-inf" : "inf") : std::to_string(d);
  }
  return type_name(v);
}

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  size_t at(const toml::source_region& r) const {
    return r.begin.line ? offset_of(text_, r.begin.line, r.begin.column) : 0;
  }

  [[noreturn]] void wrong(const toml::node& v, const std::string& key, const char* expected) const {
    key_error(text_, at(v.source()), key, "not " + std::string(expected), expected, describe(v));
  }

  float number(const toml::node& v, const std::string& key) const {
    if (auto i = v.as_integer()) return float(double(i->get()));
    if (auto f = v.as_floating_point()) {
      if (auto x = to_float(f->get())) return *x;
      key_error(text_, at(v.source()), key, "a number that is not finite as a 32-bit float", "a finite number",
                describe(v));
    }
    wrong(v, key, "a finite number");
  }

  void wind(const toml::node& v, GrassWind& w) const {
    const toml::table* t = v.as_table();
    if (!t) wrong(v, kWind, "a table of the wind's fields");
    for (auto&& [k, value] : *t) {
      const std::string key(k.str());
      const std::string path = std::string(kWind) + "." + key;
      if (key == kDirection) {
        const toml::array* a = value.as_array();
        if (!a || a->size() != 2) {
          key_error(text_, at(value.source()), path, "not a direction", "an array of 2 numbers [X, Z]",
                    a ? "an array of " + std::to_string(a->size()) : describe(value));
        }
        w.direction_x = number((*a)[0], path + "[0]");
        w.direction_z = number((*a)[1], path + "[1]");
        continue;
      }
      bool known = false;
      for (const WindField& f : wind_fields()) {
        if (key == f.name) {
          w.*f.number = number(value, path);
          known = true;
        }
      }
      if (!known) unknown_key(text_, at(k.source()), path, key, true);
    }
  }

  GrassType read(const toml::table& root) const {
    GrassType t = default_type("");
    for (auto&& [k, value] : root) {
      const std::string key(k.str());
      if (key == kWind) {
        wind(value, t.wind);
        continue;
      }
      const Field* field = nullptr;
      for (const Field& f : type_fields())
        if (key == f.name) field = &f;
      if (!field) unknown_key(text_, at(k.source()), key, key, false);
      switch (field->kind) {
        case Kind::Text:
          if (auto s = value.as_string()) t.*field->text = s->get();
          else wrong(value, key, "a string");
          break;
        case Kind::Number: t.*field->number = number(value, key); break;
        case Kind::Flag:
          if (auto b = value.as_boolean()) t.*field->flag = b->get();
          else wrong(value, key, "true or false");
          break;
      }
    }
    return t;
  }

 private:
  std::string_view text_;
};

}  // namespace

GrassType decode_toml(std::string_view text) {
  Reader reader(text);
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    const size_t at = b.line ? offset_of(text, b.line, b.column) : 0;
    throw_data("line " + std::to_string(line_of(text, at)) + ": not valid TOML: " + std::string(e.description()), at);
  }
  return reader.read(root);
}

}  // namespace voxkit::grass::internal
