// Batches (formats/core/batch.hpp): the VXBATCH container both ways, lines, and the run keeping
// record N = item N for any thread count.
#include <catch2/catch.hpp>

#include <string>
#include <tbb/global_control.h>

#include "formats/core/batch.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {
Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }
std::string S(std::span<const uint8_t> b) { return std::string(b.begin(), b.end()); }
// Upper-cases an item; "bad" fails.
std::vector<uint8_t> upper(const batch::Item& it) {
  if (S(it.bytes) == "bad") throw_data("a bad item", 1, "good", "bad");
  Bytes out(it.bytes.begin(), it.bytes.end());
  for (auto& c : out) c = uint8_t(std::toupper(c));
  return out;
}
}  // namespace

TEST_CASE("batch container: written records read back, failed ones marked", "[batch]") {
  Bytes c;
  batch::append_header(c, 3);
  batch::append_record(c, true, B("abc"));
  batch::append_record(c, false, B("ignored"));
  batch::append_record(c, true, {});
  REQUIRE(c.size() == 16 + 9 + 3 + 9 + 9);
  CHECK(batch::is_container(c));
  const auto items = batch::read_container(c);
  REQUIRE(items.size() == 3);
  CHECK(S(items[0].bytes) == "abc");
  CHECK(items[0].offset == 25);
  CHECK(!items[0].line);
  CHECK(items[1].failed_before);
  CHECK(items[1].bytes.empty());
  CHECK(!items[2].failed_before);
  CHECK(batch::split_items(c).size() == 3);
}

TEST_CASE("batch container: damage is refused with offset, expected and found", "[batch]") {
  Bytes c;
  batch::append_header(c, 2);
  batch::append_record(c, true, B("hello"));
  batch::append_record(c, true, B("x"));
  auto msg = [](const Bytes& b) {
    try {
      batch::read_container(b);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(msg(Bytes(c.begin(), c.begin() + 12)), Catch::Contains("offset 12: batch header cut short"));
  CHECK_THAT(msg(Bytes(c.begin(), c.begin() + 20)),
             Catch::Contains("offset 16: record 1 of 2: record header cut short (expected 9 bytes, found 4)"));
  CHECK_THAT(msg(Bytes(c.begin(), c.begin() + 27)),
             Catch::Contains("offset 17: record 1 of 2: record runs past the end of the input (expected at most 2 bytes, found 5)"));
  CHECK_THAT(msg(Bytes(c.begin(), c.end() - 1)), Catch::Contains("record 2 of 2: record runs past the end"));
  Bytes v = c;
  v[7] = 9;
  CHECK_THAT(msg(v), Catch::Contains("offset 7: unknown batch version (expected 1, found 9)"));
  Bytes st = c;
  st[16] = 2;
  CHECK_THAT(msg(st), Catch::Contains("offset 16: record 1 of 2: bad record status"));
  Bytes f = c;
  f[16] = 1;
  CHECK_THAT(msg(f), Catch::Contains("a failed record holds bytes (expected length 0, found 5)"));
  Bytes more = c;
  more.push_back(0);
  CHECK_THAT(msg(more), Catch::Contains("bytes after the last batch record"));
  // A count of 2^63 over a short input: no allocation for it, the first missing record named.
  Bytes huge = c;
  huge[15] = 0x80;
  CHECK_THAT(msg(huge), Catch::Contains("record 3 of 9223372036854775810: record header cut short"));
  Bytes len = c;
  len[24] = 0xff;  // length's top byte
  CHECK_THAT(msg(len), Catch::Contains("offset 17: record 1 of 2: record runs past the end"));
}

TEST_CASE("batch lines: \\n or \\r\\n, a last line without a newline, empty lines are items", "[batch]") {
  const Bytes in = B("a\r\n\nb");  // items are views into their input
  const auto items = batch::split_lines(in);
  REQUIRE(items.size() == 3);
  CHECK(S(items[0].bytes) == "a");
  CHECK(items[1].bytes.empty());
  CHECK(*items[2].line == 3);
  CHECK(items[2].offset == 4);
  const Bytes one = B("a\n");
  CHECK(batch::split_lines(one).size() == 1);
  CHECK(batch::split_lines({}).empty());
  const Bytes five = B("abcde");
  CHECK_THROWS_WITH(batch::split_records(five, 2), Catch::Contains("offset 4: last record cut short"));
}

TEST_CASE("batch run: record N is item N, with failures, for any thread count", "[batch]") {
  std::string text;
  for (int i = 0; i < 9000; ++i) text += (i == 4500 ? "bad" : "i" + std::to_string(i)) + "\n";
  const auto input = B(text);
  const auto items = batch::split_lines(input);
  batch::Options o;
  o.source = "in.txt";
  CHECK_THROWS_WITH(batch::run(items, upper, o),
                    Catch::StartsWith("in.txt: item 4501 (line 4501): offset 1: a bad item"));
  o.keep_going = true;
  o.output = batch::Output::Lines;
  const auto r = batch::run(items, upper, o);
  REQUIRE(r.failures.size() == 1);
  CHECK(r.failures[0].item == 4501);
  CHECK(r.failures[0].error == "offset 1: a bad item (expected good, found bad)");
  const auto lines = batch::split_lines(r.output);
  REQUIRE(lines.size() == 9000);
  CHECK(lines[4500].bytes.empty());
  CHECK(S(lines[4501].bytes) == "I4501");
  o.output = batch::Output::Container;
  const auto c = batch::run(items, upper, o);
  const auto recs = batch::read_container(c.output);
  REQUIRE(recs.size() == 9000);
  CHECK(recs[4500].failed_before);
  CHECK(S(recs[8999].bytes) == "I8999");
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    CHECK(batch::run(items, upper, o).output == c.output);
  }
  // Read back, the failed record fails again in its place.
  const auto again = batch::run(recs, upper, o);
  REQUIRE(again.failures.size() == 1);
  CHECK(again.failures[0].item == 4501);
  CHECK(again.failures[0].error == "failed in the batch it was read from");
}
