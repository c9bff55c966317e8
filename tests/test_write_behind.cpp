// io::WriteBehind (formats/core/write_behind.hpp): buffers reach the sink whole and in order,
// buffers come back to be refilled, and a sink's error surfaces at the next call.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <thread>

#include "formats/core/write_behind.hpp"

using namespace voxkit;

TEST_CASE("write behind: every byte in order, buffers reused", "[io]") {
  std::string got;
  const io::WriteBehind::Sink sink = [&](const uint8_t* p, size_t n) {
    std::this_thread::yield();
    got.append(reinterpret_cast<const char*>(p), n);
  };
  std::string want;
  {
    io::WriteBehind behind(sink);
    std::vector<uint8_t> buf;
    for (int i = 0; i < 200; ++i) {
      const std::string piece = std::to_string(i) + ",";
      if (i % 7 == 0) {
        behind.write(reinterpret_cast<const uint8_t*>(piece.data()), piece.size());
      } else {
        buf.assign(piece.begin(), piece.end());
        buf = behind.write(std::move(buf));
        CHECK(buf.empty());
      }
      want += piece;
    }
    behind.write(std::vector<uint8_t>{});  // nothing to write
    behind.finish();
    CHECK(got == want);
  }
  CHECK(got == want);
}

TEST_CASE("write behind: a failing sink's error reaches the caller", "[io]") {
  int calls = 0;
  const io::WriteBehind::Sink sink = [&](const uint8_t*, size_t) {
    if (++calls >= 2) throw std::runtime_error("disk full");
  };
  io::WriteBehind behind(sink);
  behind.write(std::vector<uint8_t>(10, 1));
  behind.write(std::vector<uint8_t>(10, 2));
  CHECK_THROWS_WITH(behind.finish(), "disk full");
  // Left failing in flight: the destructor waits and does not throw.
  io::WriteBehind other(sink);
  other.write(std::vector<uint8_t>(10, 3));
}
