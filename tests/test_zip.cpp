// ZIP structure: archives from another writer (Python's zipfile), ZIP64 end records and
// extra fields, every truncation, and each broken header reported with its offset.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

std::string fixture(const std::string& name) {
  return std::string(VOXKIT_SOURCE_DIR) + "/test_data/stationeers/" + name;
}

Bytes small_zip(const std::string& comment = {}) {
  zip::Writer w;
  zip::Writer::Options d, s;
  s.method = 0;
  zip::Writer::Options desc = d;
  desc.descriptor = true;
  std::string a = "alpha alpha alpha alpha alpha", b = "bravo";
  w.add("a.txt", Bytes(a.begin(), a.end()), d);
  w.add("b.bin", Bytes(b.begin(), b.end()), s);
  w.add("c.txt", Bytes(300, 'c'), desc);
  return w.finish(comment);
}

// The same archive with ZIP64 fields: every central size and offset deferred to a ZIP64
// extra field, and ZIP64 end records before the classic one.
Bytes to_zip64(const Bytes& z) {
  auto a = zip::read_archive(zip::MemorySource(z));
  Bytes out(z.begin(), z.begin() + long(a.cd_offset));
  const uint64_t cd_offset = out.size();
  for (auto& e : a.entries) {
    Bytes c = e.central;
    const uint16_t n = zip::get16(&c[28]);
    Bytes extra = {1, 0, 24, 0};
    extra.resize(28);
    zip::put64(&extra[4], e.size);
    zip::put64(&extra[12], e.compressed_size);
    zip::put64(&extra[20], e.local_offset);
    Bytes rec(c.begin(), c.begin() + 46 + n);
    zip::put32(&rec[20], 0xffffffffu);
    zip::put32(&rec[24], 0xffffffffu);
    zip::put32(&rec[42], 0xffffffffu);
    zip::put16(&rec[30], uint16_t(extra.size()));
    zip::put16(&rec[32], 0);
    rec.insert(rec.end(), extra.begin(), extra.end());
    out.insert(out.end(), rec.begin(), rec.end());
  }
  const uint64_t cd_size = out.size() - cd_offset, rec64 = out.size();
  Bytes r(56);
  zip::put32(&r[0], 0x06064b50);
  zip::put64(&r[4], 44);
  zip::put16(&r[12], 45);
  zip::put16(&r[14], 45);
  zip::put64(&r[24], a.entries.size());
  zip::put64(&r[32], a.entries.size());
  zip::put64(&r[40], cd_size);
  zip::put64(&r[48], cd_offset);
  out.insert(out.end(), r.begin(), r.end());
  Bytes loc(20);
  zip::put32(&loc[0], 0x07064b50);
  zip::put64(&loc[8], rec64);
  zip::put32(&loc[16], 1);
  out.insert(out.end(), loc.begin(), loc.end());
  Bytes e(22);
  zip::put32(&e[0], 0x06054b50);
  zip::put16(&e[8], 0xffff);
  zip::put16(&e[10], 0xffff);
  zip::put32(&e[12], 0xffffffffu);
  zip::put32(&e[16], 0xffffffffu);
  out.insert(out.end(), e.begin(), e.end());
  return out;
}

