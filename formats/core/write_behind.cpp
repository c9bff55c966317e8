#include "formats/core/write_behind.hpp"

#include <utility>

namespace voxkit::io {

WriteBehind::~WriteBehind() {
  if (!pending_.valid()) return;
  try {
    pending_.get();
  } catch (...) {
  }
}

std::vector<uint8_t> WriteBehind::write(std::vector<uint8_t> buf) {
  finish();
  std::vector<uint8_t> spare = std::move(in_flight_);
  spare.clear();
  in_flight_ = std::move(buf);
  if (!in_flight_.empty())
    pending_ = std::async(std::launch::async, [this] { sink_(in_flight_.data(), in_flight_.size()); });
  return spare;
}

void WriteBehind::write(const uint8_t* data, size_t size) {
  finish();
  if (size) sink_(data, size);
}

void WriteBehind::finish() {
  if (pending_.valid()) pending_.get();
}

}  // namespace voxkit::io
