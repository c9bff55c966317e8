// Internals of the grass type readers and writers (formats/grass/grass_type_*.cpp): the field
// table in the engine's order, numbers, positions and the shared error shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/grass/grass_type_io.hpp"
#include "lib/grass/grass_type.hpp"

namespace voxkit::grass::internal {

enum class Kind { Text, Number, Flag };

// A field of GrassType, by the engine's member name.
struct Field {
  const char* name;  // PascalCase, as the engine declares it
  Kind kind;
  std::string GrassType::*text = nullptr;
  float GrassType::*number = nullptr;
  bool GrassType::*flag = nullptr;
};

// A number of GrassWind (Direction is read apart: two numbers).
struct WindField {
  const char* name;
  float GrassWind::*number;
};

inline constexpr const char* kWind = "Wind";
inline constexpr const char* kDirection = "Direction";

const std::vector<Field>& type_fields();      // Name .. EndCullDistance (Wind apart)
const std::vector<WindField>& wind_fields();  // Strength .. Height (Direction apart)

// The key the engine's YAML writer uses: the member name with its first letter lowered.
std::string camel(std::string_view pascal);

// 1-based line of a byte offset.
size_t line_of(std::string_view text, size_t offset);
// Byte offset of a 1-based line and a 1-based column counted in UTF-8 code points.
size_t offset_of(std::string_view text, size_t line, size_t column);

// An input token for a message, cut to 40 bytes (escaped when the message is composed).
std::string shown(std::string_view t);

// "KEY (line L): WHAT" at `offset`, expected/found: the shape of every field error.
[[noreturn]] void key_error(std::string_view text, size_t offset, const std::string& key, const std::string& what,
                            std::string expected, std::string found);

// The error for a TOML or JSON key that names no member (`wind`: inside Wind), with the
// member it most likely meant when there is one (the same name in another case, or a typo).
[[noreturn]] void unknown_key(std::string_view text, size_t offset, const std::string& path, const std::string& key,
                              bool wind);

// A finite double as a float: nothing when it is not finite or too large for a float.
std::optional<float> to_float(double v);

// The length of a valid UTF-8 sequence at t[i] (1 for ASCII), or 0.
size_t utf8_length(std::string_view t, size_t i);
bool valid_utf8(std::string_view t);

// Adds a warning, up to kMaxGrassTypeWarnings and then one saying how many were left out.
class Warnings {
 public:
  explicit Warnings(std::vector<std::string>* out) : out_(out) {}
  void add(std::string w);
  void finish();

 private:
  std::vector<std::string>* out_;
  size_t kept_ = 0, dropped_ = 0;
};

GrassType decode_vxgrass(std::string_view text, Warnings& warnings);
GrassType decode_toml(std::string_view text);
GrassType decode_json(std::string_view text);

}  // namespace voxkit::grass::internal
