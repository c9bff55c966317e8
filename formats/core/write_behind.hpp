// Writing one buffer while the next is filled: buffers are handed to a sink on a thread of
// their own, one at a time and in the order given, and the buffer written before comes back
// to be refilled. Two buffers are alive at once; their pages are touched once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <utility>
#include <vector>

namespace voxkit::io {

class WriteBehind {
 public:
  using Sink = std::function<void(const uint8_t* data, size_t size)>;
  explicit WriteBehind(Sink sink) : sink_(std::move(sink)) {}
  // Waits for the write in flight; its error is dropped (the caller is already unwinding, or
  // finish() has reported it).
  ~WriteBehind();
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Waits for the write in flight (rethrowing its error), starts writing `buf` and returns the
  // buffer written before, emptied with its memory kept.
  std::vector<uint8_t> write(std::vector<uint8_t> buf);
  // A small piece, written in turn (after the buffer in flight).
  void write(const uint8_t* data, size_t size);
  // Waits for the write in flight; rethrows its error. Every byte has reached the sink after.
  void finish();

 private:
  Sink sink_;
  std::vector<uint8_t> in_flight_;
  std::future<void> pending_;
};

}  // namespace voxkit::io
