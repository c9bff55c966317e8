// Edit logs (int64, text, JSON, .vxlog): golden bytes of every writer, round trips, detection,
// the example logs of test_data/edits, and every kind of bad input.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

#include "formats/edit/edit_log.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;
using namespace voxkit::edit_log;
using Bytes = std::vector<uint8_t>;
using Kind = Record::Kind;

namespace {

constexpr uint64_t kE1 = 0x01140641003800C4ull;  // add, the package's test value
constexpr uint64_t kE5 = 0x8B10014000A00140ull;  // paint 17: negative as an int64
constexpr uint64_t kE7 = 0x0018008000850080ull;  // dig
constexpr uint64_t kE2 = 0x2B0C005000400030ull;  // paint dug soil

Record edit_rec(uint64_t e, uint32_t seq, uint32_t epoch) { return {Kind::Edit, e, seq, epoch}; }
Record reset_rec(uint32_t epoch) { return {Kind::Reset, 0, 0, epoch}; }

// Two edits, a reset, one edit; for a 16 x 8 x 16 grid.
Log ordered_sample() {
  Log log;
  log.cells = Dims{16, 8, 16};
  log.records = {edit_rec(kE1, 0, 0), edit_rec(kE5, 1, 0), reset_rec(1), edit_rec(kE7, 0, 1)};
  return log;
}

// Arrival order: seq 2 before seq 1, then a reset and the next epoch; no grid recorded.
Log network_sample() {
  Log log;
  log.network = true;
  log.records = {edit_rec(kE1, 0, 0), edit_rec(kE7, 2, 0), edit_rec(kE5, 1, 0), reset_rec(1), edit_rec(kE2, 0, 1)};
  return log;
}

Bytes from_hex(const std::string& h) {
  Bytes b;
  for (size_t i = 0; i + 1 < h.size(); i += 2) b.push_back(uint8_t(std::stoul(h.substr(i, 2), nullptr, 16)));
  return b;
}

Bytes bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

std::string text_of(const Bytes& b) { return {b.begin(), b.end()}; }

// The message of the data error `f` throws ("" when it does not throw).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Data);
    return e.what();
  }
  return "";
}

std::string vxlog_error(const Bytes& b, ReadOptions o = {}) { return error_of([&] { read_vxlog(b, o); }); }
std::string text_error(std::string_view t, ReadOptions o = {}) { return error_of([&] { read_text(t, o); }); }
std::string json_error(std::string_view t, ReadOptions o = {}) { return error_of([&] { read_json(t, o); }); }

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Puts back the CRC-32 of a .vxlog whose fields a test changed.
void fix_crc(Bytes& b) {
  uLong c = crc32(0, b.data(), 44);
  if (b.size() > 48) c = crc32(c, b.data() + 48, uInt(b.size() - 48));
  for (int i = 0; i < 4; ++i) b[44 + size_t(i)] = uint8_t(c >> (8 * i));
}

void put32_at(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

Bytes read_file(const std::string& rel) {
  std::ifstream in(std::string(VOXKIT_SOURCE_DIR) + "/" + rel, std::ios::binary);
  REQUIRE(in);
  return Bytes((std::istreambuf_iterator<char>(in)), {});
}

}  // namespace

TEST_CASE("edit log writers give the golden bytes of an ordered log with a reset", "[edit_log]") {
  const Log log = ordered_sample();
  CHECK(write_text(log) ==
        "cells 16 8 16\n"
        "0x01140641003800C4\n"
        "0x8B10014000A00140\n"
        "reset 1\n"
        "0x0018008000850080\n");
  CHECK(write_json(log) == R"({
  "cells": [
    16,
    8,
    16
  ],
  "epochs": [
    {
      "edits": [
        "0x01140641003800C4",
        "0x8B10014000A00140"
      ],
      "epoch": 0
    },
    {
      "edits": [
        "0x0018008000850080"
      ],
      "epoch": 1
    }
  ],
  "format": "voxkit-edit-log",
  "version": 1
}
)");
  // magic, 1.0, flags 0, cells, 2 blocks, 3 edits, reserved, CRC; (epoch 0, 2 edits), (epoch 1, 1 edit)
  CHECK(write_vxlog(log) ==
        from_hex("8956584c0d0a1a0a0100000000000000100000000800000010000000020000000300000000000000000000009551f163"
                 "0000000002000000c4003800410614014001a0004001108b0100000001000000"
                 "8000850080001800"));
  // The int64 form holds the edits of one epoch only: little-endian, nothing else.
  CHECK(write_int64(Log::of_edits(log.last_epoch_edits())) == from_hex("8000850080001800"));
  CHECK(write_int64(Log::of_edits(std::vector<uint64_t>{kE1, kE5})) ==
        from_hex("c4003800410614014001a0004001108b"));
}

