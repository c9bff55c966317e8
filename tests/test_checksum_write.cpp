// world.xml terrain chunk checksums against base files (check, update, bare and in a save),
// and Terrain{i}.dat written from node streams in the gzip style of an existing file.
#include <catch2/catch.hpp>

#include <fstream>

#include "formats/core/io.hpp"
#include "formats/stationeers/base_write.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "formats/stationeers/world_checksums.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "lib/core/error.hpp"
#include "tests/octree_util.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using namespace voxkit::test;

namespace {

void put(const std::string& path, const Bytes& b) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
void put(const std::string& path, const std::string& s) { put(path, Bytes(s.begin(), s.end())); }
Bytes get(const std::string& path) { return io::read_all(path); }

std::string world_with(const std::vector<std::string>& values) {
  std::string x = "<?xml version=\"1.0\"?>\n<WorldData><Sign>A&#xB;B</Sign>\n  <TerrainChunkChecksums>\n";
  for (const auto& v : values) x += "    " + v + "\n";
  return x + "  </TerrainChunkChecksums>\n</WorldData>\n";
}

// A small block: a branch of unmodified leaves with one solid leaf at child `k`.
Bytes block_nodes(int k) {
  Bytes n{0x00};
  for (int i = 0; i < 8; ++i) n = cat({n, i == k ? Bytes{0x01, 0xff, 0x02} : kUnmod});
  return n;
}
int32_t sum(const Bytes& nodes) { return int32_t(octree::checksum(nodes)); }

}  // namespace

