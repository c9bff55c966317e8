// Synthetic deltas: features are classified against each octree node (outside, uniform
// core, partial) and the tree is split only where a node is partial, as the game's own
// writer leaves it. A splitmix64 stream makes the output identical on every platform.
#include "lib/octree/octree_synth.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lib/core/error.hpp"
#include "lib/octree/octree.hpp"
#include "lib/octree/octree_reset.hpp"

namespace voxkit::octree {
namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
  double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

enum class Cls { Outside, Core, Partial };

struct Feature {
  enum Kind { Tunnel, PadAir, PadSolid } kind;
  double a[3], b[3], r;  // tunnel segment (octree coordinates) and radius
  Box3i box;             // pads (octree coordinates)
};

double seg_dist(const Feature& f, const double p[3]) {
  double ab[3], ap[3], dd = 0, t = 0;
  for (int k = 0; k < 3; ++k) {
    ab[k] = f.b[k] - f.a[k];
    ap[k] = p[k] - f.a[k];
    dd += ab[k] * ab[k];
    t += ab[k] * ap[k];
  }
  t = dd > 0 ? std::clamp(t / dd, 0.0, 1.0) : 0.0;
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    const double q = ap[k] - t * ab[k];
    s += q * q;
  }
  return std::sqrt(s);
}

Cls classify(const Feature& f, const Box3i& nb, int64_t size) {
  if (f.kind == Feature::Tunnel) {
    const double c[3] = {nb.min[0] + (size - 1) * 0.5, nb.min[1] + (size - 1) * 0.5,
                         nb.min[2] + (size - 1) * 0.5};
    const double h = double(size - 1) * 0.8660254037844386;
    const double dist = seg_dist(f, c);
    if (dist - h > f.r + 1) return Cls::Outside;
    if (dist + h <= f.r - 1) return Cls::Core;
    return Cls::Partial;
  }
  for (int k = 0; k < 3; ++k)
    if (nb.max[k] < f.box.min[k] || nb.min[k] > f.box.max[k]) return Cls::Outside;
  if (f.box.contains(nb.min) && f.box.contains(nb.max)) return Cls::Core;
  return Cls::Partial;
}

struct Builder {
  const std::vector<Feature>& features;
  int md, top;
  std::vector<uint8_t>& out;
  std::vector<std::vector<uint32_t>> lists;  // candidate features per depth

  // Emits the node; returns whether it is modified.
  bool node(int d, const Vec3i& pos, const std::vector<uint32_t>& cand) {
    const int64_t size = int64_t(1) << (md - d);
    const Box3i nb{pos, {pos[0] + size - 1, pos[1] + size - 1, pos[2] + size - 1}};
    auto& touch = lists[size_t(d)];
    touch.clear();
    bool air_core = false, solid_core = true;
    for (uint32_t i : cand) {
      const Feature& f = features[i];
      const Cls c = classify(f, nb, size);
      if (c == Cls::Outside) continue;
      touch.push_back(i);
      if (c == Cls::Core && f.kind != Feature::PadSolid) air_core = true;
      if (!(c == Cls::Core && f.kind == Feature::PadSolid)) solid_core = false;
    }
    if (d >= top) {
      const uint8_t* leaf = nullptr;
      static const uint8_t kUnmod[3] = {kLeaf, 0, 0}, kAir[3] = {kLeaf | kModified, 0, 0},
                           kSolid[3] = {kLeaf | kModified, 255, 2};
      if (touch.empty()) leaf = kUnmod;
      else if (air_core) leaf = kAir;
      else if (solid_core) leaf = kSolid;
      if (leaf) {
        out.insert(out.end(), leaf, leaf + 3);
        return leaf != kUnmod;
      }
      if (d == md) {
        out.push_back(kLeaf | kModified);
        out.push_back(voxel_density(pos, touch));
        out.push_back(2);  // Dirt
        return true;
      }
    }
    const size_t flag_at = out.size();
    out.push_back(0);
    bool any = false;
    const int64_t half = size / 2;
    for (int i = 0; i < 8; ++i) {
      const Vec3i cp{pos[0] + ((i & 1) ? half : 0), pos[1] + ((i & 2) ? half : 0),
                     pos[2] + ((i & 4) ? half : 0)};
      any |= node(d + 1, cp, touch);  // children fill lists[d + 1] only
    }
    if (any) out[flag_at] = kModified;
    return any;
  }