TEST_CASE("edit log writers give the golden bytes of a network log", "[edit_log]") {
  const Log log = network_sample();
  CHECK(write_text(log) ==
        "network\n"
        "0x01140641003800C4 0 0\n"
        "0x0018008000850080 2 0\n"
        "0x8B10014000A00140 1 0\n"
        "reset 1\n"
        "0x2B0C005000400030 0 1\n");
  const std::string json = write_json(log);
  CHECK(json.rfind("{\n  \"format\": \"voxkit-edit-log\",\n  \"records\": [\n    {\n      \"edit\": \"0x01140641003800C4\",\n"
                   "      \"epoch\": 0,\n      \"seq\": 0\n    },\n",
                   0) == 0);
  CHECK(has(json, "    {\n      \"reset\": 1\n    },\n"));
  CHECK(has(json, "  ],\n  \"version\": 1\n}\n"));
  CHECK(!has(json, "cells"));
  // flags 1, cells 0,0,0 (not recorded), no blocks, 5 records of (edit, seq, epoch); the reset's seq is 0xffffffff
  CHECK(write_vxlog(log) ==
        from_hex("8956584c0d0a1a0a0100000001000000000000000000000000000000000000000500000000000000"
                 "000000004ce10570c4003800410614010000000000000000800085008000180002000000000000004001a0004001108b"
                 "01000000000000000000000000000000ffffffff010000003000400050000c2b0000000001000000"));
  CHECK_THROWS_AS(write_int64(log), Error);
}

TEST_CASE("every edit log format reads back what it writes", "[edit_log]") {
  Log gaps = ordered_sample();  // empty epochs in the middle and at the end, a first epoch that is not 0
  gaps.records = {edit_rec(kE1, 0, 4), reset_rec(5), reset_rec(9), edit_rec(kE2, 0, 9), edit_rec(kE2, 1, 9), reset_rec(kMaxSeq)};
  Log empty_network;
  empty_network.network = true;
  const std::vector<Log> logs = {ordered_sample(), network_sample(), gaps, Log{}, empty_network,
                                 Log::of_edits(std::vector<uint64_t>{0, ~0ull, kE5})};
  for (const Log& log : logs) {
    for (Format f : {Format::Text, Format::Json, Format::Vxlog}) {
      INFO(format_name(f));
      const Bytes b = write(log, f);
      CHECK(read(b, f) == log);
      if (!b.empty()) CHECK(detect(b) == f);  // an empty text is also an empty int64 list
    }
  }
  const Log plain = logs.back();
  CHECK(read_int64(write_int64(plain)) == plain);
  CHECK(read(write(plain, Format::Int64), Format::Int64) == plain);
  CHECK(read_int64(Bytes{}) == Log{});
}

TEST_CASE("edit log resets before the first edit only name the first epoch", "[edit_log]") {
  Log want;
  want.records = {edit_rec(kE1, 0, 3), edit_rec(kE5, 1, 3)};
  CHECK(read_text("reset 3\n0x01140641003800C4\n-8426233528410177216\n") == want);
  CHECK(read_text("reset 1\nreset 3\n0x01140641003800C4\n0x8B10014000A00140\n") == want);
  CHECK(read_json(R"({"format":"voxkit-edit-log","version":1,"epochs":[{"epoch":0,"edits":[]},{"epoch":3,"edits":["0x01140641003800C4","0x8B10014000A00140"]}]})") == want);
  CHECK(write_text(want) == "reset 3\n0x01140641003800C4\n0x8B10014000A00140\n");
  // A log built with a leading reset is written as the same file.
  Log built = want;
  built.records.insert(built.records.begin(), reset_rec(3));
  CHECK(write_text(built) == write_text(want));
  CHECK(write_vxlog(built) == write_vxlog(want));
  CHECK(read_vxlog(write_vxlog(built)) == want);
  // A bare reset first starts epoch 1; an empty log keeps no epoch.
  CHECK(read_text("reset\n0x1\n").records == std::vector<Record>{edit_rec(1, 0, 1)});
  CHECK(read_text("reset 7\n") == Log{});
}

