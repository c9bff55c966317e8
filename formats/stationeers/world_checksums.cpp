// world.xml terrain chunk checksums against the Terrain{i}.dat base files: check and update.
#include "formats/stationeers/world_checksums.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>

#include "formats/stationeers/save.hpp"
#include "formats/stationeers/stationeers.hpp"
#include "formats/stationeers/terrain_base.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "lib/core/error.hpp"

namespace voxkit::stationeers {

bool is_block_count(size_t n) {
  for (size_t c = 1; c != 0 && c <= n; c *= 8)
    if (c == n) return true;
  return false;
}

namespace {

namespace fs = std::filesystem;

// The block index of a name "Terrain{i}.dat" (decimal, no sign, no leading zero), or -1.
int64_t block_index(const std::string& name) {
  const std::string pre = "Terrain", post = ".dat";
  if (name.size() <= pre.size() + post.size() || name.compare(0, pre.size(), pre) != 0 ||
      name.compare(name.size() - post.size(), post.size(), post) != 0) {
    return -1;
  }
  const std::string digits = name.substr(pre.size(), name.size() - pre.size() - post.size());
  if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return -1;
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Where the base files come from: a folder, or the members of the save.
struct BaseSource {
  bool from_save = false;
  std::string save_path, save_name, dir;
  std::vector<int64_t> present;  // block indices found, any value

  std::string where(uint32_t i) const {
    const std::string f = terrain_base::file_name(i);
    return from_save ? save_name + " (" + f + ")" : (fs::path(dir) / f).string();
  }
  std::vector<uint8_t> read(uint32_t i) const {
    const std::string f = terrain_base::file_name(i);
    // The gzip file is capped like its inflated contents; decode caps the inflation.
    if (from_save) return with_source(save_name, [&] { return save::read_member(save_path, f, terrain_base::kMaxInflated); });
    return io::read_all((fs::path(dir) / f).string(), terrain_base::kMaxInflated);
  }
};

BaseSource find_bases(const ChecksumJob& j, bool is_save, const std::string& name) {
  BaseSource b;
  if (j.base_dir.empty() && is_save) {
    b.from_save = true;
    b.save_path = j.input;
    b.save_name = name;
    for (const auto& m : with_source(name, [&] { return save::list_members(j.input); })) {
      const int64_t i = block_index(m.name);
      if (i >= 0) b.present.push_back(i);
    }
    if (b.present.empty()) {
      Error e(ErrorKind::Usage, name + " holds no Terrain{i}.dat base files (real saves do not: they "
                                       "ship with the game, in the world's Terrain folder); name the folder "
                                       "that holds them");
      e.set_hint("base-dir");
      throw e;
    }
    return b;
  }
  b.dir = j.base_dir;
  if (b.dir.empty()) {
    if (j.input == "-") {
      throw_usage("a world.xml read from stdin needs the folder of the base files",
                  {{"base-dir", "the folder of the base files"}});
    }
    b.dir = fs::path(j.input).parent_path().string();
    if (b.dir.empty()) b.dir = ".";
  }
  std::error_code ec;
  if (!fs::is_directory(b.dir, ec)) {
    Error e(ErrorKind::Usage, "base file folder " + b.dir + " is not a directory");
    e.set_hint("base-dir");
    throw e;
  }
  for (fs::directory_iterator it(b.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const int64_t i = block_index(it->path().filename().string());
    if (i >= 0) b.present.push_back(i);
  }
  if (ec) throw Error(ErrorKind::Io, "cannot list " + b.dir + ": " + ec.message());
  if (b.present.empty()) {
    Error e(ErrorKind::Usage, "no Terrain{i}.dat base files in " + b.dir + " (a world has at least Terrain0.dat)");
    e.set_hint("base-dir");
    throw e;
  }
  return b;
}

// Reads and decodes the present base files in parallel; a failure names its file, and the
// one reported is the lowest index that failed (the same whatever the thread count).
void read_bases(const BaseSource& b, std::vector<ChunkChecksum>& chunks) {
  std::vector<std::exception_ptr> errors(chunks.size());
  tbb::parallel_for(size_t(0), chunks.size(), [&](size_t k) {
    ChunkChecksum& c = chunks[k];
    if (!c.present) return;
    try {
      const auto gz = b.read(c.index);
      const auto f = with_source(b.where(c.index), [&] {
        if (!terrain_base::looks_gzip(gz)) {
          throw_data("not a gzip stream", 0, "1f 8b",
                     gz.size() < 2 ? std::string("end of file") : hex_byte(gz[0]) + " " + hex_byte(gz[1]));
        }
        return terrain_base::decode(gz, false);
      });
      c.depth = f.depth;
      c.computed = int32_t(f.computed_checksum);
      c.base_stored = f.stored_checksum;
    } catch (...) {
      errors[k] = std::current_exception();
    }
  });
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

ChecksumReport run_checksums(const ChecksumJob& j) {
  ChecksumReport rep;
  const bool is_save = is_save_file(j.input);
  rep.file = io::display_name(j.input);
  rep.kind = is_save ? "save" : "world.xml";
  rep.update = j.update;
  rep.dry_run = j.dry_run;

  // Where an update goes, refused before anything is read.
  std::string target;
  bool in_place = false;
  io::OutputOptions oo = j.out;
  if (j.update) {
    target = !j.output.empty() ? j.output : (is_save || j.in_place) ? j.input : std::string();
    in_place = target == j.input;
    if (in_place) {
      oo.in_place = true;
      oo.backup = j.backup;
    }
    if (!j.dry_run) {
      if (target.empty()) {
        throw_usage("updating a bare world.xml needs a new output or an edit in place",
                    {{"output", "a new output"}, {"in-place", "an edit in place"}});
      }
      // An edit in place checks its backup when it writes: an update with nothing to change
      // writes nothing, so an old backup is no obstacle to it.
      if (!in_place) io::check_output(target, oo);
    }
  }

  std::string xml;
  save::MemberOrigin origin;
  const std::string xml_name = is_save ? rep.file + " (world.xml)" : rep.file;
  if (is_save) {
    const auto bytes = with_source(rep.file, [&] { return save::read_member(j.input, "world.xml", kMaxWorldBytes, &origin); });
    xml.assign(bytes.begin(), bytes.end());
  } else {
    xml = load_world(j.input);
  }
  const auto stored = with_source(xml_name, [&] { return world_xml::read_checksums(xml); });
  if (stored.empty()) {
    Error e(ErrorKind::Data, "no <TerrainChunkChecksums> entries");
    e.set_source(xml_name);
    throw e;
  }
  if (!is_block_count(stored.size())) {
    Error e(ErrorKind::Data, "<TerrainChunkChecksums> has " + std::to_string(stored.size()) +
                                 " entries, not one per base file", std::nullopt, "1, 8, 64 or another power of 8",
            std::to_string(stored.size()));
    e.set_source(xml_name);
    throw e;
  }

  const BaseSource b = find_bases(j, is_save, rep.file);
  rep.base_source = b.from_save ? "save" : "directory";
  rep.base_dir = b.dir;
  std::vector<bool> have(stored.size(), false);
  for (int64_t i : b.present) {
    if (i < int64_t(stored.size())) {
      have[size_t(i)] = true;
    } else {
      rep.ignored.push_back(terrain_base::file_name(uint32_t(i)));
    }
  }
  std::sort(rep.ignored.begin(), rep.ignored.end());
  for (size_t i = 0; i < stored.size(); ++i) {
    ChunkChecksum c;
    c.index = uint32_t(i);
    c.file = terrain_base::file_name(c.index);
    c.present = have[i];
    c.stored = stored[i];
    // A missing file reads as one unmodified leaf with checksum 0 (FORMATS.md).
    c.computed = terrain_base::kMissingChecksum;
    rep.chunks.push_back(c);
  }
  read_bases(b, rep.chunks);
  for (const auto& c : rep.chunks) {
    rep.differ += !c.ok();
    rep.damaged += !c.base_ok();
    rep.missing += !c.present;
  }
  if (!rep.ignored.empty()) {
    rep.warnings.push_back(std::to_string(rep.ignored.size()) + " base file(s) beyond the " +
                           std::to_string(stored.size()) + " entries of world.xml ignored, first " +
                           rep.ignored.front());
  }
  if (!j.update) return rep;

  if (rep.damaged > 0) {
    for (const auto& c : rep.chunks) {
      if (c.base_ok()) continue;
      Error e(ErrorKind::Data,
              "base file's own checksum does not match its nodes; which one the game compares is not known, "
              "so world.xml is not updated (rewrite the base file from its nodes first)",
              std::nullopt, std::to_string(c.computed), std::to_string(c.base_stored));
      e.set_source(b.where(c.index));
      throw e;
    }
  }
  rep.changed = rep.differ;
  std::vector<int64_t> values;
  for (const auto& c : rep.chunks) values.push_back(c.computed);
  if (j.dry_run || (rep.changed == 0 && in_place)) return rep;

  const std::string out_xml = with_source(xml_name, [&] { return world_xml::replace_checksums(xml, values); });
  if (is_save) {
    save::RewriteOptions ro;
    ro.previous["world.xml"] = {&origin, {reinterpret_cast<const uint8_t*>(xml.data()), xml.size()}, {}};
    if (in_place) {
      ro.backup = j.backup.enabled;
      ro.force_backup = j.backup.force;
    } else {
      ro.output = target;
      ro.force = j.out.force;
    }
    const auto res = save::rewrite(j.input, {{"world.xml", std::vector<uint8_t>(out_xml.begin(), out_xml.end())}}, ro);
    rep.written = res.written;
    if (!res.backup.empty()) rep.backup = res.backup;
  } else {
    const std::string bak = io::write_file(
        target, {reinterpret_cast<const uint8_t*>(out_xml.data()), out_xml.size()}, oo);
    rep.written = true;
    if (!bak.empty()) rep.backup = bak;
  }
  rep.output = target == "-" ? std::string("<stdout>") : target;
  return rep;
}

nlohmann::json ChecksumReport::to_json() const {
  auto list = nlohmann::json::array();
  for (const auto& c : chunks) {
    nlohmann::json e{{"index", c.index}, {"file", c.file}, {"present", c.present},
                     {"stored", c.stored}, {"computed", c.computed}, {"ok", c.ok()}};
    if (c.present) {
      e["depth"] = c.depth;
      e["base_stored"] = c.base_stored;
      e["base_ok"] = c.base_ok();
    }
    list.push_back(e);
  }
  nlohmann::json j{{"file", file},
                   {"kind", kind},
                   {"base", {{"source", base_source}, {"dir", base_source == "directory" ? nlohmann::json(base_dir) : nlohmann::json()}}},
                   {"entries", chunks.size()},
                   {"agree", chunks.size() - differ},
                   {"differ", differ},
                   {"missing", missing},
                   {"damaged", damaged},
                   {"ignored", ignored},
                   {"chunks", list}};
  if (update) {
    j["update"] = {{"dry_run", dry_run},
                   {"changed", changed},
                   {"written", written},
                   {"output", output ? nlohmann::json(*output) : nlohmann::json()},
                   {"backup", backup ? nlohmann::json(*backup) : nlohmann::json()}};
  }
  return j;
}

std::string ChecksumReport::to_text() const {
  std::string t;
  auto line = [&t](const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    t += buf;
  };
  line("%s%s: %zu TerrainChunkChecksums against the base files %s\n", dry_run ? "dry run: " : "",
       file.c_str(), chunks.size(), base_source == "save" ? "in the save" : ("in " + base_dir).c_str());
  line("%5s  %-14s %12s %12s\n", "index", "file", "world.xml", "computed");
  for (const auto& c : chunks) {
    std::string note = c.ok() ? "ok" : "DIFFERS";
    if (!c.present) note += " (no file: 0)";
    if (!c.base_ok()) note += "; file's own checksum " + std::to_string(c.base_stored) + " DAMAGED";
    line("%5u  %-14s %12lld %12d  %s\n", c.index, c.file.c_str(), (long long)c.stored, c.computed, note.c_str());
  }
  line("%zu entries: %zu agree, %zu differ", chunks.size(), chunks.size() - differ, differ);
  if (missing) line(", %zu base file(s) missing", missing);
  if (damaged) line(", %zu base file(s) damaged", damaged);
  t += "\n";
  if (update) {
    if (dry_run) {
      line("world.xml: %zu value(s) would be rewritten; nothing written\n", changed);
    } else if (!written) {
      t += "world.xml: already agrees; nothing written\n";
    } else {
      line("world.xml: %zu value(s) rewritten; %s written%s\n", changed, output ? output->c_str() : "",
           backup ? (", backup " + *backup).c_str() : "");
    }
  }
  return t;
}

}  // namespace voxkit::stationeers