std::string list_error(const Bytes& z) {
  try {
    save::list_members(z);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string read_error(const Bytes& z, const std::string& name, uint64_t cap = 1 << 20) {
  try {
    save::read_member(z, name, cap);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

bool python_accepts(const std::string& path) {
  if (std::system("python3 -c 'import zipfile' >/dev/null 2>&1") != 0) return true;
  std::string cmd = "python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
                    "sys.exit(z.testzip() is not None)' '" + path + "'";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace

TEST_CASE("zip reads archives Python's zipfile streamed, with data descriptors", "[zip]") {
  Bytes z = io::read_all(fixture("python_streamed.save"));
  auto a = zip::read_archive(zip::MemorySource(z));
  REQUIRE(a.entries.size() == 4);
  for (auto& e : a.entries) {
    CHECK(e.has_descriptor());
    CHECK(e.descriptor_signature);
  }
  auto terrain = save::read_member(z, "terrain.dat", 100);
  CHECK(terrain == Bytes{10, 0, 0, 0, 3, 200, 1, 0, 0, 0, 0});
  CHECK(save::read_member(z, "preview.png", 100).size() == 15);
}

TEST_CASE("zip rewrites of Python's archives keep the rest identical and pass its check",
          "[zip]") {
  for (const char* name : {"python_streamed.save", "python_zip64.save"}) {
    test::TempDir dir;
    const std::string path = dir.file("p.save");
    Bytes before = io::read_all(fixture(name));
    io::write_file(path, before);
    save::RewriteOptions o;
    o.backup = false;
    save::rewrite(path, {}, o);
    CHECK(io::read_all(path) == before);  // nothing replaced: every byte kept
    Bytes t(5000, 1);
    save::rewrite(path, {{"terrain.dat", t}}, o);
    Bytes after = io::read_all(path);
    auto a = zip::read_archive(zip::MemorySource(before));
    auto b = zip::read_archive(zip::MemorySource(after));
    REQUIRE(b.entries.size() == a.entries.size());
    for (size_t i = 0; i < a.entries.size(); ++i) {
      if (a.entries[i].name == "terrain.dat") continue;
      CHECK(Bytes(before.begin() + long(a.entries[i].local_offset),
                  before.begin() + long(a.entries[i].end_offset)) ==
            Bytes(after.begin() + long(b.entries[i].local_offset),
                  after.begin() + long(b.entries[i].end_offset)));
    }
    CHECK(save::read_member(path, "terrain.dat", 10000) == t);
    CHECK(python_accepts(path));
  }
}

TEST_CASE("zip reads and rewrites ZIP64 end records and extra fields", "[zip]") {
  Bytes z = to_zip64(small_zip());
  auto a = zip::read_archive(zip::MemorySource(z));
  CHECK(a.zip64);
  CHECK(a.entries[2].central64.offset_at > 0);
  CHECK(save::read_member(z, "c.txt", 1000) == Bytes(300, 'c'));
  test::TempDir dir;
  const std::string path = dir.file("z.save");
  io::write_file(path, z);
  save::RewriteOptions o;
  o.backup = false;
  Bytes big(70000, 'q');
  save::rewrite(path, {{"a.txt", big}}, o);
  Bytes after = io::read_all(path);
  CHECK(save::read_member(after, "a.txt", 100000) == big);
  CHECK(save::read_member(after, "b.bin", 100) == Bytes{'b', 'r', 'a', 'v', 'o'});
  CHECK(save::read_member(after, "c.txt", 1000) == Bytes(300, 'c'));
  CHECK(zip::read_archive(zip::MemorySource(after)).zip64);
  CHECK(python_accepts(path));
}

TEST_CASE("zip rewrite keeps the archive comment", "[zip]") {
  test::TempDir dir;
  const std::string path = dir.file("c.save");
  io::write_file(path, small_zip("made by a mod"));
  save::RewriteOptions o;
  o.backup = false;
  save::rewrite(path, {{"b.bin", Bytes{1, 2}}}, o);
  Bytes after = io::read_all(path);
  CHECK(std::string(after.end() - 13, after.end()) == "made by a mod");
  CHECK(save::read_member(after, "b.bin", 10) == Bytes{1, 2});
}

TEST_CASE("zip reader rejects every truncation of an archive", "[zip]") {
  Bytes z = small_zip();
  for (size_t n = 0; n < z.size(); ++n) {
    Bytes cut(z.begin(), z.begin() + long(n));
    CHECK_THROWS_AS(save::list_members(cut), Error);
  }
}

TEST_CASE("zip reader reports broken headers with their offsets", "[zip]") {
  const Bytes z = small_zip();
  auto a = zip::read_archive(zip::MemorySource(z));
  const uint64_t eocd = a.eocd_offset, cd = a.cd_offset;
  {
    Bytes b = z;
    zip::put32(&b[eocd + 16], uint32_t(cd + 1000));
    CHECK_THAT(list_error(b), Catch::Contains("offset " + std::to_string(eocd + 12) +
                                              ": central directory runs past the end records"));
  }
  {
    Bytes b = z;
    b[cd] = 'X';
    CHECK_THAT(list_error(b), Catch::Contains("offset " + std::to_string(cd) +
                                              ": bad central directory signature"));
  }
  {
    Bytes b = z;
    b[a.entries[1].local_offset + 1] = 'X';
    CHECK_THAT(list_error(b), Catch::Contains("offset " + std::to_string(a.entries[1].local_offset) +
                                              ": bad local header signature for b.bin"));
  }
  {
    Bytes b = z;  // b.bin's central record points at a.txt's local header
    zip::put32(&b[cd + a.entries[0].central.size() + 42], 0);
    CHECK_THAT(list_error(b), Catch::Contains("overlap"));
  }
  {
    Bytes b = z;  // c.txt claims more compressed bytes than lie before the directory
    const uint64_t rec = cd + a.entries[0].central.size() + a.entries[1].central.size();
    zip::put32(&b[rec + 20], 100000);
    CHECK_THAT(list_error(b), Catch::Contains("data of c.txt runs into the central directory"));
  }
  {
    Bytes b = z;
    zip::put16(&b[eocd + 8], 5000);
    zip::put16(&b[eocd + 10], 5000);
    CHECK_THAT(list_error(b), Catch::Contains("member count does not fit"));
  }
  {
    Bytes b = z;
    zip::put16(&b[eocd + 4], 1);
    CHECK_THAT(list_error(b), Catch::Contains("split (multi-disk) archives"));
  }
  CHECK_THAT(list_error(Bytes(100, 0)), Catch::Contains("no end of central directory record"));
  CHECK_THAT(list_error(Bytes(10, 0)), Catch::Contains("too short"));
}

TEST_CASE("zip member reading rejects lying sizes, CRCs, methods and encryption", "[zip]") {
  const Bytes z = small_zip();
  auto a = zip::read_archive(zip::MemorySource(z));
  const uint64_t cd = a.cd_offset;
  {
    Bytes b = z;  // a.txt declared one byte shorter than it inflates to
    zip::put32(&b[cd + 24], uint32_t(a.entries[0].size - 1));
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("inflates past its declared size"));
  }
  {
    Bytes b = z;
    zip::put32(&b[cd + 24], uint32_t(a.entries[0].size + 1));
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("inflates to fewer bytes than declared"));
  }
  {
    Bytes b = z;
    zip::put32(&b[cd + 24], 0x7fffffff);  // before anything is allocated
    CHECK_THAT(read_error(b, "a.txt", uint64_t(1) << 40),
               Catch::Contains("claims more than its deflate data can hold"));
  }
  {
    Bytes b = z;
    b[cd + 16] ^= 1;
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("CRC-32 mismatch in member a.txt"));
  }
  {
    Bytes b = z;
    zip::put16(&b[cd + 10], 12);
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("unsupported compression method 12"));
  }
  {
    Bytes b = z;
    b[cd + 8] |= 1;
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("a.txt is encrypted"));
  }
  {
    Bytes b = z;
    b[a.entries[0].data_offset] = 0xff;  // an invalid deflate block type
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("corrupt deflate data in a.txt"));
  }
  {
    Bytes b = z;
    zip::put32(&b[cd + 20], uint32_t(a.entries[0].compressed_size - 3));
    zip::put32(&b[a.entries[0].local_offset + 18], uint32_t(a.entries[0].compressed_size - 3));
    CHECK_THAT(read_error(b, "a.txt"), Catch::Contains("deflate data of a.txt ends early"));
  }
}