TEST_CASE("edit log records: edits, the last epoch, counts, renumbering", "[edit_log]") {
  const Log log = ordered_sample();
  CHECK(log.edits() == std::vector<uint64_t>{kE1, kE5, kE7});
  CHECK(log.last_epoch_edits() == std::vector<uint64_t>{kE7});
  CHECK(log.edit_count() == 3);
  CHECK(network_sample().last_epoch_edits() == std::vector<uint64_t>{kE2});
  CHECK(Log::of_edits(std::vector<uint64_t>{kE1, kE2}).last_epoch_edits() == std::vector<uint64_t>{kE1, kE2});
  const Log of = Log::of_edits(std::vector<uint64_t>{kE1, kE2});
  CHECK(of.records == std::vector<Record>{edit_rec(kE1, 0, 0), edit_rec(kE2, 1, 0)});
  CHECK_FALSE(of.network);
  CHECK_FALSE(of.cells);

  Log loose;
  loose.records = {edit_rec(kE1, 0, 2), edit_rec(kE5, 0, 0), reset_rec(6), edit_rec(kE7, 0, 0), edit_rec(kE7, 0, 0)};
  CHECK_THROWS_AS(check_log(loose), Error);
  loose.renumber();
  CHECK(loose.records ==
        std::vector<Record>{edit_rec(kE1, 0, 2), edit_rec(kE5, 1, 2), reset_rec(6), edit_rec(kE7, 0, 6), edit_rec(kE7, 1, 6)});
  CHECK_NOTHROW(check_log(loose));
}

TEST_CASE("edit log writers refuse logs that break the rules, with usage errors", "[edit_log]") {
  auto usage = [](const Log& log, Format f) {
    try {
      write(log, f);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Usage);
      return std::string(e.what());
    }
    return std::string();
  };
  // The int64 form holds no reset and no network fields.
  CHECK(has(usage(ordered_sample(), Format::Int64), "cannot hold resets"));
  CHECK(has(usage(network_sample(), Format::Int64), "network"));
  Log leading;
  leading.records = {reset_rec(2), edit_rec(kE1, 0, 2)};
  CHECK(has(usage(leading, Format::Int64), "cannot hold resets"));
  for (Format f : {Format::Text, Format::Json, Format::Vxlog, Format::Int64}) {
    Log l = Log::of_edits(std::vector<uint64_t>{kE1, kE2});
    l.records[1].seq = 5;
    CHECK(has(usage(l, f), "record 1: an ordered log's edit has epoch 0 and seq 5"));
    l = ordered_sample();
    l.records[2].epoch = 0;
    CHECK(has(usage(l, f), "record 2: a reset must start a newer epoch than 0"));
    l = network_sample();
    l.records[3].edit = 1;
    CHECK(has(usage(l, f), "a reset holds no edit"));
    l = network_sample();
    l.records[0].seq = 0x80000000u;
    CHECK(has(usage(l, f), "sequence number 2147483648"));
    l = network_sample();
    l.records[4].epoch = 0xffffffffu;
    CHECK(has(usage(l, f), "epoch 4294967295"));
    l = Log::of_edits(std::vector<uint64_t>{kE1});
    l.cells = Dims{4, 0, 4};
    CHECK(has(usage(l, f), "cells must be 1..2147483646 on every axis, not 4x0x4"));
  }
  // A network log's seq and epoch are free: duplicates, gaps, older epochs.
  Log net = network_sample();
  net.records.push_back(edit_rec(kE1, 0, 0));
  net.records.push_back(edit_rec(kE1, 999, 7));
  CHECK_NOTHROW(check_log(net));
}

TEST_CASE("edit log detection: the vxlog magic, JSON, text, and the int64 list otherwise", "[edit_log]") {
  auto d = [](std::string_view s) { return detect(bytes_of(s)); };
  CHECK(detect(write_vxlog(ordered_sample())) == Format::Vxlog);
  CHECK(d("\x89VXL\n\x1a\n") == Format::Vxlog);  // a text-mode copy: the reader then says "bad magic"
  CHECK(d(" \n\t[\"0x1\"]") == Format::Json);
  CHECK(d("\xef\xbb\xbf{\"format\":1}") == Format::Json);
  CHECK(d("{") == Format::Json);
  CHECK(d("0x01140641003800C4\n") == Format::Text);
  CHECK(d("  # note: caf\xc3\xa9\n\n-8426233528410177216 # C# long\r\n") == Format::Text);
  CHECK(d("reset\n0x1\n") == Format::Text);
  CHECK(d("network\n") == Format::Text);
  CHECK(d("# nothing yet\n") == Format::Text);
  CHECK(d("0x1 2 3\n") == Format::Text);
  // Printable but not an edit: the int64 list (the reader then checks the length).
  CHECK(d("ABCDEFGH") == Format::Int64);
  CHECK(d("beef\n") == Format::Int64);  // bare hex is not an edit in a log
  CHECK(d("") == Format::Int64);
  CHECK(detect(write_int64(Log::of_edits(std::vector<uint64_t>{kE1, kE5}))) == Format::Int64);
  // A binary list whose first byte is '[' or '{' is not JSON.
  CHECK(detect(Bytes{'{', 0, 0, 0, 0, 0, 0, 0}) == Format::Int64);
  CHECK(detect(Bytes{'0', 'x', '1', 0x01, '\n', 0, 0, 0}) == Format::Int64);
  CHECK(d("0x1\xff\n") == Format::Int64);  // not UTF-8
  for (Format f : {Format::Int64, Format::Text, Format::Json, Format::Vxlog}) CHECK(format_from_name(format_name(f)) == f);
  CHECK_FALSE(format_from_name("xml"));
}

