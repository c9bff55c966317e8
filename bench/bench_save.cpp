// Benchmark: whole .save rewrite (terrain.dat and world.xml replaced, every other member
// copied raw) against copying the file, and world.xml reading speed. Seeded synthetic data:
// a maxDepth 12 terrain.dat delta of >= 50 MB (worm tunnels dug through the world) and a
// ~20 MB world.xml. Usage: bench_save [--keep] [--quick] [DIR] (files go to DIR/voxkit-bench-save;
// default DIR /tmp).
#include <fcntl.h>
#include <unistd.h>

#include <tbb/global_control.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/save_synth.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_reset.hpp"
#include "lib/octree/octree_shapes.hpp"

using namespace voxkit;
using Clock = std::chrono::steady_clock;
using Bytes = std::vector<uint8_t>;

namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// A capsule in octree voxel coordinates: a tunnel segment of radius r.
struct Capsule {
  double a[3], b[3], r;
};

double box_capsule_distance(const Capsule& c, const double lo[3], double size) {
  // Distance from the capsule's axis (sampled at its nearest point to the box centre) to the box.
  double ctr[3], ab[3], t = 0, len2 = 0;
  for (int i = 0; i < 3; ++i) {
    ctr[i] = lo[i] + size / 2;
    ab[i] = c.b[i] - c.a[i];
    len2 += ab[i] * ab[i];
  }
  for (int i = 0; i < 3; ++i) t += (ctr[i] - c.a[i]) * ab[i];
  t = len2 > 0 ? std::clamp(t / len2, 0.0, 1.0) : 0;
  double d2 = 0;
  for (int i = 0; i < 3; ++i) {
    double p = c.a[i] + t * ab[i];
    double q = std::clamp(p, lo[i], lo[i] + size);
    d2 += (p - q) * (p - q);
  }
  return std::sqrt(d2) - c.r;
}

double max_corner_distance(const Capsule& c, const double lo[3], double size) {
  double worst = 0;
  for (int k = 0; k < 8; ++k) {
    double p[3] = {lo[0] + (k & 1 ? size : 0), lo[1] + (k & 2 ? size : 0),
                   lo[2] + (k & 4 ? size : 0)};
    double ab[3], t = 0, len2 = 0;
    for (int i = 0; i < 3; ++i) {
      ab[i] = c.b[i] - c.a[i];
      len2 += ab[i] * ab[i];
      t += (p[i] - c.a[i]) * ab[i];
    }
    t = len2 > 0 ? std::clamp(t / len2, 0.0, 1.0) : 0;
    double d2 = 0;
    for (int i = 0; i < 3; ++i) d2 += std::pow(p[i] - (c.a[i] + t * ab[i]), 2);
    worst = std::max(worst, std::sqrt(d2));
  }
  return worst - c.r;
}

void emit(Bytes& out, int depth, int max_depth, const double lo[3], double size,
          const std::vector<const Capsule*>& near) {
  std::vector<const Capsule*> here;
  for (const Capsule* c : near) {
    double d = box_capsule_distance(*c, lo, size);
    if (d > 0.5) continue;
    if (max_corner_distance(*c, lo, size) < 0) {  // wholly dug out
      out.insert(out.end(), {0x03, 0x00, 0x00});
      return;
    }
    here.push_back(c);
  }
  const bool keep_split = depth < max_depth - 10;  // the game keeps these levels split
  if (here.empty() && !keep_split) {
    out.insert(out.end(), {0x01, 0x00, 0x00});
    return;
  }
  if (depth == max_depth) {
    double ctr[3] = {lo[0] + 0.5, lo[1] + 0.5, lo[2] + 0.5};
    double d = 1e9;
    for (const Capsule* c : here) d = std::min(d, box_capsule_distance(*c, ctr, 0));
    uint8_t density = uint8_t(std::clamp(128.0 + d * 127.0, 0.0, 255.0));
    out.insert(out.end(), {0x03, density, uint8_t(d > 0.3 ? 1 : 2)});
    return;
  }
  out.push_back(here.empty() ? 0x00 : 0x02);
  const double half = size / 2;
  for (int i = 0; i < 8; ++i) {
    double child[3] = {lo[0] + (i & 1 ? half : 0), lo[1] + (i & 2 ? half : 0),
                       lo[2] + (i & 4 ? half : 0)};
    emit(out, depth + 1, max_depth, child, half, here);
  }
}

