// Fuzz target: the int64 edit list (the package's plain little-endian list). A list that
// reads is written back as int64 and as .vxlog, and each reads as the same log; writing is
// deterministic; detection never fails.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/edit/edit_log.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace voxkit::edit_log;
  const std::span<const uint8_t> bytes(data, size);
  (void)detect(bytes);
  const ReadOptions opts;  // the CLI reads logs with the default cap
  Log log;
  try {
    log = read_int64(bytes, opts);
  } catch (const voxkit::Error&) {
    return 0;
  }
  check_log(log);  // every log a reader returns follows the rules
  for (Format f : {Format::Int64, Format::Vxlog}) {
    const auto written = write(log, f);
    if (read(written, f, opts) != log) std::abort();
    if (write(log, f) != written) std::abort();
    if (f != Format::Int64 && !written.empty() && detect(written) != f) std::abort();
  }
  return 0;
}