TEST_CASE("the example edit logs in test_data/edits read as the same logs, and the writers reproduce them", "[edit_log]") {
  const Bytes plain = read_file("test_data/edits/plain.int64");
  CHECK(detect(plain) == Format::Int64);
  const Log p = read_int64(plain);
  CHECK(p.edit_count() == 5);
  CHECK(read_json(text_of(read_file("test_data/edits/plain.json"))) == p);

  const Bytes ot = read_file("test_data/edits/ordered.txt"), oj = read_file("test_data/edits/ordered.json"),
              ov = read_file("test_data/edits/ordered.vxlog");
  CHECK(detect(ot) == Format::Text);
  CHECK(detect(oj) == Format::Json);
  CHECK(detect(ov) == Format::Vxlog);
  const Log o = read(ov, Format::Vxlog);
  CHECK(o.cells == Dims{64, 40, 64});
  CHECK(o.edit_count() == 6);
  CHECK(o.records[3] == reset_rec(1));
  CHECK(read(ot, Format::Text) == o);
  CHECK(read(oj, Format::Json) == o);
  CHECK(write_vxlog(o) == ov);
  CHECK(write(o, Format::Json) == oj);

  const Bytes nt = read_file("test_data/edits/network.txt"), nj = read_file("test_data/edits/network.json"),
              nv = read_file("test_data/edits/network.vxlog");
  const Log n = read(nv, detect(nv));
  CHECK(n.network);
  CHECK(n.records.size() == 9);
  CHECK(n.records[2] == n.records[3]);  // a duplicate
  CHECK(read(nt, detect(nt)) == n);
  CHECK(read(nj, detect(nj)) == n);
  CHECK(write_vxlog(n) == nv);
  CHECK(write(n, Format::Json) == nj);
}

TEST_CASE("int64 edit log reader refuses a length that is not a multiple of 8, naming the size and the offset", "[edit_log]") {
  const Bytes f = write_int64(Log::of_edits(std::vector<uint64_t>{kE1, kE5, kE7}));
  for (size_t n = 0; n <= f.size(); ++n) {
    const Bytes cut(f.begin(), f.begin() + long(n));
    const std::string err = error_of([&] { read_int64(cut); });
    INFO("length " << n << ": " << err);
    if (n % 8 == 0) {
      CHECK(err.empty());
      CHECK(read_int64(cut).edit_count() == n / 8);
    } else {
      CHECK(has(err, "offset " + std::to_string(n - n % 8) + ": the int64 edit list's length, " + std::to_string(n) +
                         " bytes, is not a multiple of 8"));
      CHECK(has(err, std::to_string(n % 8) + " bytes after the last whole edit"));
    }
  }
  CHECK(has(error_of([&] { read_int64(f, {.name = "dig.bin", .max_records = 2}); }),
            "dig.bin: offset 0: more edits than the reader's limit (expected at most 2, found 3 edits)"));
}

TEST_CASE("vxlog edit log reader rejects every truncation", "[edit_log]") {
  for (const Log& log : {ordered_sample(), network_sample()}) {
    const Bytes f = write_vxlog(log);
    for (size_t n = 0; n < f.size(); ++n) {
      const std::string err = vxlog_error(Bytes(f.begin(), f.begin() + long(n)));
      INFO("length " << n << ": " << err);
      if (n < 48) CHECK(has(err, "offset " + std::to_string(n) + ": file ends inside the 48-byte edit log header"));
      else CHECK(has(err, "offset " + std::to_string(n) + ": file ends before its last record (expected " +
                              std::to_string(f.size()) + " bytes"));
    }
  }
}

TEST_CASE("vxlog edit log reader rejects a flip of any bit", "[edit_log]") {
  for (const Log& log : {ordered_sample(), network_sample()}) {
    const Bytes f = write_vxlog(log);
    for (size_t i = 0; i < f.size(); ++i) {
      for (uint8_t bit : {uint8_t(0x01), uint8_t(0x80)}) {
        Bytes bad = f;
        bad[i] ^= bit;
        INFO("byte " << i << " bit " << int(bit));
        CHECK(!vxlog_error(bad).empty());
      }
    }
  }
}

