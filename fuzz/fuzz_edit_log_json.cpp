// Fuzz target: JSON edit logs (a bare array, epochs, network records). A log that reads
// follows the rules, is written back as JSON and as .vxlog, and each reads as the same log
// and is detected as what it is; writing is deterministic.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "formats/edit/edit_log.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace voxkit::edit_log;
  const std::span<const uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)detect(bytes);
  const ReadOptions opts;  // the CLI reads logs with the default cap
  Log log;
  try {
    log = read_json(text, opts);
  } catch (const voxkit::Error&) {
    return 0;
  }
  check_log(log);  // every log a reader returns follows the rules
  for (Format f : {Format::Json, Format::Vxlog}) {
    const auto written = write(log, f);
    if (read(written, f, opts) != log) std::abort();
    if (write(log, f) != written) std::abort();
    if (f != Format::Int64 && !written.empty() && detect(written) != f) std::abort();
  }
  return 0;
}