  // A rim voxel: the least density any feature leaves there (tunnels grade from air at
  // r - 1 to solid at r + 1).
  uint8_t voxel_density(const Vec3i& pos, const std::vector<uint32_t>& touch) const {
    const double p[3] = {double(pos[0]), double(pos[1]), double(pos[2])};
    double dens = 255;
    for (uint32_t i : touch) {
      const Feature& f = features[i];
      if (f.kind == Feature::PadAir) dens = 0;
      if (f.kind != Feature::Tunnel) continue;
      const double t = std::clamp((seg_dist(f, p) - (f.r - 1)) / 2.0, 0.0, 1.0);
      dens = std::min(dens, std::round(t * 255.0));
    }
    return uint8_t(dens);
  }
};

}  // namespace

SynthResult synthesize(const SynthOptions& o) {
  if (o.max_depth < 4 || o.max_depth > 16) throw_usage("synth maxDepth must be 4..16");
  Rng rng{0x5eed0000ull ^ (uint64_t(o.seed) << 32 | o.seed)};
  const int64_t size = int64_t(1) << o.max_depth;
  const int64_t origin = size / 2;
  const int64_t ground = std::min<int64_t>(size / 2, 512);
  const int64_t span = std::max<int64_t>(size * 3 / 10, 16);  // features within +-span of the centre
  std::vector<Feature> features;
  SynthResult res;

  for (uint32_t i = 0; i < o.pads; ++i) {
    const int64_t w = rng.range(48, 160), dpt = rng.range(48, 160);
    const int64_t x0 = origin + rng.range(-span, span - w), z0 = origin + rng.range(-span, span - dpt);
    const int64_t h = ground + rng.range(-16, 16);
    Feature air{Feature::PadAir, {}, {}, 0, {{x0, h, z0}, {x0 + w - 1, h + 23, z0 + dpt - 1}}};
    Feature solid{Feature::PadSolid, {}, {}, 0, {{x0, h - 8, z0}, {x0 + w - 1, h - 1, z0 + dpt - 1}}};
    features.push_back(air);
    features.push_back(solid);
    res.pads.push_back({{x0 - origin, h - 8, z0 - origin}, {x0 + w - 1 - origin, h + 23, z0 + dpt - 1 - origin}});
    // Rooms on the pad: boxes of 2-voxel cells, stored at 10x world scale.
    const int64_t rooms = rng.range(1, 3);
    for (int64_t r = 0; r < rooms; ++r) {
      const int64_t cw = rng.range(3, 8), cd = rng.range(3, 8), ch = rng.range(2, 3);
      const int64_t rx = x0 - origin + rng.range(0, std::max<int64_t>(0, w - 2 * cw - 1));
      const int64_t rz = z0 - origin + rng.range(0, std::max<int64_t>(0, dpt - 2 * cd - 1));
      Room room;
      for (int64_t cz = 0; cz < cd; ++cz)
        for (int64_t cy = 0; cy < ch; ++cy)
          for (int64_t cx = 0; cx < cw; ++cx)
            room.cells.push_back({(rx + 2 * cx) * 10, (h + 2 * cy) * 10, (rz + 2 * cz) * 10});
      res.rooms.push_back(std::move(room));
    }
  }
  double px = double(origin), py = double(ground - 20), pz = double(origin);
  for (uint32_t i = 0; i < o.tunnels; ++i) {
    if (i == 0 || rng.unit() < 0.3) {  // a new network
      px = double(origin + rng.range(-span, span));
      pz = double(origin + rng.range(-span, span));
      py = double(ground - rng.range(4, 64));
    }
    const double len = double(rng.range(64, 512));
    const double yaw = rng.unit() * 6.283185307179586, pitch = (rng.unit() - 0.6) * 0.5;
    Feature t{Feature::Tunnel, {px, py, pz}, {}, double(rng.range(2, 5)), {}};
    t.b[0] = std::clamp(px + len * std::cos(yaw) * std::cos(pitch), 8.0, double(size - 9));
    t.b[1] = std::clamp(py + len * std::sin(pitch), 8.0, double(size - 9));
    t.b[2] = std::clamp(pz + len * std::sin(yaw) * std::cos(pitch), 8.0, double(size - 9));
    features.push_back(t);
    px = t.b[0];
    py = t.b[1];
    pz = t.b[2];
  }

  std::vector<uint32_t> all(features.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  put_i32(res.terrain_dat, o.max_depth);
  Builder b{features, o.max_depth, top_levels(o.max_depth), res.terrain_dat,
            std::vector<std::vector<uint32_t>>(size_t(o.max_depth) + 1)};
  b.node(0, {0, 0, 0}, all);

  put_i32(res.terrain_dat, int32_t(o.veins));
  for (uint32_t i = 0; i < o.veins; ++i) {
    const int64_t wx = rng.range(-span, span), wz = rng.range(-span, span);
    const int64_t wy = ground - rng.range(8, std::min<int64_t>(ground, 400));
    const int16_t hdr[6] = {int16_t(wx), int16_t(wy), int16_t(wz), int16_t(wx >> 4),
                            int16_t(wy >> 4), int16_t(wz >> 4)};
    for (int16_t v : hdr) {
      res.terrain_dat.push_back(uint8_t(uint16_t(v)));
      res.terrain_dat.push_back(uint8_t(uint16_t(v) >> 8));
    }
    put_i32(res.terrain_dat, int32_t(uint32_t(rng.next())));
    const uint8_t n = uint8_t(rng.range(1, 60));
    res.terrain_dat.push_back(n);
    for (uint8_t m = 0; m < n; ++m) {
      res.terrain_dat.push_back(uint8_t(127 + rng.range(-12, 12)));
      res.terrain_dat.push_back(uint8_t(127 + rng.range(-12, 12)));
      res.terrain_dat.push_back(uint8_t(127 + rng.range(-12, 12)));
      res.terrain_dat.push_back(m == 0 ? 255 : uint8_t(rng.range(0, m - 1)));
      res.terrain_dat.push_back(uint8_t(rng.range(0, 1)));
    }
  }
  return res;
}

std::string synth_world_xml(const std::vector<Room>& rooms, size_t checksums) {
  std::string x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<WorldData>\n";
  x += "  <Things>\n    <ThingSaveData>\n      <CustomName>Base&#xB;North</CustomName>\n"
       "    </ThingSaveData>\n  </Things>\n  <Rooms>\n";
  int64_t id = 1;
  for (const auto& room : rooms) {
    x += "    <Room>\n      <RoomId>" + std::to_string(id++) + "</RoomId>\n      <Grids>\n";
    for (const auto& c : room.cells) {
      x += "        <Grid>\n          <x>" + std::to_string(c.x) + "</x>\n          <y>" +
           std::to_string(c.y) + "</y>\n          <z>" + std::to_string(c.z) +
           "</z>\n        </Grid>\n";
    }
    x += "      </Grids>\n    </Room>\n";
  }
  x += "  </Rooms>\n  <TerrainChunkChecksums>\n";
  for (size_t i = 0; i < checksums; ++i) x += "    <int>0</int>\n";
  x += "  </TerrainChunkChecksums>\n</WorldData>\n";
  return x;
}

}  // namespace voxkit::octree