// terrain.dat: maxDepth, the node stream, veins.
Bytes synth_terrain(uint64_t target, uint32_t seed) {
  const int max_depth = 12;
  const double world = 4096;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Capsule> caps;
  // Roughly 14 KB of nodes per 40-voxel tunnel segment of radius 4.
  const size_t segments = size_t(double(target) / 14000.0) + 16;
  double p[3] = {2048, 1500, 2048};
  for (size_t i = 0; i < segments; ++i) {
    if (i % 64 == 0) {
      p[0] = 300 + u(rng) * 3400;
      p[1] = 1200 + u(rng) * 600;
      p[2] = 300 + u(rng) * 3400;
    }
    Capsule c;
    double dir[3] = {u(rng) - 0.5, (u(rng) - 0.5) * 0.3, u(rng) - 0.5};
    double n = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]) + 1e-9;
    for (int k = 0; k < 3; ++k) {
      c.a[k] = p[k];
      c.b[k] = std::clamp(p[k] + dir[k] / n * 40, 8.0, world - 8);
      p[k] = c.b[k];
    }
    c.r = 3 + u(rng) * 2;
    caps.push_back(c);
  }
  Bytes out = {uint8_t(max_depth), 0, 0, 0};
  out.reserve(target + target / 4);
  std::vector<const Capsule*> all;
  for (auto& c : caps) all.push_back(&c);
  const double lo[3] = {0, 0, 0};
  emit(out, 0, max_depth, lo, world, all);
  const uint32_t veins = 200;
  for (int s = 0; s < 4; ++s) out.push_back(uint8_t(veins >> (8 * s)));
  for (uint32_t v = 0; v < veins; ++v) {
    for (int k = 0; k < 12; ++k) out.push_back(uint8_t(rng()));
    for (int k = 0; k < 4; ++k) out.push_back(uint8_t(rng()));
    uint8_t n = uint8_t(rng() % 40);
    out.push_back(n);
    for (int k = 0; k < n; ++k) {
      out.insert(out.end(), {uint8_t(127 + rng() % 5), uint8_t(127 + rng() % 5),
                             uint8_t(127 + rng() % 5), uint8_t(k ? k - 1 : 0), 1});
    }
  }
  return out;
}

double copy_file(const std::string& from, const std::string& to, bool sync) {
  auto t = Clock::now();
  Bytes b = io::read_all(from);
  int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  size_t done = 0;
  while (done < b.size()) {
    ssize_t w = ::write(fd, b.data() + done, b.size() - done);
    if (w <= 0) break;
    done += size_t(w);
  }
  if (sync) ::fsync(fd);
  ::close(fd);
  return seconds_since(t);
}

}  // namespace