TEST_CASE("vxlog edit log reader rejects bad magic, another major version, a bad CRC and trailing bytes", "[edit_log]") {
  const Bytes f = write_vxlog(ordered_sample());
  Bytes b = f;
  b[3] = 'Z';
  CHECK(has(vxlog_error(b), "offset 0: not a voxkit edit log (bad magic) (expected 89 56 58 4c 0d 0a 1a 0a, found 89 56 58 5a 0d 0a 1a 0a)"));
  CHECK(has(vxlog_error(bytes_of("\x89VXL\n\x1a\n")), "bad magic"));
  CHECK(has(vxlog_error(bytes_of("hello")), "(bad magic) (expected 89 56 58 4c 0d 0a 1a 0a, found 68 65 6c 6c 6f)"));
  b = f;
  b[8] = 2;
  fix_crc(b);
  CHECK(has(vxlog_error(b), "offset 8: unsupported edit log version (expected major version 1, found 2.0)"));
  b = f;
  b[10] = 7;  // a newer minor version reads
  fix_crc(b);
  CHECK(read_vxlog(b) == ordered_sample());
  b = f;
  b[60] ^= 0x40;  // inside the first edit
  const uint32_t stored = uint32_t(f[44] | f[45] << 8 | f[46] << 16 | uint32_t(f[47]) << 24);
  char want[16];
  std::snprintf(want, sizeof want, "0x%08x", stored);
  CHECK(has(vxlog_error(b), std::string("offset 44: CRC-32 does not match: the file is damaged (expected ") + want));
  b = f;
  b.push_back(0);
  CHECK(has(vxlog_error(b), "offset 88: extra bytes after the last record (expected end of file, found 1 more bytes)"));
  CHECK(has(vxlog_error(b, {.name = "x.vxlog"}), "x.vxlog: offset 88:"));
}

TEST_CASE("vxlog edit log reader checks every count against the bytes left and the cap before allocating", "[edit_log]") {
  const Bytes f = write_vxlog(ordered_sample());
  Bytes b = f;
  b[32 + 5] = 0x01;  // 2^40 + 3 edits
  fix_crc(b);
  CHECK(has(vxlog_error(b), "offset 32: more records than the reader's limit"));
  b = f;
  put32_at(b, 32, 1000);  // 1000 edits in an 88-byte file
  fix_crc(b);
  CHECK(has(vxlog_error(b), "offset 88: file ends before its last record (expected 8064 bytes, found 88 bytes)"));
  b = f;
  put32_at(b, 28, 0xffffffffu);  // blocks
  fix_crc(b);
  CHECK(has(vxlog_error(b), "more records than the reader's limit"));
  CHECK(has(vxlog_error(f, {.max_records = 3}), "offset 32: more records than the reader's limit (expected at most 3"));
  CHECK(read_vxlog(f, {.max_records = 4}) == ordered_sample());  // 3 edits and 1 reset

  // Block counts against the header's count: one block claims all, or the blocks hold too few.
  b = f;
  put32_at(b, 48 + 4, 3);  // block 0 takes every edit; block 1's header is then read from an edit
  fix_crc(b);
  CHECK(has(vxlog_error(b), "offset 84: epoch block 1 holds more edits than the header counts (expected at most 0"));
  b = f;
  put32_at(b, 48 + 4, 4);
  fix_crc(b);
  CHECK(has(vxlog_error(b), "offset 52: epoch block 0 holds more edits than the header counts (expected at most 3, found 4)"));
  b = f;
  put32_at(b, 48 + 4, 1);  // block 0 holds 1, block 1 then starts inside an edit
  fix_crc(b);
  CHECK(!vxlog_error(b).empty());
  b = f;
  put32_at(b, 28, 1);  // one block of 2: one edit and a block header left over
  fix_crc(b);
  CHECK(has(vxlog_error(b), "extra bytes after the last record"));
}

TEST_CASE("vxlog edit log reader checks flags, cells, reserved fields, epochs and records", "[edit_log]") {
  const Bytes f = write_vxlog(ordered_sample()), n = write_vxlog(network_sample());
  auto changed = [](Bytes b, size_t at, uint32_t v) {
    put32_at(b, at, v);
    fix_crc(b);
    return b;
  };
  CHECK(has(vxlog_error(changed(f, 12, 4)), "offset 12: reserved flag bits are set (expected flags 0 or 1, found 0x00000004)"));
  CHECK(has(vxlog_error(changed(f, 20, 0)), "offset 16: bad grid cells (expected 0x0x0 (not recorded) or 1..2147483646 on every axis, found 16x0x16)"));
  CHECK(has(vxlog_error(changed(f, 24, 0x80000000u)), "found 16x8x2147483648"));
  CHECK(has(vxlog_error(changed(f, 40, 1)), "offset 40: reserved header field is not 0"));
  CHECK(has(vxlog_error(changed(n, 28, 1)), "offset 28: a network log has no epoch blocks"));
  // Epochs increase from block to block.
  CHECK(has(vxlog_error(changed(f, 48 + 8 + 16, 0)), "offset 72: epoch block 1: epochs must increase (expected an epoch in 1..2147483647, found 0)"));
  CHECK(has(vxlog_error(changed(f, 48, 0x80000000u)), "offset 48: epoch block 0: epoch out of range"));
  // Network records: a reset holds no edit; seq and epoch are C# ints.
  CHECK(has(vxlog_error(changed(n, 48 + 3 * 16, 5)), "offset 96: record 3: a reset holds no edit (expected 0, found 0x0000000000000005)"));
  CHECK(has(vxlog_error(changed(n, 48 + 8, 0x80000000u)), "offset 56: record 0: sequence number out of range"));
  CHECK(has(vxlog_error(changed(n, 48 + 12, 0x80000000u)), "offset 60: record 0: epoch out of range"));
  // A network file without records, an ordered one without blocks.
  Log empty;
  empty.network = true;
  CHECK(write_vxlog(empty).size() == 48);
  CHECK(read_vxlog(write_vxlog(empty)) == empty);
  CHECK(read_vxlog(write_vxlog(Log{})) == Log{});
}

