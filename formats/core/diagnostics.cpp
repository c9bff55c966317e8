// The warning sink of formats/.
#include "formats/core/diagnostics.hpp"

#include <mutex>

#include "lib/core/error.hpp"

namespace voxkit::diag {
namespace {

std::mutex& sink_mutex() {
  static std::mutex mu;
  return mu;
}

Sink& sink() {
  static Sink s;
  return s;
}

}  // namespace

void set_sink(Sink s) {
  std::lock_guard<std::mutex> lock(sink_mutex());
  sink() = std::move(s);
}

void warn(const std::string& line) {
  std::lock_guard<std::mutex> lock(sink_mutex());
  if (sink()) sink()(escape_text(line));
}

}  // namespace voxkit::diag