int main(int argc, char** argv) {
  bool keep = false, quick = false;
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--keep") keep = true;        // leave the synthetic save in DIR
    else if (a == "--quick") quick = true;  // skip the per-level deflate table
    else dir = a;
  }
  dir /= "voxkit-bench-save";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "bench.save").string(), copy = (dir / "copy.save").string();

  auto t0 = Clock::now();
  Bytes terrain = synth_terrain(64u << 20, 12);  // about 55 MB of nodes
  auto rooms = save_synth::synth_rooms(12, 6, 12);
  save_synth::SaveOptions so;
  so.seed = 12;
  so.world_xml_bytes = 20u << 20;
  Bytes save = save_synth::synth_save(terrain, rooms, so);
  io::write_file(path, save, {.force = true});
  std::printf("synthetic save: terrain.dat %.1f MB, world.xml ~%.1f MB, .save %.1f MB "
              "(made in %.1f s) in %s\n",
              double(terrain.size()) / 1e6, double(so.world_xml_bytes) / 1e6,
              double(save.size()) / 1e6, seconds_since(t0), dir.c_str());

  // world.xml reading.
  Bytes world = save::read_member(path, "world.xml", 1u << 30);
  std::string_view doc(reinterpret_cast<const char*>(world.data()), world.size());
  double best_rooms = 1e9, best_sums = 1e9, best_replace = 1e9;
  size_t cells = 0;
  std::string zeroed;
  for (int rep = 0; rep < 5; ++rep) {
    auto t = Clock::now();
    auto r = world_xml::read_rooms(doc);
    best_rooms = std::min(best_rooms, seconds_since(t));
    cells = 0;
    for (auto& x : r) cells += x.cells.size();
    t = Clock::now();
    auto c = world_xml::read_checksums(doc);
    best_sums = std::min(best_sums, seconds_since(t));
    t = Clock::now();
    zeroed = world_xml::replace_checksums(doc, {});
    best_replace = std::min(best_replace, seconds_since(t));
  }
  const double mb = double(world.size()) / 1e6;
  std::printf("world.xml %.1f MB, %zu rooms, %zu cells: read_rooms %.0f MB/s, read_checksums "
              "%.0f MB/s, replace_checksums %.0f MB/s\n",
              mb, rooms.size(), cells, mb / best_rooms, mb / best_sums, mb / best_replace);

  auto t = Clock::now();
  Bytes back = save::read_member(path, "terrain.dat", 1u << 30);
  std::printf("read terrain.dat (inflate): %.0f MB/s\n",
              double(back.size()) / 1e6 / seconds_since(t));

  // Deflate speed of the members a reset replaces, per level and thread count.
  for (int level : {1, 6}) {
    for (int threads : {1, 0}) {
      if (quick) break;
      std::unique_ptr<tbb::global_control> gc;
      if (threads) {
        gc = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                   size_t(threads));
      }
      double bt = 1e9, bw = 1e9;
      size_t zt = 0, zw = 0;
      for (int rep = 0; rep < 2; ++rep) {
        auto t2 = Clock::now();
        zt = zip::deflate_raw(terrain, level).data.size();
        bt = std::min(bt, seconds_since(t2));
        t2 = Clock::now();
        zw = zip::deflate_raw(world, level).data.size();
        bw = std::min(bw, seconds_since(t2));
      }
      std::printf("deflate level %d, %s: terrain.dat %.0f MB/s (ratio %.1f), world.xml %.0f MB/s "
                  "(ratio %.1f)\n",
                  level, threads ? "1 thread" : "all threads", double(terrain.size()) / 1e6 / bt,
                  double(terrain.size()) / double(zt), double(world.size()) / 1e6 / bw,
                  double(world.size()) / double(zw));
    }
  }

  // A reset-like change: a tenth of the density bytes differ.
  Bytes terrain2 = terrain;
  for (size_t i = 4; i + 3 < terrain2.size(); i += 30) terrain2[i] ^= 0x40;
  Bytes world2(zeroed.begin(), zeroed.end());

  double copy_plain = 1e9, copy_sync = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    copy_plain = std::min(copy_plain, copy_file(path, copy, false));
    copy_sync = std::min(copy_sync, copy_file(path, copy, true));
  }
  std::printf("copy of the .save: %.3f s without fsync, %.3f s with fsync\n", copy_plain,
              copy_sync);
  // The container alone: a small member replaced, every other byte copied raw.
  {
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      io::write_file(path, save, {.force = true});
      std::filesystem::remove(path + ".bak");
      std::string meta = "<WorldMetaData><WorldName>Bench</WorldName></WorldMetaData>\n";
      auto t1 = Clock::now();
      save::rewrite(path, {{"world_meta.xml", Bytes(meta.begin(), meta.end())}}, {});
      best = std::min(best, seconds_since(t1));
    }
    std::printf("rewrite replacing world_meta.xml only (backup, fsync): %.3f s = %.2fx the copy "
                "with fsync, %.2fx without\n",
                best, best / copy_sync, best / copy_plain);
  }
  for (int level : {1, 6}) {
    double best = 1e9;
    save::RewriteResult res;
    for (int rep = 0; rep < (level == 1 ? 3 : 1); ++rep) {
      io::write_file(path, save, {.force = true});
      std::filesystem::remove(path + ".bak");
      save::RewriteOptions o;
      o.level = level;
      save::MemberOrigin ot, ow;
      const Bytes t_old = save::read_member(path, "terrain.dat", 1u << 30, &ot);
      const Bytes w_old = save::read_member(path, "world.xml", 1u << 30, &ow);
      o.previous["terrain.dat"] = {&ot, t_old, {}};
      o.previous["world.xml"] = {&ow, w_old, {}};
      auto t1 = Clock::now();
      res = save::rewrite(path, {{"terrain.dat", terrain2}, {"world.xml", world2}}, o);
      best = std::min(best, seconds_since(t1));
    }
    std::printf("rewrite, every 30th terrain.dat byte changed + world.xml checksums zeroed "
                "(level %d, backup, fsync): %.3f s = %.2fx the copy with fsync, %.2fx without; "
                "%.1f -> %.1f MB\n",
                level, best, best / copy_sync, best / copy_plain,
                double(res.bytes_before) / 1e6, double(res.bytes_after) / 1e6);
  }

  // Real resets, the steps `voxkit octree reset SAVE --in-place` takes: read both members
  // (recording their deflate blocks), parse and reset terrain.dat, zero the checksums, and
  // rewrite the save (backup, fsync) reusing the unchanged compressed blocks.
  const std::vector<octree::Room> save_rooms = world_xml::read_rooms(doc);
  struct Case {
    const char* name;
    octree::Region region;
  };
  std::vector<Case> cases(2);
  cases[0].name = "keep rooms (margin 3)";
  for (const auto& b : octree::room_boxes(save_rooms, 3)) {
    cases[0].region.keep.push_back(octree::Shape::make_box(b));
  }
  cases[1].name = "drop one 512 m box";
  cases[1].region.drop.push_back(octree::Shape::make_box({{-256, 1200, -256}, {255, 1711, 255}}));
  for (const Case& c : cases) {
    double t_read = 1e9, t_reset = 1e9, t_write = 1e9, t_all = 1e9;
    save::RewriteResult res;
    octree::ResetStats rs;
    for (int rep = 0; rep < 3; ++rep) {
      io::write_file(path, save, {.force = true});
      std::filesystem::remove(path + ".bak");
      auto t1 = Clock::now();
      save::MemberOrigin ot, ow;
      Bytes t_old, w_old;
      tbb::parallel_invoke([&] { t_old = save::read_member(path, "terrain.dat", 1u << 30, &ot); },
                           [&] { w_old = save::read_member(path, "world.xml", 1u << 30, &ow); });
      auto t2 = Clock::now();
      octree::ResetOptions ro;
      ro.region = c.region;
      std::vector<octree::CopyRun> copies;
      ro.copies = &copies;
      Bytes t_new = octree::reset(octree::parse(t_old), ro, &rs);
      const std::string_view w_doc(reinterpret_cast<const char*>(w_old.data()), w_old.size());
      const std::string w_new = world_xml::replace_checksums(w_doc, {});
      std::map<std::string, Bytes> replace;
      replace["terrain.dat"] = std::move(t_new);
      replace["world.xml"] = Bytes(w_new.begin(), w_new.end());
      auto t3 = Clock::now();
      save::RewriteOptions o;
      o.previous["terrain.dat"] = {&ot, t_old, {}};
      for (const auto& r : copies) o.previous["terrain.dat"].runs.push_back({r.to, r.from, r.len});
      o.previous["world.xml"] = {&ow, w_old, {}};
      res = save::rewrite(path, replace, o);
      auto t4 = Clock::now();
      t_read = std::min(t_read, std::chrono::duration<double>(t2 - t1).count());
      t_reset = std::min(t_reset, std::chrono::duration<double>(t3 - t2).count());
      t_write = std::min(t_write, std::chrono::duration<double>(t4 - t3).count());
      t_all = std::min(t_all, std::chrono::duration<double>(t4 - t1).count());
    }
    uint64_t reused = 0, recompressed = 0;
    for (const auto& m : res.replaced) {
      reused += m.reused;
      recompressed += m.new_size - m.reused;
    }
    std::printf("reset, %s: terrain.dat %.1f -> %.1f MB; read %.3f s, reset %.3f s, rewrite "
                "%.3f s = %.2fx the copy with fsync (%.2fx without); whole reset %.3f s; "
                "%.1f MB of member data reused, %.1f MB compressed again\n",
                c.name, double(rs.bytes_before) / 1e6, double(rs.bytes_after) / 1e6, t_read,
                t_reset, t_write, t_write / copy_sync, t_write / copy_plain, t_all,
                double(reused) / 1e6, double(recompressed) / 1e6);
  }
  if (!keep) std::filesystem::remove_all(dir);
  return 0;
}