TEST_CASE("text edit logs: hex, signed and unsigned decimal, comments, CRLF, cells, network records", "[edit_log]") {
  const Log a = read_text("\xef\xbb\xbf# a comment, caf\xc3\xa9\r\ncells 16 8 16\r\n\r\n  0x01140641003800c4 # seq 0\r\n"
                          "\t-8426233528410177216\nreset 1\n6755949205586048");
  CHECK(a == ordered_sample());
  const Log n = read_text("# arrival order\n0x01140641003800C4 0 0\n0x0018008000850080 2 0\n10020510545299374400 1 0\n"
                          "reset 1\n0x2B0C005000400030 0 1  # next epoch\n");
  CHECK(n == network_sample());
  CHECK(read_text("network\n").network);
  CHECK(read_text("").records.empty());
  CHECK(read_text("18446744073709551615\n-1\n0xFFFFFFFFFFFFFFFF\n").edits() == std::vector<uint64_t>(3, ~0ull));
}

TEST_CASE("text edit logs: garbage, control bytes and mixed forms are errors with line and column", "[edit_log]") {
  CHECK(has(text_error("0x1\n  hello\n", {.name = "log.txt"}),
            "log.txt: line 2, column 3: not an edit (expected an edit: 0x and 1-16 hex digits, or a decimal int64 or uint64, found 'hello')"));
  CHECK(has(text_error("beef\n"), "line 1, column 1: not an edit"));
  CHECK(has(text_error("0x11223344556677889\n"), "not an edit"));
  CHECK(has(text_error("18446744073709551616\n"), "not an edit"));
  CHECK(has(text_error("-9223372036854775809\n"), "not an edit"));
  CHECK(has(text_error("+5\n"), "not an edit"));
  CHECK(has(text_error("0x1.5\n"), "not an edit"));
  CHECK(has(text_error("0x1 caf\xc3\xa9 0\n"), "line 1, column 5: not a sequence number (expected an integer in 0..2147483647, found 'caf\xc3\xa9')"));
  // Control bytes, escaped in the message so that it stays one line.
  CHECK(has(text_error("0x1\n0x2\x01\n"), "line 2, column 4: a control byte in a text edit log (expected text, found \\x01)"));
  CHECK(has(text_error(std::string_view("0x1\0\n", 5)), "line 1, column 4: a control byte in a text edit log (expected text, found \\x00)"));
  CHECK(has(text_error("# \x1b[31m red\n"), "line 1, column 3: a control byte"));
  CHECK(has(text_error("0x1\x7f\n"), "found \\x7f"));
  CHECK(has(text_error("0x1 # \xff\n"), "line 1, column 7: a byte that is not UTF-8 in a comment (expected UTF-8 text, found \\xff)"));
  CHECK(has(text_error("0x1\xc3\xa9\n"), "not an edit (expected an edit: 0x and 1-16 hex digits, or a decimal int64 or uint64, found '0x1\xc3\xa9')"));
  // One form per file.
  CHECK(has(text_error("0x1\n0x2\n0x3 4 0\n"), "line 3, column 1: a network record in an ordered log (expected EDIT, found EDIT SEQ EPOCH (line 1 holds a single edit))"));
  CHECK(has(text_error("# x\n0x3 4 0\n0x1\n"), "line 3, column 1: a single edit in a network log (expected EDIT SEQ EPOCH, found EDIT (the log is a network log from line 2))"));
  CHECK(has(text_error("network\n0x1\n"), "line 2, column 1: a single edit in a network log"));
  CHECK(has(text_error("0x1 2\n"), "line 1, column 1: wrong number of fields (expected EDIT (an ordered log) or EDIT SEQ EPOCH (a network log), found 2 fields)"));
  CHECK(has(text_error("0x1 2 3 4 5 6\n"), "found 6 fields"));
  // Resets, epochs and sequence numbers.
  CHECK(has(text_error("0x1 0 0\nreset\n"), "line 2, column 1: a reset in a network log must name its epoch"));
  CHECK(has(text_error("reset 3\n0x1\nreset 2\n"), "line 3, column 7: a reset must start a newer epoch (expected an epoch in 4..2147483647, found 2)"));
  CHECK(has(text_error("0x1\nreset 0\n"), "a reset must start a newer epoch (expected an epoch in 1..2147483647, found 0)"));
  CHECK(has(text_error("reset 2147483647\n0x1\nreset\n"), "line 3, column 1: no epoch after the last one"));
  CHECK(has(text_error("reset x\n"), "line 1, column 7: not an epoch"));
  CHECK(has(text_error("reset 1 2\n"), "wrong number of fields (expected reset or reset EPOCH"));
  CHECK(has(text_error("0x1 2147483648 0\n"), "not a sequence number"));
  CHECK(has(text_error("0x1 1 2147483648\n"), "line 1, column 7: not an epoch"));
  CHECK(has(text_error("0x1 -1 0\n"), "not a sequence number"));
  // Cells and network lines come before the records.
  CHECK(has(text_error("0x1\ncells 1 2 3\n"), "line 2, column 1: 'cells' after the first record"));
  CHECK(has(text_error("cells 1 0 3\n"), "line 1, column 9: not a cell count"));
  CHECK(has(text_error("cells 1 2\n"), "expected cells NX NY NZ"));
  CHECK(has(text_error("cells 1 2 3\ncells 1 2 3\n"), "a second 'cells' line"));
  CHECK(has(text_error("0x1 0 0\nnetwork\n"), "'network' after the first record"));
  // The cap.
  CHECK(has(text_error("1\n2\n3\n", {.max_records = 2}), "line 3: more records than the reader's limit (expected at most 2"));
  CHECK(text_error("1\n2\n", {.max_records = 2}).empty());
}

