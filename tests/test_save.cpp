// Stationeers .save archives: listing, reading, and rewrites that keep untouched members
// byte-identical, make backups, honour dry runs and leave the save as it was on failure.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <set>
#include <tbb/global_control.h>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes terrain_like(size_t n, uint32_t seed) {
  Bytes v = test::random_bytes(n, seed, 3);
  for (size_t i = 0; i < n; i += 3) v[i] = 1;  // leaf-like triples compress well
  return v;
}

Bytes small_save(uint32_t seed = 1) {
  auto rooms = save_synth::synth_rooms(seed, 3, 12);
  save_synth::SaveOptions o;
  o.seed = seed;
  return save_synth::synth_save(terrain_like(20000, seed), rooms, o);
}

std::vector<std::string> dir_listing(const std::filesystem::path& dir) {
  std::vector<std::string> v;
  for (auto& e : std::filesystem::directory_iterator(dir)) v.push_back(e.path().filename());
  std::sort(v.begin(), v.end());
  return v;
}

Bytes span_of(const Bytes& file, uint64_t lo, uint64_t hi) {
  return Bytes(file.begin() + long(lo), file.begin() + long(hi));
}

// Every member not in `replaced`: the same raw local header, data and descriptor, and the
// same central record apart from its local header offset.
void check_untouched_identical(const Bytes& before, const Bytes& after,
                               const std::set<std::string>& replaced) {
  auto a = zip::read_archive(zip::MemorySource(before));
  auto b = zip::read_archive(zip::MemorySource(after));
  REQUIRE(a.entries.size() == b.entries.size());
  for (size_t i = 0; i < a.entries.size(); ++i) {
    const auto& x = a.entries[i];
    const auto& y = b.entries[i];
    CHECK(x.name == y.name);
    if (replaced.count(x.name)) continue;
    CHECK(span_of(before, x.local_offset, x.end_offset) ==
          span_of(after, y.local_offset, y.end_offset));
    Bytes cx = x.central, cy = y.central;
    std::fill(cx.begin() + 42, cx.begin() + 46, 0);
    std::fill(cy.begin() + 42, cy.begin() + 46, 0);
    CHECK(cx == cy);
  }
}

}  // namespace

TEST_CASE("save lists members in the game's order with their methods and descriptor", "[save]") {
  Bytes s = small_save();
  auto m = save::list_members(s);
  std::vector<std::string> names;
  for (auto& x : m) names.push_back(x.name);
  CHECK(names == std::vector<std::string>{"world_meta.xml", "world.xml", "terrain.dat",
                                          "preview.png", "screenshot.png",
                                          "mods/SynthMod/state.xml", "SynthMod.bin",
                                          "notes/readme.txt"});
  CHECK(m[3].method == 0);
  CHECK(m[6].method == 0);
  CHECK(m[2].method == 8);
  CHECK((m[5].flags & 8) != 0);
  CHECK(m[2].size == 20000);
}

TEST_CASE("save reads members back whole and checks the cap before inflating", "[save]") {
  Bytes t = terrain_like(50000, 3);
  auto rooms = save_synth::synth_rooms(3, 2, 11);
  Bytes s = save_synth::synth_save(t, rooms, {});
  CHECK(save::read_member(s, "terrain.dat", 1 << 20) == t);
  CHECK_THROWS_WITH(save::read_member(s, "terrain.dat", 49999),
                    Catch::Contains("too large") && Catch::Contains("at most 49999 bytes"));
  CHECK_THROWS_WITH(save::read_member(s, "nope.dat", 100), Catch::Contains("no member named"));
  auto world = save::read_member(s, "world.xml", 1 << 24);
  CHECK(std::string(world.begin(), world.end()).find("&#xB;") != std::string::npos);
}

TEST_CASE("rewrite keeps untouched members byte-identical, in order, with their methods",
          "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(5);
  io::write_file(path, before);
  Bytes t2 = terrain_like(30000, 77);
  auto res = save::rewrite(path, {{"terrain.dat", t2}}, {});
  CHECK(res.written);
  CHECK(res.backup == path + ".bak");
  REQUIRE(res.replaced.size() == 1);
  CHECK(res.replaced[0].changed);
  CHECK(res.replaced[0].new_size == 30000);
  Bytes after = io::read_all(path);
  CHECK(res.bytes_after == after.size());
  check_untouched_identical(before, after, {"terrain.dat"});
  CHECK(save::read_member(path, "terrain.dat", 1 << 20) == t2);
  auto ma = save::list_members(before), mb = save::list_members(after);
  for (size_t i = 0; i < ma.size(); ++i) CHECK(ma[i].method == mb[i].method);
  CHECK(io::read_all(path + ".bak") == before);
}

TEST_CASE("rewrite keeps a stored member stored and a data descriptor in place", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(6);
  io::write_file(path, before);
  Bytes blob = test::random_bytes(777, 9);
  std::string st = "<SynthMod version=\"4\"/>\n";
  save::RewriteOptions o;
  o.backup = false;
  save::rewrite(path, {{"SynthMod.bin", blob}, {"mods/SynthMod/state.xml", Bytes(st.begin(), st.end())}}, o);
  Bytes after = io::read_all(path);
  check_untouched_identical(before, after, {"SynthMod.bin", "mods/SynthMod/state.xml"});
  auto m = save::list_members(after);
  CHECK(m[6].method == 0);
  CHECK(m[5].method == 8);
  CHECK((m[5].flags & 8) != 0);
  CHECK(save::read_member(after, "SynthMod.bin", 1000) == blob);
  CHECK(save::read_member(after, "mods/SynthMod/state.xml", 1000) == Bytes(st.begin(), st.end()));
  auto b = zip::read_archive(zip::MemorySource(after));
  CHECK(b.entries[5].descriptor_size == 16);
  CHECK(!io::exists(path + ".bak"));
}

