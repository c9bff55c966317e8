// Camera paths of `voxkit grass residency` (docs/grass-residency.md, "The camera path"):
// text, one step per line.
//
//   x,y,z          a view position (float32 each); the job's range applies
//   x,y,z,range    a view position and the range for this step (finite, >= 0)
//   clear          empties the ring (the engine's Clear)
//
// Blank lines and lines whose first non-blank character is '#' are skipped; spaces and tabs
// around fields, a final '\r' and a UTF-8 byte-order mark are ignored. The first line that is
// neither blank nor a comment may be a header naming the columns, "x,y,z" or "x,y,z,range"
// (any case); a line starting with a letter anywhere else, or a first line starting with a
// letter that is neither a header nor "clear", is an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxkit::grass {

// Refused past this many steps, while reading (the CLI's cap).
inline constexpr uint64_t kMaxCameraSteps = uint64_t(1) << 22;

struct CameraStep {
  bool clear = false;          // a `clear` row; the position and range are unused
  float x = 0, y = 0, z = 0;   // the view
  std::optional<float> range;  // the row's own range
  uint64_t line = 0;           // 1-based line of the row
  uint64_t offset = 0;         // byte offset of the row's first character
  friend bool operator==(const CameraStep&, const CameraStep&) = default;
};

struct CameraPath {
  std::vector<CameraStep> steps;
  bool header = false;  // the first line named the columns
};

// Reads a camera path. Data errors name the line, the byte offset of the field (or row), what
// was expected and what was found: a row of other than 3 or 4 fields, a field that is not a
// whole decimal number, a number that is not finite in float32 (overflow, "inf", "nan"), a
// negative range, a misplaced header, more than `max_steps` steps.
CameraPath read_camera_path(std::string_view text, uint64_t max_steps = kMaxCameraSteps);

// The text of a path (header "x,y,z,range", numbers in their shortest float32 form), which
// reads back to the same steps apart from their lines and offsets.
std::string write_camera_path(const std::vector<CameraStep>& steps);

// The shortest decimal text that reads back to `v` as a float32 ("0.1", "-3", "1e+20").
std::string float_text(float v);

}  // namespace voxkit::grass