TEST_CASE("JSON edit logs: a bare array, ordered epochs and network records", "[edit_log]") {
  const Log plain = read_json(R"([ "0x01140641003800C4", "-8426233528410177216", 77693969818452164, -8426233528410177216,
                                   18446744073709551615, "10020510545299374400" ])");
  CHECK(plain.edits() == std::vector<uint64_t>{kE1, kE5, kE1, kE5, ~0ull, kE5});
  CHECK_FALSE(plain.network);
  CHECK(read_json(write_json(ordered_sample())) == ordered_sample());
  CHECK(read_json(R"({"version":1,"format":"voxkit-edit-log","note":"unknown top-level keys are ignored","cells":[16,8,16],
    "epochs":[{"edits":["0x01140641003800C4",-8426233528410177216],"epoch":0},{"epoch":1,"edits":[6755949205586048]}]})") ==
        ordered_sample());
  CHECK(read_json(R"({"format":"voxkit-edit-log","version":1,"records":[
    {"edit":"0x01140641003800C4","seq":0,"epoch":0},{"edit":"0x0018008000850080","seq":2,"epoch":0},
    {"edit":"-8426233528410177216","seq":1,"epoch":0},{"reset":1},{"edit":3101854586953007152,"seq":0,"epoch":1}]})") ==
        network_sample());
  CHECK(read_json("[]") == Log{});
}

