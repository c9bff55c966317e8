// Progress reporting for long library calls: a callback the caller passes in.
#pragma once

#include <cstdint>
#include <functional>

namespace voxkit {

// Called with (done, total) work units, possibly from several threads; may be empty.
using Progress = std::function<void(uint64_t done, uint64_t total)>;

}  // namespace voxkit
