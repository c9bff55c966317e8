// Grass types of the Vixen engine (docs/formats/grass-type.md): the engine's own `.vxgrass`
// YAML document, and TOML and JSON with the engine's PascalCase field names. Readers for a
// file and for text in memory, and writers of TOML and JSON that read back to the same type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/grass/grass_type.hpp"

namespace voxkit::grass {

// Refused past this size: a grass type is a few hundred bytes.
inline constexpr uint64_t kMaxGrassTypeBytes = uint64_t(1) << 20;
// A .vxgrass line longer than this is refused.
inline constexpr size_t kMaxVxgrassLine = size_t(64) << 10;
// Warnings kept per document; past it one last warning says how many more there were.
inline constexpr size_t kMaxGrassTypeWarnings = 64;

enum class GrassTypeSyntax {
  Vxgrass,  // the engine's YAML: camelCase keys (PascalCase accepted), missing keys are zero
  Toml,     // PascalCase keys, missing keys take GrassType.Of's defaults, unknown keys refused
  Json,     // the same as TOML
};

// "vxgrass", "TOML", "JSON": for messages.
const char* syntax_name(GrassTypeSyntax syntax);

// The syntax a file's extension names (.vxgrass, .toml, .json, in any case), if any.
std::optional<GrassTypeSyntax> syntax_of_extension(std::string_view path);

// The syntax of a text by its content: JSON when the first character that is not blank is
// '{'; TOML when the first line that is neither blank nor a '#' comment starts with '[' or
// has an '=' before any ':'; else vxgrass.
GrassTypeSyntax detect_syntax(std::string_view text);

// Reads a type from text without validating it. `source_name` names the text in errors;
// unknown .vxgrass keys (ignored, as the engine does) are added to `warnings` when it is
// given. Data errors give the line, the byte offset, the key, what was expected and what
// was found.
GrassType decode_grass_type(std::string_view text, GrassTypeSyntax syntax, const std::string& source_name,
                            std::vector<std::string>* warnings = nullptr);

// decode_grass_type, then validate(): a type the engine would refuse is a data error naming
// the source and the engine's reason.
GrassType parse_grass_type(std::string_view text, GrassTypeSyntax syntax, const std::string& source_name,
                           std::vector<std::string>* warnings = nullptr);

// Reads a file ("-" for stdin) of at most kMaxGrassTypeBytes: the syntax by the extension,
// else by the content (detect_syntax); validated as parse_grass_type does.
GrassType read_grass_type(const std::string& path, std::vector<std::string>* warnings = nullptr);

// The type as TOML or JSON with every field, in the engine's order and PascalCase names,
// floats in their shortest form that reads back to the same float. A usage error for a
// value neither can hold (a float that is not finite, a string that is not UTF-8).
std::string write_grass_type_toml(const GrassType& type);
std::string write_grass_type_json(const GrassType& type);

}  // namespace voxkit::grass
