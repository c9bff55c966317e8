// Fuzz target: the .vxlog edit log file (header, CRC-32, epoch blocks or network records).
// A file that reads follows the rules and is written back to a file that reads as the same
// log and as the text form; writing is deterministic.
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
    log = read_vxlog(bytes, opts);
  } catch (const voxkit::Error&) {
    return 0;
  }
  check_log(log);  // every log a reader returns follows the rules
  for (Format f : {Format::Vxlog, Format::Text}) {
    const auto written = write(log, f);
    if (read(written, f, opts) != log) std::abort();
    if (write(log, f) != written) std::abort();
    if (f != Format::Int64 && !written.empty() && detect(written) != f) std::abort();
  }
  return 0;
}