TEST_CASE("gzip header length reads every optional field and rejects truncations", "[checksum_write]") {
  const Bytes plain{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
  CHECK(stationeers::gzip_header_length(plain) == 10);
  // FEXTRA (2 bytes of data), FNAME "ab", FCOMMENT "c", FHCRC.
  const Bytes full{0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3, 2, 0, 9, 9, 'a', 'b', 0, 'c', 0, 0x12, 0x34};
  CHECK(stationeers::gzip_header_length(full) == full.size());
  for (size_t n = 0; n < full.size(); ++n) {
    CHECK_THROWS_AS(stationeers::gzip_header_length(Bytes(full.begin(), full.begin() + long(n))), Error);
  }
  Bytes bad = plain;
  bad[3] = 0x20;
  CHECK_THROWS_WITH(stationeers::gzip_header_length(bad), Catch::Contains("offset 3: gzip header has reserved flag bits set"));
  bad = plain;
  bad[2] = 7;
  CHECK_THROWS_WITH(stationeers::gzip_header_length(bad), Catch::Contains("not deflate"));
  bad = plain;
  bad[1] = 0x8c;
  CHECK_THROWS_WITH(stationeers::gzip_header_length(bad), Catch::Contains("not a gzip stream"));
}

TEST_CASE("gzip style finds the zlib level that reproduces a base file's bytes", "[checksum_write]") {
  const Bytes nodes = cat({Bytes{0x00}, unmod_branch(), block_nodes(3), block_nodes(5), kUnmod, kUnmod, kUnmod, kUnmod, kUnmod});
  for (int level : {0, 1, 4, 6, 9}) {
    const Bytes gz = terrain_base::encode(10, nodes, level);
    const auto raw = terrain_base::gunzip(gz);
    const auto s = stationeers::gzip_style(gz, raw);
    REQUIRE(s.matched);
    CHECK(stationeers::gzip_with_header(raw, s.header, s.level) == gz);
  }
  // A header with a name is kept as it is.
  Bytes gz = terrain_base::encode(10, nodes, 6);
  Bytes named(gz.begin(), gz.begin() + 10);
  named[3] = 0x08;
  named.insert(named.end(), {'T', '0', 0});
  named.insert(named.end(), gz.begin() + 10, gz.end());
  const auto s = stationeers::gzip_style(named, terrain_base::gunzip(named));
  CHECK(s.matched);
  CHECK(s.header.size() == 13);
  CHECK(stationeers::gzip_with_header(terrain_base::gunzip(named), s.header, s.level) == named);
}

TEST_CASE("block counts are powers of eight", "[checksum_write]") {
  for (size_t n : {1, 8, 64, 512}) CHECK(stationeers::is_block_count(n));
  for (size_t n : {0, 2, 9, 16, 63, 65}) CHECK_FALSE(stationeers::is_block_count(n));
}

TEST_CASE("checksum check compares world.xml with the base files beside it", "[checksum_write]") {
  TempDir d;
  const Bytes b0 = block_nodes(0), b1 = block_nodes(1);
  put(d.file("Terrain0.dat"), terrain_base::encode(10, b0));
  put(d.file("Terrain1.dat"), terrain_base::encode(10, b1));
  put(d.file("Terrain9.dat"), terrain_base::encode(10, b1));  // beyond the 8 entries
  std::vector<std::string> v(8, "<int>0</int>");
  v[0] = "<int>" + std::to_string(sum(b0)) + "</int>";
  v[2] = "<int>5</int>";  // Terrain2.dat is missing: it counts as 0
  put(d.file("world.xml"), world_with(v));
  stationeers::ChecksumJob j;
  j.input = d.file("world.xml");
  const auto r = stationeers::run_checksums(j);
  CHECK(r.kind == "world.xml");
  CHECK(r.base_source == "directory");
  REQUIRE(r.chunks.size() == 8);
  CHECK(r.chunks[0].ok());
  CHECK_FALSE(r.chunks[1].ok());
  CHECK(r.chunks[1].computed == sum(b1));
  CHECK_FALSE(r.chunks[2].present);
  CHECK_FALSE(r.chunks[2].ok());
  CHECK(r.differ == 2);
  CHECK(r.missing == 6);
  CHECK(r.ignored == std::vector<std::string>{"Terrain9.dat"});
  CHECK(r.to_json()["chunks"][1]["computed"] == sum(b1));
}

TEST_CASE("checksum update rewrites only the values, and then the check agrees", "[checksum_write]") {
  TempDir d;
  const Bytes b0 = block_nodes(2);
  put(d.file("Terrain0.dat"), terrain_base::encode(10, b0));
  const std::string before = world_with({"<int>123</int>", "<int/>", "<int> 0 </int>", "<int>0</int>",
                                         "<int>0</int>", "<int>0</int>", "<int>0</int>", "<int>-7</int>"});
  put(d.file("world.xml"), before);
  stationeers::ChecksumJob j;
  j.input = d.file("world.xml");
  j.update = true;
  j.output = d.file("new.xml");
  const auto r = stationeers::run_checksums(j);
  CHECK(r.changed == 2);
  CHECK(r.written);
  const auto after = io::read_text(d.file("new.xml"));
  CHECK(world_xml::read_checksums(after) == std::vector<int64_t>{sum(b0), 0, 0, 0, 0, 0, 0, 0});
  // Everything but the values is as it was (the empty <int/> gets its value written in).
  CHECK(world_xml::replace_checksums(after, {}) == world_xml::replace_checksums(before, {}));
  CHECK(io::read_text(d.file("world.xml")) == before);  // the input is untouched

  stationeers::ChecksumJob c;
  c.input = d.file("new.xml");
  c.base_dir = d.path.string();
  CHECK(stationeers::run_checksums(c).agree());
}

TEST_CASE("checksum update in place keeps a backup, refuses to replace one, and skips a no-op", "[checksum_write]") {
  TempDir d;
  put(d.file("Terrain0.dat"), terrain_base::encode(10, block_nodes(4)));
  const std::string before = world_with({"<int>1</int>"});
  put(d.file("world.xml"), before);
  stationeers::ChecksumJob j;
  j.input = d.file("world.xml");
  j.update = true;
  j.in_place = true;
  j.dry_run = true;
  auto r = stationeers::run_checksums(j);
  CHECK(r.changed == 1);
  CHECK_FALSE(r.written);
  CHECK(io::read_text(d.file("world.xml")) == before);
  CHECK_FALSE(io::exists(d.file("world.xml.bak")));

  j.dry_run = false;
  r = stationeers::run_checksums(j);
  CHECK(r.written);
  CHECK(r.backup == d.file("world.xml.bak"));
  CHECK(io::read_text(d.file("world.xml.bak")) == before);
  // Nothing left to change: nothing written, the backup is no obstacle.
  r = stationeers::run_checksums(j);
  CHECK_FALSE(r.written);
  // A change with a backup in the way is refused unless the backup may be replaced.
  put(d.file("world.xml"), before);
  const auto e = thrown_error([&] { stationeers::run_checksums(j); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Usage);
  CHECK(io::read_text(d.file("world.xml")) == before);
  j.backup.force = true;
  CHECK(stationeers::run_checksums(j).written);
}

TEST_CASE("checksum update of a save rewrites world.xml and keeps every other member", "[checksum_write]") {
  TempDir d;
  const Bytes b0 = block_nodes(6);
  put(d.file("Terrain0.dat"), terrain_base::encode(10, b0));
  save_synth::SaveOptions so;
  so.max_depth = 10;
  const Bytes terrain = dat(10, kUnmod);
  put(d.file("w.save"), save_synth::synth_save(terrain, save_synth::synth_rooms(3, 1, 10), so));
  const Bytes orig = get(d.file("w.save"));
  stationeers::ChecksumJob j;
  j.input = d.file("w.save");
  j.base_dir = d.path.string();
  j.update = true;
  const auto r = stationeers::run_checksums(j);
  CHECK(r.kind == "save");
  CHECK(r.written);
  CHECK(get(d.file("w.save.bak")) == orig);
  const auto before = save::list_members(orig), after = save::list_members(get(d.file("w.save")));
  REQUIRE(before.size() == after.size());
  for (size_t i = 0; i < before.size(); ++i) {
    CHECK(before[i].name == after[i].name);
    if (before[i].name == "world.xml") continue;
    CHECK(before[i].crc32 == after[i].crc32);
    CHECK(before[i].compressed_size == after[i].compressed_size);
  }
  const auto xml = save::read_member(get(d.file("w.save")), "world.xml", uint64_t(1) << 30);
  CHECK(world_xml::read_checksums(std::string(xml.begin(), xml.end())) == std::vector<int64_t>{sum(b0)});
  stationeers::ChecksumJob c;
  c.input = d.file("w.save");
  c.base_dir = d.path.string();
  CHECK(stationeers::run_checksums(c).agree());
}

TEST_CASE("checksum refuses missing base files, bad entry counts and damaged base files", "[checksum_write]") {
  TempDir d;
  put(d.file("world.xml"), world_with({"<int>0</int>"}));
  stationeers::ChecksumJob j;
  j.input = d.file("world.xml");
  auto e = thrown_error([&] { stationeers::run_checksums(j); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Usage);
  CHECK(e->has_hint("base-dir"));
  CHECK_THAT(e->what(), Catch::Contains("no Terrain{i}.dat base files"));

  put(d.file("world.xml"), world_with({"<int>0</int>", "<int>0</int>"}));
  put(d.file("Terrain0.dat"), terrain_base::encode(10, kUnmod));
  CHECK_THROWS_WITH(stationeers::run_checksums(j), Catch::Contains("has 2 entries, not one per base file"));
  put(d.file("world.xml"), "<WorldData/>");
  CHECK_THROWS_WITH(stationeers::run_checksums(j), Catch::Contains("no <TerrainChunkChecksums> entries"));

  // A base file whose own checksum is wrong: reported by a check, refused by an update.
  put(d.file("world.xml"), world_with({"<int>0</int>"}));
  put(d.file("Terrain0.dat"), terrain_base::gzip(Bytes{0x0a, 0, 0, 0, 0x01, 0, 0, 9, 9, 9, 9}));
  const auto r = stationeers::run_checksums(j);
  CHECK(r.damaged == 1);
  CHECK_FALSE(r.agree());
  j.update = true;
  j.output = d.file("new.xml");
  CHECK_THROWS_WITH(stationeers::run_checksums(j), Catch::Contains("Terrain0.dat: base file's own checksum does not match its nodes"));
  CHECK_FALSE(io::exists(d.file("new.xml")));

  put(d.file("Terrain0.dat"), Bytes{'n', 'o', 't', ' ', 'g', 'z'});
  j.update = false;
  CHECK_THROWS_WITH(stationeers::run_checksums(j), Catch::Contains("Terrain0.dat: offset 0: not a gzip stream"));
}

TEST_CASE("base write round trips a base file byte for byte and corrects a wrong checksum", "[checksum_write]") {
  TempDir d;
  const Bytes nodes = cat({Bytes{0x00}, block_nodes(1), kUnmod, kUnmod, block_nodes(7), kUnmod, kUnmod, kUnmod, kUnmod});
  for (int level : {1, 6, 9}) {
    put(d.file("in.dat"), terrain_base::encode(10, nodes, level));
    stationeers::BaseWriteJob j;
    j.input = d.file("in.dat");
    j.output = d.file("out.dat");
    j.out.force = true;
    const auto r = stationeers::run_base_write(j);
    CHECK(r.from == "base");
    CHECK(r.style_matched);
    CHECK(r.level == level);
    REQUIRE(r.identical);
    CHECK(*r.identical);
    CHECK(get(d.file("out.dat")) == get(d.file("in.dat")));
  }
  // Wrong stored checksum: the output carries the right one, in the input's style.
  Bytes raw = cat({i32(10), nodes, i32(12345)});
  put(d.file("bad.dat"), terrain_base::gzip(raw, 9));
  stationeers::BaseWriteJob j;
  j.input = d.file("bad.dat");
  j.output = d.file("fixed.dat");
  const auto r = stationeers::run_base_write(j);
  CHECK(r.input_checksum == 12345);
  CHECK(r.checksum == sum(nodes));
  CHECK(r.level == 9);
  CHECK_FALSE(*r.identical);
  const auto f = terrain_base::decode(get(d.file("fixed.dat")));
  CHECK(f.checksum_ok());
  CHECK(Bytes(f.nodes().begin(), f.nodes().end()) == nodes);
}

TEST_CASE("base write takes a terrain.dat's or a raw node stream and refuses bad ones", "[checksum_write]") {
  TempDir d;
  const Bytes nodes = block_nodes(3);
  put(d.file("t.dat"), dat(10, nodes, 1, vein(1, 2, 3, 7, 0)));
  stationeers::BaseWriteJob j;
  j.input = d.file("t.dat");
  j.output = d.file("Terrain0.dat");
  const auto r = stationeers::run_base_write(j);
  CHECK(r.from == "terrain.dat");
  CHECK(r.veins_dropped == 1);
  CHECK(get(d.file("Terrain0.dat")) == terrain_base::encode(10, nodes));

  put(d.file("n.raw"), nodes);
  j.input = d.file("n.raw");
  j.output = d.file("n.dat");
  j.from = stationeers::NodeSource::Nodes;
  CHECK_THROWS_WITH(stationeers::run_base_write(j), Catch::Contains("needs its tree depth"));
  j.depth = 10;
  stationeers::run_base_write(j);
  CHECK(get(d.file("n.dat")) == terrain_base::encode(10, nodes));
  // An existing output is refused without force; extra bytes and a bad stream are data errors.
  auto e = thrown_error([&] { stationeers::run_base_write(j); });
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Usage);
  j.out.force = true;
  put(d.file("n.raw"), cat({nodes, Bytes{0}}));
  CHECK_THROWS_WITH(stationeers::run_base_write(j), Catch::Contains("n.raw: offset 25: extra bytes after the node stream"));
  put(d.file("n.raw"), Bytes{0x00, 0x01});
  CHECK_THROWS_AS(stationeers::run_base_write(j), Error);
  CHECK(get(d.file("n.dat")) == terrain_base::encode(10, nodes));  // untouched
}