TEST_CASE("rewrite with unchanged contents leaves every byte as it was", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(7);
  io::write_file(path, before);
  auto world = save::read_member(before, "world.xml", 1 << 24);
  save::RewriteOptions o;
  o.backup = false;
  auto res = save::rewrite(path, {{"world.xml", world}}, o);
  CHECK(!res.replaced[0].changed);
  CHECK(io::read_all(path) == before);
}

TEST_CASE("rewrite refuses to replace an existing backup unless told to", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(8);
  io::write_file(path, before);
  io::write_file(path + ".bak", Bytes{1, 2, 3});
  Bytes t2 = terrain_like(100, 1);
  CHECK_THROWS_WITH(save::rewrite(path, {{"terrain.dat", t2}}, {}),
                    Catch::Contains("w.save.bak exists"));
  CHECK(io::read_all(path) == before);
  save::RewriteOptions o;
  o.force_backup = true;
  save::rewrite(path, {{"terrain.dat", t2}}, o);
  CHECK(io::read_all(path + ".bak") == before);
  CHECK(save::read_member(path, "terrain.dat", 1000) == t2);
  CHECK(dir_listing(dir.path) == std::vector<std::string>{"w.save", "w.save.bak"});
}

TEST_CASE("rewrite dry run reports the change and writes nothing", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(9);
  io::write_file(path, before);
  save::RewriteOptions o;
  o.dry_run = true;
  auto res = save::rewrite(path, {{"terrain.dat", terrain_like(4000, 2)}}, o);
  CHECK(!res.written);
  CHECK(res.backup.empty());
  REQUIRE(res.replaced.size() == 1);
  CHECK(res.replaced[0].old_size == 20000);
  CHECK(res.replaced[0].new_size == 4000);
  CHECK(res.bytes_before == before.size());
  CHECK(res.bytes_after < before.size());
  CHECK(io::read_all(path) == before);
  CHECK(dir_listing(dir.path) == std::vector<std::string>{"w.save"});
}

TEST_CASE("rewrite refuses a member the save does not have, writing nothing", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(10);
  io::write_file(path, before);
  CHECK_THROWS_WITH(save::rewrite(path, {{"Terrain0.dat", Bytes{1}}}, {}),
                    Catch::Contains("no member named Terrain0.dat"));
  CHECK(dir_listing(dir.path) == std::vector<std::string>{"w.save"});
}

TEST_CASE("a rewrite aborted half way leaves the save exactly as it was", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(11);
  io::write_file(path, before);
  save::RewriteOptions o;
  int calls = 0;
  o.progress = [&](uint64_t done, uint64_t total) {
    if (++calls == 3) throw Error(ErrorKind::Io, "injected failure");
  };
  CHECK_THROWS_WITH(save::rewrite(path, {{"terrain.dat", terrain_like(9000, 4)}}, o),
                    Catch::Contains("injected failure"));
  CHECK(io::read_all(path) == before);
  CHECK(dir_listing(dir.path) == std::vector<std::string>{"w.save"});
}

TEST_CASE("a rewrite that runs out of file space leaves the save exactly as it was", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  Bytes before = small_save(12);
  io::write_file(path, before);
  // In a child: writes past half the save's size fail (EFBIG), as on a full disk.
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {before.size() / 2, before.size() / 2};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    try {
      save::RewriteOptions o;
      save::rewrite(path, {{"SynthMod.bin", Bytes(3000, 7)}}, o);
    } catch (const Error& e) {
      ::_exit(e.kind() == ErrorKind::Io ? 42 : 43);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 42);
  CHECK(io::read_all(path) == before);
  CHECK(dir_listing(dir.path) == std::vector<std::string>{"w.save"});
}

TEST_CASE("rewrite keeps the file's permissions", "[save]") {
  test::TempDir dir;
  const std::string path = dir.file("w.save");
  io::write_file(path, small_save(13));
  std::filesystem::permissions(path, std::filesystem::perms(0640));
  save::RewriteOptions o;
  o.backup = false;
  save::rewrite(path, {{"terrain.dat", Bytes(10, 1)}}, o);
  CHECK(std::filesystem::status(path).permissions() == std::filesystem::perms(0640));
}

TEST_CASE("rewrite through a symbolic link rewrites the file it points to", "[save]") {
  test::TempDir dir;
  std::filesystem::create_directory(dir.path / "real");
  const std::string real = dir.file("real/w.save"), link = dir.file("w.save");
  Bytes before = small_save(14);
  io::write_file(real, before);
  std::filesystem::create_symlink("real/w.save", link);
  save::rewrite(link, {{"terrain.dat", Bytes(10, 2)}}, {});
  CHECK(std::filesystem::is_symlink(link));
  CHECK(save::read_member(link, "terrain.dat", 100) == Bytes(10, 2));
  CHECK(io::read_all(real + ".bak") == before);
}

TEST_CASE("raw deflate is the same for any thread count and inflates back", "[save]") {
  Bytes in = terrain_like((2 << 20) + 12345, 21);
  zip::Compressed one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = zip::deflate_raw(in, 1);
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = zip::deflate_raw(in, 1);
  }
  CHECK(one.data == two.data);
  CHECK(one.crc32 == zip::crc32(in));
  zip::Writer w;
  zip::Writer::Options fast;
  fast.level = 1;
  w.add("big.dat", in, fast);
  Bytes z = w.finish();
  CHECK(save::read_member(z, "big.dat", in.size()) == in);
}
