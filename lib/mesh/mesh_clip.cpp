// Sutherland-Hodgman clipping of triangle meshes against the four vertical planes of a rectangle
// (I. Sutherland, G. Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974).
#include "lib/mesh/mesh_clip.hpp"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace voxkit {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// The working vertex list: the input's vertices, then the ones the cuts create.
struct Work {
  Mesh m;
  bool has_n = false, has_c = false, has_uv = false;
  std::array<double, 4> plane{};  // min_x, max_x, min_z, max_z

  // Signed distance of vertex v to plane p, positive inside.
  double dist(uint32_t v, int p) const {
    const auto& q = m.positions[v];
    switch (p) {
      case 0: return double(q[0]) - plane[0];
      case 1: return plane[1] - double(q[0]);
      case 2: return double(q[2]) - plane[2];
      default: return plane[3] - double(q[2]);
    }
  }
};

template <size_t N>
std::array<float, N> lerp(const std::array<float, N>& a, const std::array<float, N>& b, double t) {
  std::array<float, N> r;
  for (size_t i = 0; i < N; ++i) r[i] = float(double(a[i]) + t * (double(b[i]) - double(a[i])));
  return r;
}

struct CutKey {
  uint32_t a, b;
  int plane;
  bool operator==(const CutKey&) const = default;
};
struct CutHash {
  size_t operator()(const CutKey& k) const {
    uint64_t h = (uint64_t(k.a) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(k.b) + 0x632BE59BD9B4E019ull);
    return size_t(h ^ (h >> 29) ^ uint64_t(k.plane));
  }
};

class Clipper {
 public:
  Clipper(const Mesh& in, const ClipRect& r) {
    w_.m.positions = in.positions;
    w_.m.normals = in.normals;
    w_.m.colors = in.colors;
    w_.m.uv0 = in.uv0;
    w_.has_n = !in.normals.empty();
    w_.has_c = !in.colors.empty();
    w_.has_uv = !in.uv0.empty();
    w_.plane = {r.min_x, r.max_x, r.min_z, r.max_z};
  }

  // Clips one triangle and appends the surviving triangles to `out`.
  void triangle(const uint32_t* t, std::vector<uint32_t>& out) {
    bool inside = true;
    for (int p = 0; p < 4; ++p) {
      int in_count = 0;
      for (int k = 0; k < 3; ++k) in_count += w_.dist(t[k], p) >= 0;
      if (in_count == 0) return;  // wholly outside one plane
      inside = inside && in_count == 3;
    }
    if (inside) {
      out.insert(out.end(), t, t + 3);
      return;
    }
    poly_.assign(t, t + 3);
    for (int p = 0; p < 4 && poly_.size() >= 3; ++p) clip(p);
    for (size_t i = 1; i + 1 < poly_.size(); ++i) {
      uint32_t a = poly_[0], b = poly_[i], c = poly_[i + 1];
      if (!degenerate(a, b, c)) out.insert(out.end(), {a, b, c});
    }
  }

  Mesh& work() { return w_.m; }
  bool has_n() const { return w_.has_n; }
  bool has_c() const { return w_.has_c; }
  bool has_uv() const { return w_.has_uv; }

 private:
  void clip(int p) {
    next_.clear();
    size_t n = poly_.size();
    for (size_t i = 0; i < n; ++i) {
      uint32_t s = poly_[(i + n - 1) % n], e = poly_[i];
      double ds = w_.dist(s, p), de = w_.dist(e, p);
      if (de >= 0) {
        // A point exactly on the plane is its own cut point: no duplicate vertex.
        if (ds < 0 && de > 0) next_.push_back(cut(s, e, p));
        next_.push_back(e);
      } else if (ds > 0) {
        next_.push_back(cut(s, e, p));
      }
    }
    poly_.swap(next_);
  }

  // The vertex where edge (a, b) crosses plane p, made once per edge and plane. The
  // endpoints are interpolated in position order, so both triangles of an edge, and the
  // copies of a border edge in two chunk meshes, compute the same bits.
  uint32_t cut(uint32_t a, uint32_t b, int p) {
    if (a > b) std::swap(a, b);
    CutKey key{a, b, p};
    auto it = cuts_.find(key);
    if (it != cuts_.end()) return it->second;
    if (w_.m.positions[b] < w_.m.positions[a]) std::swap(a, b);
    double da = w_.dist(a, p), db = w_.dist(b, p);
    double t = da / (da - db);
    Mesh& m = w_.m;
    auto pos = lerp(m.positions[a], m.positions[b], t);
    pos[p < 2 ? 0 : 2] = float(w_.plane[p]);  // exactly on the plane
    m.positions.push_back(pos);
    if (w_.has_n) {
      auto n = lerp(m.normals[a], m.normals[b], t);
      double len = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]);
      if (len > 0)
        for (auto& c : n) c = float(c / len);
      m.normals.push_back(n);
    }
    if (w_.has_c) m.colors.push_back(lerp(m.colors[a], m.colors[b], t));
    if (w_.has_uv) m.uv0.push_back(lerp(m.uv0[a], m.uv0[b], t));
    uint32_t id = uint32_t(m.positions.size() - 1);
    cuts_.emplace(key, id);
    return id;
  }

  // Repeated vertices, or an area that is zero to float precision (the sine of the angle
  // between the longest edges below 1e-6).
  bool degenerate(uint32_t a, uint32_t b, uint32_t c) const {
    if (a == b || b == c || a == c) return true;
    const auto& pa = w_.m.positions[a];
    const auto& pb = w_.m.positions[b];
    const auto& pc = w_.m.positions[c];
    double u[3], v[3], x[3];
    for (int i = 0; i < 3; ++i) {
      u[i] = double(pb[i]) - pa[i];
      v[i] = double(pc[i]) - pa[i];
    }
    x[0] = u[1] * v[2] - u[2] * v[1];
    x[1] = u[2] * v[0] - u[0] * v[2];
    x[2] = u[0] * v[1] - u[1] * v[0];
    double cross = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    double lu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    double lv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    return cross <= 1e-6 * std::max(lu, lv);
  }

  Work w_;
  std::vector<uint32_t> poly_, next_;
  std::unordered_map<CutKey, uint32_t, CutHash> cuts_;
};

}  // namespace

Mesh clip_mesh(const Mesh& mesh, const ClipRect& rect) {
  Clipper clipper(mesh, rect);
  std::vector<uint32_t> tris;
  tris.reserve(mesh.indices.size());
  for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) clipper.triangle(&mesh.indices[i], tris);

  // Keep only referenced vertices, in working order.
  const Mesh& w = clipper.work();
  std::vector<uint32_t> remap(w.positions.size(), kNone);
  for (uint32_t v : tris) remap[v] = 0;
  Mesh out;
  for (uint32_t v = 0; v < remap.size(); ++v) {
    if (remap[v] == kNone) continue;
    remap[v] = uint32_t(out.positions.size());
    out.positions.push_back(w.positions[v]);
    if (clipper.has_n()) out.normals.push_back(w.normals[v]);
    if (clipper.has_c()) out.colors.push_back(w.colors[v]);
    if (clipper.has_uv()) out.uv0.push_back(w.uv0[v]);
  }
  out.indices.reserve(tris.size());
  for (uint32_t v : tris) out.indices.push_back(remap[v]);
  return out;
}

}  // namespace voxkit