TEST_CASE("JSON edit logs: floats, numbers out of range and wrong types are errors naming the element", "[edit_log]") {
  const char* kEdit = "expected an edit: 0x and 1-16 hex digits, or a decimal int64 or uint64, as a string or an integer";
  CHECK(has(json_error("[1, 2.5]", {.name = "log.json"}), std::string("log.json: JSON element [1]: not an edit (") + kEdit + ", found 2.5)"));
  CHECK(has(json_error("[18446744073709551616]"), "JSON element [0]: not an edit"));  // past uint64: a double
  CHECK(has(json_error("[-9223372036854775809]"), "JSON element [0]: not an edit"));  // past int64
  CHECK(has(json_error("[1.0]"), "found 1.0"));
  CHECK(has(json_error(R"(["beef"])"), "found \"beef\""));
  CHECK(has(json_error("[true]"), "found true"));
  CHECK(has(json_error("[null]"), "found null"));
  // 1e400 does not fit a double: the offset of the number.
  CHECK(has(json_error("[1, 2, 1e400]"), "offset 7: a JSON number out of range (expected a finite number, found 1e400)"));
  CHECK(has(json_error(R"({"format":"voxkit-edit-log","version":1,"epochs":[{"epoch":-1e999,"edits":[]}]})"),
            "a JSON number out of range (expected a finite number, found -1e999)"));
  // Syntax errors: the byte offset.
  CHECK(has(json_error("[1, 2,, 3]"), "offset 6: not valid JSON: "));
  CHECK(has(json_error("[\"0x1\x01\"]"), "not valid JSON"));
  CHECK(has(json_error("{\"format\": \"\xff\"}"), "not valid JSON"));
  // Nested wrong types, by path.
  const std::string head = R"({"format":"voxkit-edit-log","version":1,)";
  CHECK(has(json_error(head + R"("epochs":[{"epoch":0,"edits":["0x1"]},{"epoch":1,"edits":["0x2",[3]]}]})"),
            "JSON element epochs[1].edits[1]: not an edit (" + std::string(kEdit) + ", found an array)"));
  CHECK(has(json_error(head + R"("epochs":[{"epoch":0,"edits":{"a":1}}]})"), "JSON element epochs[0].edits: not a list of edits (expected an array, found an object)"));
  CHECK(has(json_error(head + R"("epochs":{"epoch":0}})"), "JSON element epochs: not a list of epochs"));
  CHECK(has(json_error(head + R"("epochs":[[]]})"), "JSON element epochs[0]: not an epoch"));
  CHECK(has(json_error(head + R"("epochs":[{"epoch":0}]})"), "JSON element epochs[0]: the key 'edits' is missing"));
  CHECK(has(json_error(head + R"("epochs":[{"epoch":0,"edits":[],"seq":1}]})"), "JSON element epochs[0]: unknown key (expected only epoch, edits, found 'seq')"));
  CHECK(has(json_error(head + R"("epochs":[{"epoch":2,"edits":[]},{"epoch":2,"edits":[]}]})"),
            "JSON element epochs[1].epoch: epochs must increase (expected an epoch in 3..2147483647, found 2)"));
  CHECK(has(json_error(head + R"("epochs":[{"epoch":"1","edits":[]}]})"), "JSON element epochs[0].epoch: not an epoch"));
  CHECK(has(json_error(head + R"("records":[{"edit":"0x1","seq":1.5,"epoch":0}]})"),
            "JSON element records[0].seq: not a sequence number (expected an integer in 0..2147483647, found 1.5)"));
  CHECK(has(json_error(head + R"("records":[{"edit":"0x1","seq":-1,"epoch":0}]})"), "records[0].seq: not a sequence number"));
  CHECK(has(json_error(head + R"("records":[{"edit":"0x1","seq":0,"epoch":2147483648}]})"), "records[0].epoch: not an epoch"));
  CHECK(has(json_error(head + R"("records":[{"edit":"0x1","epoch":0}]})"), "JSON element records[0]: the key 'seq' is missing"));
  CHECK(has(json_error(head + R"("records":[{"reset":1,"edit":"0x1"}]})"), "JSON element records[0]: unknown key (expected only reset, found 'edit')"));
  CHECK(has(json_error(head + R"("records":[{"reset":{"epoch":1}}]})"), "records[0].reset: not an epoch (expected an integer in 0..2147483647, found an object)"));
  CHECK(has(json_error(head + R"("records":[5]})"), "JSON element records[0]: not a record"));
  CHECK(has(json_error(head + R"("cells":[1,2],"records":[]})"), "JSON element cells: not a grid size"));
  CHECK(has(json_error(head + R"("cells":[1,2,0],"records":[]})"), "JSON element cells[2]: not a cell count"));
  CHECK(has(json_error(head + R"("cells":[1,2,3.0],"records":[]})"), "cells[2]: not a cell count"));
  // The envelope.
  CHECK(has(json_error(head + R"("records":[],"epochs":[]})"), "holds both 'epochs' and 'records'"));
  CHECK(has(json_error(head + "\"x\":1}"), "holds neither 'epochs' nor 'records'"));
  CHECK(has(json_error(R"({"format":"voxkit-edit-log","version":2,"records":[]})"), "unsupported edit log version (expected version 1, found 2)"));
  CHECK(has(json_error(R"({"format":"voxkit-edit-log","version":"1","records":[]})"), "unsupported edit log version"));
  CHECK(has(json_error(R"({"format":"something","version":1,"records":[]})"), "JSON element format: not a voxkit edit log"));
  CHECK(has(json_error(R"({"version":1,"records":[]})"), "the key 'format' is missing"));
  CHECK(has(json_error("\"0x1\""), "offset 0: a JSON edit log is an array of edits or an object"));
  // The cap, before the edits are read.
  CHECK(has(json_error("[1,2,3]", {.max_records = 2}), "more edits than the reader's limit (expected at most 2, found 3)"));
  CHECK(has(json_error(head + R"("records":[{"reset":1},{"reset":2},{"reset":3}]})", {.max_records = 2}),
            "JSON element records[2]: more records than the reader's limit"));
  // A deep nesting is described, not printed.
  CHECK(has(json_error("[" + std::string(100000, '[') + std::string(100000, ']') + "]"), "JSON element [0]: not an edit"));
}
