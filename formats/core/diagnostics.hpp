// Warnings from formats/ to whoever prints them: formats/ does not print, tools/ sets a sink
// (Context::warn, silenced by -q). Without a sink, warnings are dropped.
#pragma once

#include <functional>
#include <string>

namespace voxkit::diag {

using Sink = std::function<void(const std::string& line)>;

// Sets where warnings go (an empty sink drops them). Set once, before any work starts.
void set_sink(Sink sink);
// Sends one warning line (input bytes escaped) to the sink, if there is one.
void warn(const std::string& line);

}  // namespace voxkit::diag
